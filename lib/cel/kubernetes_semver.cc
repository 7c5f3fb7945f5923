// Kubernetes' Semver library at version 1 (k8s.io/apiserver pkg/cel/library/
// semverlib.go, v0.37.2): semver() and isSemver() with the normalize option,
// isGreaterThan, isLessThan, compareTo, major, minor, patch; versions parse
// as blang/semver v4's strict Parse, with its error texts.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cel/lexer.h"
#include "cel/library_support.h"
#include "cel/literals.h"

namespace schedkit::cel {
namespace lib {
namespace {

// strings.SplitN(s, sep, n) (n < 0: all).
std::vector<std::string_view> Split(std::string_view s, char sep, int n = -1) {
  std::vector<std::string_view> out;
  while (n < 0 || static_cast<int>(out.size()) < n - 1) {
    size_t at = s.find(sep);
    if (at == std::string_view::npos) break;
    out.push_back(s.substr(0, at));
    s.remove_prefix(at + 1);
  }
  out.push_back(s);
  return out;
}

struct PreRelease {
  bool is_num = false;
  uint64_t num = 0;
  std::string str;
};

struct Version {
  uint64_t major = 0, minor = 0, patch = 0;
  std::vector<PreRelease> pre;
  std::vector<std::string> build;
};

constexpr std::string_view kNumbers = "0123456789";
constexpr std::string_view kAlphanum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";

// Whether every rune of s is in set (an invalid UTF-8 byte is not).
bool ContainsOnly(std::string_view s, std::string_view set) {
  size_t i = 0;
  while (i < s.size()) {
    size_t size = 1;
    char32_t c = DecodeRuneAt(s, i, &size);
    if (c >= 0x80 || set.find(static_cast<char>(c)) == std::string_view::npos) return false;
    i += size;
  }
  return true;
}
bool HasLeadingZeroes(std::string_view s) { return s.size() > 1 && s[0] == '0'; }

// Go's strconv.ParseUint(s, 10, 64) with its error text.
bool ParseUint(std::string_view s, uint64_t* out, std::string* err) {
  if (s.empty()) {
    *err = "strconv.ParseUint: parsing " + QuoteGo(s) + ": invalid syntax";
    return false;
  }
  uint64_t v = 0;
  for (char c : s) {
    if (v > (UINT64_MAX - static_cast<uint64_t>(c - '0')) / 10) {
      *err = "strconv.ParseUint: parsing " + QuoteGo(s) + ": value out of range";
      return false;
    }
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = v;
  return true;
}

bool Parse(std::string_view s, Version* v, std::string* err) {
  if (s.empty()) return *err = "Version string empty", false;
  std::vector<std::string_view> parts = Split(s, '.', 3);
  if (parts.size() != 3) return *err = "No Major.Minor.Patch elements found", false;
  struct Field {
    std::string_view text;
    const char* name;
    const char* cap;
    uint64_t* out;
  };
  for (Field f : {Field{parts[0], "major", "Major", &v->major}, Field{parts[1], "minor", "Minor", &v->minor}}) {
    if (!ContainsOnly(f.text, kNumbers)) {
      return *err = std::string("Invalid character(s) found in ") + f.name + " number " + QuoteGo(f.text), false;
    }
    if (HasLeadingZeroes(f.text)) {
      return *err = std::string(f.cap) + " number must not contain leading zeroes " + QuoteGo(f.text), false;
    }
    if (!ParseUint(f.text, f.out, err)) return false;
  }
  std::string_view patch = parts[2];
  std::vector<std::string_view> build, pre;
  bool has_build = false, has_pre = false;
  if (size_t b = patch.find('+'); b != std::string_view::npos) {
    build = Split(patch.substr(b + 1), '.');
    has_build = true;
    patch = patch.substr(0, b);
  }
  if (size_t p = patch.find('-'); p != std::string_view::npos) {
    pre = Split(patch.substr(p + 1), '.');
    has_pre = true;
    patch = patch.substr(0, p);
  }
  if (!ContainsOnly(patch, kNumbers)) return *err = "Invalid character(s) found in patch number " + QuoteGo(patch), false;
  if (HasLeadingZeroes(patch)) return *err = "Patch number must not contain leading zeroes " + QuoteGo(patch), false;
  if (!ParseUint(patch, &v->patch, err)) return false;
  for (std::string_view p : has_pre ? pre : std::vector<std::string_view>{}) {
    if (p.empty()) return *err = "Prerelease is empty", false;
    PreRelease pr;
    if (ContainsOnly(p, kNumbers)) {
      if (HasLeadingZeroes(p)) {
        return *err = "Numeric PreRelease version must not contain leading zeroes " + QuoteGo(p), false;
      }
      if (!ParseUint(p, &pr.num, err)) return false;
      pr.is_num = true;
    } else if (ContainsOnly(p, kAlphanum)) {
      pr.str = std::string(p);
    } else {
      return *err = "Invalid character(s) found in prerelease " + QuoteGo(p), false;
    }
    v->pre.push_back(std::move(pr));
  }
  for (std::string_view b : has_build ? build : std::vector<std::string_view>{}) {
    if (b.empty()) return *err = "Build meta data is empty", false;
    if (!ContainsOnly(b, kAlphanum)) return *err = "Invalid character(s) found in build meta data " + QuoteGo(b), false;
    v->build.emplace_back(b);
  }
  return true;
}

// The library's normalizeAndParse: a leading "v" dropped, leading zeros of
// each part dropped, missing minor/patch filled with 0.
bool NormalizeAndParse(std::string_view s, Version* v, std::string* err) {
  if (!s.empty() && s[0] == 'v') s.remove_prefix(1);
  std::vector<std::string> parts;
  for (std::string_view p : Split(s, '.', 3)) parts.emplace_back(p);
  for (std::string& p : parts) {
    if (p.size() > 1) {
      size_t first = p.find_first_not_of('0');
      p = first == std::string::npos ? "" : p.substr(first);
      if (p.empty() || kNumbers.find(p[0]) == std::string_view::npos) p = "0" + p;
    }
  }
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos) {
      return *err = "short version cannot contain PreRelease/Build meta data", false;
    }
    while (parts.size() < 3) parts.push_back("0");
  }
  std::string joined = parts[0] + "." + parts[1] + "." + parts[2];
  return Parse(joined, v, err);
}

int Cmp(uint64_t a, uint64_t b) { return a == b ? 0 : (a > b ? 1 : -1); }

int CompareVersions(const Version& v, const Version& o) {
  if (int c = Cmp(v.major, o.major)) return c;
  if (int c = Cmp(v.minor, o.minor)) return c;
  if (int c = Cmp(v.patch, o.patch)) return c;
  if (v.pre.empty() && o.pre.empty()) return 0;
  if (v.pre.empty()) return 1;
  if (o.pre.empty()) return -1;
  size_t i = 0;
  for (; i < v.pre.size() && i < o.pre.size(); ++i) {
    const PreRelease& a = v.pre[i];
    const PreRelease& b = o.pre[i];
    int c;
    if (a.is_num && !b.is_num) {
      c = -1;
    } else if (!a.is_num && b.is_num) {
      c = 1;
    } else if (a.is_num) {
      c = Cmp(a.num, b.num);
    } else {
      c = a.str == b.str ? 0 : (a.str > b.str ? 1 : -1);
    }
    if (c != 0) return c;
  }
  if (i == v.pre.size() && i == o.pre.size()) return 0;
  return i == v.pre.size() ? -1 : 1;
}

class SemverObject final : public ObjectValue {
 public:
  explicit SemverObject(Version v) : v_(std::move(v)) {}
  std::string_view TypeName() const override { return kSemverType; }
  bool Equals(const ObjectValue& other) const override {
    return other.TypeName() == kSemverType && CompareVersions(v_, static_cast<const SemverObject&>(other).v_) == 0;
  }
  Value EqualTo(const Value& other) const override {
    if (!IsObject(other, kSemverType)) return other.is_error() ? other : NoSuchOverload();
    return Value::Bool(Equals(other.object()));
  }
  const Version& version() const { return v_; }

 private:
  Version v_;
};

const Version& VersionOf(const Value& v) { return As<SemverObject>(v).version(); }

Value ToSemver(std::string_view s, bool normalize) {
  Version v;
  std::string err;
  if (!(normalize ? NormalizeAndParse(s, &v, &err) : Parse(s, &v, &err))) return Err(err);
  return Value::Object(std::make_shared<SemverObject>(std::move(v)));
}
Value Semver1(Args a) { return ToSemver(a[0].string_value(), false); }
Value Semver2(Args a) { return ToSemver(a[0].string_value(), a[1].bool_value()); }
Value IsSemver1(Args a) { return Value::Bool(!ToSemver(a[0].string_value(), false).is_error()); }
Value IsSemver2(Args a) { return Value::Bool(!ToSemver(a[0].string_value(), a[1].bool_value()).is_error()); }
Value IsGreater(Args a) { return Value::Bool(CompareVersions(VersionOf(a[0]), VersionOf(a[1])) == 1); }
Value IsLess(Args a) { return Value::Bool(CompareVersions(VersionOf(a[0]), VersionOf(a[1])) == -1); }
Value CompareTo(Args a) { return Value::Int(CompareVersions(VersionOf(a[0]), VersionOf(a[1]))); }
Value Major(Args a) { return Value::Int(static_cast<int64_t>(VersionOf(a[0]).major)); }
Value Minor(Args a) { return Value::Int(static_cast<int64_t>(VersionOf(a[0]).minor)); }
Value Patch(Args a) { return Value::Int(static_cast<int64_t>(VersionOf(a[0]).patch)); }

}  // namespace

void RegisterSemverLibrary(FunctionRegistry& r) {
  const std::vector<std::string_view> s = {kSemverType};
  const std::vector<std::string_view> ss = {kSemverType, kSemverType};
  AddOverload(r, "semver", "string_to_semver", {K::kString}, &Semver1, &CostArg0Traversal);
  AddOverload(r, "semver", "string_bool_to_semver", {K::kString, K::kBool}, &Semver2, &CostArg0Traversal);
  AddOverload(r, "isSemver", "is_semver_string", {K::kString}, &IsSemver1, &CostArg0Traversal);
  AddOverload(r, "isSemver", "is_semver_string_bool", {K::kString, K::kBool}, &IsSemver2, &CostArg0Traversal);
  AddOverload(r, "isGreaterThan", "semver_is_greater_than", {K::kObject, K::kObject}, &IsGreater, &Cost1, ss);
  AddOverload(r, "isLessThan", "semver_is_less_than", {K::kObject, K::kObject}, &IsLess, &Cost1, ss);
  AddOverload(r, "compareTo", "semver_compare_to", {K::kObject, K::kObject}, &CompareTo, &Cost1, ss);
  AddOverload(r, "major", "semver_major", {K::kObject}, &Major, &Cost1, s);
  AddOverload(r, "minor", "semver_minor", {K::kObject}, &Minor, &Cost1, s);
  AddOverload(r, "patch", "semver_patch", {K::kObject}, &Patch, &Cost1, s);
}

}  // namespace lib

absl::StatusOr<Value> ParseSemver(std::string_view text) {
  Value v = lib::ToSemver(text, false);
  if (v.is_error()) return absl::InvalidArgumentError(v.error_message());
  return v;
}

}  // namespace schedkit::cel
