// Tokens and literals: every literal form, escape and reserved word against
// cel-go v0.29.2's own parse of the same input (lexer_test_cases.inc), plus
// the literal decoding helpers on their own.
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "cel/debug_string.h"
#include "cel/lexer.h"
#include "cel/literals.h"
#include "cel/parser.h"

namespace schedkit::cel {
namespace {

struct LexCase {
  std::string_view input;
  std::string_view want_debug;  // empty when cel-go rejects the input
  std::string_view want_error;
};

const LexCase kLexCases[] = {
#include "cel/lexer_test_cases.inc"
};

std::string StripWhitespace(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out.push_back(c);
  }
  return out;
}

TEST_CASE("literals, escapes and tokens parse as cel-go's", "[cel][lexer]") {
  for (const LexCase& c : kLexCases) {
    INFO("input: " << c.input);
    ParseResult r = ParseWithIssues(c.input);
    if (!c.want_error.empty()) {
      INFO("cel-go: " << c.want_error);
      CHECK_FALSE(r.issues.empty());
      continue;
    }
    INFO("our issues: " << FormatIssues(r));
    REQUIRE(r.issues.empty());
    CHECK(StripWhitespace(ToDebugString(r.expr, DebugAdorner::kKindAndId)) == StripWhitespace(c.want_debug));
  }
}

TEST_CASE("longest match, as ANTLR's lexer", "[cel][lexer]") {
  auto kinds = [](std::string_view text) {
    std::string out;
    for (const Token& t : Lex(DecodeUtf8(text)).tokens) {
      out += std::string(TokenDisplayName(t.kind)) + " ";
    }
    return out;
  };
  CHECK(kinds("1.e5") == "NUM_INT '.' IDENTIFIER <EOF> ");
  CHECK(kinds("a.5") == "IDENTIFIER NUM_FLOAT <EOF> ");
  CHECK(kinds("0x1Fu") == "NUM_UINT <EOF> ");
  CHECK(kinds("1e+") == "NUM_INT IDENTIFIER '+' <EOF> ");
  CHECK(kinds("r'x' b'y' br'z'") == "STRING BYTES BYTES <EOF> ");
  CHECK(kinds("inside in") == "IDENTIFIER 'in' <EOF> ");
}

TEST_CASE("unescaping", "[cel][lexer]") {
  std::string out;
  CHECK(UnescapeLiteral("'\\101\\x41\\u0041\\U00000041'", false, out).empty());
  CHECK(out == "AAAA");
  CHECK(UnescapeLiteral("'\\xff'", false, out).empty());
  CHECK(out == "\xC3\xBF");  // a code point in strings
  CHECK(UnescapeLiteral("'\\xff'", true, out).empty());
  CHECK(out == "\xFF");  // a byte in bytes
  CHECK(UnescapeLiteral("'\\ud800'", false, out) == "invalid unicode code point");
  CHECK(UnescapeLiteral("'\\u0041'", true, out) == "unable to unescape string");
  CHECK(UnescapeLiteral("'''a\r\nb'''", false, out).empty());
  CHECK(out == "a\nb");
}

TEST_CASE("Go's float formatting", "[cel][lexer]") {
  CHECK(FormatDoubleGo(1e6) == "1e+06");
  CHECK(FormatDoubleGo(123456) == "123456");
  CHECK(FormatDoubleGo(0.0001) == "0.0001");
  CHECK(FormatDoubleGo(0.00001) == "1e-05");
  CHECK(FormatDoubleGo(-2.5) == "-2.5");
  CHECK(FormatDoubleGo(1.0 / 3) == "0.3333333333333333");
}

}  // namespace
}  // namespace schedkit::cel
