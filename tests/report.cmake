# HTML reports (docs/report.md): the pages in a real browser (headless Chromium; SKIP without
# it), English and Chinese.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME report.html_chromium
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/report/html.sh ${HR_BIN} ${PROJECT_SOURCE_DIR})
  set_tests_properties(report.html_chromium PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 280)
endif()
