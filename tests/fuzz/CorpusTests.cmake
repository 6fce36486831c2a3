# The fuzz targets as regression tests, included by tests/cpp/CMakeLists.txt (README.md in this folder): each target's
# LLVMFuzzerTestOneInput built with the tests' compiler and flags (in `make asan`'s tree: ASan and UBSan) beside
# ReplayInputs.cpp's main, and run once on every input the fuzzers know: past findings (regressions/), hand-made
# seeds (seeds/) and the corpus make_corpus.py generates. `make fuzz` explores new inputs under libFuzzer; these
# tests replay the known ones in every `make test`, without a clang tree of their own.
set(FUZZ_DIR ${PROJECT_SOURCE_DIR}/tests/fuzz)
set(FUZZ_CORPUS ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus)
set(MPISIM_FUZZ_TARGETS trace_line trace_set platform_xml platform_spec hostfile model_parameters otf2_archive)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# The OTF2 target's fixed anchor file, as the fuzz tree makes it (tests/fuzz/CMakeLists.txt).
add_executable(fuzz_corpus_otf2_fixture ${PROJECT_SOURCE_DIR}/tests/python/otf2/write_fixture.c)
target_link_libraries(fuzz_corpus_otf2_fixture PRIVATE PkgConfig::OTF2 m)
set(OTF2_FIXTURE ${CMAKE_CURRENT_BINARY_DIR}/fuzz-otf2-fixture)
add_custom_command(OUTPUT ${OTF2_FIXTURE}/trace.otf2
  COMMAND ${CMAKE_COMMAND} -E make_directory ${OTF2_FIXTURE}
  COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 $<TARGET_FILE:fuzz_corpus_otf2_fixture> ${OTF2_FIXTURE}
          trace 1e9
  DEPENDS fuzz_corpus_otf2_fixture)
add_custom_target(fuzz_corpus_otf2_anchor DEPENDS ${OTF2_FIXTURE}/trace.otf2)

# The corpus, written once before the targets' tests run (a ctest fixture).
add_test(NAME FuzzCorpus.Generated COMMAND ${Python3_EXECUTABLE} ${FUZZ_DIR}/make_corpus.py ${FUZZ_CORPUS})
set_tests_properties(FuzzCorpus.Generated PROPERTIES FIXTURES_SETUP fuzz_corpus)

add_custom_target(fuzz_corpus_targets)
foreach(target IN LISTS MPISIM_FUZZ_TARGETS)
  add_executable(fuzz_corpus_${target} ${FUZZ_DIR}/${target}.cpp ${FUZZ_DIR}/FuzzInput.cpp ${FUZZ_DIR}/ReplayInputs.cpp)
  target_include_directories(fuzz_corpus_${target} PRIVATE ${FUZZ_DIR})
  target_link_libraries(fuzz_corpus_${target} PRIVATE mpisim_all)
  add_dependencies(fuzz_corpus_targets fuzz_corpus_${target})
  add_test(NAME FuzzCorpus.${target}
    COMMAND fuzz_corpus_${target} ${FUZZ_DIR}/regressions/${target} ${FUZZ_DIR}/seeds/${target} ${FUZZ_CORPUS}/${target})
  set_tests_properties(FuzzCorpus.${target} PROPERTIES FIXTURES_REQUIRED fuzz_corpus)
endforeach()
target_compile_definitions(fuzz_corpus_otf2_archive PRIVATE MPISIM_OTF2_ANCHOR="${OTF2_FIXTURE}/trace.otf2")
add_dependencies(fuzz_corpus_otf2_archive fuzz_corpus_otf2_anchor)
# The OTF2 library (Debian's) gives up on an allocation its records ask for that fails, as under the fuzzer (run.sh).
set_tests_properties(FuzzCorpus.otf2_archive PROPERTIES ENVIRONMENT "ASAN_OPTIONS=allocator_may_return_null=1")
