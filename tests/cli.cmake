# The CLI's tables. cli.exit_table: docs/exit-status.md describes src/cli/exit_status.h
# exactly. cli.full_disk: a report that cannot be written exits 74, never 0.
if(NOT CMAKE_CROSSCOMPILING)
  add_executable(cli_exit_table cli/exit_table.c ${PROJECT_SOURCE_DIR}/src/cli/exit_status.c)
  target_include_directories(cli_exit_table PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(cli_exit_table PRIVATE headroom_base)
  add_test(NAME cli.exit_table COMMAND cli_exit_table ${PROJECT_SOURCE_DIR}/docs/exit-status.md)
  add_test(NAME cli.full_disk COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/full_disk.sh ${HR_BIN}
                                      ${HR_FIXTURES})
endif()
# A paging file's drive letter is shown upper-case whatever case the registry holds.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME cli.drive_letter COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/drive_letter.sh ${HR_BIN}
                                         ${HR_FIXTURES})
endif()
