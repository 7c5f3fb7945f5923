#include "e2e/shared_apiserver.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>

namespace schedkit::e2e {

TestApiServer& Server() {
  static std::unique_ptr<TestApiServer> server = [] {
    auto started = TestApiServer::Start();
    if (!started.ok()) FAIL(std::string(started.status().message()));
    return *std::move(started);
  }();
  return *server;
}

}  // namespace schedkit::e2e
