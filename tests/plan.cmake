# headroom plan / check from the command line (tests/plan_cli.sh). Under a mingw-w64 build the
# Windows binary runs through Wine with the issue's "done when" line.
if(NOT WIN32)
  add_test(NAME cli.plan_check COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plan_cli.sh ${HR_BIN})
  # It checks that plan leaves /proc/swaps alone: not while another test adds swap.
  set_tests_properties(cli.plan_check PROPERTIES RESOURCE_LOCK system_swap)
else()
  add_test(NAME cli.plan_windows
           COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN} plan --ram 16G --vram 8G --workload sdxl --os windows)
  set_tests_properties(cli.plan_windows PROPERTIES
    PASS_REGULAR_EXPRESSION "64 GB fixed \\(initial = maximum = 65536 MB\\)")
endif()
