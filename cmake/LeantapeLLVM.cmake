# LeantapeLLVM.cmake: find LLVM and check that its major version is supported.
#
# The plugin ABI differs between LLVM majors (LLVM_PLUGIN_API_VERSION is 1 in
# 19 and 2 in 22), so a build targets exactly one major. Configure with
#   -DLLVM_DIR=$(llvm-config-22 --cmakedir)
# `find_package(LLVM 22 CONFIG)` would not match 22.1.x (LLVMConfigVersion
# requires major.minor equality), hence no version here and a check below.

# The one place that lists the supported LLVM majors (19 may be added later).
set(LEANTAPE_LLVM_MAJORS 22)

find_package(LLVM REQUIRED CONFIG)

if(NOT LLVM_VERSION_MAJOR IN_LIST LEANTAPE_LLVM_MAJORS)
  message(FATAL_ERROR
    "Leantape needs LLVM ${LEANTAPE_LLVM_MAJORS}; found ${LLVM_PACKAGE_VERSION} "
    "in ${LLVM_DIR}. Pass -DLLVM_DIR=$(llvm-config-22 --cmakedir).")
endif()

message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_DIR} "
               "(RTTI=${LLVM_ENABLE_RTTI}, dylib=${LLVM_LINK_LLVM_DYLIB})")

separate_arguments(LEANTAPE_LLVM_DEFINITIONS NATIVE_COMMAND
                   "${LLVM_DEFINITIONS}")
