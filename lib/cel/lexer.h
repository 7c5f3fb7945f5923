// The CEL lexer: turns source text into the tokens of cel-go's grammar
// (parser/gen/CEL.g4), matching ANTLR's longest-match rules, so that "1.e5"
// is an int then a select and ".5" is a double.
//
//   std::u32string text = DecodeUtf8(source);
//   LexResult lexed = Lex(text);
//
// Text is lexed as code points, as cel-go's rune buffer does: a byte that is
// not valid UTF-8 becomes U+FFFD (allowed inside string literals and
// comments, a token error elsewhere). Offsets are code point offsets.
// Stateless; safe to call concurrently.
#ifndef SCHEDKIT_CEL_LEXER_H_
#define SCHEDKIT_CEL_LEXER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schedkit::cel {

enum class TokenKind : uint8_t {
  kEof,
  kEquals,         // ==
  kNotEquals,      // !=
  kIn,             // in
  kLess,           // <
  kLessEquals,     // <=
  kGreaterEquals,  // >=
  kGreater,        // >
  kLogicalAnd,     // &&
  kLogicalOr,      // ||
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kLParen,
  kRParen,
  kDot,
  kComma,
  kMinus,
  kExclam,
  kQuestion,
  kColon,
  kPlus,
  kStar,
  kSlash,
  kPercent,
  kTrue,
  kFalse,
  kNull,
  kNumFloat,
  kNumInt,
  kNumUint,
  kString,
  kBytes,
  kIdentifier,
  kEscIdentifier,  // `a.b-c`
};

struct Token {
  TokenKind kind = TokenKind::kEof;
  int32_t start = 0;  // code point offset
  int32_t end = 0;    // one past the last code point
  std::string text;   // the token's source text, UTF-8
};

struct LexError {
  int32_t offset = 0;
  std::string message;
};

struct LexResult {
  std::vector<Token> tokens;  // always ends with kEof
  std::vector<LexError> errors;
};

// Decodes UTF-8 as Go's utf8.DecodeRuneInString does: an invalid byte
// becomes U+FFFD and decoding resumes at the next byte.
std::u32string DecodeUtf8(std::string_view text);
// One code point at byte i; *size is its length (1 for an invalid byte).
char32_t DecodeRuneAt(std::string_view text, size_t i, size_t* size);
void AppendUtf8(char32_t c, std::string& out);
std::string EncodeUtf8(std::u32string_view text);

LexResult Lex(std::u32string_view text);

// How the parser names a token in messages ('+', IDENTIFIER, <EOF>...).
std::string_view TokenDisplayName(TokenKind kind);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_LEXER_H_
