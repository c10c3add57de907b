# The packages (tests/package.sh, docs/packaging.md): the .deb checked by lintian, installed with
# dpkg -i and removed (root; slow: it runs cpack and lintian), the systemd units, the fleet
# rules and dashboard, the Windows zip's contents and headroom.exe under Wine.
if(NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME package.root.deb COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/package.sh deb
                                         ${CMAKE_BINARY_DIR} ${PROJECT_VERSION})
  set_tests_properties(package.root.deb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
  # The systemd units as shipped: systemd-analyze verify, the hardening, the command lines.
  add_test(NAME package.units COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/package_units.sh
                                      ${PROJECT_SOURCE_DIR} ${HR_BIN} ${CMAKE_BINARY_DIR}/generated/man)
  set_tests_properties(package.units PROPERTIES SKIP_RETURN_CODE 77)
  # The Prometheus rules and the Grafana dashboard name only metrics export writes; promtool
  # test rules on series copied from export's output.
  find_program(HR_PROMTOOL promtool)
  add_test(NAME package.fleet COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/fleet.py ${HR_BIN}
                                      ${PROJECT_SOURCE_DIR} "${HR_PROMTOOL}")
  set_tests_properties(package.fleet PROPERTIES SKIP_RETURN_CODE 77)
elseif(CMAKE_CROSSCOMPILING)
  add_test(NAME package.zip COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/package.sh zip
                                    ${CMAKE_BINARY_DIR} ${PROJECT_VERSION} "${CMAKE_CROSSCOMPILING_EMULATOR}")
  set_tests_properties(package.zip PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
