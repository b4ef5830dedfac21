# LeantapeLLVM.cmake: find LLVM and check that its major version is supported.
#
# The plugin ABI differs between LLVM majors (LLVM_PLUGIN_API_VERSION is 1 in
# 19 and 2 in 22), so a build targets exactly one major. Which one:
#   -DLLVM_DIR=$(llvm-config-19 --cmakedir)   that LLVM;
#   -DLEANTAPE_LLVM_VERSION=19                 the installed LLVM 19
#                                              (llvm-config-19, /usr/lib/llvm-19);
#   neither                                    the newest supported LLVM installed.
# `find_package(LLVM 22 CONFIG)` would not match 22.1.x (LLVMConfigVersion
# requires major.minor equality), hence no version in find_package and a
# check below. Source differences between the majors live in lib/compat.h
# (C API) and #if blocks of lib/plugin.cpp (C++ API).

# The one place that lists the supported LLVM majors.
set(LEANTAPE_LLVM_MAJORS 19 22)

set(LEANTAPE_LLVM_VERSION "" CACHE STRING
    "LLVM major to build against when LLVM_DIR is not given (empty: the newest installed)")

# The LLVMConfig.cmake directory of an installed LLVM `major`, or "".
function(_leantape_llvm_cmakedir major out)
  set(dir "")
  find_program(_lt_llvm_config_${major} NAMES llvm-config-${major}
               PATHS /usr/lib/llvm-${major}/bin NO_CACHE)
  if(_lt_llvm_config_${major})
    execute_process(COMMAND "${_lt_llvm_config_${major}}" --cmakedir
                    OUTPUT_VARIABLE dir OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE rc ERROR_QUIET)
    if(NOT rc EQUAL 0)
      set(dir "")
    endif()
  endif()
  if(NOT dir OR NOT EXISTS "${dir}/LLVMConfig.cmake")
    set(dir "")
    foreach(cand /usr/lib/llvm-${major}/lib/cmake/llvm /usr/local/opt/llvm@${major}/lib/cmake/llvm)
      if(EXISTS "${cand}/LLVMConfig.cmake")
        set(dir "${cand}")
        break()
      endif()
    endforeach()
  endif()
  set(${out} "${dir}" PARENT_SCOPE)
endfunction()

if(NOT LLVM_DIR)
  if(LEANTAPE_LLVM_VERSION)
    set(_lt_candidates ${LEANTAPE_LLVM_VERSION})
  else()
    set(_lt_candidates ${LEANTAPE_LLVM_MAJORS})
    list(REVERSE _lt_candidates) # newest first
  endif()
  foreach(major IN LISTS _lt_candidates)
    _leantape_llvm_cmakedir(${major} _lt_dir)
    if(_lt_dir)
      set(LLVM_DIR "${_lt_dir}" CACHE PATH "LLVMConfig.cmake directory" FORCE)
      break()
    endif()
  endforeach()
  if(NOT LLVM_DIR AND LEANTAPE_LLVM_VERSION)
    message(FATAL_ERROR
      "LLVM ${LEANTAPE_LLVM_VERSION} not found (no llvm-config-${LEANTAPE_LLVM_VERSION}, "
      "no /usr/lib/llvm-${LEANTAPE_LLVM_VERSION}). Install llvm-${LEANTAPE_LLVM_VERSION}-dev, "
      "or pass -DLLVM_DIR=<dir of LLVMConfig.cmake>.")
  endif()
  # Otherwise CMake's own search (CMAKE_PREFIX_PATH, ...), newest first.
  set(CMAKE_FIND_PACKAGE_SORT_ORDER NATURAL)
  set(CMAKE_FIND_PACKAGE_SORT_DIRECTION DEC)
endif()

find_package(LLVM REQUIRED CONFIG)

if(NOT LLVM_VERSION_MAJOR IN_LIST LEANTAPE_LLVM_MAJORS)
  message(FATAL_ERROR
    "Leantape needs LLVM ${LEANTAPE_LLVM_MAJORS}; found ${LLVM_PACKAGE_VERSION} "
    "in ${LLVM_DIR}. Pass -DLLVM_DIR=$(llvm-config-22 --cmakedir) (or 19).")
endif()
if(LEANTAPE_LLVM_VERSION AND NOT LEANTAPE_LLVM_VERSION STREQUAL LLVM_VERSION_MAJOR)
  message(FATAL_ERROR
    "LEANTAPE_LLVM_VERSION=${LEANTAPE_LLVM_VERSION}, but LLVM_DIR=${LLVM_DIR} is "
    "LLVM ${LLVM_PACKAGE_VERSION}: use a new build directory per LLVM version.")
endif()

# The tools of this LLVM (clang, opt, FileCheck, lli, not, ...) for the test
# suite; Debian installs them all in /usr/lib/llvm-NN/bin.
# -DLEANTAPE_LLVM_TOOLS_DIR=... overrides it (an LLVM whose clang lives elsewhere).
if(NOT LEANTAPE_LLVM_TOOLS_DIR)
  set(LEANTAPE_LLVM_TOOLS_DIR "${LLVM_TOOLS_BINARY_DIR}")
endif()

message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_DIR} "
               "(RTTI=${LLVM_ENABLE_RTTI}, dylib=${LLVM_LINK_LLVM_DYLIB}, "
               "tools in ${LEANTAPE_LLVM_TOOLS_DIR})")

separate_arguments(LEANTAPE_LLVM_DEFINITIONS NATIVE_COMMAND
                   "${LLVM_DEFINITIONS}")
