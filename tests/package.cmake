# The packages (tests/package.sh, docs/packaging.md): the .deb installed with dpkg -i and removed
# (root; slow: it runs cpack), the Windows zip's contents and headroom.exe under Wine.
if(NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME package.root.deb COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/package.sh deb
                                         ${CMAKE_BINARY_DIR} ${PROJECT_VERSION})
  set_tests_properties(package.root.deb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
elseif(CMAKE_CROSSCOMPILING)
  add_test(NAME package.zip COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/package.sh zip
                                    ${CMAKE_BINARY_DIR} ${PROJECT_VERSION} "${CMAKE_CROSSCOMPILING_EMULATOR}")
  set_tests_properties(package.zip PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
