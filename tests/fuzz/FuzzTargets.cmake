# What the two builds of the fuzz targets share (README.md in this folder): the targets, one per input reader, each
# TARGET.cpp here (`make fuzz` builds them as fuzz_TARGET under libFuzzer, CMakeLists.txt; `make test` as
# fuzz_corpus_TARGET beside ReplayInputs.cpp's main, CorpusTests.cmake; run.sh reads this list too, with sed: keep
# it on one line), and the OTF2 target's anchor file.
set(MPISIM_FUZZ_TARGETS trace_line trace_set platform_xml platform_spec hostfile model_parameters otf2_archive)

# The anchor file is not fuzzed: the OTF2 library sizes allocations by its fields (a damaged one asks for gigabytes
# before mpisim sees anything). It is the 4-rank archive tests/python/otf2/write_fixture.c writes, made in the build
# tree by an executable named WRITER before TARGET builds, and given to TARGET as MPISIM_OTF2_ANCHOR. Further
# arguments are link options of WRITER.
function(mpisim_otf2_anchor target writer)
  add_executable(${writer} ${PROJECT_SOURCE_DIR}/tests/python/otf2/write_fixture.c)
  target_link_libraries(${writer} PRIVATE PkgConfig::OTF2 m)
  if(ARGN)
    target_link_options(${writer} PRIVATE ${ARGN})
  endif()
  set(folder ${CMAKE_CURRENT_BINARY_DIR}/${writer}-output)
  add_custom_command(OUTPUT ${folder}/trace.otf2
    COMMAND ${CMAKE_COMMAND} -E make_directory ${folder}
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 $<TARGET_FILE:${writer}> ${folder} trace 1e9
    DEPENDS ${writer})
  add_custom_target(${writer}_anchor DEPENDS ${folder}/trace.otf2)
  add_dependencies(${target} ${writer}_anchor)
  target_compile_definitions(${target} PRIVATE MPISIM_OTF2_ANCHOR="${folder}/trace.otf2")
endfunction()
