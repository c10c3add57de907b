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

# Under a mingw-w64 cross build the .exe runs through Wine.
set(HR_DIAG_RUNNER "")
if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  set(HR_DIAG_RUNNER ${CMAKE_CROSSCOMPILING_EMULATOR})
endif()
add_test(NAME diagnose.corpus
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/corpus.sh ${HR_BIN}
                 ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/corpus ${HR_DIAG_RUNNER})
add_test(NAME diagnose.cli
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/cli.sh ${HR_BIN}
                 ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/corpus ${HR_DIAG_RUNNER})
set_tests_properties(diagnose.corpus diagnose.cli PROPERTIES TIMEOUT 600)

# Excerpts of real logs from public issues: cause, confidence and rank.
add_test(NAME diagnose.issues
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/issues.sh ${HR_BIN}
                 ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/issues ${HR_DIAG_RUNNER})
# The shared sets of real logs beside the repository (CI has ../shared); SKIP without them.
set(HR_DIAG_SHARED_DIR "${CMAKE_SOURCE_DIR}/../shared/data/diagnose" CACHE PATH
    "the shared sets of real crash logs (real-logs-N.md, score.py)")
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME diagnose.real_logs
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/real_logs.sh ${HR_BIN}
                   ${HR_DIAG_SHARED_DIR})
  set_tests_properties(diagnose.real_logs PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
set_tests_properties(diagnose.issues PROPERTIES TIMEOUT 300)
# Advice in the words of the OS it is for: check, plan, diagnose (tests/os_advice.sh).
if(NOT WIN32)
  add_test(NAME cli.os_advice COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/os_advice.sh ${HR_BIN} ${HR_FIXTURES}
                                      ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/corpus)
endif()
