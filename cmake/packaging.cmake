# Installing and packaging (docs/packaging.md): `make package` builds a Debian package with the
# binary, the man pages (English and Chinese), the bash and zsh completions, the systemd units
# (installed, not enabled), the Prometheus rules and Grafana dashboard, and a Windows zip with
# headroom.exe, a short Chinese + English readme and the licence. The man pages and
# completions are generated from the built binary's option tables (cmake/gen-docs.cmake).
include(GNUInstallDirs)

# Who answers for the package (the Debian Maintainer field).
set(HR_MAINTAINER "The headroom authors <headroom@users.noreply.github.com>" CACHE STRING
    "Maintainer of the packages: Name <address>")

if(WIN32)
  install(TARGETS headroom RUNTIME DESTINATION .)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/README.txt
    COMMAND ${CMAKE_COMMAND} -DIN=${PROJECT_SOURCE_DIR}/packaging/windows/README.txt
            -DOUT=${CMAKE_BINARY_DIR}/README.txt -P ${PROJECT_SOURCE_DIR}/cmake/crlf-bom.cmake
    DEPENDS ${PROJECT_SOURCE_DIR}/packaging/windows/README.txt ${PROJECT_SOURCE_DIR}/cmake/crlf-bom.cmake)
  add_custom_target(headroom_readme ALL DEPENDS ${CMAKE_BINARY_DIR}/README.txt)
  install(FILES ${CMAKE_BINARY_DIR}/README.txt DESTINATION .)
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION . RENAME LICENSE.txt)
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
  # Debian's own files for a native package (Debian Policy 12.5, 12.7): the licence in the
  # machine-readable copyright format, and a changelog in Debian's format, compressed with
  # gzip -9n (no name or time stamp in it: the same bytes at every build). Its date is
  # SOURCE_DATE_EPOCH's when set (reproducible builds), else the build's.
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/linux/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
  string(TIMESTAMP HR_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
  configure_file(${PROJECT_SOURCE_DIR}/packaging/linux/changelog.Debian.in
                 ${CMAKE_BINARY_DIR}/debian/changelog @ONLY)
  find_program(HR_GZIP gzip)
  if(HR_GZIP)
    add_custom_command(
      OUTPUT ${CMAKE_BINARY_DIR}/debian/changelog.gz
      COMMAND ${HR_GZIP} -9nc ${CMAKE_BINARY_DIR}/debian/changelog > ${CMAKE_BINARY_DIR}/debian/changelog.gz
      DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog)
    add_custom_target(headroom_deb_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.gz)
    install(FILES ${CMAKE_BINARY_DIR}/debian/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
  endif()
  # The service (docs/watch.md) and the textfile every minute; installed where Debian 12's
  # systemd looks for a package's units, not enabled: the user enables them.
  set(HR_SYSTEMD_UNIT_DIR /lib/systemd/system CACHE PATH "Where the systemd units go")
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/linux/headroom-watch.service
                ${PROJECT_SOURCE_DIR}/packaging/linux/headroom-export.service
                ${PROJECT_SOURCE_DIR}/packaging/linux/headroom-export.timer
          DESTINATION ${HR_SYSTEMD_UNIT_DIR})
  # Fleet monitoring (docs/fleet.md): alerting rules and a dashboard, to copy where the
  # Prometheus and Grafana servers read them.
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/prometheus/headroom.rules.yml
                ${PROJECT_SOURCE_DIR}/packaging/grafana/headroom-dashboard.json
          DESTINATION ${CMAKE_INSTALL_DATADIR}/headroom)
  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
endif()

set(CPACK_PACKAGE_NAME headroom)
set(CPACK_PACKAGE_VENDOR "headroom")
set(CPACK_PACKAGE_CONTACT "${HR_MAINTAINER}")
# Debian's limits: a synopsis under 80 characters, description lines under 80.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "keeps ComfyUI runs from dying for lack of memory")
set(CPACK_PACKAGE_DESCRIPTION
    "headroom checks that VRAM, RAM and the paging file / swap can hold a ComfyUI
workload, plans and applies a swap file that can, says why a run died (GPU
memory, the commit limit, or the OOM killer), watches memory live (also as a
systemd service), exports Prometheus metrics and stress-tests the commit limit.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, prometheus-node-exporter")
# On removal, stop the units the user may have started (the binary goes away under them).
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/linux/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
