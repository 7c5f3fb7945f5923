// Kubernetes' format library (k8s.io/apiserver pkg/cel/library/format.go,
// v0.37.2): format.named(name), the constant formats format.dns1123Label()
// ... format.datetime(), and <format>.validate(s), which is none when s is
// valid, else the validation errors. Validation uses apimachinery's rules
// (lengths and regexes); the error texts name the rule but are shorter than
// apimachinery's.
#include <memory>

#include "cel/library_support.h"
#include "cel/time_functions.h"
#include "re2/re2.h"

namespace schedkit::cel {
namespace lib {
namespace {

using Validator = std::vector<std::string> (*)(const std::string& s);

bool Full(const std::string& s, const char* pattern) {
  static thread_local std::vector<std::pair<const char*, std::unique_ptr<RE2>>> cache;
  for (auto& [p, re] : cache) {
    if (p == pattern) return RE2::FullMatch(s, *re);
  }
  cache.emplace_back(pattern, std::make_unique<RE2>(pattern));
  return RE2::FullMatch(s, *cache.back().second);
}

constexpr char kLabel[] = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr char kSubdomain[] = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr char k1035[] = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr char kQualifiedName[] = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr char kLabelValue[] = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr char kUUID[] = "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}";
constexpr char kBase64[] = "(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?";

// apimachinery's maskTrailingDash for the *Prefix formats.
std::string Mask(const std::string& s, bool prefix) {
  if (prefix && s.size() > 1 && s.back() == '-') return s.substr(0, s.size() - 1) + "a";
  return s;
}

std::vector<std::string> Check(const std::string& s, size_t max, const char* re, const char* what) {
  std::vector<std::string> errs;
  if (s.size() > max) errs.push_back("must be no more than " + std::to_string(max) + " characters");
  if (!Full(s, re)) errs.push_back(std::string("a ") + what + " must match the regex " + re);
  return errs;
}

std::vector<std::string> Dns1123Label(const std::string& s) { return Check(Mask(s, false), 63, kLabel, "lowercase RFC 1123 label"); }
std::vector<std::string> Dns1123LabelPrefix(const std::string& s) { return Check(Mask(s, true), 63, kLabel, "lowercase RFC 1123 label"); }
std::vector<std::string> Dns1123Subdomain(const std::string& s) { return Check(Mask(s, false), 253, kSubdomain, "lowercase RFC 1123 subdomain"); }
std::vector<std::string> Dns1123SubdomainPrefix(const std::string& s) { return Check(Mask(s, true), 253, kSubdomain, "lowercase RFC 1123 subdomain"); }
std::vector<std::string> Dns1035Label(const std::string& s) { return Check(Mask(s, false), 63, k1035, "DNS-1035 label"); }
std::vector<std::string> Dns1035LabelPrefix(const std::string& s) { return Check(Mask(s, true), 63, k1035, "DNS-1035 label"); }
std::vector<std::string> LabelValue(const std::string& s) { return Check(s, 63, kLabelValue, "valid label"); }

std::vector<std::string> QualifiedName(const std::string& s) {
  std::vector<std::string> errs;
  size_t slash = s.find('/');
  std::string name = s;
  if (slash != std::string::npos) {
    if (s.find('/', slash + 1) != std::string::npos) {
      return {"a qualified name must consist of alphanumeric characters, '-', '_' or '.'"};
    }
    std::string prefix = s.substr(0, slash);
    name = s.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (auto& e : Dns1123Subdomain(prefix)) errs.push_back("prefix part " + e);
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > 63) {
    errs.push_back("name part must be no more than 63 characters");
  }
  if (!name.empty() && !Full(name, kQualifiedName)) errs.push_back("name part must match the regex");
  return errs;
}

std::vector<std::string> Uri(const std::string& s) {
  Value v = NoSuchOverload();
  const Function* url = nullptr;
  (void)v;
  (void)url;
  // ParseRequestURI: isURL's rule.
  static const Function* is_url = KubernetesFunctions().Find("isURL");
  Value arg = Value::String(s);
  Value ok = is_url->overloads[0].impl(std::span<const Value>(&arg, 1));
  if (ok.is_bool() && ok.bool_value()) return {};
  return {"invalid URI"};
}
std::vector<std::string> Uuid(const std::string& s) {
  if (Full(s, kUUID)) return {};
  return {"does not match the UUID format"};
}
std::vector<std::string> Byte(const std::string& s) {
  if (Full(s, kBase64)) return {};
  return {"invalid base64"};
}
std::vector<std::string> Date(const std::string& s) {
  if (s.size() == 10 && Full(s, "[0-9]{4}-[0-9]{2}-[0-9]{2}")) {
    Value t = ParseTimestamp(s + "T00:00:00Z");
    if (!t.is_error()) return {};
  }
  return {"invalid date"};
}
std::vector<std::string> DateTime(const std::string& s) {
  if (s.size() >= 4 && !ParseTimestamp(s).is_error()) return {};
  return {"invalid datetime"};
}

struct NamedFormat {
  const char* key;
  const char* name;
  Validator validate;
  uint64_t max_regex_size;
};

// ConstantFormats: urlLength 1103, base64Length 84, len(UUIDPattern) 70,
// len(DateTimePattern) 71.
const NamedFormat kFormats[] = {
    {"dns1123Label", "DNS1123Label", &Dns1123Label, 30},
    {"dns1123Subdomain", "DNS1123Subdomain", &Dns1123Subdomain, 60},
    {"dns1035Label", "DNS1035Label", &Dns1035Label, 30},
    {"qualifiedName", "QualifiedName", &QualifiedName, 60},
    {"dns1123LabelPrefix", "DNS1123LabelPrefix", &Dns1123LabelPrefix, 30},
    {"dns1123SubdomainPrefix", "DNS1123SubdomainPrefix", &Dns1123SubdomainPrefix, 60},
    {"dns1035LabelPrefix", "DNS1035LabelPrefix", &Dns1035LabelPrefix, 30},
    {"labelValue", "LabelValue", &LabelValue, 40},
    {"uri", "URI", &Uri, 1103},
    {"uuid", "uuid", &Uuid, 70},
    {"byte", "byte", &Byte, 84},
    {"date", "date", &Date, 71},
    {"datetime", "datetime", &DateTime, 71},
};

class FormatObject final : public ObjectValue {
 public:
  explicit FormatObject(const NamedFormat* f) : f_(f) {}
  std::string_view TypeName() const override { return kFormatType; }
  bool Equals(const ObjectValue& other) const override {
    return other.TypeName() == kFormatType && static_cast<const FormatObject&>(other).f_ == f_;
  }
  const NamedFormat& format() const { return *f_; }

 private:
  const NamedFormat* f_;
};

template <size_t kIndex>
Value Constant(Args) {
  return Value::Object(std::make_shared<FormatObject>(&kFormats[kIndex]));
}

Value Named(Args a) {
  for (const NamedFormat& f : kFormats) {
    if (a[0].string_value() == f.key) return Value::OptionalOf(Value::Object(std::make_shared<FormatObject>(&f)));
  }
  return Value::OptionalNone();
}

Value Validate(Args a) {
  std::vector<std::string> errs = As<FormatObject>(a[0]).format().validate(a[1].string_value());
  if (errs.empty()) return Value::OptionalNone();
  std::vector<Value> out;
  for (auto& e : errs) out.push_back(Value::String(std::move(e)));
  return Value::OptionalOf(Value::List(std::move(out)));
}

uint64_t CostValidate(Args a, const Value&) {
  uint64_t str = CeilCost(1.0 + static_cast<double>(ActualSize(a[1])), kStringTraversalCostFactor);
  uint64_t re = CeilCost(static_cast<double>(As<FormatObject>(a[0]).format().max_regex_size),
                         kRegexStringLengthCostFactor);
  return str * re;
}

template <size_t... I>
void AddConstants(FunctionRegistry& r, std::index_sequence<I...>) {
  (AddOverload(r, std::string("format.") + kFormats[I].key, std::string("format.") + kFormats[I].key, {},
               &Constant<I>),
   ...);
}

}  // namespace

void RegisterFormatLibrary(FunctionRegistry& r) {
  AddConstants(r, std::make_index_sequence<std::size(kFormats)>());
  AddOverload(r, "format.named", "format-named", {K::kString}, &Named, &Cost1);
  AddOverload(r, "validate", "format-validate", {K::kObject, K::kString}, &Validate, &CostValidate, {kFormatType});
}

}  // namespace lib
}  // namespace schedkit::cel
