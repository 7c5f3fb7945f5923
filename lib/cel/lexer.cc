#include "cel/lexer.h"

#include <cstddef>

namespace schedkit::cel {
namespace {

bool IsDigit(char32_t c) { return c >= '0' && c <= '9'; }
bool IsLetter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsHex(char32_t c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

class Lexer {
 public:
  explicit Lexer(std::u32string_view text) : text_(text) {}

  LexResult Run() {
    LexResult out;
    size_t n = text_.size();
    size_t i = 0;
    while (i < n) {
      char32_t c = text_[i];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
        ++i;
        continue;
      }
      if (c == '/' && At(i + 1) == '/') {
        while (i < n && text_[i] != '\n') ++i;
        continue;
      }
      size_t end = i;
      TokenKind kind = TokenKind::kEof;
      if (!Match(i, end, kind)) {
        out.errors.push_back({static_cast<int32_t>(i),
                              "token recognition error at: '" + EncodeUtf8(text_.substr(i, 1)) + "'"});
        ++i;
        continue;
      }
      Token tok;
      tok.kind = kind;
      tok.start = static_cast<int32_t>(i);
      tok.end = static_cast<int32_t>(end);
      tok.text = EncodeUtf8(text_.substr(i, end - i));
      out.tokens.push_back(std::move(tok));
      i = end;
    }
    Token eof;
    eof.kind = TokenKind::kEof;
    eof.start = eof.end = static_cast<int32_t>(n);
    eof.text = "<EOF>";
    out.tokens.push_back(std::move(eof));
    return out;
  }

 private:
  char32_t At(size_t i) const { return i < text_.size() ? text_[i] : 0; }

  // Matches the longest token at i, as the ANTLR lexer does.
  bool Match(size_t i, size_t& end, TokenKind& kind) {
    char32_t c = text_[i];
    char32_t next = At(i + 1);
    auto one = [&](TokenKind k) {
      kind = k;
      end = i + 1;
      return true;
    };
    auto two = [&](TokenKind k) {
      kind = k;
      end = i + 2;
      return true;
    };
    switch (c) {
      case '=':
        if (next == '=') return two(TokenKind::kEquals);
        return false;
      case '!':
        if (next == '=') return two(TokenKind::kNotEquals);
        return one(TokenKind::kExclam);
      case '<':
        if (next == '=') return two(TokenKind::kLessEquals);
        return one(TokenKind::kLess);
      case '>':
        if (next == '=') return two(TokenKind::kGreaterEquals);
        return one(TokenKind::kGreater);
      case '&':
        if (next == '&') return two(TokenKind::kLogicalAnd);
        return false;
      case '|':
        if (next == '|') return two(TokenKind::kLogicalOr);
        return false;
      case '[': return one(TokenKind::kLBracket);
      case ']': return one(TokenKind::kRBracket);
      case '{': return one(TokenKind::kLBrace);
      case '}': return one(TokenKind::kRBrace);
      case '(': return one(TokenKind::kLParen);
      case ')': return one(TokenKind::kRParen);
      case ',': return one(TokenKind::kComma);
      case '-': return one(TokenKind::kMinus);
      case '?': return one(TokenKind::kQuestion);
      case ':': return one(TokenKind::kColon);
      case '+': return one(TokenKind::kPlus);
      case '*': return one(TokenKind::kStar);
      case '/': return one(TokenKind::kSlash);
      case '%': return one(TokenKind::kPercent);
      case '.':
        if (IsDigit(next)) {
          size_t j = i + 1;
          while (IsDigit(At(j))) ++j;
          j = SkipExponent(j);
          kind = TokenKind::kNumFloat;
          end = j;
          return true;
        }
        return one(TokenKind::kDot);
      case '`': {
        size_t j = i + 1;
        while (j < text_.size()) {
          char32_t e = text_[j];
          if (IsLetter(e) || IsDigit(e) || e == '_' || e == '.' || e == '-' || e == '/' || e == ' ') {
            ++j;
            continue;
          }
          break;
        }
        if (j == i + 1 || At(j) != '`') return false;
        kind = TokenKind::kEscIdentifier;
        end = j + 1;
        return true;
      }
      default:
        break;
    }
    if (IsDigit(c)) return MatchNumber(i, end, kind);
    if (c == '"' || c == '\'') {
      size_t j = 0;
      if (!MatchString(i, j)) return false;
      kind = TokenKind::kString;
      end = j;
      return true;
    }
    if (IsLetter(c) || c == '_') {
      // String and bytes prefixes: r"..", b"..", br"..".
      size_t j = 0;
      if ((c == 'r' || c == 'R') && (next == '"' || next == '\'') && MatchString(i, j)) {
        kind = TokenKind::kString;
        end = j;
        return true;
      }
      if ((c == 'b' || c == 'B') && MatchString(i + 1, j)) {
        kind = TokenKind::kBytes;
        end = j;
        return true;
      }
      size_t k = i + 1;
      while (IsLetter(At(k)) || IsDigit(At(k)) || At(k) == '_') ++k;
      std::u32string_view word = text_.substr(i, k - i);
      kind = TokenKind::kIdentifier;
      if (word == U"true") kind = TokenKind::kTrue;
      if (word == U"false") kind = TokenKind::kFalse;
      if (word == U"null") kind = TokenKind::kNull;
      if (word == U"in") kind = TokenKind::kIn;
      end = k;
      return true;
    }
    return false;
  }

  // EXPONENT: [eE] [+-]? DIGIT+, only when complete.
  size_t SkipExponent(size_t j) const {
    if (At(j) != 'e' && At(j) != 'E') return j;
    size_t k = j + 1;
    if (At(k) == '+' || At(k) == '-') ++k;
    if (!IsDigit(At(k))) return j;
    while (IsDigit(At(k))) ++k;
    return k;
  }

  bool MatchNumber(size_t i, size_t& end, TokenKind& kind) {
    if (text_[i] == '0' && At(i + 1) == 'x' && IsHex(At(i + 2))) {
      size_t j = i + 2;
      while (IsHex(At(j))) ++j;
      if (At(j) == 'u' || At(j) == 'U') {
        kind = TokenKind::kNumUint;
        end = j + 1;
      } else {
        kind = TokenKind::kNumInt;
        end = j;
      }
      return true;
    }
    size_t j = i;
    while (IsDigit(At(j))) ++j;
    if (At(j) == '.' && IsDigit(At(j + 1))) {
      size_t k = j + 1;
      while (IsDigit(At(k))) ++k;
      kind = TokenKind::kNumFloat;
      end = SkipExponent(k);
      return true;
    }
    size_t e = SkipExponent(j);
    if (e != j) {
      kind = TokenKind::kNumFloat;
      end = e;
      return true;
    }
    if (At(j) == 'u' || At(j) == 'U') {
      kind = TokenKind::kNumUint;
      end = j + 1;
      return true;
    }
    kind = TokenKind::kNumInt;
    end = j;
    return true;
  }

  // ESC_SEQ at j (a backslash): the length of a valid escape or 0.
  size_t EscapeLength(size_t j) const {
    char32_t c = At(j + 1);
    switch (c) {
      case 'a': case 'b': case 'f': case 'n': case 'r': case 't': case 'v':
      case '"': case '\'': case '\\': case '?': case '`':
        return 2;
      case 'x': case 'X':
        return IsHex(At(j + 2)) && IsHex(At(j + 3)) ? 4 : 0;
      case 'u':
        for (size_t k = 2; k < 6; ++k) {
          if (!IsHex(At(j + k))) return 0;
        }
        return 6;
      case 'U':
        for (size_t k = 2; k < 10; ++k) {
          if (!IsHex(At(j + k))) return 0;
        }
        return 10;
      default:
        break;
    }
    if (c >= '0' && c <= '3' && At(j + 2) >= '0' && At(j + 2) <= '7' && At(j + 3) >= '0' &&
        At(j + 3) <= '7') {
      return 4;
    }
    return 0;
  }

  // STRING at i (optionally raw: r/R prefix). Sets end past the closing quote.
  bool MatchString(size_t i, size_t& end) const {
    bool raw = false;
    size_t j = i;
    if (At(j) == 'r' || At(j) == 'R') {
      raw = true;
      ++j;
    }
    char32_t q = At(j);
    if (q != '"' && q != '\'') return false;
    size_t n = text_.size();
    if (At(j + 1) == q && At(j + 2) == q) {
      // Triple-quoted: the first unescaped closing triple ends it.
      size_t k = j + 3;
      while (k < n) {
        if (text_[k] == q && At(k + 1) == q && At(k + 2) == q) {
          end = k + 3;
          return true;
        }
        if (text_[k] == '\\' && !raw) {
          size_t len = EscapeLength(k);
          if (len == 0) break;
          k += len;
          continue;
        }
        ++k;
      }
      // No closing triple: ANTLR falls back to the empty string "".
      end = j + 2;
      return true;
    }
    size_t k = j + 1;
    while (k < n) {
      char32_t c = text_[k];
      if (c == q) {
        end = k + 1;
        return true;
      }
      if (c == '\n' || c == '\r') return false;
      if (c == '\\' && !raw) {
        size_t len = EscapeLength(k);
        if (len == 0) return false;
        k += len;
        continue;
      }
      ++k;
    }
    return false;
  }

  std::u32string_view text_;
};

}  // namespace

char32_t DecodeRuneAt(std::string_view text, size_t i, size_t* size) {
  size_t n = text.size();
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  auto cont = [&](size_t k) { return k < n && (byte(k) & 0xC0) == 0x80; };
  unsigned char b = byte(i);
  *size = 1;
  if (b < 0x80) return b;
  if (b >= 0xC2 && b <= 0xDF && cont(i + 1)) {
    *size = 2;
    return ((b & 0x1Fu) << 6) | (byte(i + 1) & 0x3Fu);
  }
  if (b >= 0xE0 && b <= 0xEF && cont(i + 1) && cont(i + 2)) {
    char32_t v = ((b & 0x0Fu) << 12) | ((byte(i + 1) & 0x3Fu) << 6) | (byte(i + 2) & 0x3Fu);
    if (v >= 0x800 && (v < 0xD800 || v > 0xDFFF)) {
      *size = 3;
      return v;
    }
  } else if (b >= 0xF0 && b <= 0xF4 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
    char32_t v = ((b & 0x07u) << 18) | ((byte(i + 1) & 0x3Fu) << 12) | ((byte(i + 2) & 0x3Fu) << 6) |
                 (byte(i + 3) & 0x3Fu);
    if (v >= 0x10000 && v <= 0x10FFFF) {
      *size = 4;
      return v;
    }
  }
  return 0xFFFD;
}

std::u32string DecodeUtf8(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    size_t size = 1;
    out.push_back(DecodeRuneAt(text, i, &size));
    i += size;
  }
  return out;
}

void AppendUtf8(char32_t c, std::string& out) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

std::string EncodeUtf8(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t c : text) AppendUtf8(c, out);
  return out;
}

LexResult Lex(std::u32string_view text) { return Lexer(text).Run(); }

std::string_view TokenDisplayName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEof: return "<EOF>";
    case TokenKind::kEquals: return "'=='";
    case TokenKind::kNotEquals: return "'!='";
    case TokenKind::kIn: return "'in'";
    case TokenKind::kLess: return "'<'";
    case TokenKind::kLessEquals: return "'<='";
    case TokenKind::kGreaterEquals: return "'>='";
    case TokenKind::kGreater: return "'>'";
    case TokenKind::kLogicalAnd: return "'&&'";
    case TokenKind::kLogicalOr: return "'||'";
    case TokenKind::kLBracket: return "'['";
    case TokenKind::kRBracket: return "']'";
    case TokenKind::kLBrace: return "'{'";
    case TokenKind::kRBrace: return "'}'";
    case TokenKind::kLParen: return "'('";
    case TokenKind::kRParen: return "')'";
    case TokenKind::kDot: return "'.'";
    case TokenKind::kComma: return "','";
    case TokenKind::kMinus: return "'-'";
    case TokenKind::kExclam: return "'!'";
    case TokenKind::kQuestion: return "'?'";
    case TokenKind::kColon: return "':'";
    case TokenKind::kPlus: return "'+'";
    case TokenKind::kStar: return "'*'";
    case TokenKind::kSlash: return "'/'";
    case TokenKind::kPercent: return "'%'";
    case TokenKind::kTrue: return "'true'";
    case TokenKind::kFalse: return "'false'";
    case TokenKind::kNull: return "'null'";
    case TokenKind::kNumFloat: return "NUM_FLOAT";
    case TokenKind::kNumInt: return "NUM_INT";
    case TokenKind::kNumUint: return "NUM_UINT";
    case TokenKind::kString: return "STRING";
    case TokenKind::kBytes: return "BYTES";
    case TokenKind::kIdentifier: return "IDENTIFIER";
    case TokenKind::kEscIdentifier: return "ESC_IDENTIFIER";
  }
  return "?";
}

}  // namespace schedkit::cel
