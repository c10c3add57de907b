# watch: the recording on stdout on any machine (`COMMAND headroom` runs under Wine in a
# cross build), and on Linux the CLI end to end against real processes (tests/watch/).
add_test(NAME watch.json COMMAND headroom watch --count 3 --interval 100 --json)
set_tests_properties(watch.json PROPERTIES PASS_REGULAR_EXPRESSION
  "\"type\":\"header\",\"schema\":\"headroom.recording/1\".*\"type\":\"sample\".*\"ram_total\":[0-9]+.*\"commit_limit\":[0-9]+.*\"type\":\"end\",.*\"samples\":3")
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME watch.cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/watch/watch_cli.sh ${HR_BIN})
endif()
