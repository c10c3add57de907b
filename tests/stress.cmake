# headroom stress (tests/stress.sh): small real commits, the JSON, the safety margin; as root,
# a memory cgroup smaller than the request stops it. The Windows build commits under Wine.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME cli.stress COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/stress.sh ${HR_BIN})
  add_test(NAME stress.root.cgroup COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/stress.sh root ${HR_BIN})
  # RESOURCE_LOCK system_swap: a cgroup at its limit pushes its pages into whatever swap is on,
  # and a swap test's swapoff cannot take them back while the limit holds (ENOMEM).
  set_tests_properties(stress.root.cgroup PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 RESOURCE_LOCK system_swap)
elseif(CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME cli.stress_windows COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/stress.sh
                                           ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN})
  set_tests_properties(cli.stress_windows PROPERTIES TIMEOUT 300)
endif()
