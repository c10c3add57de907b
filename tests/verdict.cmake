# The one sizing rule against the guide's stories, on recorded machines (tests/verdict_cli.sh).
if(NOT WIN32)
  add_test(NAME cli.verdict_stories COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/verdict_cli.sh ${HR_BIN})
endif()
