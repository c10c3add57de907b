# HTML reports (docs/report.md): the pages in a real browser (headless Chromium; SKIP without
# it), English and Chinese.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME report.html_chromium
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/report/html.sh ${HR_BIN} ${PROJECT_SOURCE_DIR})
  set_tests_properties(report.html_chromium PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 280)
endif()

# Windows: a double-clicked headroom.exe (no console of its parent; HEADROOM_EXPLORER=1 takes
# that path without a window) runs check, writes the HTML report to %TEMP% and offers to
# open it. Run under Wine in the cross build.
if(CMAKE_CROSSCOMPILING)
  add_test(NAME report.windows_double_click COMMAND headroom)
  set_tests_properties(report.windows_double_click PROPERTIES
    ENVIRONMENT "HEADROOM_EXPLORER=1" TIMEOUT 240
    PASS_REGULAR_EXPRESSION "headroom check .*The report is in [^\n]*headroom-report\\.html\nOpen it in the browser\\? \\[Y/n\\] n")
endif()

# A recording of any length is read in bounded memory: 1 GiB generated in a temporary folder,
# its peak resident size judged without a sanitizer only.
if(NOT CMAKE_CROSSCOMPILING)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME report.stream_large COMMAND ${Python3_EXECUTABLE}
             ${CMAKE_CURRENT_SOURCE_DIR}/report/large_test.py ${HR_BIN})
    set_tests_properties(report.stream_large PROPERTIES TIMEOUT 1500)
    if(HR_SANITIZE)
      set_property(TEST report.stream_large APPEND PROPERTY ENVIRONMENT "HR_SANITIZED=1")
    endif()
  endif()
endif()
# report without -o keeps an earlier report.html (report-1.html ...); -o FILE replaces FILE.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME report.default_name
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/report/default_name.sh ${HR_BIN} ${PROJECT_SOURCE_DIR})
endif()
# The report's chart axes: five distinct, evenly spaced labels on every recording (paging
# rates of a quiet run included).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME report.axis_labels
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/report/axis_labels.py ${HR_BIN}
                   ${PROJECT_SOURCE_DIR})
endif()
