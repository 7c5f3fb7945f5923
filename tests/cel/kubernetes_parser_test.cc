// The parser with the Kubernetes options: extension macros (two-variable
// comprehensions, optMap/optFlatMap, sortBy, cel.bind), optional syntax and
// escaped field names, against cel-go v0.29.2's own output for the same
// inputs (kubernetes_parser_test_cases.inc); plus the limits of the
// Kubernetes environment and robustness on arbitrary input.
#include <random>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "cel/debug_string.h"
#include "cel/parser.h"

namespace schedkit::cel {
namespace {

struct ExtensionParseCase {
  std::string_view input;
  std::string_view want_debug;  // empty when cel-go rejects the input
  std::string_view want_error;  // cel-go's first error line
};

const ExtensionParseCase kExtensionCases[] = {
#include "cel/kubernetes_parser_test_cases.inc"
};

std::string StripWhitespace(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out.push_back(c);
  }
  return out;
}

ParserOptions WithBindings() {
  ParserOptions o;
  o.macros.bindings = true;
  return o;
}

// "ERROR: <input>:1:7: ..." -> "<input>:1:7"
std::string Position(std::string_view error) {
  size_t start = error.find("<input>:");
  if (start == std::string_view::npos) return "";
  size_t end = error.find(": ", start);
  return std::string(error.substr(start, end - start));
}

TEST_CASE("extension macros and optional syntax parse as cel-go's", "[cel][parser]") {
  for (const ExtensionParseCase& c : kExtensionCases) {
    INFO("input: " << c.input);
    ParseResult r = ParseWithIssues(c.input, WithBindings());
    if (!c.want_error.empty()) {
      INFO("cel-go: " << c.want_error);
      REQUIRE_FALSE(r.issues.empty());
      CHECK(Position(FormatIssues(r)) == Position(c.want_error));
      continue;
    }
    INFO("our issues: " << FormatIssues(r));
    REQUIRE(r.issues.empty());
    CHECK(StripWhitespace(ToDebugString(r.expr, DebugAdorner::kKindAndId)) == StripWhitespace(c.want_debug));
  }
}

TEST_CASE("cel.bind is a plain call unless ext.Bindings is on", "[cel][parser]") {
  ParseResult r = ParseWithIssues("cel.bind(x, 1, x)");
  REQUIRE(r.issues.empty());
  CHECK(r.expr.root().kind == ExprKind::kCall);
  CHECK(r.expr.root().name == "bind");
}

TEST_CASE("Kubernetes parser limits", "[cel][parser]") {
  SECTION("nesting up to cel-go's default recursion limit of 250") {
    std::string ok(249, '(');
    ok += "1";
    ok += std::string(249, ')');
    CHECK(ParseWithIssues(ok).issues.empty());
    std::string deep(250, '(');
    deep += "1";
    deep += std::string(250, ')');
    ParseResult r = ParseWithIssues(deep);
    REQUIRE_FALSE(r.issues.empty());
    CHECK(r.issues[0].message == "expression recursion limit exceeded: 250");
  }
  SECTION("operator chains count as the visitor nests them") {
    std::string ok = "1";
    for (int i = 0; i < 250; ++i) ok += " + 1";
    CHECK(ParseWithIssues(ok).issues.empty());
    std::string deep = ok + " + 1";
    ParseResult r = ParseWithIssues(deep);
    REQUIRE_FALSE(r.issues.empty());
    CHECK(r.issues[0].message == "max recursion depth exceeded");
  }
  SECTION("logical chains are balanced and do not count") {
    std::string many = "a";
    for (int i = 0; i < 5000; ++i) many += " || a";
    CHECK(ParseWithIssues(many).issues.empty());
  }
  SECTION("100000 code points at most") {
    std::string big = "'" + std::string(99998, 'x') + "'";
    CHECK(ParseWithIssues(big).issues.empty());
    ParseResult r = ParseWithIssues(big + " ");
    REQUIRE_FALSE(r.issues.empty());
    CHECK(r.issues[0].message == "expression code point size exceeds limit: size: 100001, limit 100000");
  }
  SECTION("code points, not bytes") {
    std::string text = "'";
    for (int i = 0; i < 49999; ++i) text += "\xC3\xA9";  // é
    text += "'";
    CHECK(ParseWithIssues(text).issues.empty());
  }
}

TEST_CASE("arbitrary bytes never crash the parser", "[cel][parser]") {
  std::mt19937 rng(42);
  const std::string alphabet = "()[]{}.,?:!-+*/%<>=&|'\"`\\abcxyzu019 \n\tinrtuefl_\x80\xC3\xFF";
  int rejected = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string s;
    size_t len = rng() % 40;
    for (size_t k = 0; k < len; ++k) {
      s.push_back(rng() % 4 == 0 ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()]);
    }
    ParseResult r = ParseWithIssues(s);
    if (!r.issues.empty()) {
      ++rejected;
      CHECK_FALSE(FormatIssues(r).empty());
    } else {
      CHECK_FALSE(ToDebugString(r.expr).empty());
    }
  }
  CHECK(rejected > 0);
}

TEST_CASE("invalid UTF-8 is U+FFFD inside literals, as cel-go's rune buffer", "[cel][parser]") {
  ParseResult in_string = ParseWithIssues("'a\xFFz'");
  REQUIRE(in_string.issues.empty());
  CHECK(in_string.expr.root().constant.string_value == "a\xEF\xBF\xBDz");
  CHECK_FALSE(ParseWithIssues("a\xFF").issues.empty());
  CHECK(ParseWithIssues("a // \xFF comment").issues.empty());
}

}  // namespace
}  // namespace schedkit::cel
