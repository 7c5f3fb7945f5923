// The public log (schedkit/base/log.h): -v filters info lines, warnings and
// errors always pass, and a host's sink receives what would go to stderr.
#include "schedkit/base/log.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace schedkit {
namespace {

TEST_CASE("log: -v keeps info lines up to its level; a sink receives them", "[log]") {
  std::vector<std::string> lines;
  SetLogSink([&](LogSeverity severity, std::string_view where, std::string_view message) {
    lines.push_back(std::string(severity == LogSeverity::kInfo ? "I " : severity == LogSeverity::kWarning ? "W " : "E ") +
                    std::string(where) + "] " + std::string(message));
  });
  SetLogVerbosity(2);
  CHECK(LogVerbosity() == 2);
  CHECK(LogEnabled(2));
  CHECK_FALSE(LogEnabled(3));
  LogInfo(2, "p", "kept");
  LogInfo(3, "p", "dropped");
  Log(LogSeverity::kWarning, "p", "a warning");
  SetLogVerbosity(0);
  LogInfo(1, "p", "dropped too");
  Log(LogSeverity::kError, "p", "an error");
  SetLogSink(nullptr);
  CHECK(lines == std::vector<std::string>{"I p] kept", "W p] a warning", "E p] an error"});
}

}  // namespace
}  // namespace schedkit
