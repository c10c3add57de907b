# Windows: recorded machines replayed end to end (on Linux and under Wine alike), and the
# Windows-only tests (tests/unit/test_win_*.c) that skip with 77 elsewhere.
set(HR_WIN_FIXTURES ${HR_FIXTURES}/windows)

# Windows-only unit tests print "SKIP: ..." and exit 77 on other systems. Under Wine the
# first test to start may create the Wine prefix (20-60 s): allow for it.
foreach(t test_win_registry test_win_status test_win_resources)
  if(TARGET ${t})
    set_tests_properties(unit.${t} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
  endif()
endforeach()
# headroom.exe's version resource and manifest, read back with the Win32 calls Explorer uses.
if(TARGET test_win_resources)
  target_compile_definitions(test_win_resources PRIVATE HR_EXPECT_VERSION="${PROJECT_VERSION}")
  if(WIN32)
    target_link_libraries(test_win_resources PRIVATE version)
    add_dependencies(test_win_resources headroom)
  endif()
endif()
if(CMAKE_CROSSCOMPILING)
  get_property(hr_all_tests DIRECTORY PROPERTY TESTS)
  foreach(t ${hr_all_tests})
    get_test_property(${t} TIMEOUT hr_timeout)
    if(NOT hr_timeout)
      set_tests_properties(${t} PROPERTIES TIMEOUT 300)
    endif()
  endforeach()
  # One test running Wine at a time for the registry round trip (it changes values).
  if(TARGET test_win_registry)
    set_tests_properties(unit.test_win_registry PROPERTIES RUN_SERIAL TRUE)
  endif()
endif()

# `COMMAND headroom` (the target, not a path) so that a cross build runs it under Wine.
function(hr_win_replay_test name fixture)
  add_test(NAME status.windows.${name}
           COMMAND headroom status --replay ${HR_WIN_FIXTURES}/${fixture} ${ARGN})
  set_tests_properties(status.windows.${name} PROPERTIES TIMEOUT 300)
endfunction()

hr_win_replay_test(laptop laptop-16g-auto-full-c.json)
set_tests_properties(status.windows.laptop PROPERTIES PASS_REGULAR_EXPRESSION
  "automatic management for all drives.*C:\\\\pagefile.sys.*C: is nearly full \\(6.20 GiB free of 237 GiB\\)")
hr_win_replay_test(laptop.json laptop-16g-auto-full-c.json --json)
set_tests_properties(status.windows.laptop.json PROPERTIES PASS_REGULAR_EXPRESSION
  "\"limit_bytes\": 19684065280.*\"bus\": \"NVMe\".*\"automatic\": true.*\"rule\": \"S1.2\"")
hr_win_replay_test(desktop desktop-64g-fixed-d.json)
set_tests_properties(status.windows.desktop PROPERTIES PASS_REGULAR_EXPRESSION
  "D:.pagefile.sys: custom, initial 64.0 GiB, maximum 64.0 GiB.*E: HDD")
hr_win_replay_test(no-pagefile no-pagefile.json --json)
set_tests_properties(status.windows.no-pagefile PROPERTIES PASS_REGULAR_EXPRESSION
  "\"paging\": \\[\\].*\"present\": true,[^}]*\"automatic\": false,[^}]*\"entries\": \\[\\]")
hr_win_replay_test(usb usb-pagefile.json)
set_tests_properties(status.windows.usb PROPERTIES PASS_REGULAR_EXPRESSION
  "E:.pagefile.sys.*USB.*paging on removable/USB media.*S5.4.*BitLocker status needs administrator rights")

# Bad recordings: a clear one-line error naming the file, exit 65 (bad input) / 66 (missing).
add_test(NAME status.windows.bad-recording
         COMMAND headroom status --replay ${HR_WIN_FIXTURES}/bad/negative-commit.json)
set_tests_properties(status.windows.bad-recording PROPERTIES TIMEOUT 300 WILL_FAIL FALSE
  PASS_REGULAR_EXPRESSION "negative-commit.json: line 6, column 19: performance_info.commit_total: expected a non-negative integer")
add_test(NAME status.windows.bad-recording.exit
         COMMAND ${CMAKE_COMMAND} -E env ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:headroom>
                 status --replay ${HR_WIN_FIXTURES}/bad/negative-commit.json)
set_tests_properties(status.windows.bad-recording.exit PROPERTIES TIMEOUT 300 WILL_FAIL TRUE)

# What Wine 8.0 really answered (recorded with --record): every missing source says why.
hr_win_replay_test(wine wine-8.0.json)
set_tests_properties(status.windows.wine PROPERTIES PASS_REGULAR_EXPRESSION
  "unknown \\(EnumPageFilesW is not implemented on this system; NtQuerySystemInformation\\(SystemPageFileInformation\\) is not implemented on this system \\(information class not implemented \\(0xC0000003\\)\\)\\).*C:.pagefile.sys: custom, initial 27.0 MiB, maximum 77.0 MiB.*NVML \\(nvml.dll\\): not present; DXGI failed: unsupported \\(no display device\\) \\(0x887A0004\\).*SSD/HDD \\(seek penalty\\) query is not implemented on this system \\(not supported \\(50\\)\\)")

if(NOT WIN32)
  add_test(NAME status.windows.record-refused-on-linux
           COMMAND headroom status --record ${CMAKE_CURRENT_BINARY_DIR}/never-written.json)
  set_tests_properties(status.windows.record-refused-on-linux PROPERTIES
    PASS_REGULAR_EXPRESSION "--record saves Win32 answers: only on Windows")
endif()

# apply's drive checks on Wine's own drives: a missing one, one whose bus type cannot be read.
# It adds a drive letter to the Wine prefix for its run: alone.
if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME apply.windows_drive COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/windows_drive.sh
                                            ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN})
  set_tests_properties(apply.windows_drive PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE)
endif()

# Text redirected to a file in the console's code page (GBK on Chinese Windows), JSON in UTF-8;
# a console of Wine's own (script(1)) for the chcp cases. Its Wine runs take the locale it sets.
if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME cli.windows_codepage COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/windows_codepage.sh
                                             ${CMAKE_CROSSCOMPILING_EMULATOR} ${HR_BIN} ${PROJECT_SOURCE_DIR})
  set_tests_properties(cli.windows_codepage PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
