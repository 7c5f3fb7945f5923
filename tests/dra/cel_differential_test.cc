// The C++ side of the CEL differential check against upstream (tests/cel/
// oracle, celoracle): random device-selector expressions and devices, with
// the verdicts kube-scheduler v1.37.2's code path gives (celoracle eval), run
// through SelectorCache/Matches and compared by outcome: the bool, or the
// error kind (celoracle's errkind table, ported below). Compile errors
// compare as "compile error or not"; those upstream's type checker reports
// (schedkit has no checker yet) count as "needs checker", not as failures.
//
// The committed sample is testdata/cel_differential/{inputs,upstream}.jsonl
// (celoracle gen -seed 20261207 -n 1000 | celoracle eval). A fresh run:
//   tests/dra/cel_differential.sh SEED N
// which sets SCHEDKIT_CEL_DIFF_INPUTS / SCHEDKIT_CEL_DIFF_UPSTREAM.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "dra/cel_device.h"
#include "schedkit/api/v1/resource_slice.h"

namespace schedkit::dra {
namespace {

using nlohmann::json;

struct Rule {
  bool prefix;  // starts with, else contains
  std::string_view text;
  std::string_view kind;
};

// celoracle's runtime error kinds (tests/cel/oracle/errkind.go, README's
// table), first match wins.
constexpr Rule kRuntimeKinds[] = {
    {true, "attribute ", "invalid_device"},
    {true, "operation cancelled: actual cost limit exceeded", "cost_limit"},
    {false, "actual cost limit exceeded", "cost_limit"},
    {false, "operation interrupted", "interrupted"},
    {true, "no such key", "no_such_key"},
    {true, "no such attribute", "no_such_attribute"},
    {true, "no such field", "no_such_field"},
    {true, "index out of range", "index_out_of_range"},
    {true, "index out of bounds", "index_out_of_range"},
    {true, "#index-out-of-range", "index_out_of_range"},  // "index N out of range", matched in code
    {false, "out of range: ", "index_out_of_range"},
    {true, "optional.none() dereference", "optional_none"},
    {true, "unsupported index", "invalid_index"},
    {true, "invalid qualifier type", "invalid_index"},
    {true, "unsupported comprehension range type", "not_iterable"},
    {false, "expected iterable type", "not_iterable"},
    {true, "list elements must be comparable", "not_comparable"},
    {true, "reference to undefined type", "undefined_type"},
    {true, "internal error:", "internal"},
    {true, "no such overload", "no_such_overload"},
    {true, "no matching overload", "no_such_overload"},
    {true, "found no matching overload", "no_such_overload"},
    {true, "CEL result of type", "result_not_bool"},
    {true, "division by zero", "division_by_zero"},
    {true, "modulus by zero", "modulus_by_zero"},
    {true, "integer overflow", "overflow"},
    {true, "unsigned integer overflow", "overflow"},
    {true, "duration overflow", "overflow"},
    {true, "timestamp overflow", "overflow"},
    {false, "overflow", "overflow"},
    {true, "range error", "range"},
    {false, "out of range", "range"},
    {true, "NaN values cannot be ordered", "nan_compare"},
    {true, "type conversion error", "type_conversion"},
    {true, "unsupported type conversion", "type_conversion"},
    {true, "strconv.", "type_conversion"},
    {true, "time: ", "invalid_duration"},
    {true, "parsing time ", "invalid_timestamp"},
    {true, "invalid timestamp", "invalid_timestamp"},
    {true, "unknown time zone", "invalid_timezone"},
    {false, "timezone", "invalid_timezone"},
    {false, "invalid UTF-8", "invalid_utf8"},
    {false, "invalid utf-8", "invalid_utf8"},
    {true, "error parsing regexp", "bad_regex"},
    {false, "error parsing regexp", "bad_regex"},
    {true, "invalid substring range", "invalid_argument"},
    {true, "invalid replacement string", "invalid_argument"},
    {true, "replacement string references group", "invalid_argument"},
    {true, "error during formatting", "format_error"},
    {true, "unrecognized formatting clause", "format_error"},
    {false, "formatting clause", "format_error"},
    {true, "could not find end of precision specifier", "format_error"},
    {true, "no formatting function", "format_error"},
    {false, "quantities must match the regular expression", "invalid_quantity"},
    {false, "unable to parse quantity", "invalid_quantity"},
    {false, "semver", "invalid_semver"},
    {false, "Version string empty", "invalid_semver"},
    {false, "No Major.Minor.Patch elements found", "invalid_semver"},
    {false, "Invalid character(s) found in", "invalid_semver"},
    {false, "Leading zeroes", "invalid_semver"},
    {false, "leading zeroes", "invalid_semver"},
    {false, "Major number", "invalid_semver"},
    {false, "short version cannot contain", "invalid_semver"},
    {false, "Minor number", "invalid_semver"},
    {false, "Patch number", "invalid_semver"},
    {false, "IP Address", "invalid_ip"},
    {false, "IP address", "invalid_ip"},
    {false, "IPv4-mapped IPv6 address", "invalid_ip"},
    {false, "network address parse error", "invalid_cidr"},
    {false, "CIDR", "invalid_cidr"},
    {false, "URL parse error", "invalid_url"},
    {false, "URL", "invalid_url"},
    {true, "cannot slice(", "invalid_argument"},
    {false, "called on empty list", "empty_list"},
    {true, "cannot convert value to integer", "range"},
    {true, "lists.range:", "invalid_argument"},
    {false, "argument must not be empty", "invalid_argument"},
    {false, "cannot be empty", "invalid_argument"},
    {true, "level must be non-negative", "invalid_argument"},
    {false, "negative", "invalid_argument"},
    {false, "repeated key", "duplicate_key"},
    {false, "already exists", "duplicate_key"},
};

std::string RuntimeKind(std::string_view m) {
  for (const Rule& r : kRuntimeKinds) {
    if (r.text == "#index-out-of-range") {
      if (m.rfind("index ", 0) == 0 && m.find(" out of range") != std::string_view::npos) return std::string(r.kind);
      continue;
    }
    bool hit = r.prefix ? m.rfind(r.text, 0) == 0 : m.find(r.text) != std::string_view::npos;
    if (hit) return std::string(r.kind);
  }
  return "other";
}

// Compile error kinds upstream's parser gives, and constant folding's
// (instantiation:*); every other compile error kind comes from the checker.
bool IsParserOrPlanKind(std::string_view kind) {
  return kind == "syntax" || kind == "macro" || kind.rfind("instantiation:", 0) == 0;
}

// Our compile error's kind: a parse error, or "instantiation:<runtime kind>".
std::string OurCompileKind(std::string_view detail) {
  constexpr std::string_view kInst = "program instantiation failed: ";
  if (detail.rfind(kInst, 0) == 0) return "instantiation:" + RuntimeKind(detail.substr(kInst.size()));
  return "parse";
}

bool ReadDevice(const json& j, api::v1::Device* dev, std::string* driver, bool* multi) {
  *driver = j.value("driver", "");
  *multi = j.value("allowMultipleAllocations", false);
  if (j.contains("attributes")) {
    for (const auto& [name, a] : j["attributes"].items()) {
      api::v1::DeviceAttribute& attr = (*dev->mutable_attributes())[name];
      if (a.contains("int")) attr.set_int_value(a["int"].get<int64_t>());
      if (a.contains("bool")) attr.set_bool_value(a["bool"].get<bool>());
      if (a.contains("string")) attr.set_string_value(a["string"].get<std::string>());
      if (a.contains("version")) attr.set_version_value(a["version"].get<std::string>());
      if (a.contains("ints")) {
        for (const auto& v : a["ints"]) attr.add_int_values(v.get<int64_t>());
      }
      if (a.contains("bools")) {
        for (const auto& v : a["bools"]) attr.add_bool_values(v.get<bool>());
      }
      if (a.contains("strings")) {
        for (const auto& v : a["strings"]) attr.add_string_values(v.get<std::string>());
      }
      if (a.contains("versions")) {
        for (const auto& v : a["versions"]) attr.add_version_values(v.get<std::string>());
      }
    }
  }
  if (j.contains("capacity")) {
    for (const auto& [name, c] : j["capacity"].items()) {
      (*dev->mutable_capacity())[name].set_value(c.value("value", ""));
    }
  }
  return true;
}

struct Outcome {
  std::string what;  // "true", "false", or "error:<kind>"
  uint64_t cost = 0;
};

Outcome UpstreamOutcome(const json& j) {
  Outcome o;
  if (j.contains("result")) o.what = j["result"].get<bool>() ? "true" : "false";
  if (j.contains("eval_error_kind")) o.what = "error:" + j["eval_error_kind"].get<std::string>();
  o.cost = j.value("cost", uint64_t{0});
  return o;
}

struct Counts {
  int agree = 0;
  int disagree = 0;
  int needs_checker = 0;
  int cost_differs = 0;  // agreeing outcome, different actual cost
  int skipped = 0;       // input_error lines
  std::vector<int> disagree_ids;
  std::map<std::string, int> disagree_by_kind;
  std::vector<std::string> examples;
};

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

Counts RunDifferential(const std::string& inputs_path, const std::string& upstream_path) {
  Counts c;
  std::vector<std::string> inputs = ReadLines(inputs_path);
  std::vector<std::string> upstream = ReadLines(upstream_path);
  REQUIRE(!inputs.empty());
  REQUIRE(inputs.size() == upstream.size());
  SelectorCache cache;
  for (size_t i = 0; i < inputs.size(); ++i) {
    json in = json::parse(inputs[i], nullptr, /*allow_exceptions=*/false);
    json up = json::parse(upstream[i], nullptr, /*allow_exceptions=*/false);
    REQUIRE(!in.is_discarded());
    REQUIRE(!up.is_discarded());
    REQUIRE(in["id"] == up["id"]);
    if (up.contains("input_error")) {
      ++c.skipped;
      continue;
    }
    const std::string expr = in["expression"].get<std::string>();
    auto note = [&](const std::string& why) {
      ++c.disagree;
      c.disagree_ids.push_back(in["id"].get<int>());
      ++c.disagree_by_kind[why];
      if (c.examples.size() < 40) c.examples.push_back(why + " | id " + std::to_string(in["id"].get<int>()) + " | " + expr);
    };
    CompileResult compiled = cache.GetOrCompile(expr);
    const bool up_compiled = up["compile"] == "ok";
    if (!up_compiled) {
      const std::string kind = up.value("compile_error_kind", "other");
      if (!compiled.error.ok()) {
        const std::string ours = OurCompileKind(std::string(compiled.error.message()));
        if (kind.rfind("instantiation:", 0) == 0 && ours != kind) {
          note("compile kind " + kind + " vs " + ours);
        } else {
          ++c.agree;
        }
      } else if (IsParserOrPlanKind(kind)) {
        note("upstream compile error " + kind + ", ours compiled");
      } else {
        ++c.needs_checker;
      }
      continue;
    }
    if (!compiled.error.ok()) {
      note("ours compile error: " + std::string(compiled.error.message()).substr(0, 120));
      continue;
    }
    api::v1::Device dev;
    std::string driver;
    bool multi = false;
    ReadDevice(in["device"], &dev, &driver, &multi);
    uint64_t cost = 0;
    absl::StatusOr<bool> m = compiled.selector->Matches(
        {.driver = driver, .allow_multiple_allocations = multi, .attributes = &dev.attributes(),
         .capacity = &dev.capacity()},
        &cost);
    Outcome ours;
    ours.what = m.ok() ? (*m ? "true" : "false") : "error:" + RuntimeKind(std::string(m.status().message()));
    ours.cost = cost;
    std::vector<Outcome> accepted = {UpstreamOutcome(up)};
    if (up.value("nondeterministic", false) && up.contains("alternatives")) {
      for (const json& alt : up["alternatives"]) accepted.push_back(UpstreamOutcome(alt));
    }
    bool same = false, same_cost = false;
    for (const Outcome& a : accepted) {
      if (a.what == ours.what) {
        same = true;
        same_cost = same_cost || a.cost == ours.cost;
      }
    }
    if (!same) {
      note("outcome " + accepted[0].what + " vs ours " + ours.what +
           (m.ok() ? "" : " (" + std::string(m.status().message()).substr(0, 80) + ")"));
      continue;
    }
    ++c.agree;
    if (!same_cost) {
      ++c.cost_differs;
      if (c.examples.size() < 40) {
        c.examples.push_back("cost " + std::to_string(accepted[0].cost) + " vs ours " + std::to_string(ours.cost) +
                             " | id " + std::to_string(in["id"].get<int>()) + " | " + expr);
      }
    }
  }
  return c;
}

void Report(const Counts& c, double seconds) {
  std::cout << "cel differential: agree " << c.agree << ", disagree " << c.disagree << ", needs checker "
            << c.needs_checker << ", cost differs " << c.cost_differs << ", skipped " << c.skipped << " ("
            << seconds << " s)\n";
  for (const auto& [k, n] : c.disagree_by_kind) std::cout << "  " << n << "  " << k << "\n";
  std::cout << "  disagreeing ids:";
  for (int id : c.disagree_ids) std::cout << " " << id;
  std::cout << "\n";
  for (const std::string& e : c.examples) std::cout << "  e.g. " << e << "\n";
}

TEST_CASE("device selectors agree with upstream on the committed sample", "[dra][cel][differential]") {
  const std::string dir = std::string(SCHEDKIT_TESTS_DIR) + "/dra/testdata/cel_differential/";
  auto start = std::chrono::steady_clock::now();
  Counts c = RunDifferential(dir + "inputs.jsonl", dir + "upstream.jsonl");
  Report(c, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  CHECK(c.agree > 0);
  CHECK(c.disagree == 0);
}

// A fresh sample, when tests/dra/cel_differential.sh points at one.
TEST_CASE("device selectors agree with upstream on a fresh sample", "[dra][cel][differential][.fresh]") {
  const char* inputs = std::getenv("SCHEDKIT_CEL_DIFF_INPUTS");
  const char* upstream = std::getenv("SCHEDKIT_CEL_DIFF_UPSTREAM");
  if (inputs == nullptr || upstream == nullptr) return;
  auto start = std::chrono::steady_clock::now();
  Counts c = RunDifferential(inputs, upstream);
  Report(c, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  CHECK(c.disagree == 0);
}

}  // namespace
}  // namespace schedkit::dra
