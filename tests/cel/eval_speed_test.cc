// A rough per-evaluation time for a DRA-style selector; hidden ([.]), run it
// with `schedkit_cel_tests "[cel-speed]"`. Real numbers belong in bench/.
#include <chrono>
#include <memory>

#include <catch2/catch.hpp>

#include "cel/eval.h"

namespace schedkit::cel {
namespace {

TEST_CASE("DRA selector evaluation speed", "[.][cel-speed]") {
  absl::StatusOr<Program> p = Compile(
      "device.driver == 'gpu.example.com' && device.attributes['gpu.example.com'].model == 'a100' && "
      "device.attributes['gpu.example.com'].cores >= 64");
  REQUIRE(p.ok());
  Value attrs = Value::Map({{Value::String("gpu.example.com"),
                             Value::Map({{Value::String("model"), Value::String("a100")},
                                         {Value::String("cores"), Value::Int(108)}})}});
  MapActivation vars;
  vars.Bind("device", Value::Map({{Value::String("driver"), Value::String("gpu.example.com")},
                                  {Value::String("attributes"), attrs}}));
  constexpr int kRuns = 200000;
  auto start = std::chrono::steady_clock::now();
  int matched = 0;
  for (int i = 0; i < kRuns; ++i) matched += p->Evaluate(vars).value.bool_value();
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  CHECK(matched == kRuns);
  WARN("ns per evaluation: " << ns / kRuns);
}

}  // namespace
}  // namespace schedkit::cel
