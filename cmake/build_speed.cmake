# How the build is kept fast (README "Building"): unity batches, precompiled
# headers, and ccache when it is installed. None of them changes what is
# built: scripts/check-unity-names.py keeps file-local names of one target
# distinct, and the precompiled headers only include what files include
# anyway.

option(TOOLGUARD_UNITY_BUILD "Compile each target's sources in batches (unity build)" ON)
option(TOOLGUARD_PRECOMPILED_HEADERS "Precompile the headers nearly every file includes" ON)
option(TOOLGUARD_CCACHE "Compile through ccache when it is installed" ON)

# ccache: a rebuild after `git checkout` or in a second build tree takes
# objects from the cache. The sloppiness settings are the ones ccache's
# manual names for precompiled headers (CMake includes them with -include).
if(TOOLGUARD_CCACHE)
  find_program(TOOLGUARD_CCACHE_PROGRAM ccache)
  if(TOOLGUARD_CCACHE_PROGRAM)
    set(TOOLGUARD_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${TOOLGUARD_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${TOOLGUARD_COMPILER_LAUNCHER})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${TOOLGUARD_COMPILER_LAUNCHER})
    message(STATUS "toolguard: compiling through ${TOOLGUARD_CCACHE_PROGRAM}")
  endif()
endif()

# toolguard_speed_up(TARGET [BATCH N] [PCH library|tests|bench|none] [PCH_FROM OTHER])
#   BATCH N: with TOOLGUARD_UNITY_BUILD, compile the target's sources N at a
#   time as one translation unit each (0: all of them in one).
#   PCH: which precompiled header the target's C++ files get (default library).
#   PCH_FROM: use OTHER's precompiled header instead of compiling one (the
#   library's layers share one: same header, same options).
function(toolguard_speed_up target)
  cmake_parse_arguments(arg "" "BATCH;PCH;PCH_FROM" "" ${ARGN})
  if(TOOLGUARD_UNITY_BUILD AND DEFINED arg_BATCH)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${arg_BATCH})
  endif()
  if(TOOLGUARD_PRECOMPILED_HEADERS AND arg_PCH_FROM)
    target_precompile_headers(${target} REUSE_FROM ${arg_PCH_FROM})
    return()
  endif()
  if(NOT arg_PCH)
    set(arg_PCH library)
  endif()
  if(TOOLGUARD_PRECOMPILED_HEADERS AND NOT arg_PCH STREQUAL "none")
    if(arg_PCH STREQUAL "library")
      set(header ${PROJECT_SOURCE_DIR}/cmake/precompiled.hpp)
    else()
      set(header ${PROJECT_SOURCE_DIR}/cmake/precompiled_${arg_PCH}.hpp)
    endif()
    target_precompile_headers(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${header}>")
  endif()
endfunction()

# toolguard_keep_out_of_unity(FILE...): files compiled on their own, because
# they define macros for a header they include (toml++), hold generated data,
# or must stay a translation unit of their own.
function(toolguard_keep_out_of_unity)
  set_source_files_properties(${ARGN} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()

# toolguard_test_code(TARGET...): test programs and examples are compiled
# without optimization in every build: their own code is small and runs a
# few times, while -O3 doubled their compile time (a batch of eight unit-test
# files: 26 s at -O0, 57 s at -O3). The library, the command and the
# benchmarks they use keep the build's optimization.
function(toolguard_test_code)
  foreach(target ${ARGN})
    target_compile_options(${target} PRIVATE -O0)
  endforeach()
endfunction()
