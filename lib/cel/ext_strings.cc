// cel-go's ext.Strings at version 2 (ext/strings.go, v0.29.2), as the
// Kubernetes base environment enables it: charAt, indexOf, lastIndexOf,
// lowerAscii, upperAscii, replace, split, substring, trim, join,
// strings.quote and string.format. Indexes count code points. At version 2
// there are no cost trackers: Kubernetes' CallCost prices these by function
// name, cel-go's defaults the rest.
#include <string>
#include <vector>

#include "cel/lexer.h"
#include "cel/library_support.h"
#include "cel/string_format.h"

namespace schedkit::cel {
namespace lib {
namespace {

std::u32string Runes(std::string_view s) {
  std::u32string out;
  size_t i = 0;
  while (i < s.size()) {
    size_t size = 1;
    out.push_back(DecodeRuneAt(s, i, &size));
    i += size;
  }
  return out;
}

Value OutOfRange(int64_t i) { return Err("index out of range: " + std::to_string(i)); }

Value CharAt(Args a) {
  std::u32string r = Runes(a[0].string_value());
  int64_t i = a[1].int_value();
  if (i < 0 || i > static_cast<int64_t>(r.size())) return OutOfRange(i);
  if (i == static_cast<int64_t>(r.size())) return Value::String("");
  return Value::String(EncodeUtf8(r.substr(static_cast<size_t>(i), 1)));
}

bool MatchAt(const std::u32string& r, const std::u32string& sub, size_t i) {
  for (size_t j = 0; j < sub.size(); ++j) {
    if (r[i + j] != sub[j]) return false;
  }
  return true;
}

Value IndexOfOffset(const std::string& s, const std::string& sub, int64_t off) {
  if (off < 0) return OutOfRange(off);
  std::u32string r = Runes(s);
  const int64_t n = static_cast<int64_t>(r.size());
  if (sub.empty()) return Value::Int(off > n ? n : off);
  std::u32string sr = Runes(sub);
  if (off >= n) return Value::Int(-1);
  for (int64_t i = off; i < n - (static_cast<int64_t>(sr.size()) - 1); ++i) {
    if (MatchAt(r, sr, static_cast<size_t>(i))) return Value::Int(i);
  }
  return Value::Int(-1);
}

Value LastIndexOfOffset(const std::string& s, const std::string& sub, int64_t off) {
  if (off < 0) return OutOfRange(off);
  std::u32string r = Runes(s);
  const int64_t n = static_cast<int64_t>(r.size());
  if (sub.empty()) return Value::Int(off > n ? n : off);
  std::u32string sr = Runes(sub);
  if (off >= n) return Value::Int(-1);
  if (off > n - static_cast<int64_t>(sr.size())) off = n - static_cast<int64_t>(sr.size());
  for (int64_t i = off; i >= 0; --i) {
    if (MatchAt(r, sr, static_cast<size_t>(i))) return Value::Int(i);
  }
  return Value::Int(-1);
}

Value IndexOf(Args a) { return IndexOfOffset(a[0].string_value(), a[1].string_value(), 0); }
Value IndexOfFrom(Args a) { return IndexOfOffset(a[0].string_value(), a[1].string_value(), a[2].int_value()); }
Value LastIndexOf(Args a) {
  const std::string& s = a[0].string_value();
  const std::string& sub = a[1].string_value();
  int64_t n = static_cast<int64_t>(Runes(s).size());
  if (sub.empty()) return Value::Int(n);
  if (s.size() < sub.size()) return Value::Int(-1);
  return LastIndexOfOffset(s, sub, n - 1);
}
Value LastIndexOfFrom(Args a) { return LastIndexOfOffset(a[0].string_value(), a[1].string_value(), a[2].int_value()); }

Value LowerAscii(Args a) {
  std::string s = a[0].string_value();
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return Value::String(std::move(s));
}
Value UpperAscii(Args a) {
  std::string s = a[0].string_value();
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return Value::String(std::move(s));
}

// Go's strings.Replace(s, old, new, n); n < 0 replaces all. An empty `old`
// matches before every rune and at the end.
std::string GoReplace(const std::string& s, const std::string& old, const std::string& repl, int64_t n) {
  if (old == repl || n == 0) return s;
  std::string out;
  if (old.empty()) {
    size_t i = 0;
    int64_t done = 0;
    while (true) {
      if (n >= 0 && done >= n) {
        out.append(s, i, std::string::npos);
        break;
      }
      out += repl;
      ++done;
      if (i >= s.size()) break;
      size_t size = 1;
      DecodeRuneAt(s, i, &size);
      out.append(s, i, size);
      i += size;
    }
    return out;
  }
  size_t start = 0;
  int64_t done = 0;
  while (n < 0 || done < n) {
    size_t at = s.find(old, start);
    if (at == std::string::npos) break;
    out.append(s, start, at - start);
    out += repl;
    start = at + old.size();
    ++done;
  }
  out.append(s, start, std::string::npos);
  return out;
}

Value Replace(Args a) { return Value::String(GoReplace(a[0].string_value(), a[1].string_value(), a[2].string_value(), -1)); }
Value ReplaceN(Args a) {
  return Value::String(GoReplace(a[0].string_value(), a[1].string_value(), a[2].string_value(), a[3].int_value()));
}

// Go's strings.SplitN(s, sep, n); n < 0: all.
std::vector<Value> GoSplit(const std::string& s, const std::string& sep, int64_t n) {
  std::vector<Value> out;
  if (n == 0) return out;
  if (sep.empty()) {
    std::u32string r = Runes(s);
    size_t i = 0;
    size_t byte = 0;
    for (; i < r.size(); ++i) {
      if (n > 0 && static_cast<int64_t>(out.size()) == n - 1) {
        out.push_back(Value::String(s.substr(byte)));
        return out;
      }
      size_t size = 1;
      DecodeRuneAt(s, byte, &size);
      out.push_back(Value::String(s.substr(byte, size)));
      byte += size;
    }
    return out;
  }
  size_t start = 0;
  while (n < 0 || static_cast<int64_t>(out.size()) < n - 1) {
    size_t at = s.find(sep, start);
    if (at == std::string::npos) break;
    out.push_back(Value::String(s.substr(start, at - start)));
    start = at + sep.size();
  }
  out.push_back(Value::String(s.substr(start)));
  return out;
}

Value Split(Args a) { return Value::List(GoSplit(a[0].string_value(), a[1].string_value(), -1)); }
Value SplitN(Args a) { return Value::List(GoSplit(a[0].string_value(), a[1].string_value(), a[2].int_value())); }

Value Substring(Args a) {
  std::u32string r = Runes(a[0].string_value());
  int64_t start = a[1].int_value();
  if (start < 0 || start > static_cast<int64_t>(r.size())) return OutOfRange(start);
  return Value::String(EncodeUtf8(r.substr(static_cast<size_t>(start))));
}
Value SubstringRange(Args a) {
  std::u32string r = Runes(a[0].string_value());
  int64_t start = a[1].int_value(), end = a[2].int_value();
  int64_t l = static_cast<int64_t>(r.size());
  if (start > end) {
    return Err("invalid substring range. start: " + std::to_string(start) + ", end: " + std::to_string(end));
  }
  if (start < 0 || start > l) return OutOfRange(start);
  if (end < 0 || end > l) return OutOfRange(end);
  return Value::String(EncodeUtf8(r.substr(static_cast<size_t>(start), static_cast<size_t>(end - start))));
}

// unicode.IsSpace.
bool IsSpace(char32_t c) {
  switch (c) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ': case 0x85: case 0xA0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

Value Trim(Args a) {
  std::u32string r = Runes(a[0].string_value());
  size_t b = 0, e = r.size();
  while (b < e && IsSpace(r[b])) ++b;
  while (e > b && IsSpace(r[e - 1])) --e;
  // Keep the bytes between (an invalid byte stays as it was).
  const std::string& s = a[0].string_value();
  size_t byte_begin = 0, byte_end = s.size();
  size_t i = 0, idx = 0;
  while (i < s.size()) {
    size_t size = 1;
    DecodeRuneAt(s, i, &size);
    if (idx == b) byte_begin = i;
    if (idx == e) {
      byte_end = i;
      break;
    }
    i += size;
    ++idx;
  }
  if (b == r.size()) byte_begin = s.size();
  if (byte_end < byte_begin) byte_end = byte_begin;
  return Value::String(s.substr(byte_begin, byte_end - byte_begin));
}

Value JoinWith(const Value& list, const std::string& sep) {
  std::string out;
  const auto& elems = list.list_elements();
  for (size_t i = 0; i < elems.size(); ++i) {
    if (i > 0) out += sep;
    if (elems[i].kind() != ValueKind::kString) return Err("join: invalid input: " + FormatForMessage(elems[i]));
    out += elems[i].string_value();
  }
  return Value::String(std::move(out));
}
Value Join(Args a) { return JoinWith(a[0], ""); }
Value JoinSep(Args a) { return JoinWith(a[0], a[1].string_value()); }

Value Quote(Args a) {
  std::string out = "\"";
  const std::string& s = a[0].string_value();
  size_t i = 0;
  while (i < s.size()) {
    size_t size = 1;
    char32_t c = DecodeRuneAt(s, i, &size);
    i += size;
    switch (c) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      default: AppendUtf8(c, out);
    }
  }
  return Value::String(out + "\"");
}

Value Format(Args a) { return FormatString(a[0].string_value(), a[1]); }

// Kubernetes' CallCost by function name.
uint64_t CostTraversal(Args a, const Value&) { return StringTraversal(a[0]); }
uint64_t CostDoubleTraversal(Args a, const Value&) {
  return CeilCost(static_cast<double>(ActualSize(a[0])), 2 * kStringTraversalCostFactor);
}
uint64_t CostJoin(Args, const Value& result) {
  return CeilCost(static_cast<double>(ActualSize(result)), 2 * kStringTraversalCostFactor);
}
uint64_t CostIndexOf(Args a, const Value&) { return KubernetesTraversalCost(a[0]); }

}  // namespace

void RegisterStringsExtension(FunctionRegistry& r) {
  AddOverload(r, "charAt", "string_char_at_int", {K::kString, K::kInt}, &CharAt);
  AddOverload(r, "indexOf", "string_index_of_string", {K::kString, K::kString}, &IndexOf, &CostIndexOf);
  AddOverload(r, "indexOf", "string_index_of_string_int", {K::kString, K::kString, K::kInt}, &IndexOfFrom,
              &CostIndexOf);
  AddOverload(r, "lastIndexOf", "string_last_index_of_string", {K::kString, K::kString}, &LastIndexOf, &CostIndexOf);
  AddOverload(r, "lastIndexOf", "string_last_index_of_string_int", {K::kString, K::kString, K::kInt},
              &LastIndexOfFrom, &CostIndexOf);
  AddOverload(r, "lowerAscii", "string_lower_ascii", {K::kString}, &LowerAscii, &CostTraversal);
  AddOverload(r, "upperAscii", "string_upper_ascii", {K::kString}, &UpperAscii, &CostTraversal);
  AddOverload(r, "replace", "string_replace_string_string", {K::kString, K::kString, K::kString}, &Replace,
              &CostDoubleTraversal);
  AddOverload(r, "replace", "string_replace_string_string_int", {K::kString, K::kString, K::kString, K::kInt},
              &ReplaceN, &CostDoubleTraversal);
  AddOverload(r, "split", "string_split_string", {K::kString, K::kString}, &Split, &CostDoubleTraversal);
  AddOverload(r, "split", "string_split_string_int", {K::kString, K::kString, K::kInt}, &SplitN,
              &CostDoubleTraversal);
  AddOverload(r, "substring", "string_substring_int", {K::kString, K::kInt}, &Substring, &CostTraversal);
  AddOverload(r, "substring", "string_substring_int_int", {K::kString, K::kInt, K::kInt}, &SubstringRange,
              &CostTraversal);
  AddOverload(r, "trim", "string_trim", {K::kString}, &Trim, &CostTraversal);
  AddOverload(r, "join", "list_join", {K::kList}, &Join, &CostJoin);
  AddOverload(r, "join", "list_join_string", {K::kList, K::kString}, &JoinSep, &CostJoin);
  AddOverload(r, "strings.quote", "strings_quote", {K::kString}, &Quote, &CostTraversal);
  AddOverload(r, "format", "string_format", {K::kString, K::kList}, &Format, &CostTraversal);
}

}  // namespace lib
}  // namespace schedkit::cel
