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

# docs/accuracy.md's table of public data points is computed, not written: the test reruns
# tools/estimate-accuracy.py on the built program and fails when the page and the program
# disagree (not on the accuracy targets, which the table reports).
if(NOT CMAKE_CROSSCOMPILING AND Python3_FOUND)
  add_test(NAME accuracy.estimate_table COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/estimate-accuracy.py
                                                --check --bin ${HR_BIN})
  set_tests_properties(accuracy.estimate_table PROPERTIES TIMEOUT 120)
endif()

# A point's LoRA reaches the estimate: the script applies it in the workflow and gives the
# estimate a file of the stated size to read (tests/accuracy_lora.py).
if(NOT CMAKE_CROSSCOMPILING AND Python3_FOUND)
  add_test(NAME accuracy.estimate_lora COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/accuracy_lora.py ${HR_BIN})
  set_tests_properties(accuracy.estimate_lora PROPERTIES TIMEOUT 120)
endif()
