# Every --json document against its schema in docs/schemas/ (tests/schemas.sh, with the small
# validator tests/schemas/validate.py: no network, no third-party module).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME cli.schemas COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/schemas.sh
                                    ${PROJECT_SOURCE_DIR} ${HR_BIN})
  # It runs `plan` and `verify` on this machine: not while another test adds swap.
  set_tests_properties(cli.schemas PROPERTIES RESOURCE_LOCK system_swap TIMEOUT 120)
elseif(Python3_FOUND AND CMAKE_CROSSCOMPILING_EMULATOR)
  # headroom.exe's documents under Wine: its own machine and the recorded Windows ones.
  add_test(NAME cli.schemas_windows COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/schemas.sh
                                            ${PROJECT_SOURCE_DIR} ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN})
  set_tests_properties(cli.schemas_windows PROPERTIES TIMEOUT 600)
endif()
