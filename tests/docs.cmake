# Every command example in README.md and docs/*.md is the program's real output: the test runs
# each one again (tools/doc-examples.py, on recorded machines and the sample files) and fails
# with a diff when a page and the program disagree. `python3 tools/doc-examples.py` rewrites
# the pages after a deliberate change of output.
if(NOT CMAKE_CROSSCOMPILING)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME docs.examples COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/doc-examples.py
                                        --check --bin ${HR_BIN})
    set_tests_properties(docs.examples PROPERTIES TIMEOUT 120)
  endif()
endif()
