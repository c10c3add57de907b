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
  endif()
endif()
