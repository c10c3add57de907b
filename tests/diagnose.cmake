# headroom diagnose: the corpus of logs (every case through the CLI), a real memory-cgroup
# OOM kill found in the kernel's records (root), and bad-input behaviour.
if(NOT WIN32)
  add_executable(hr_oom_child ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/oom_child.c)
  add_test(NAME diagnose.memcg_oom_kill
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/memcg.sh ${HR_BIN}
                   $<TARGET_FILE:hr_oom_child>)
  set_tests_properties(diagnose.memcg_oom_kill PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
                       RUN_SERIAL TRUE)
endif()
