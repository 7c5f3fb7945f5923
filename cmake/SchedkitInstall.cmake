# Install rules and the package config: find_package(schedkit) then link
# schedkit::schedkit; components (testing, sim, bench, kube) each have an
# export file of their own, which the config includes when asked for.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS schedkit EXPORT schedkitTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILE_SET generated DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT schedkitTargets NAMESPACE schedkit::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)

# schedkit_install_component(<target> <Export>): the target, its headers and
# schedkit<Export>Targets.cmake, when the target was built.
function(schedkit_install_component target export)
  if(NOT TARGET ${target})
    return()
  endif()
  install(TARGETS ${target} EXPORT schedkit${export}Targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT schedkit${export}Targets NAMESPACE schedkit::
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
endfunction()

schedkit_install_component(schedkit_testing Testing)  # builders, a fake Handle, Must, RunFilter, RecordingHost
schedkit_install_component(schedkit_sim Sim)          # SimulatorMain
schedkit_install_component(schedkit_bench Bench)      # ChainBenchmarkMain, PerfMain, scheduler_perf's templates
schedkit_install_component(schedkit_kube Kube)        # the API client and SchedulerMain

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/schedkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/schedkitConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
# A minor version may change what plugins compile against (the sample's guide,
# section 11): find_package(schedkit 0.3) accepts 0.3.x only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/schedkitConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/schedkitConfig.cmake ${PROJECT_BINARY_DIR}/schedkitConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/schedkit)
