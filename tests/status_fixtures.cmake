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

# The recorder captures everything status reads (fixtures re-recorded, this machine).
if(NOT WIN32)
  add_test(NAME tools.record_linux_sysroot
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/record_roundtrip.sh ${HR_BIN} ${HR_FIXTURES})
  set_tests_properties(tools.record_linux_sysroot PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK system_swap)
endif()
