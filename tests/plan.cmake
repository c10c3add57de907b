# headroom plan / check from the command line (tests/plan_cli.sh). Under a mingw-w64 build the
# Windows binary runs through Wine with the worked example of docs/plan.md.
if(NOT WIN32)
  add_test(NAME cli.plan_check COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plan_cli.sh ${HR_BIN})
  # It checks that plan leaves /proc/swaps alone: not while another test adds swap.
  set_tests_properties(cli.plan_check PROPERTIES RESOURCE_LOCK system_swap)
else()
  # A recorded desktop (drives C:, D:, E:) with the worked example's what-if facts: 64 GB fixed on D:.
  add_test(NAME cli.plan_windows
           COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN} plan --ram 16G --vram 8G --workload sdxl
                   --replay ${HR_FIXTURES}/windows/desktop-64g-fixed-d.json)
  set_tests_properties(cli.plan_windows PROPERTIES
    PASS_REGULAR_EXPRESSION "64 GB fixed \\(initial = maximum = 65536 MB\\) on D:")
  add_test(NAME cli.check_windows_live COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN} check --workload sdxl)
  set_tests_properties(cli.check_windows_live PROPERTIES
    PASS_REGULAR_EXPRESSION "(OK|AT RISK|WILL FAIL|CANNOT TELL)  ")   # exit 0-3 are verdicts
endif()

# /? is help on Windows, for the whole tool and for a command (issue 10).
if(WIN32)
  add_test(NAME cli.help_slash_q COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN} /?)
  set_tests_properties(cli.help_slash_q PROPERTIES PASS_REGULAR_EXPRESSION "headroom <command> --help" TIMEOUT 300)
  add_test(NAME cli.plan_help_slash_q COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN} plan /?)
  set_tests_properties(cli.plan_help_slash_q PROPERTIES PASS_REGULAR_EXPRESSION "usage: headroom plan" TIMEOUT 300)
endif()
