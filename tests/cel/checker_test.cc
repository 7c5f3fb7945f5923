// The type checker (lib/cel/checker.h) against cel-go v0.29.2:
//  - the declarations equal the DRA environment's own listing
//    (testdata/checker/functions.json, `celoracle functions`);
//  - cel-go's checker/checker_test.go table, ported as facts where it
//    applies to this environment (checker_test_cases.inc);
//  - a differential sample: 2,000 generated expressions with upstream's
//    compile verdicts (testdata/checker/upstream_verdicts.jsonl, from
//    `celoracle gen -seed 20261209 -n 2000 | celoracle eval`), which the
//    checker must accept and reject exactly as upstream, with the same first
//    issue. SCHEDKIT_CHECKER_VERDICTS=<file> runs a fresh sample made the
//    same way (see testdata/checker/README.md);
//  - targeted probes (testdata/checker/probes.txt: scoping, optionals,
//    struct literals, validators, type names, ...), verdicts made the same
//    way (probe_verdicts.jsonl).
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "cel/checker.h"
#include "cel/dra_declarations.h"
#include "cel/parser.h"
#include "cel/types.h"

namespace schedkit::cel {
namespace {

using nlohmann::json;

std::string TestData(std::string_view name) {
  return std::string(SCHEDKIT_TESTS_DIR) + "/cel/testdata/checker/" + std::string(name);
}

ParserOptions DraParserOptions() {
  ParserOptions options;
  options.macros.bindings = true;  // compile.go adds ext.Bindings
  return options;
}

// celoracle's compile error kinds (tests/cel/oracle/errkind.go), first
// match wins, applied to the first issue's message.
struct Rule {
  bool prefix;  // starts with, else contains
  std::string_view text;
  std::string_view kind;
};
constexpr Rule kCompileKinds[] = {
    {true, "Syntax error", "syntax"},
    {true, "unsupported syntax", "syntax"},
    {true, "reserved identifier", "syntax"},
    {true, "unable to unescape string", "syntax"},
    {false, "invalid int literal", "syntax"},
    {false, "invalid uint literal", "syntax"},
    {false, "invalid double literal", "syntax"},
    {false, "exceeded max recursion depth", "syntax"},
    {false, "expression recursion limit exceeded", "syntax"},
    {true, "invalid argument to has() macro", "macro"},
    {false, "argument must be a simple name", "macro"},
    {false, "argument is not an identifier", "macro"},
    {false, "can only be applied to", "macro"},
    {false, "macro", "macro"},
    {true, "undeclared reference", "undeclared_reference"},
    {true, "found no matching overload", "no_matching_overload"},
    {true, "undefined field", "undefined_field"},
    {true, "expected type", "type_mismatch"},
    {true, "type '", "type_mismatch"},
    {false, "does not support field selection", "type_mismatch"},
    {false, "expression of type", "type_mismatch"},
    {true, "invalid duration argument", "literal_validation"},
    {true, "invalid timestamp argument", "literal_validation"},
    {true, "invalid matches argument", "literal_validation"},
    {false, "invalid ", "literal_validation"},
    {true, "must evaluate to", "result_type"},
    {true, "could not parse formatting clause", "format_error"},
    {true, "#index-out-of-range", "format_error"},  // "index N out of range", matched in code
    {true, "error during formatting", "format_error"},
    {true, "unexpected failed resolution", "checker_internal"},
};

std::string_view CompileKind(std::string_view message) {
  for (const Rule& r : kCompileKinds) {
    if (r.text == "#index-out-of-range") {
      if (message.substr(0, 6) == "index " && message.find(" out of range") != std::string_view::npos) return r.kind;
      continue;
    }
    bool hit = r.prefix ? message.substr(0, r.text.size()) == r.text : message.find(r.text) != std::string_view::npos;
    if (hit) return r.kind;
  }
  return "other";
}

// What the checker (with the parser in front, as CompileSelector) answers:
// "ok" or the kind, and the first issue as "L:C: message" (the detail for
// the output type check).
struct Verdict {
  std::string verdict;
  std::string issue;
  // When the checker accepts: the overload ids of calls resolved to one
  // overload, and the functions of calls left with several (celoracle
  // refs' "overloads" and "ambiguous").
  std::set<std::string> overloads = {};
  std::set<std::string> ambiguous = {};
};

void CollectReferences(const ParsedExpr& expr, const CheckResult& checked, Verdict& v) {
  for (const Expr& e : expr.nodes()) {
    if (e.kind != ExprKind::kCall) continue;
    auto it = checked.references.find(e.id);
    if (it == checked.references.end()) continue;
    const Reference& r = it->second;
    if (r.overload_ids.size() == 1) v.overloads.insert(r.overload_ids[0]);
    if (r.overload_ids.size() > 1) v.ambiguous.insert(r.name);
  }
}

Verdict OurVerdict(std::string_view expression) {
  ParseResult parsed = ParseWithIssues(expression, DraParserOptions());
  if (!parsed.issues.empty()) {
    const ParseIssue& first = parsed.issues.front();
    auto [line, col] = parsed.source_info.Location(first.offset);
    return {.verdict = std::string(CompileKind(first.message)),
            .issue = std::to_string(line) + ":" + std::to_string(col + 1) + ": " + first.message};
  }
  DraSelectorCheck c = CheckDraSelector(parsed);
  Verdict v;
  if (c.checked.ok()) CollectReferences(parsed.expr, c.checked, v);
  if (c.status.ok()) {
    v.verdict = "ok";
    return v;
  }
  if (!c.checked.ok()) {
    const CheckIssue& first = c.checked.issues.front();
    auto [line, col] = parsed.source_info.Location(first.offset);
    return {.verdict = std::string(CompileKind(first.message)),
            .issue = std::to_string(line) + ":" + std::to_string(col + 1) + ": " + first.message};
  }
  std::string detail(c.status.message());
  v.verdict = CompileKind(detail);
  v.issue = detail;
  return v;
}

// ---------------------------------------------------------------------------
// Declarations

TEST_CASE("checker declarations equal the DRA environment's listing", "[cel][checker]") {
  std::ifstream in(TestData("functions.json"));
  REQUIRE(in.good());
  json listing = json::parse(in, nullptr, /*allow_exceptions=*/false);
  REQUIRE(listing.is_object());
  std::set<std::string> disabled;
  for (const auto& [name, why] : listing["unreachable_functions"].items()) disabled.insert(name);
  const CheckerDeclarations& decls = DraSelectorCheckerEnv().declarations;
  size_t functions = 0;
  for (const json& f : listing["functions"]) {
    std::string name = f["name"].get<std::string>();
    const FunctionDecl* fn = decls.FindFunction(name);
    if (disabled.contains(name)) {
      CHECK(fn == nullptr);  // DisableDeclaration: calling it is an undeclared reference
      continue;
    }
    ++functions;
    INFO(name);
    REQUIRE(fn != nullptr);
    REQUIRE(fn->overloads.size() == f["overloads"].size());
    for (size_t i = 0; i < fn->overloads.size(); ++i) {
      const OverloadDecl& o = fn->overloads[i];
      const json& want = f["overloads"][i];
      CHECK(o.id == want["id"].get<std::string>());
      CHECK(o.member == want["member"].get<bool>());
      CHECK(o.result.DebugString() == want["result"].get<std::string>());
      std::vector<std::string> args;
      for (const Type& a : o.args) args.push_back(a.DebugString());
      std::vector<std::string> want_args;
      if (want["args"].is_array()) {
        for (const json& a : want["args"]) want_args.push_back(a.get<std::string>());
      }
      CHECK(args == want_args);
    }
  }
  CHECK(decls.functions().size() == functions);
}


// ---------------------------------------------------------------------------
// Facts: cel-go checker/checker_test.go, ported

struct CheckerCase {
  std::string_view name;  // "TestCheck/<index in upstream's table>"
  std::string_view in;
  // Variables of the case's environment: "x: list(int); y: dyn".
  std::string_view vars = {};
  // Upstream's "default" test environment: is, ii, iu, iz, ib, id, ix and
  // the functions fg_s() and string.fi_s_s().
  bool default_env = false;
  bool cross_type_numeric_comparisons = true;
  // The output type's DebugString when the expression checks; empty when
  // it must fail.
  std::string_view out_type = {};
  // The first line of the expected issues ("ERROR: <input>:1:3: ...") when
  // it must fail.
  std::string_view err = {};
};

constexpr OverloadSpec kDefaultEnvFunctions[] = {
    {"fg_s", "fg_s_0", false, "", "string"},
    {"fi_s_s", "fi_s_s_0", true, "string", "string"},
};

// Upstream's test environment: the standard library over the protobuf
// registry, cross-type numeric comparisons on, no aggregate literal or
// validator options.
CheckerEnv TestCaseEnv(const CheckerCase& tc) {
  CheckerEnv env;
  env.options = {.homogeneous_aggregate_literals = false,
                 .cross_type_numeric_comparisons = tc.cross_type_numeric_comparisons,
                 .validate_duration_literals = false,
                 .validate_timestamp_literals = false,
                 .validate_regex_literals = false,
                 .validate_homogeneous_literals = false,
                 .validate_string_format = false};
  REQUIRE(env.declarations.AddOverloads(StandardLibraryOverloads()).ok());
  AddStandardTypes(env.declarations);
  if (tc.default_env) {
    REQUIRE(env.declarations.AddOverloads(kDefaultEnvFunctions).ok());
    for (auto [name, type] : {std::pair{"is", Type::String()}, {"ii", Type::Int()}, {"iu", Type::Uint()},
                              {"iz", Type::Bool()}, {"ib", Type::Bytes()}, {"id", Type::Double()},
                              {"ix", Type::Null()}}) {
      env.declarations.AddVariable(name, type);
    }
  }
  std::string_view vars = tc.vars;
  while (!vars.empty()) {
    size_t end = vars.find("; ");
    std::string_view one = vars.substr(0, end);
    size_t colon = one.find(": ");
    REQUIRE(colon != std::string_view::npos);
    absl::StatusOr<Type> t = ParseTypeSpec(one.substr(colon + 2));
    REQUIRE(t.ok());
    env.declarations.AddVariable(std::string(one.substr(0, colon)), *t);
    vars = end == std::string_view::npos ? std::string_view() : vars.substr(end + 2);
  }
  return env;
}

#include "cel/checker_test_cases.inc"

TEST_CASE("checker: cel-go checker_test.go cases", "[cel][checker]") {
  int passed = 0;
  int total = 0;
  for (const CheckerCase& tc : kCheckerCases) {
    ++total;
    INFO(tc.name << ": " << tc.in);
    ParseResult parsed = ParseWithIssues(tc.in, DraParserOptions());
    REQUIRE(parsed.issues.empty());
    CheckerEnv env = TestCaseEnv(tc);
    CheckResult r = Check(parsed.expr, env);
    std::string issues = FormatCheckIssues(r, parsed);
    INFO(issues);
    bool ok;
    if (tc.err.empty()) {
      ok = r.ok() && r.output_type.DebugString() == tc.out_type;
      CHECK(r.ok());
      CHECK(r.output_type.DebugString() == tc.out_type);
    } else {
      ok = !r.ok() && issues.find(tc.err) != std::string::npos;
      CHECK(!r.ok());
      CHECK_THAT(issues, Catch::Matchers::Contains(std::string(tc.err)));
    }
    passed += ok ? 1 : 0;
  }
  std::cout << "checker_test.go cases: " << passed << "/" << total << " pass\n";
}

// ---------------------------------------------------------------------------
// Facts: CompilationResult.Error's full detail, as celoracle eval prints it

struct DetailCase {
  std::string_view in;
  std::string_view detail;
};

constexpr DetailCase kDetailCases[] = {
    {.in = "\"日本\" == 1",
     .detail = "compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to "
               "'(string, int)'\n"
               " | \"日本\" == 1\n"
               " | .．．..^"},
    {.in = "x + y == z",
     .detail = "compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n"
               " | x + y == z\n"
               " | ^\n"
               "ERROR: <input>:1:5: undeclared reference to 'y' (in container '')\n"
               " | x + y == z\n"
               " | ....^\n"
               "ERROR: <input>:1:10: undeclared reference to 'z' (in container '')\n"
               " | x + y == z\n"
               " | .........^"},
    {.in = "\"é\" == 1 && 2",
     .detail = "compilation failed: ERROR: <input>:1:5: found no matching overload for '_==_' applied to "
               "'(string, int)'\n"
               " | \"é\" == 1 && 2\n"
               " | .．..^\n"
               "ERROR: <input>:1:13: expected type 'bool' but found 'int'\n"
               " | \"é\" == 1 && 2\n"
               " | .．..........^"},
    {.in = "device.foo",
     .detail = "compilation failed: ERROR: <input>:1:7: undefined field 'foo'\n"
               " | device.foo\n"
               " | ......^"},
    {.in = "device.driver", .detail = "must evaluate to bool or the unknown type, not string"},
    {.in = "[1, \"a\"].size() == 2",
     .detail = "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n"
               " | [1, \"a\"].size() == 2\n"
               " | ....^"},
    {.in = "\"%d\".format([\"a\"]) == \"\"",
     .detail = "compilation failed: ERROR: <input>:1:14: error during formatting: decimal clause can only be "
               "used on integers, was given string\n"
               " | \"%d\".format([\"a\"]) == \"\"\n"
               " | .............^"},
};

TEST_CASE("CheckDraSelector reports upstream's full error detail", "[cel][checker]") {
  for (const DetailCase& tc : kDetailCases) {
    INFO(tc.in);
    ParseResult parsed = ParseWithIssues(tc.in, DraParserOptions());
    REQUIRE(parsed.issues.empty());
    DraSelectorCheck c = CheckDraSelector(parsed);
    CHECK(c.status.code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(c.status.message()) == tc.detail);
  }
}

TEST_CASE("CheckDraSelector types and resolves a selector", "[cel][checker]") {
  ParseResult parsed = ParseWithIssues(
      "device.attributes['gpu.example.com'].memory > 8 && device.capacity['gpu.example.com'].memory"
      ".isGreaterThan(quantity('1Gi')) && format.dns1123Label().validate(device.driver).hasValue() == false",
      DraParserOptions());
  REQUIRE(parsed.issues.empty());
  DraSelectorCheck c = CheckDraSelector(parsed);
  REQUIRE(c.status.ok());
  CHECK(c.checked.output_type.DebugString() == "bool");
  std::map<std::string, std::vector<std::string>> by_function;
  for (const auto& [id, ref] : c.checked.references) {
    if (!ref.overload_ids.empty()) by_function[ref.name] = ref.overload_ids;
  }
  // dyn > int matches every ordering overload with an int right operand.
  CHECK(by_function["_>_"] == std::vector<std::string>{"greater_int64", "greater_uint64_int64",
                                                         "greater_double_int64"});
  CHECK(by_function["isGreaterThan"] == std::vector<std::string>{"quantity_is_greater_than"});
  CHECK(by_function["format.dns1123Label"] == std::vector<std::string>{"format.dns1123Label"});
  CHECK(by_function["validate"] == std::vector<std::string>{"format-validate"});
  CHECK(by_function["_==_"] == std::vector<std::string>{"equals"});
}

// ---------------------------------------------------------------------------
// Differential sample

// Runs one verdict file (make_verdicts.py's format) and checks that the
// checker accepts and rejects exactly as upstream, with the same first issue
// and the same resolved overloads. Differences inside the parser (its
// recovery messages, which of a syntax and a macro error comes first) are
// counted apart: they are not the checker's.
void RunDifferential(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  int total = 0;
  int accept_agree = 0;
  int kind_agree = 0;
  int issue_agree = 0;
  int parser_message_differs = 0;
  int with_refs = 0;
  int refs_agree = 0;
  std::map<std::string, int> mismatch_classes;
  std::vector<std::string> samples;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json rec = json::parse(line, nullptr, false);
    REQUIRE(rec.is_object());
    ++total;
    std::string expression = rec["expression"].get<std::string>();
    std::string want = rec["verdict"].get<std::string>();
    std::string want_issue = rec.contains("issue") ? rec["issue"].get<std::string>() : "";
    Verdict got = OurVerdict(expression);
    if (rec.contains("overloads")) {
      ++with_refs;
      std::set<std::string> want_overloads;
      std::set<std::string> want_ambiguous;
      for (const json& o : rec["overloads"]) want_overloads.insert(o.get<std::string>());
      if (rec.contains("ambiguous")) {
        for (const json& o : rec["ambiguous"]) want_ambiguous.insert(o.get<std::string>());
      }
      if (want_overloads == got.overloads && want_ambiguous == got.ambiguous) {
        ++refs_agree;
      } else if (samples.size() < 40) {
        std::string d = expression + "\n    resolved overloads differ:";
        for (const std::string& o : want_overloads) {
          if (!got.overloads.contains(o)) d += " -" + o;
        }
        for (const std::string& o : got.overloads) {
          if (!want_overloads.contains(o)) d += " +" + o;
        }
        for (const std::string& o : want_ambiguous) {
          if (!got.ambiguous.contains(o)) d += " -ambiguous:" + o;
        }
        for (const std::string& o : got.ambiguous) {
          if (!want_ambiguous.contains(o)) d += " +ambiguous:" + o;
        }
        samples.push_back(d);
      }
    }
    bool want_ok = want == "ok";
    bool got_ok = got.verdict == "ok";
    if (want_ok == got_ok) ++accept_agree;
    auto is_parse = [](const std::string& k) { return k == "syntax" || k == "macro"; };
    if (want == got.verdict && want_issue == got.issue) {
      ++kind_agree;
      ++issue_agree;
    } else if (is_parse(want) && is_parse(got.verdict)) {
      ++parser_message_differs;
    } else {
      if (want == got.verdict) ++kind_agree;
      mismatch_classes[want + " -> " + got.verdict]++;
      if (samples.size() < 40) {
        samples.push_back(expression + "\n    upstream: " + want + " " + want_issue + "\n    ours:     " + got.verdict +
                          " " + got.issue);
      }
    }
  }
  std::cout << "checker differential (" << total << " expressions): accept/reject agree " << accept_agree
            << ", kind agree " << kind_agree << ", first issue agree " << issue_agree
            << " (+ " << parser_message_differs << " parse errors whose parser message differs); resolved overloads agree "
            << refs_agree << "/" << with_refs << "\n";
  for (const auto& [cls, n] : mismatch_classes) std::cout << "  " << cls << ": " << n << "\n";
  if (std::getenv("SCHEDKIT_CHECKER_VERBOSE") != nullptr) {
    for (const std::string& s : samples) std::cout << "  " << s << "\n";
  }
  CHECK(accept_agree == total);
  CHECK(kind_agree + parser_message_differs == total);
  CHECK(issue_agree + parser_message_differs == total);
  CHECK(refs_agree == with_refs);
}

TEST_CASE("checker agrees with upstream on the generated sample", "[cel][checker]") {
  const char* override_path = std::getenv("SCHEDKIT_CHECKER_VERDICTS");
  RunDifferential(override_path != nullptr ? override_path : TestData("upstream_verdicts.jsonl"));
}

TEST_CASE("checker agrees with upstream on targeted probes", "[cel][checker]") {
  RunDifferential(TestData("probe_verdicts.jsonl"));
}

}  // namespace
}  // namespace schedkit::cel
