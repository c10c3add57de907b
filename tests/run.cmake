# run: real child processes. run.cli: exit codes, verdicts (normal, user SIGKILL, CUDA OOM
# traceback), termination forwarding, 200 MB byte-exact; run.root.oom_kill: a real kernel OOM
# kill in the child's own memory cgroup, warned before and named after (root; SKIP otherwise).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME run.cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/run/run_cli.sh ${HR_BIN})
  set_tests_properties(run.cli PROPERTIES TIMEOUT 200)
  add_test(NAME run.root.oom_kill
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/run/run_oom_root.sh ${HR_BIN})
  set_tests_properties(run.root.oom_kill PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 RESOURCE_LOCK system_swap)
else()
  # Windows under Wine: the child's exit code passes through, its output too.
  add_test(NAME run.windows.exit_code COMMAND headroom run --interval 200 -- cmd /c "echo hi from cmd & exit 5")
  set_tests_properties(run.windows.exit_code PROPERTIES PASS_REGULAR_EXPRESSION
    "hi from cmd.*exit code 5")
  # The child's Python writes UTF-8 to run's pipe, the encoding run's console shows; a value
  # the user set is kept.
  add_test(NAME run.windows.python_utf8 COMMAND headroom run --interval 200 -- cmd /c "echo enc=%PYTHONIOENCODING%=")
  set_tests_properties(run.windows.python_utf8 PROPERTIES PASS_REGULAR_EXPRESSION "enc=utf-8=")
  add_test(NAME run.windows.python_user_encoding
           COMMAND headroom run --interval 200 -- cmd /c "echo enc=%PYTHONIOENCODING%=")
  set_tests_properties(run.windows.python_user_encoding PROPERTIES ENVIRONMENT "PYTHONIOENCODING=gbk"
    PASS_REGULAR_EXPRESSION "enc=gbk=")
endif()
# run.root.killed: a killed run leaves nothing behind — SIGKILL run, and its child, the
# child's children and its cgroup are gone; SIGTERM reaches the grandchildren; groups of
# runs that could not clean up are removed by the next one (root; SKIP otherwise).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME run.root.killed
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/run/run_kill_root.sh ${HR_BIN})
  set_tests_properties(run.root.killed PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 RESOURCE_LOCK system_swap)
endif()
