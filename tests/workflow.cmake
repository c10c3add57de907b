# headroom workflow: the sample workflows in both formats over the sparse model tree, hostile
# workflows and extra_model_paths.yaml files (tests/workflows/).
if(NOT CMAKE_CROSSCOMPILING)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME workflow.samples COMMAND ${Python3_EXECUTABLE}
             ${CMAKE_CURRENT_SOURCE_DIR}/workflows/workflow_test.py ${HR_BIN}
             ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/workflows)
  endif()
endif()
