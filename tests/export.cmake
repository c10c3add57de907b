# headroom export (tests/export.sh): promtool check metrics on this machine and every recorded
# one, the values, the atomic --textfile write. A Windows build runs the same script with the
# .exe under Wine. Skips (77) without promtool (Debian package prometheus).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME cli.export COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/export.sh ${HR_FIXTURES} ${HR_BIN})
  set_tests_properties(cli.export PROPERTIES SKIP_RETURN_CODE 77)
elseif(CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME cli.export_windows COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/export.sh ${HR_FIXTURES}
                                           ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN})
  set_tests_properties(cli.export_windows PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
