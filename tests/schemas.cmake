# Every --json document against its schema in docs/schemas/ (tests/schemas.sh, with the small
# validator tests/schemas/validate.py: no network, no third-party module).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME cli.schemas COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/schemas.sh ${HR_BIN}
                                    ${PROJECT_SOURCE_DIR})
  # It runs `plan` and `verify` on this machine: not while another test adds swap.
  set_tests_properties(cli.schemas PROPERTIES RESOURCE_LOCK system_swap TIMEOUT 120)
endif()
