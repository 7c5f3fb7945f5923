// Decoding of CEL literal tokens as cel-go's parser does: string and bytes
// quotes and escapes (parser/unescape.go), int/uint/double texts, and the
// Go-style formatting of doubles that debug strings and string(double) use.
//
//   std::string out;
//   std::string error = UnescapeLiteral("'\\u263A'", /*is_bytes=*/false, out);
//
// Pure functions; safe to call concurrently.
#ifndef SCHEDKIT_CEL_LITERALS_H_
#define SCHEDKIT_CEL_LITERALS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace schedkit::cel {

// Unquotes and unescapes a STRING token (with its quotes and optional r/R
// prefix; for bytes, without the b). Returns "" on success, else cel-go's
// error message ("invalid unicode code point", ...).
std::string UnescapeLiteral(std::string_view token, bool is_bytes, std::string& out);

// strconv.ParseInt / ParseUint / ParseFloat as cel-go's parser calls them.
std::optional<int64_t> ParseIntLiteral(std::string_view text, int base);
std::optional<uint64_t> ParseUintLiteral(std::string_view text, int base);
std::optional<double> ParseDoubleLiteral(std::string_view text);

// Go's strconv.FormatFloat(v, 'g', -1, 64), which fmt's %v also prints:
// shortest digits that round-trip, exponent form below 1e-4 and from 1e6.
std::string FormatDoubleGo(double v);

// Go's strconv.Quote: a double-quoted string with Go escapes.
std::string QuoteGo(std::string_view s);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_LITERALS_H_
