# headroom models: real headers over sparse files of realistic sizes (tests/models/), and
# hostile files for every reader.
if(NOT CMAKE_CROSSCOMPILING)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME models.headers COMMAND ${Python3_EXECUTABLE}
             ${CMAKE_CURRENT_SOURCE_DIR}/models/models_test.py ${HR_BIN})
    if(HR_SANITIZE)
      set_property(TEST models.headers APPEND PROPERTY ENVIRONMENT "HR_SANITIZED=1")
    endif()
    # a read the platform refuses: its words in Chinese in zh text, in English in JSON
    add_test(NAME models.read_error_lang COMMAND ${Python3_EXECUTABLE}
             ${CMAKE_CURRENT_SOURCE_DIR}/models/read_error_lang.py ${HR_BIN})
    # links that lead up are not followed, and are named
    add_test(NAME models.links COMMAND ${Python3_EXECUTABLE}
             ${CMAKE_CURRENT_SOURCE_DIR}/models/links_test.py ${HR_BIN})
  endif()
elseif(CMAKE_CROSSCOMPILING_EMULATOR)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    # the same under Wine: the Windows walk's test of junctions and folder links
    add_test(NAME models.links_windows COMMAND ${Python3_EXECUTABLE}
             ${CMAKE_CURRENT_SOURCE_DIR}/models/links_test.py ${CMAKE_CROSSCOMPILING_EMULATOR}
             ${HR_BIN})
    set_tests_properties(models.links_windows PROPERTIES TIMEOUT 600)
  endif()
endif()
