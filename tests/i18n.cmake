# Messages that bypass the catalogue: English literals printed or rendered without HR_T /
# HR_N (tests/i18n/literals.py; the older ones still to translate are listed in
# tests/i18n/literals-todo.txt, which only shrinks), and a self-test that the scan finds them.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME i18n.literals
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/i18n/literals.py ${PROJECT_SOURCE_DIR})
  add_test(NAME i18n.literals_selftest
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/i18n/literals_selftest.sh)
endif()
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME i18n.lang_env COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/i18n/lang_env.sh ${HR_BIN})
endif()
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME i18n.lang_order COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/i18n/lang_order.sh ${HR_BIN}
                                        ${PROJECT_SOURCE_DIR})
endif()
# What a Chinese (and an English) reader sees over every recorded machine, workflow and log:
# no English left in Chinese sentences, full-width punctuation, columns by display width.
if(Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME i18n.zh_output
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/i18n/zh_output.py ${HR_BIN}
                   ${PROJECT_SOURCE_DIR})
endif()
