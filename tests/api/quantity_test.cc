// Quantity::Parse, Value, MilliValue and ParseResourceQuantity against facts
// taken from upstream's k8s.io/apimachinery/pkg/api/resource tests. Each table
// names the upstream test it comes from; upstream's expected quantities are
// restated as the Value() and MilliValue() they imply, since those are what
// schedkit reads.
#include "schedkit/api/quantity.h"

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace schedkit::api {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

struct Case {
  std::string_view input;
  int64_t value;
  int64_t milli;
};

// Parses `input` (which must be valid) and checks both accessors.
void CheckCase(const std::string& input, int64_t value, int64_t milli) {
  INFO("input: \"" << input << "\"");
  const absl::StatusOr<Quantity> q = Quantity::Parse(input);
  REQUIRE(q.ok());
  CHECK(q->Value() == value);
  CHECK(q->MilliValue() == milli);
  CHECK(q->IsZero() == (value == 0));
  CHECK(q->IsNegative() == (value < 0));
}

void CheckCases(std::initializer_list<Case> cases) {
  for (const Case& c : cases) CheckCase(std::string(c.input), c.value, c.milli);
}

// The negation of an accessor result for a row whose magnitude does not reach
// the int64 rail except by saturation: a saturated +rail becomes the -rail.
int64_t Negated(int64_t v) { return v == kMax ? kMin : -v; }

void CheckInvalid(std::string_view input) {
  INFO("input: \"" << std::string(input) << "\"");
  const absl::StatusOr<Quantity> q = Quantity::Parse(input);
  REQUIRE_FALSE(q.ok());
  CHECK(q.status().code() == absl::StatusCode::kInvalidArgument);
  const std::string prefix = "invalid quantity \"";
  CHECK(std::string(q.status().message()).rfind(prefix, 0) == 0);
}

// TestQuantityParse: the valid table. Upstream runs every row as written, with
// a leading "-" and with a leading "+"; so does this test. The rows upstream
// expects to be capped or to overflow are in the overflow tables below, where
// both signs are spelled out.
constexpr Case kQuantityParse[] = {
    {"0", 0, 0},
    {"0n", 0, 0},
    {"0u", 0, 0},
    {"0m", 0, 0},
    {"0Ki", 0, 0},
    {"0k", 0, 0},
    {"0Mi", 0, 0},
    {"0M", 0, 0},
    {"0Gi", 0, 0},
    {"0G", 0, 0},
    {"0Ti", 0, 0},
    {"0T", 0, 0},
    // Quantity less numbers are allowed.
    {"1", 1, 1000},
    // Binary suffixes.
    {"1Ki", 1024, 1024000},
    {"8Ki", 8192, 8192000},
    {"7Mi", 7340032, 7340032000},
    {"6Gi", 6442450944, 6442450944000},
    {"5Ti", 5497558138880, 5497558138880000},
    {"4Pi", 4503599627370496, 4503599627370496000},
    {"3Ei", 3458764513820540928, kMax},
    {"10Ti", 10995116277760, 10995116277760000},
    {"100Ti", 109951162777600, 109951162777600000},
    // Decimal suffixes.
    {"5n", 1, 1},
    {"4u", 1, 1},
    {"3m", 1, 3},
    {"9", 9, 9000},
    {"8k", 8000, 8000000},
    {"50k", 50000, 50000000},
    {"7M", 7000000, 7000000000},
    {"6G", 6000000000, 6000000000000},
    {"5T", 5000000000000, 5000000000000000},
    {"40T", 40000000000000, 40000000000000000},
    {"300T", 300000000000000, 300000000000000000},
    {"2P", 2000000000000000, 2000000000000000000},
    {"1E", 1000000000000000000, kMax},
    // Decimal exponents.
    {"1E-3", 1, 1},
    {"1e3", 1000, 1000000},
    {"1E6", 1000000, 1000000000},
    {"1e9", 1000000000, 1000000000000},
    {"1E12", 1000000000000, 1000000000000000},
    {"1e15", 1000000000000000, 1000000000000000000},
    {"1E18", 1000000000000000000, kMax},
    // Nonstandard but still parsable.
    {"1e14", 100000000000000, 100000000000000000},
    {"1e13", 10000000000000, 10000000000000000},
    {"100.035k", 100035, 100035000},
    // Things that look like floating point.
    {"0.001", 1, 1},
    {"0.0005k", 1, 500},
    {"0.005", 1, 5},
    {"0.05", 1, 50},
    {"0.5", 1, 500},
    {"0.00050k", 1, 500},
    {"0.00500", 1, 5},
    {"0.05000", 1, 50},
    {"0.50000", 1, 500},
    {"0.5e0", 1, 500},
    {"0.5e-1", 1, 50},
    {"0.5e-2", 1, 5},
    {"10.035M", 10035000, 10035000000},
    {"1.2e3", 1200, 1200000},
    {"1.3E+6", 1300000, 1300000000},
    {"1.40e9", 1400000000, 1400000000000},
    {"1.53E12", 1530000000000, 1530000000000000},
    {"1.6e15", 1600000000000000, 1600000000000000000},
    {"1.7E18", 1700000000000000000, kMax},
    {"9.01", 10, 9010},
    {"8.1k", 8100, 8100000},
    {"7.123456M", 7123456, 7123456000},
    {"6.987654321G", 6987654321, 6987654321000},
    {"5.444T", 5444000000000, 5444000000000000},
    {"40.1T", 40100000000000, 40100000000000000},
    {"300.2T", 300200000000000, 300200000000000000},
    {"2.5P", 2500000000000000, 2500000000000000000},
    {"1.01E", 1010000000000000000, kMax},
    // Things that saturate/round (upstream: rounded up to the next nano).
    {"3.001n", 1, 1},
    {"1.1E-9", 1, 1},
    {"0.0000000001", 1, 1},
    {"0.0000000005", 1, 1},
    {"0.00000000050", 1, 1},
    {"0.5e-9", 1, 1},
    {"0.9n", 1, 1},
    {"0.00000012345", 1, 1},
    {"0.00000012354", 1, 1},
    {"12E", kMax, kMax},
    // We'll accept fractional binary stuff, too.
    {"100.035Ki", 102436, 102435840},
    {"0.5Mi", 524288, 524288000},
    {"0.05Gi", 53687092, 53687091200},
    {"0.025Ti", 27487790695, 27487790694400},
    // Things written by trolls.
    {"0.000000000001Ki", 1, 1},
    {".001", 1, 1},
    {".0001k", 1, 100},
    {"1.", 1, 1000},
    {"1.G", 1000000000, 1000000000000},
};

TEST_CASE("TestQuantityParse: valid table, as written and signed", "[quantity]") {
  for (const Case& c : kQuantityParse) {
    const std::string input(c.input);
    CheckCase(input, c.value, c.milli);
    CheckCase("+" + input, c.value, c.milli);
    CheckCase("-" + input, Negated(c.value), Negated(c.milli));
  }
}

TEST_CASE("TestQuantityParse: invalid inputs", "[quantity]") {
  // Upstream's invalid list, plus its separate empty-string check.
  for (std::string_view input : {"", "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i",
                                 "-3.01i", "-3.01e-", "1e4294967297", " 1", "1 "}) {
    CheckInvalid(input);
  }
}

TEST_CASE("TestQuantityParseNonNumericPanic", "[quantity]") { CheckInvalid("Non-Numeric"); }

TEST_CASE("TestQuantityParseZero", "[quantity]") {
  const absl::StatusOr<Quantity> q = Quantity::Parse("0");
  REQUIRE(q.ok());
  CHECK(q->IsZero());
  CHECK_FALSE(q->IsNegative());
  CHECK(q->Value() == 0);
  CHECK(q->MilliValue() == 0);
}

TEST_CASE("TestParseQuantityString: the scanner's corner cases parse", "[quantity]") {
  CheckCases({
      {"0.025Ti", 27487790695, 27487790694400},
      {"1.025Ti", 1126999418471, 1126999418470400},
      {"-1.025Ti", -1126999418471, -1126999418470400},
      {".", 0, 0},
      {"-.", 0, 0},
      {"1E-3", 1, 1},
  });
}

TEST_CASE("TestQuantityParseEmit: binary fractions", "[quantity]") {
  // Upstream's canonical strings 1024m, 1024u, 1024n and 2n, read back as integers.
  constexpr Case kCases[] = {
      {"1Ki", 1024, 1024000},
      {"1Mi", 1048576, 1048576000},
      {"1Gi", 1073741824, 1073741824000},
      {"1024Mi", 1073741824, 1073741824000},
      {"1000M", 1000000000, 1000000000000},
      {".001Ki", 2, 1024},
      {".000001Ki", 1, 2},
      {".000000001Ki", 1, 1},
      {".000000000001Ki", 1, 1},
  };
  for (const Case& c : kCases) {
    CheckCase(std::string(c.input), c.value, c.milli);
    CheckCase("-" + std::string(c.input), -c.value, -c.milli);
  }
}

TEST_CASE("TestNegativeValueRoundsAwayFromZero", "[quantity]") {
  CheckCases({
      {"-.484785E-7466", -1, -1},
      {".484785E-7466", 1, 1},
      {"-.484785E-1", -1, -49},
      {".484785E-1", 1, 49},
      {"-0.0005", -1, -1},
      {"0.0005", 1, 1},
      {"-1500m", -2, -1500},
      {"1500m", 2, 1500},
      // Exact value +-10200547328.1073741824.
      {"-9.5000000001Gi", -10200547329, -10200547328108},
      {"9.5000000001Gi", 10200547329, 10200547328108},
      {"-1", -1, -1000},
      {"1", 1, 1000},
      {"0", 0, 0},
  });
}

TEST_CASE("TestQuantityRoundUp: scale 0 and milli rows", "[quantity]") {
  CheckCases({
      {"9.01", 10, 9010},
      {"-9.01", -10, -9010},
  });
}

TEST_CASE("TestScaledValue / TestNewScaledSet: one unit at each scale", "[quantity]") {
  CheckCases({
      {"1n", 1, 1},
      {"1u", 1, 1},
      {"1m", 1, 1},
      {"1", 1, 1000},
      {"1000n", 1, 1},
      {"1000u", 1, 1},
  });
}

TEST_CASE("TestNewSet / TestMilliNewSet: canonical strings read back", "[quantity]") {
  CheckCases({
      {"1", 1, 1000},
      {"1k", 1000, 1000000},
      {"1234k", 1234000, 1234000000},
      {"1Ki", 1024, 1024000},
      {"1e6", 1000000, 1000000000},
      {"1Mi", 1048576, 1048576000},
      {"1m", 1, 1},
      {"1234", 1234, 1234000},
      {"1e3", 1000, 1000000},
  });
}

TEST_CASE("TestParseQuantitySubNanoRoundsUp", "[quantity]") {
  // Upstream rounds these to +-1n (or keeps 2n); as integers all read as +-1.
  CheckCases({
      {"1e-2147483647", 1, 1},
      {"-1e-2147483647", -1, -1},
      {"1e-100", 1, 1},
      {"-1e-100", -1, -1},
      {"1e-10", 1, 1},
      {"9e-10", 1, 1},
      {"-9e-10", -1, -1},
      {"1e-9", 1, 1},
      {"-1e-9", -1, -1},
      {"2e-9", 1, 1},
      {"15e-10", 1, 1},
      {"1000000000000000000000e-30", 1, 1},
      {"1000000000000000000001e-30", 1, 1},
      {"999999999999999999999e-30", 1, 1},
      {"0e-2147483647", 0, 0},
      {"0.0e-100", 0, 0},
      {"0.00000000000000000000001Ki", 1, 1},
  });
}

TEST_CASE("quantity_overflow_test accessorCases: parsed quantities", "[quantity]") {
  CheckCases({
      // In range or capped at parse time.
      {"9223372036854775807", kMax, kMax},
      {"1E", 1000000000000000000, kMax},
      {"8Ei", kMax, kMax},
      {"-8Ei", -kMax, kMin},
      {"20Ei", kMax, kMax},
      {"-20Ei", -kMax, kMin},
      // Positive magnitude over int64: saturates.
      {"9223372036854775808", kMax, kMax},
      {"18446744073709551616", kMax, kMax},
      {"100E", kMax, kMax},
      {"1000E", kMax, kMax},
      {"5000E", kMax, kMax},
      {"1e100", kMax, kMax},
      // Negative 19-digit values: Value fits, MilliValue saturates.
      {"-9223372036854775808", kMin, kMin},
      {"-9223372036854775807", kMin + 1, kMin},
      // Negative magnitude over int64.
      {"-1e30", kMin, kMin},
      {"-100E", kMin, kMin},
      {"-1000E", kMin, kMin},
      // Negative rounding: the magnitude fits and rounds away from zero.
      {"-9.5Gi", -10200547328, -10200547328000},
      {"-9.5000000001Gi", -10200547329, -10200547328108},
  });
}

TEST_CASE("TestQuantityParse capped rows and TestQuantityDecOnlyOverflow", "[quantity]") {
  CheckCases({
      // TestQuantityParse: BinarySI is capped at 2^63-1 in magnitude at parse time.
      {"9Ei", kMax, kMax},
      {"-9Ei", -kMax, kMin},
      {"9223372036854775807Ki", kMax, kMax},
      {"-9223372036854775807Ki", -kMax, kMin},
      // Just under 8Ei, still above 2^63-1: capped too, so -Value is -(2^63-1).
      {"-7.99999999999999999999Ei", -kMax, kMin},
      // TestQuantityDecOnlyOverflow: decimal quantities are not capped; they saturate.
      {"1e100", kMax, kMax},
      {"-1e100", kMin, kMin},
      {"9223372036854775807", kMax, kMax},
      {"-9223372036854775808", kMin, kMin},
      {"9223372036854775808", kMax, kMax},
      {"-9223372036854775809", kMin, kMin},
  });
}

TEST_CASE("TestInterpretExponentInt32Bounds", "[quantity]") {
  CheckCases({
      {"1e14", 100000000000000, 100000000000000000},
      {"1E2147483647", kMax, kMax},
      {"1E-2147483647", 1, 1},
      {"1e+0003", 1000, 1000000},
  });
  for (std::string_view input : {"1E2147483648", "1E-2147483648", "1E4294967297", "1E8589934592",
                                 "1E9223372036854775807", "1E9223372036854775808",
                                 "1E6024865272343", "0e2147483648"}) {
    CheckInvalid(input);
  }
}

TEST_CASE("Digit-less numbers read as zero, as upstream's scanner reads them", "[quantity]") {
  // quantity_exact_policy_test.go parseFrozenExamples: "-", "+", ".", "e3", "-e3".
  // The suffix rows follow from quantity.go: its int64 fast path keeps them.
  for (std::string_view input : {"-", "+", ".", "-.", "+.", "e3", "-e3", "Ki", "Mi", "Gi", "Ti",
                                 "-Ki", "n", "m", "k", "E", "e-9", ".e18"}) {
    CheckCase(std::string(input), 0, 0);
  }
  // Where quantity.go takes its inf.Dec path instead, re-reading the number
  // finds no digits: a decimal exponent below nano, and the Pi and Ei suffixes.
  for (std::string_view input : {"e-10", "-.e-10", "Pi", "Ei", ".Ei"}) {
    CheckInvalid(input);
    const absl::StatusOr<Quantity> q = Quantity::Parse(input);
    CHECK(std::string(q.status().message()).find("numeric part") != std::string::npos);
  }
}

TEST_CASE("Shapes and suffixes upstream rejects", "[quantity]") {
  // Format errors (the text does not split into number and suffix) and suffix
  // errors (it splits, but the suffix is not one); suffixes are case-sensitive.
  for (std::string_view input :
       {"1.5.5", "1Kb", "1KiB", "1ki", "1mi", "1K", "1e", "1ee3", "1eE3", "1e+", "1e3e",
        "1e3.5", "1e--3", "1e3Ki", "1Ki5", "1Mi-", "1+", "--1", "+-1", "-+1", "1 Gi", "1\t",
        "\n1", "1,5", "0x10", "1/2", "inf", "NaN", "one", "1Gi ", "١"}) {
    CheckInvalid(input);
  }
}

TEST_CASE("Error messages quote the text and give upstream's reason", "[quantity]") {
  auto message = [](std::string_view input) {
    return std::string(Quantity::Parse(input).status().message());
  };
  CHECK(message("1.5.5") ==
        "invalid quantity \"1.5.5\": quantities must match the regular expression "
        "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  CHECK(message("") ==
        "invalid quantity \"\": quantities must match the regular expression "
        "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  CHECK(message("1ki") == "invalid quantity \"1ki\": unable to parse quantity's suffix");
  CHECK(message("1e4294967297") ==
        "invalid quantity \"1e4294967297\": unable to parse quantity's suffix: the exponent "
        "must be within -2147483647..2147483647");
  CHECK(message("Pi") == "invalid quantity \"Pi\": unable to parse numeric part of quantity");
  // Control characters and quotes are escaped, so the text stays readable.
  CHECK(message("1\n\"") ==
        "invalid quantity \"1\\n\\\"\": quantities must match the regular expression "
        "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}

TEST_CASE("Scheduler-facing values", "[quantity]") {
  CheckCases({
      {"100m", 1, 100},
      {"0.1", 1, 100},
      {"0.0001", 1, 1},
      {"1.5Gi", 1610612736, 1610612736000},
      {"1E3", 1000, 1000000},
      {"1e-3", 1, 1},
      {"123456789n", 1, 124},
      {"5.0000000001", 6, 5001},
      {"2.000", 2, 2000},
      {"250m", 1, 250},
      {"-250m", -1, -250},
      {"-0.1", -1, -100},
      {"00001.500", 2, 1500},
      {"0.0000000000000000000000000000001", 1, 1},
      {"-0", 0, 0},
      {"-0.000", 0, 0},
      {"+0Ki", 0, 0},
      {"9223372036854775.807", 9223372036854776, kMax},
      {"9223372036854775.807m", 9223372036855, 9223372036854776},
      {"-9223372036854775.808", -9223372036854776, kMin},
      {"-9223372036854775.809", -9223372036854776, kMin},
      {"9223372036854775807m", 9223372036854776, kMax},
      {"-9223372036854775808m", -9223372036854776, kMin},
      {"-9223372036854775809m", -9223372036854776, kMin},
      {"7Ei", 8070450532247928832, kMax},
      {"7.5Ei", 8646911284551352320, kMax},
      {"8191Pi", 9222246136947933184, kMax},
      {"8192Pi", kMax, kMax},
      {"-8192Pi", -kMax, kMin},
      {"18446744073709551616e-1", 1844674407370955162, kMax},
  });
  const absl::StatusOr<Quantity> minus_zero = Quantity::Parse("-0");
  REQUIRE(minus_zero.ok());
  CHECK(minus_zero->IsZero());
  CHECK_FALSE(minus_zero->IsNegative());
  const absl::StatusOr<Quantity> tiny_negative = Quantity::Parse("-1e-100");
  REQUIRE(tiny_negative.ok());
  CHECK_FALSE(tiny_negative->IsZero());
  CHECK(tiny_negative->IsNegative());
}

TEST_CASE("Long inputs stay exact and cheap", "[quantity]") {
  // A thousand fraction digits: exact rounding needs every one of them.
  std::string just_over = "1." + std::string(1000, '0') + "1";
  CheckCase(just_over, 2, 1001);
  std::string just_under = "0." + std::string(1000, '9');
  CheckCase(just_under, 1, 1000);
  // Leading zeros carry no magnitude, however many there are.
  CheckCase(std::string(1000, '0') + "42Ki", 43008, 43008000);
  // A huge mantissa with a huge negative exponent lands back in range.
  CheckCase("1" + std::string(500, '0') + "e-497", 1000, 1000000);
  CheckCase("-1" + std::string(500, '0') + "Ei", -kMax, kMin);
}

TEST_CASE("ParseResourceQuantity: cpu in millicores, the rest in units", "[quantity]") {
  struct ResourceCase {
    std::string_view resource;
    std::string_view text;
    int64_t want;
  };
  constexpr ResourceCase kCases[] = {
      {"cpu", "100m", 100},
      {"cpu", "0.1", 100},
      {"cpu", "1", 1000},
      {"cpu", "0.0001", 1},
      {"cpu", "1e-3", 1},
      {"cpu", "2.5", 2500},
      {"cpu", "-1", -1000},
      {"cpu", "1E", kMax},
      {"memory", "1Gi", 1073741824},
      {"memory", "1.5Gi", 1610612736},
      {"memory", "1e3", 1000},
      {"memory", "1E3", 1000},
      {"memory", "100m", 1},
      {"memory", "8Ei", kMax},
      {"memory", "9223372036854775808", kMax},
      {"ephemeral-storage", "10G", 10000000000},
      {"pods", "110", 110},
      {"hugepages-2Mi", "4Mi", 4194304},
      {"example.com/gpu", "2", 2},
      // Only the exact name "cpu" is counted in millicores.
      {"CPU", "1", 1},
      {"requests.cpu", "1", 1},
  };
  for (const ResourceCase& c : kCases) {
    INFO(std::string(c.resource) << ": " << std::string(c.text));
    const absl::StatusOr<int64_t> got = ParseResourceQuantity(c.resource, c.text);
    REQUIRE(got.ok());
    CHECK(*got == c.want);
  }
  const absl::StatusOr<int64_t> bad = ParseResourceQuantity("cpu", "1.5.5");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(bad.status().message()).rfind("invalid quantity \"1.5.5\": ", 0) == 0);
}

}  // namespace
}  // namespace schedkit::api
