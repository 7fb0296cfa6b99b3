# What `cmake --install` adds for other projects (issue 6): the CMake package
# lib/cmake/wuc (find_package(wuc): wuc::wuc, wuc::wucc, wuc_add_executable(),
# wuc_add_library()) and lib/pkgconfig/wuc.pc.  Both are relocatable: paths are computed from
# the files' own location.
include(CMakePackageConfigHelpers)
set(WUC_CMAKE_DIR lib/cmake/wuc)
install(EXPORT wucTargets NAMESPACE wuc:: DESTINATION ${WUC_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/wucConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/wucConfig.cmake
              ${CMAKE_CURRENT_LIST_DIR}/WucAddExecutable.cmake
              ${CMAKE_CURRENT_LIST_DIR}/wucc-launcher.sh
              ${CMAKE_CURRENT_BINARY_DIR}/wucConfigVersion.cmake
        DESTINATION ${WUC_CMAKE_DIR})
configure_file(${CMAKE_CURRENT_LIST_DIR}/wuc.pc.in ${CMAKE_CURRENT_BINARY_DIR}/wuc.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/wuc.pc DESTINATION lib/pkgconfig)
