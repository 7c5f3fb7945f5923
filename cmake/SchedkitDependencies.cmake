# Every dependency comes from Debian packages (cmake/install-deps.sh).
find_package(absl REQUIRED)
find_package(Protobuf REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(TBB REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(Threads REQUIRED)
# RE2: CEL's regular expressions (matches(), find(), ...), as cel-go uses RE2 syntax.
# Debian ships a pkg-config file and no CMake package.
find_package(PkgConfig REQUIRED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
if(SCHEDKIT_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
if(SCHEDKIT_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
if(SCHEDKIT_BUILD_KUBE)
  find_package(CURL REQUIRED)
  find_package(OpenSSL REQUIRED)
  # cpp-httplib: the health and metrics server (Debian ships a pkg-config file).
  pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
endif()
