// Internal: strings formatted as upstream's Go code formats them, for error
// and failure messages that must match upstream byte for byte.
//
//   GoQuote("a\"b")          // "\"a\\\"b\""        fmt's %q, strconv.Quote
//   JsonQuote("<x>")         // "\"\\u003cx\\u003e\"" encoding/json's Marshal
//   GoStringList({"A", "B"}) // "[A B]"             fmt's %v of a []string
//
// Pure functions; any thread.
#ifndef SCHEDKIT_LIB_API_GO_FORMAT_H_
#define SCHEDKIT_LIB_API_GO_FORMAT_H_

#include <span>
#include <string>
#include <string_view>

#include "absl/time/time.h"

namespace schedkit {

// strconv.Quote: printable ASCII as is, `"` and `\` escaped, the C escapes
// (\a \b \f \n \r \t \v), other control bytes as \xNN. Valid UTF-8 passes
// through, except the runes Go prints escaped that occur in practice: the C1
// controls, U+00AD, U+2028, U+2029 and U+FEFF as \uNNNN. A byte that is not
// part of valid UTF-8 is \xNN.
std::string GoQuote(std::string_view s);

// encoding/json's string encoding (Go 1.22 and later): `"` and `\` escaped,
// \b \f \n \r \t, other control bytes and the HTML-sensitive < > & as \u00NN,
// U+2028 and U+2029 as \u2028 and \u2029, and each byte that is not part of
// valid UTF-8 as \ufffd.
std::string JsonQuote(std::string_view s);

// fmt's %v of a []string: the items separated by single spaces, in brackets.
std::string GoStringList(std::span<const std::string> items);

// The offset of the first byte that does not start a valid UTF-8 sequence,
// or npos.
size_t FirstInvalidUtf8(std::string_view s);
// utf8.ValidString.
bool IsValidUtf8(std::string_view s);

// time.ParseDuration: "1h2m3.5s", "-10ms", "0"; both micro signs for µs.
// False on anything Go refuses (Abseil's "inf" included).
bool ParseGoDuration(std::string_view text, absl::Duration* out);

// time.Duration.String: "10m0s", "1h0m0s", "1.5s", "300ms", "0s".
std::string FormatGoDuration(absl::Duration d);

}  // namespace schedkit

#endif  // SCHEDKIT_LIB_API_GO_FORMAT_H_
