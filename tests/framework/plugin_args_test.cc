// Typed plugin args (schedkit/framework/plugin_args.h): a declared args type
// decodes with upstream's strict rules, and every problem names the field;
// args written in a file name the file, profile and plugin in one line
// (tests/integration/plugin_args_config_test.cc: the in-tree plugins' args
// from a configuration file).
#include "schedkit/framework/plugin_args.h"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "schedkit/api/v1/pod.h"

namespace schedkit::framework {
namespace {

struct Point {
  int32_t x = 0;
  int32_t y = 0;
};

struct SampleArgs {
  std::string favorite_color;
  int64_t favorite_number = 7;
  std::vector<std::string> thanks_to;
  bool loud = false;
  double ratio = 0.5;
  absl::Duration timeout = absl::Seconds(10);
  std::optional<int32_t> limit;
  std::vector<Point> points;
  std::optional<Point> origin;
  std::optional<RawJson> extra;
  std::optional<api::v1::NodeAffinity> affinity;
};

const ArgsSpec<Point>& PointSpec() {
  static const auto* spec = ArgsSpec<Point>("Point")
                                .Field("x", &Point::x).Range(0, 10)
                                .Field("y", &Point::y)
                                .Validate([](const Point& p, ArgsErrors& errs) {
                                  if (p.y < p.x) errs.Invalid("y", p.y, "must not be below x");
                                })
                                .Leak();
  return *spec;
}

const ArgsSpec<SampleArgs>& SampleSpec() {
  static const auto* spec = ArgsSpec<SampleArgs>("Sample")
                                .Field("favoriteColor", &SampleArgs::favorite_color).Required()
                                .Field("favoriteNumber", &SampleArgs::favorite_number).Range(0, 100)
                                .Field("thanksTo", &SampleArgs::thanks_to)
                                .Field("loud", &SampleArgs::loud)
                                .Field("ratio", &SampleArgs::ratio)
                                .Field("timeout", &SampleArgs::timeout)
                                .Field("limit", &SampleArgs::limit).Min(1)
                                .Field("points", &SampleArgs::points, PointSpec())
                                .Field("origin", &SampleArgs::origin, PointSpec())
                                .Field("extra", &SampleArgs::extra)
                                .Field("affinity", &SampleArgs::affinity)
                                .Defaults([](SampleArgs& a) {
                                  if (a.thanks_to.empty()) a.thanks_to = {"everyone"};
                                })
                                .Leak();
  return *spec;
}

std::string ErrorOf(const PluginArgs& args) {
  absl::StatusOr<SampleArgs> got = DecodeArgs(args, SampleSpec());
  if (got.ok()) return "<ok>";
  CHECK(got.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(got.status().message());
}

TEST_CASE("Typed args: every field type decodes, defaults come from the type and Defaults",
          "[framework][args]") {
  absl::StatusOr<SampleArgs> a = DecodeArgs(PluginArgs(R"({
      "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "SampleArgs",
      "favoriteColor": "blue", "favoriteNumber": 42, "thanksTo": ["a", "b"], "loud": true, "ratio": 2,
      "timeout": "1m30s", "limit": 3, "points": [{"x": 1, "y": 2}, {"x": 3, "y": 4}], "origin": {"x": 0},
      "extra": {"k": [1, "two"]},
      "affinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
          {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}})"),
                                            SampleSpec());
  REQUIRE(a.ok());
  CHECK(a->favorite_color == "blue");
  CHECK(a->favorite_number == 42);
  CHECK(a->thanks_to == std::vector<std::string>{"a", "b"});
  CHECK(a->loud);
  CHECK(a->ratio == 2.0);
  CHECK(a->timeout == absl::Seconds(90));
  CHECK(a->limit == 3);
  REQUIRE(a->points.size() == 2);
  CHECK(a->points[1].x == 3);
  CHECK(a->points[1].y == 4);
  REQUIRE(a->origin.has_value());
  CHECK(a->origin->y == 0);
  REQUIRE(a->extra.has_value());
  CHECK(a->extra->text == R"({"k":[1,"two"]})");
  REQUIRE(a->affinity.has_value());
  CHECK(a->affinity->required_during_scheduling_ignored_during_execution().node_selector_terms(0)
            .match_expressions(0)
            .key() == "zone");

  absl::StatusOr<SampleArgs> d = DecodeArgs(PluginArgs(R"({"favoriteColor": "red", "limit": null})"), SampleSpec());
  REQUIRE(d.ok());
  CHECK(d->favorite_number == 7);
  CHECK(d->thanks_to == std::vector<std::string>{"everyone"});
  CHECK(d->timeout == absl::Seconds(10));
  CHECK_FALSE(d->limit.has_value());
  CHECK_FALSE(d->origin.has_value());
}

TEST_CASE("Typed args: strict decoding names the field at fault", "[framework][args]") {
  struct Case {
    std::string json;
    std::string want;
  };
  const std::vector<Case> cases = {
      {R"({"favoriteColour": "red"})", "Sample args: favoriteColour: unknown field"},
      {R"({"favoriteColor": 1})", "Sample args: favoriteColor: expected a string, got an integer"},
      {R"({"favoriteColor": "red", "favoriteNumber": 1.5})",
       "Sample args: favoriteNumber: expected an integer, got a number"},
      {R"({"favoriteColor": "red", "favoriteNumber": "1"})",
       "Sample args: favoriteNumber: expected an integer, got a string"},
      {R"({"favoriteColor": "red", "thanksTo": "x"})", "Sample args: thanksTo: expected an array, got a string"},
      {R"({"favoriteColor": "red", "thanksTo": ["x", 2]})",
       "Sample args: thanksTo[1]: expected a string, got an integer"},
      {R"({"favoriteColor": "red", "loud": "yes"})", "Sample args: loud: expected a boolean, got a string"},
      {R"({"favoriteColor": "red", "timeout": "soon"})", R"(Sample args: timeout: time: invalid duration "soon")"},
      {R"({"favoriteColor": "red", "timeout": "inf"})", R"(Sample args: timeout: time: invalid duration "inf")"},
      {R"({"favoriteColor": "red", "limit": 4294967296})",
       "Sample args: limit: Invalid value: 4294967296: not a 32-bit integer"},
      {R"({"favoriteColor": "red", "points": [{"x": 1, "z": 2}]})", "Sample args: points[0].z: unknown field"},
      {R"({"favoriteColor": "red", "points": [[]]})", "Sample args: points[0]: expected an object, got a list"},
      {R"({"favoriteColor": "red", "affinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerm": []}}})",
       "Sample args: affinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerm: unknown field"},
      {R"({"favoriteColor": "red", "affinity": {"required_during_scheduling_ignored_during_execution": {}}})",
       "Sample args: affinity.required_during_scheduling_ignored_during_execution: unknown field"},
      {R"([1])", "Sample args: expected an object, got a list"},
      {R"({"favoriteColor": )", "Sample args: malformed JSON"},
      {R"({"kind": "SampleArgs"})", "Sample args: favoriteColor: Required value"},
      {"", "Sample args: favoriteColor: Required value"},
      {R"({"favoriteColor": "red", "favoriteNumber": 101})",
       "Sample args: favoriteNumber: Invalid value: 101: must be between 0 and 100, inclusive"},
      {R"({"favoriteColor": "red", "limit": 0})",
       "Sample args: limit: Invalid value: 0: must be greater than or equal to 1"},
      {R"({"favoriteColor": "red", "origin": {"x": 11, "y": 3}})",
       "Sample args: [origin.x: Invalid value: 11: must be between 0 and 10, inclusive, "
       "origin.y: Invalid value: 3: must not be below x]"},
      {R"({"favoriteNumber": -1, "points": [{"x": 2, "y": 1}]})",
       "Sample args: [points[0].y: Invalid value: 1: must not be below x, favoriteColor: Required value, "
       "favoriteNumber: Invalid value: -1: must be between 0 and 100, inclusive]"},
  };
  for (const Case& c : cases) {
    INFO(c.json);
    CHECK(ErrorOf(PluginArgs(c.json)) == c.want);
  }
}

TEST_CASE("Typed args: args from a file name the file, field, plugin and profile in one line",
          "[framework][args]") {
  PluginArgs args(R"({"favoriteColor": "red", "favoriteNumber": 101})");
  args.set_source("sched.yaml: profiles[1].pluginConfig[0].args");
  args.set_owner("sample-scheduler", "Sample");
  CHECK(ErrorOf(args) ==
        "sched.yaml: profiles[1].pluginConfig[0].args.favoriteNumber: Invalid value: 101: must be between 0 and "
        "100, inclusive (plugin \"Sample\", profile \"sample-scheduler\")");

  PluginArgs in_code(R"({"favoriteColour": "red"})");
  in_code.set_owner("p", "Sample");
  CHECK(ErrorOf(in_code) == "profile \"p\": Sample args: favoriteColour: unknown field");
}

TEST_CASE("Typed args: ArgsErrors phrase problems as apimachinery does", "[framework][args]") {
  ArgsErrors errs;
  errs.Required("a");
  errs.Required("b", "can not be empty");
  errs.Invalid("c", std::string_view("x\"y"), "bad");
  errs.Invalid("d", int64_t{-3}, "negative");
  static constexpr std::string_view kSupported[] = {"A", "B"};
  errs.NotSupported("e", "C", kSupported);
  errs.Duplicate("f[1]", "cpu");
  errs.Forbidden("g", "gate off");
  CHECK(errs.ToStatus("P").message() ==
        "P args: [a: Required value, b: Required value: can not be empty, c: Invalid value: \"x\\\"y\": bad, "
        "d: Invalid value: -3: negative, e: Unsupported value: \"C\": supported values: \"A\", \"B\", "
        "f[1]: Duplicate value: \"cpu\", g: Forbidden: gate off]");
  CHECK(ArgsErrors().ToStatus("P").ok());
  CHECK(ArgsPath("", "a") == "a");
  CHECK(ArgsPath("a", "b") == "a.b");
  CHECK(ArgsPath("a", size_t{2}) == "a[2]");
  CHECK(ArgsPath("a", "[2].b") == "a[2].b");
}

struct Written {
  std::string kind;
  std::vector<std::string> names;
  std::optional<int32_t> limit;
  std::optional<int32_t> floor;
  int64_t count = 0;
  bool flag = false;
  absl::Duration wait = absl::Minutes(10);
  std::optional<Point> origin;
};

const ArgsSpec<Written>& WrittenSpec() {
  static const auto* spec = ArgsSpec<Written>("Written")
                                .Field("kind", &Written::kind).OmitEmpty()
                                .Field("names", &Written::names).OmitEmpty()
                                .Field("limit", &Written::limit).OmitEmpty()
                                .Field("floor", &Written::floor)
                                .Field("count", &Written::count)
                                .Field("flag", &Written::flag)
                                .Field("wait", &Written::wait)
                                .Field("origin", &Written::origin, PointSpec()).OmitEmpty()
                                .Defaults([](Written& w) {
                                  if (w.kind.empty()) w.kind = "Default";
                                })
                                .Leak();
  return *spec;
}

// The written form is what --write-config-to prints for a plugin's args:
// Go's encoding of the v1 type, omitempty fields left out when empty.
TEST_CASE("Typed args: EncodeArgs writes every field but the empty OmitEmpty ones", "[framework][args]") {
  Written w;
  w.kind = "";
  CHECK(EncodeArgs(w, WrittenSpec()) == R"({"count":0,"flag":false,"floor":null,"wait":"10m0s"})");
  w.kind = "K";
  w.names = {"a", "b"};
  w.limit = 0;  // set: an optional is empty only when unset
  w.floor = 3;
  w.origin = Point{1, 2};
  CHECK(EncodeArgs(w, WrittenSpec()) ==
        R"({"count":0,"flag":false,"floor":3,"kind":"K","limit":0,"names":["a","b"],"origin":{"x":1,"y":2},)"
        R"("wait":"10m0s"})");
}

TEST_CASE("Typed args: DefaultedArgs is the args decoded, defaulted and written back", "[framework][args]") {
  absl::StatusOr<std::string> got = DefaultedArgs(PluginArgs(R"({"names":["x"],"wait":"90s"})"), WrittenSpec());
  REQUIRE(got.ok());
  CHECK(*got == R"({"count":0,"flag":false,"floor":null,"kind":"Default","names":["x"],"wait":"1m30s"})");
  // Decoding errors are DecodeArgs's.
  got = DefaultedArgs(PluginArgs(R"({"nope":1})"), WrittenSpec());
  REQUIRE_FALSE(got.ok());
  CHECK(got.status().message() == "Written args: nope: unknown field");
  // An ArgsDefaulter calls the same.
  const ArgsDefaulter defaulted = DefaultsBy(WrittenSpec());
  CHECK(*defaulted(PluginArgs()) == R"({"count":0,"flag":false,"floor":null,"kind":"Default","wait":"10m0s"})");
}

}  // namespace
}  // namespace schedkit::framework
