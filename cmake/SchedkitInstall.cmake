# Install rules and the package config: find_package(schedkit) then link schedkit::schedkit.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS schedkit EXPORT schedkitTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILE_SET generated DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT schedkitTargets NAMESPACE schedkit::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
# The testing component: find_package(schedkit COMPONENTS testing), then link schedkit::testing.
install(TARGETS schedkit_testing EXPORT schedkitTestingTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT schedkitTestingTargets NAMESPACE schedkit::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
# The sim and bench components: SimulatorMain; ChainBenchmarkMain, PerfMain
# and scheduler_perf's templates.
if(TARGET schedkit_sim)
  install(TARGETS schedkit_sim EXPORT schedkitSimTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT schedkitSimTargets NAMESPACE schedkit::
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
endif()
if(TARGET schedkit_bench)
  install(TARGETS schedkit_bench EXPORT schedkitBenchTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT schedkitBenchTargets NAMESPACE schedkit::
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
endif()
# The kube component: find_package(schedkit COMPONENTS kube), then link schedkit::kube.
if(SCHEDKIT_BUILD_KUBE)
  install(TARGETS schedkit_kube EXPORT schedkitKubeTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT schedkitKubeTargets NAMESPACE schedkit::
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/schedkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/schedkitConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/schedkitConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/schedkitConfig.cmake ${PROJECT_BINARY_DIR}/schedkitConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
