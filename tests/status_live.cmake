# headroom status on the machine running the tests: against free(1) and swapon(8), and,
# as root, with a real swap file it creates and removes. Tests that change or compare the
# system's swap list share the RESOURCE_LOCK "system_swap" so ctest -j never runs them
# side by side (use the same lock in any other test that adds or removes swap).
if(NOT WIN32)
  add_test(NAME status.live.free_swapon
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/status_live.sh ${HR_BIN})
  add_test(NAME status.root.swapfile
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/status_swapon_root.sh ${HR_BIN})
  set_tests_properties(status.live.free_swapon status.root.swapfile PROPERTIES
                       SKIP_RETURN_CODE 77 RESOURCE_LOCK system_swap TIMEOUT 1500)
endif()
