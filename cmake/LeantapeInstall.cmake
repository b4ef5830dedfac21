# LeantapeInstall.cmake: `cmake --install build --prefix P` installs
#   P/lib/LLVMLeantape.so                      the plugin (for one LLVM major)
#   P/include/leantape.h                       the user header
#   P/lib/cmake/Leantape/LeantapeConfig.cmake  find_package(Leantape):
#       (and ...ConfigVersion.cmake)           Leantape::Plugin, leantape_enable()
#   P/lib/pkgconfig/leantape.pc                pkg-config --cflags leantape
# The CMake package is relocatable (paths relative to its own directory);
# the .pc file is written by the install step, which knows the prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LEANTAPE_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/Leantape")
set(LEANTAPE_PLUGIN_NAME "LLVMLeantape${CMAKE_SHARED_MODULE_SUFFIX}")
# The clang of this LLVM: the compiler the plugin loads into.
set(LEANTAPE_CLANG "${LEANTAPE_LLVM_TOOLS_DIR}/clang")

install(TARGETS LLVMLeantape LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
if(TARGET ClangLeantape) # next to LLVMLeantape.so, which it loads
  install(TARGETS ClangLeantape LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()
install(FILES include/leantape.h DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")

configure_package_config_file(cmake/LeantapeConfig.cmake.in
  "${CMAKE_BINARY_DIR}/LeantapeConfig.cmake"
  INSTALL_DESTINATION "${LEANTAPE_CMAKE_DIR}"
  PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/LeantapeConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMajorVersion)
install(FILES "${CMAKE_BINARY_DIR}/LeantapeConfig.cmake"
              "${CMAKE_BINARY_DIR}/LeantapeConfigVersion.cmake"
        DESTINATION "${LEANTAPE_CMAKE_DIR}")

# leantape.pc: everything but the prefix now; @CMAKE_INSTALL_PREFIX@ stays
# for the install step (cmake --install --prefix P gives it then).
set(LEANTAPE_PC_PREFIX "@CMAKE_INSTALL_PREFIX@")
configure_file(cmake/leantape.pc.in "${CMAKE_BINARY_DIR}/leantape.pc.in" @ONLY)
set(pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
install(CODE "
  set(pc \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${pc_dir}/leantape.pc\")
  message(STATUS \"Installing: \${pc}\")
  configure_file(\"${CMAKE_BINARY_DIR}/leantape.pc.in\" \"\${pc}\" @ONLY)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${pc}\")")
