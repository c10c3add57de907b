# diagnose: every finding of every log in rank order, with its confidence and first sighting
# (tests/diagnose/ranked.py, RANKED): the corpus's logs and the mixed-cause ones of
# tests/diagnose/mixed/, where which cause comes first decides the verdict.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  set(HR_RANKED_RUNNER "")
  if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
    set(HR_RANKED_RUNNER ${CMAKE_CROSSCOMPILING_EMULATOR})
  endif()
  add_test(NAME diagnose.ranked
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/ranked.py ${HR_BIN}
                   ${CMAKE_CURRENT_SOURCE_DIR}/diagnose/RANKED ${HR_RANKED_RUNNER})
  set_tests_properties(diagnose.ranked PROPERTIES TIMEOUT 600)
endif()
