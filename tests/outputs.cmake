# Files the user names (--log, --record, --html, -o, --textfile): outputs.root.links, as root,
# a link planted in another user's folder or root's own, another user's file, a hard link
# to root's file and a device are all refused with root's 0600 file untouched; what may be
# written is, with its mode kept (root; SKIP otherwise). outputs.export_twice: two export
# loops at once into one folder never fail (a unique temporary name each).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME outputs.root.links
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/root/outputs_root.sh ${HR_BIN} ${PROJECT_SOURCE_DIR})
  set_tests_properties(outputs.root.links PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME outputs.export_twice
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/export_twice.sh ${HR_BIN} ${HR_FIXTURES})
  set_tests_properties(outputs.export_twice PROPERTIES TIMEOUT 200)
endif()
