# cmake -P run_consumer.cmake: installs BUILD_DIR into WORK_DIR/prefix, then
# builds and runs tests/install/consumer against it, with CMake
# (find_package) and with pkg-config. Run by CTest (tests/install/CMakeLists.txt).
cmake_minimum_required(VERSION 3.25)
foreach(var BUILD_DIR WORK_DIR CONSUMER_DIR INSTALL_LIBDIR INSTALL_BINDIR INSTALL_INCLUDEDIR
            GENERATOR CXX PKG_CONFIG)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... missing")
  endif()
endforeach()

# Runs a command; stops the test with its output when it fails.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "${what} failed (${result}):\n${command}\n${out}${err}")
  endif()
  message(STATUS "${what}: ok")
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# 1. Install.
set(config_args)
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} ${config_args})
foreach(file ${INSTALL_INCLUDEDIR}/toolguard/toolguard.hpp
             ${INSTALL_INCLUDEDIR}/toolguard/tool_registry.hpp
             ${INSTALL_LIBDIR}/libtoolguard.a
             ${INSTALL_LIBDIR}/cmake/toolguard/toolguardConfig.cmake
             ${INSTALL_LIBDIR}/cmake/toolguard/toolguardConfigVersion.cmake
             ${INSTALL_LIBDIR}/cmake/toolguard/toolguardTargets.cmake
             ${INSTALL_LIBDIR}/pkgconfig/toolguard.pc
             ${INSTALL_BINDIR}/toolguard)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "not installed: ${prefix}/${file}")
  endif()
endforeach()
run("installed toolguard --version" ${prefix}/${INSTALL_BINDIR}/toolguard --version)

# 2. CMake: find_package(toolguard CONFIG REQUIRED) through CMAKE_PREFIX_PATH.
# No build type: the consumer's own flags do not matter, compiling fast does.
set(build ${WORK_DIR}/cmake-consumer)
run("consumer configure" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${build} -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS ${build}/CMakeCache.txt found_dir REGEX "^toolguard_DIR:")
if(NOT found_dir STREQUAL "toolguard_DIR:PATH=${prefix}/${INSTALL_LIBDIR}/cmake/toolguard")
  message(FATAL_ERROR "the consumer found another toolguard: ${found_dir}")
endif()
run("consumer build (CMake)" ${CMAKE_COMMAND} --build ${build})
run("consumer run (CMake)" ${build}/toolguard_consumer)
message("${run_output}")

# 3. pkg-config: the --static link line of the installed toolguard.pc.
set(ENV{PKG_CONFIG_PATH} ${prefix}/${INSTALL_LIBDIR}/pkgconfig)
run("pkg-config --validate" ${PKG_CONFIG} --validate toolguard)
run("pkg-config" ${PKG_CONFIG} --cflags --libs --static toolguard)
string(STRIP "${run_output}" flags)
message(STATUS "pkg-config --cflags --libs --static toolguard: ${flags}")
separate_arguments(flags UNIX_COMMAND "${flags}")
run("consumer build (pkg-config)" ${CXX} -std=c++20 ${CONSUMER_DIR}/main.cpp
    -o ${WORK_DIR}/pkg-config-consumer ${flags})
run("consumer run (pkg-config)" ${WORK_DIR}/pkg-config-consumer)
message("${run_output}")
