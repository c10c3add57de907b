# watch: the recording on stdout on any machine (`COMMAND headroom` runs under Wine in a
# cross build), and on Linux the CLI end to end against real processes (tests/watch/).
add_test(NAME watch.json COMMAND headroom watch --count 3 --interval 100 --json)
set_tests_properties(watch.json PROPERTIES PASS_REGULAR_EXPRESSION
  "\"type\":\"header\",\"schema\":\"headroom.recording/1\".*\"type\":\"sample\".*\"ram_total\":[0-9]+.*\"commit_limit\":[0-9]+.*\"type\":\"end\",.*\"samples\":3")
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME watch.cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/watch/watch_cli.sh ${HR_BIN})
endif()
# watch.root.psi: a real memory stall (readers in a small memory cgroup) wakes watch before
# its interval through a PSI trigger (root; SKIP where the kernel has no PSI or refuses one).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME watch.root.psi COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/watch/watch_psi_root.sh ${HR_BIN})
  # RUN_SERIAL: the stall it makes is the whole machine's; a watch running beside it would warn
  set_tests_properties(watch.root.psi PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 90 LABELS root
                       RUN_SERIAL TRUE)
  # run.root.psi: the same stall wakes `run` (the PSI trigger beside the child's pipes)
  add_test(NAME run.root.psi COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/watch/watch_psi_root.sh ${HR_BIN} run)
  set_tests_properties(run.root.psi PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 90 LABELS root
                       RUN_SERIAL TRUE)
endif()
# watch under the systemd journal (JOURNAL_STREAM names its stderr): events alone, one line
# each with its syslog priority; watch.root.journal makes real warnings in a memory cgroup.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME watch.journal COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/watch/watch_journal.sh ${HR_BIN} plain)
  add_test(NAME watch.root.journal COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/watch/watch_journal.sh ${HR_BIN} root)
  set_tests_properties(watch.root.journal PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 90 LABELS root
                       RUN_SERIAL TRUE)
endif()
# watch.root.resolver: a DNS server that never answers (this test's own resolv.conf in a mount
# namespace, a UDP socket that reads and never replies) holds neither check nor watch's
# ComfyUI link past the link's deadline (root: the namespace and the bind mounts).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME watch.root.resolver
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/watch/comfy_resolver_root.sh ${HR_BIN})
  set_tests_properties(watch.root.resolver PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180 LABELS root)
endif()
# watch --name: a pattern that matches no process is said, and so is a match appearing later.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME watch.name COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/watch/watch_name.sh ${HR_BIN})
  set_tests_properties(watch.name PROPERTIES TIMEOUT 120)
endif()
