# The fuzz targets as regression tests, included by tests/cpp/CMakeLists.txt (README.md in this folder): each target's
# LLVMFuzzerTestOneInput built with the tests' compiler and flags (in `make asan`'s tree: ASan and UBSan) beside
# ReplayInputs.cpp's main, and run once on every input the fuzzers know: past findings (regressions/), hand-made
# seeds (seeds/) and the corpus make_corpus.py generates. `make fuzz` explores new inputs under libFuzzer; these
# tests replay the known ones in every `make test`, without a clang tree of their own.
set(FUZZ_DIR ${PROJECT_SOURCE_DIR}/tests/fuzz)
set(FUZZ_CORPUS ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus)
include(${FUZZ_DIR}/FuzzTargets.cmake)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

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
mpisim_otf2_anchor(fuzz_corpus_otf2_archive fuzz_corpus_otf2_writer)
# The OTF2 library (Debian's) gives up on an allocation its records ask for that fails, as under the fuzzer (run.sh).
set_tests_properties(FuzzCorpus.otf2_archive PROPERTIES ENVIRONMENT "ASAN_OPTIONS=allocator_may_return_null=1")
