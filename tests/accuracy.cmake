# docs/accuracy.md's verdict table: public reports of a machine, its paging file or swap and how
# a run ended (docs/data/verdict-reports.json), each turned into a what-if machine and judged by
# this build's headroom check (tools/verdict-table.py). Fails when a configuration that crashed
# is called OK (exit 1), or when the doc's table is not what this binary says (exit 2).
# The machines are a Windows recording replayed and a Linux /proc tree, so a native build
# judges both; a cross build would need Wine for every row and is left out.
if(NOT CMAKE_CROSSCOMPILING)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME accuracy.verdict_table
             COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/verdict-table.py
                     --headroom ${HR_BIN} --check)
    set_tests_properties(accuracy.verdict_table PROPERTIES TIMEOUT 300)
  endif()
endif()
