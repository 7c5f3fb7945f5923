// The parser against cel-go v0.29.2's own parser table (parser_test.go's
// testCases, ported as facts in parser_test_cases.inc): every accepted input
// must print the same debug string (ids included) and every rejected input
// must be rejected. Options as upstream's newTestParser: AllMacros, recursion
// depth 32, optional syntax only where a case turns it on.
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "cel/debug_string.h"
#include "cel/parser.h"

namespace schedkit::cel {
namespace {

struct UpstreamParseCase {
  int index = 0;
  std::string_view input;
  std::string_view want_debug;
  bool want_error = false;
  std::string_view upstream_error;  // cel-go's message, for the reader
  bool optional_syntax = false;
  bool hidden_accumulator = true;
  bool ident_escape = true;
};

const UpstreamParseCase kUpstreamCases[] = {
#include "cel/parser_test_cases.inc"
};

std::string StripWhitespace(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out.push_back(c);
  }
  return out;
}

ParserOptions UpstreamTestOptions(const UpstreamParseCase& c) {
  ParserOptions o;
  o.max_recursion_depth = 32;
  o.macros = MacroSet::Standard();
  o.enable_optional_syntax = c.optional_syntax;
  o.enable_hidden_accumulator_name = c.hidden_accumulator;
  o.enable_ident_escape_syntax = c.ident_escape;
  return o;
}

TEST_CASE("cel-go parser_test.go TestParse table", "[cel][parser]") {
  int passed = 0;
  for (const UpstreamParseCase& c : kUpstreamCases) {
    ParseResult r = ParseWithIssues(c.input, UpstreamTestOptions(c));
    INFO("upstream case " << c.index << ": " << c.input);
    if (c.want_error) {
      INFO("cel-go says: " << c.upstream_error);
      CHECK_FALSE(r.issues.empty());
      if (!r.issues.empty()) ++passed;
      continue;
    }
    INFO("our issues: " << FormatIssues(r));
    REQUIRE(r.issues.empty());
    std::string got = ToDebugString(r.expr, DebugAdorner::kKindAndId);
    INFO("got:\n" << got);
    CHECK(StripWhitespace(got) == StripWhitespace(c.want_debug));
    if (StripWhitespace(got) == StripWhitespace(c.want_debug)) ++passed;
  }
  CHECK(passed == static_cast<int>(std::size(kUpstreamCases)));
}

}  // namespace
}  // namespace schedkit::cel
