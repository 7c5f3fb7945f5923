// Go's string formatting as upstream's messages use it: strconv.Quote (fmt's
// %q), encoding/json's string encoding and fmt's %v of a []string. Expected
// strings are what Go prints for the same input (checked against go1.26).
#include "api/go_format.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace schedkit {
namespace {

TEST_CASE("GoQuote is strconv.Quote", "[go_format]") {
  struct Case {
    std::string in;
    std::string want;
  };
  for (const Case& c : std::vector<Case>{
           {"", R"("")"},
           {"MyName", R"("MyName")"},
           {"a\"b\\c", R"("a\"b\\c")"},
           {std::string("\a\b\f\n\r\t\v", 7), R"("\a\b\f\n\r\t\v")"},
           {std::string("\x00\x01\x1f\x7f", 4), R"("\x00\x01\x1f\x7f")"},
           {"<&>'", R"("<&>'")"},
           {"z\xc3\xa9ro", "\"z\xc3\xa9ro\""},                  // valid UTF-8 passes through
           {"\xe2\x82\xac", "\"\xe2\x82\xac\""},                // U+20AC
           {"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},        // U+1F600, four bytes
           {"\xc2\x85", R"("\u0085")"},                         // a C1 control
           {"soft\xc2\xadhyphen", R"("soft\u00adhyphen")"},     // U+00AD is not printable
           {"\xe2\x80\xa8", R"("\u2028")"},                     // line separator
           {"\xef\xbb\xbf", R"("\ufeff")"},                     // byte order mark
           {"\xff", R"("\xff")"},                               // not UTF-8
           {"\xc3", R"("\xc3")"},                               // a sequence cut short
           {"\xc0\xaf", R"("\xc0\xaf")"},                       // overlong
           {"\xed\xa0\x80", R"("\xed\xa0\x80")"},               // a surrogate
       }) {
    CAPTURE(c.in);
    CHECK(GoQuote(c.in) == c.want);
  }
}

TEST_CASE("JsonQuote is encoding/json's string encoding", "[go_format]") {
  struct Case {
    std::string in;
    std::string want;
  };
  for (const Case& c : std::vector<Case>{
           {"", R"("")"},
           {"In", R"("In")"},
           {"a\"b\\c", R"("a\"b\\c")"},
           {std::string("\b\f\n\r\t", 5), R"("\b\f\n\r\t")"},  // Go 1.22 and later
           {std::string("\x00\a\v\x1f", 4), R"("\u0000\u0007\u000b\u001f")"},
           {"\x7f", "\"\x7f\""},                                 // DEL passes
           {"<a&b>", R"("\u003ca\u0026b\u003e")"},               // HTML-safe
           {"z\xc3\xa9ro", "\"z\xc3\xa9ro\""},
           {"\xe2\x80\xa8\xe2\x80\xa9", R"("\u2028\u2029")"},
           {"\xc2\x85", "\"\xc2\x85\""},                         // C1 controls pass
           {"a\xffz", R"("a\ufffdz")"},                          // each bad byte is U+FFFD
           {"\xc3", R"("\ufffd")"},
       }) {
    CAPTURE(c.in);
    CHECK(JsonQuote(c.in) == c.want);
  }
}

TEST_CASE("GoStringList is fmt's %v of a []string", "[go_format]") {
  CHECK(GoStringList(std::vector<std::string>{}) == "[]");
  CHECK(GoStringList(std::vector<std::string>{"NodeAffinity"}) == "[NodeAffinity]");
  CHECK(GoStringList(std::vector<std::string>{"A", "B C"}) == "[A B C]");
}

// Go's time.Duration.String, on the values of its own TestDurationString.
TEST_CASE("FormatGoDuration is time.Duration.String", "[go_format]") {
  struct Case {
    absl::Duration in;
    const char* want;
  };
  for (const Case& c : {
           Case{absl::ZeroDuration(), "0s"},
           Case{absl::Nanoseconds(1), "1ns"},
           Case{absl::Nanoseconds(1100), "1.1\u00b5s"},
           Case{absl::Microseconds(2200), "2.2ms"},
           Case{absl::Milliseconds(3300), "3.3s"},
           Case{absl::Minutes(4) + absl::Seconds(5), "4m5s"},
           Case{absl::Minutes(4) + absl::Milliseconds(5001), "4m5.001s"},
           Case{absl::Hours(5) + absl::Minutes(6) + absl::Milliseconds(7001), "5h6m7.001s"},
           Case{absl::Minutes(8) + absl::Nanoseconds(1), "8m0.000000001s"},
           Case{absl::Seconds(15), "15s"},
           Case{absl::Minutes(10), "10m0s"},
           Case{absl::Hours(1), "1h0m0s"},
           Case{-absl::Nanoseconds(1), "-1ns"},
           Case{-absl::Minutes(4) - absl::Seconds(5), "-4m5s"},
       }) {
    CAPTURE(c.want);
    CHECK(FormatGoDuration(c.in) == c.want);
    absl::Duration back;
    CHECK(ParseGoDuration(FormatGoDuration(c.in), &back));
    CHECK(back == c.in);
  }
}

}  // namespace
}  // namespace schedkit
