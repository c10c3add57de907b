# Installing and packaging (docs/packaging.md): `make package` builds a Debian package with the
# binary, the man pages (English and Chinese) and the bash and zsh completions, and a Windows
# zip with headroom.exe and a short Chinese + English readme. The man pages and completions
# are generated from the built binary's option tables (cmake/gen-docs.cmake).
include(GNUInstallDirs)

if(WIN32)
  install(TARGETS headroom RUNTIME DESTINATION .)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/README.txt
    COMMAND ${CMAKE_COMMAND} -DIN=${PROJECT_SOURCE_DIR}/packaging/windows/README.txt
            -DOUT=${CMAKE_BINARY_DIR}/README.txt -P ${PROJECT_SOURCE_DIR}/cmake/crlf-bom.cmake
    DEPENDS ${PROJECT_SOURCE_DIR}/packaging/windows/README.txt ${PROJECT_SOURCE_DIR}/cmake/crlf-bom.cmake)
  add_custom_target(headroom_readme ALL DEPENDS ${CMAKE_BINARY_DIR}/README.txt)
  install(FILES ${CMAKE_BINARY_DIR}/README.txt DESTINATION .)
  set(CPACK_GENERATOR ZIP)
  set(CPACK_SYSTEM_NAME win64)
else()
  install(TARGETS headroom RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  if(NOT CMAKE_CROSSCOMPILING)
    set(HR_GEN ${CMAKE_BINARY_DIR}/generated)
    add_custom_command(
      OUTPUT ${HR_GEN}/man/man1/headroom.1.gz ${HR_GEN}/man/zh_CN/man1/headroom.1.gz
             ${HR_GEN}/headroom.bash ${HR_GEN}/_headroom
      COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:headroom> -DOUT=${HR_GEN}
              -P ${PROJECT_SOURCE_DIR}/cmake/gen-docs.cmake
      DEPENDS headroom ${PROJECT_SOURCE_DIR}/cmake/gen-docs.cmake
      COMMENT "Generating the man pages and shell completions from the option tables")
    add_custom_target(headroom_docs ALL DEPENDS ${HR_GEN}/man/man1/headroom.1.gz ${HR_GEN}/_headroom)
    install(FILES ${HR_GEN}/man/man1/headroom.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
    install(FILES ${HR_GEN}/man/zh_CN/man1/headroom.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/zh_CN/man1)
    install(FILES ${HR_GEN}/headroom.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
            RENAME headroom)
    install(FILES ${HR_GEN}/_headroom DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
  endif()
  install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md
          DESTINATION ${CMAKE_INSTALL_DOCDIR})
  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
endif()

set(CPACK_PACKAGE_NAME headroom)
set(CPACK_PACKAGE_VENDOR "headroom")
set(CPACK_PACKAGE_CONTACT "headroom maintainers <headroom@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "make sure a ComfyUI run never dies for lack of memory (VRAM, RAM, paging file / swap)")
set(CPACK_PACKAGE_DESCRIPTION
    "headroom checks that VRAM, RAM and the paging file / swap can hold a ComfyUI workload, plans
and applies a swap file that can, says why a run died (GPU memory, the commit limit, or the OOM
killer), watches memory live, exports Prometheus metrics and stress-tests the commit limit.")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, prometheus-node-exporter")
include(CPack)
