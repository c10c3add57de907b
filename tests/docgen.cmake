# The man page and shell completions generated from the option tables (tests/docgen.sh).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME cli.docgen COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/docgen.sh ${HR_BIN}
                                   ${PROJECT_SOURCE_DIR} ${PROJECT_VERSION})
endif()
