# headroom estimate from the command line on the sample workflows (tests/estimate_cli.sh).
if(NOT WIN32)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME cli.estimate COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/estimate_cli.sh ${HR_BIN}
                                       ${HR_FIXTURES}/workflows)
  endif()
else()
  add_test(NAME cli.estimate_windows
           COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN} estimate ${HR_FIXTURES}/workflows/est_flux_dev_api.json
                   --ram 32G --vram 8G --gpu nvidia --comfyui-version 0.3.60)
  set_tests_properties(cli.estimate_windows PROPERTIES PASS_REGULAR_EXPRESSION "loaded partially")
endif()
