# Fuzz harnesses: tests/fuzz/fuzz_<name>.c defines LLVMFuzzerTestOneInput and has a seed
# corpus in tests/fuzz/corpus/<name>/. Every harness runs as a ctest test through the replay
# driver (corpus + deterministic mutations); with -DHR_FUZZ=ON and clang it is also built as
# a libFuzzer binary (fuzz_<name>) for long runs: `make fuzz`.
file(GLOB HR_FUZZ_HARNESSES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_*.c)
foreach(src ${HR_FUZZ_HARNESSES})
  get_filename_component(name ${src} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" corpus ${name})
  add_executable(replay_${name} ${src} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_main.c)
  target_include_directories(replay_${name} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(replay_${name} PRIVATE headroom_platform)
  if(WIN32)
    target_link_options(replay_${name} PRIVATE -static)
  endif()
  add_test(NAME fuzz.${corpus}
           COMMAND replay_${name} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${corpus} 200)
  if(HR_FUZZ)
    add_executable(${name} ${src})
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(${name} PRIVATE headroom_platform)
  endif()
endforeach()
