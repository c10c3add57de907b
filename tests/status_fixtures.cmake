# headroom status on recorded Linux trees: one test per scenario under tests/fixtures/linux/
# (real machines, recorded or written in the kernel's exact formats) and
# tests/fixtures/linux-hostile/ (broken input: the report must stay whole and say what is
# unknown). See tests/status_fixtures.sh and tests/fixtures/linux/README.md.
if(NOT WIN32)
  foreach(kind linux linux-hostile)
    file(GLOB hr_scenarios LIST_DIRECTORIES true CONFIGURE_DEPENDS ${HR_FIXTURES}/${kind}/*)
    foreach(dir ${hr_scenarios})
      if(IS_DIRECTORY ${dir})
        get_filename_component(name ${dir} NAME)
        add_test(NAME status.fixture.${kind}.${name}
                 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/status_fixtures.sh ${HR_BIN} ${dir})
      endif()
    endforeach()
  endforeach()
endif()
