// Kubernetes' IP library (k8s.io/apiserver pkg/cel/library/ip.go, v0.37.2):
// ip(), isIP, ip.isCanonical, string(ip), family, isUnspecified, isLoopback,
// isLinkLocalMulticast, isLinkLocalUnicast, isGlobalUnicast. Addresses parse
// as Go's netip.ParseAddr, without zones or IPv4-mapped IPv6 forms.
#include <cstdio>
#include <cstring>

#include "cel/library_support.h"
#include "cel/literals.h"

namespace schedkit::cel {
namespace lib {

bool IPAddr::operator==(const IPAddr& o) const { return is4 == o.is4 && std::memcmp(bytes, o.bytes, 16) == 0; }

namespace {

bool ParseIPv4(std::string_view s, uint8_t out[4], std::string* why) {
  int fields = 0;
  size_t i = 0;
  while (fields < 4) {
    size_t start = i;
    int v = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      v = v * 10 + (s[i] - '0');
      if (v > 255) return *why = "IPv4 field has value >255", false;
      ++i;
    }
    if (i == start) return *why = "IPv4 field must have at least one digit", false;
    if (i - start > 1 && s[start] == '0') return *why = "IPv4 field has octet with leading zero", false;
    out[fields++] = static_cast<uint8_t>(v);
    if (fields < 4) {
      if (i >= s.size() || s[i] != '.') return *why = "IPv4 address too short", false;
      ++i;
    }
  }
  if (i != s.size()) return *why = "trailing characters", false;
  return true;
}

int HexVal(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool ParseIPv6(std::string_view s, uint8_t out[16], std::string* why) {
  int ellipsis = -1;
  size_t i = 0;
  int n = 0;  // bytes written
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    i = 2;
    if (i == s.size()) {
      std::memset(out, 0, 16);
      return true;
    }
  }
  while (n < 16) {
    size_t start = i;
    int v = 0;
    while (i < s.size() && HexVal(s[i]) >= 0 && i - start < 4) {
      v = v * 16 + HexVal(s[i]);
      ++i;
    }
    if (i < s.size() && HexVal(s[i]) >= 0) return *why = "IPv6 field has value >=2^16", false;
    if (i == start) return *why = "each colon-separated field must have at least one digit", false;
    if (i < s.size() && s[i] == '.') {
      if (ellipsis < 0 && n != 12) return *why = "embedded IPv4 address must replace the final 2 fields of the address", false;
      if (n + 4 > 16) return *why = "too many hex fields to fit an embedded IPv4 at the end of the address", false;
      uint8_t v4[4];
      std::string w;
      if (!ParseIPv4(s.substr(start), v4, &w)) return *why = w, false;
      std::memcpy(out + n, v4, 4);
      n += 4;
      i = s.size();
      break;
    }
    out[n++] = static_cast<uint8_t>(v >> 8);
    out[n++] = static_cast<uint8_t>(v);
    if (i == s.size()) break;
    if (s[i] != ':') return *why = "unexpected character", false;
    if (i + 1 == s.size()) return *why = "colon must be followed by more characters", false;
    ++i;
    if (s[i] == ':') {
      if (ellipsis >= 0) return *why = "multiple :: in address", false;
      ellipsis = n;
      ++i;
      if (i == s.size()) break;
    }
  }
  if (i != s.size()) return *why = "trailing garbage after address", false;
  if (n < 16) {
    if (ellipsis < 0) return *why = "address string too short", false;
    int tail = n - ellipsis;
    std::memmove(out + 16 - tail, out + ellipsis, static_cast<size_t>(tail));
    std::memset(out + ellipsis, 0, static_cast<size_t>(16 - n));
  } else if (ellipsis >= 0) {
    return *why = "the :: must expand to at least one field of zeros", false;
  }
  return true;
}

bool IsIn4In6(const IPAddr& a) {
  if (a.is4) return false;
  for (int i = 0; i < 10; ++i) {
    if (a.bytes[i] != 0) return false;
  }
  return a.bytes[10] == 0xff && a.bytes[11] == 0xff;
}

class IPObject final : public ObjectValue {
 public:
  explicit IPObject(IPAddr a) : a_(a) {}
  std::string_view TypeName() const override { return kIPType; }
  bool Equals(const ObjectValue& other) const override {
    return other.TypeName() == kIPType && static_cast<const IPObject&>(other).a_ == a_;
  }
  Value EqualTo(const Value& other) const override {
    if (!IsObject(other, kIPType)) return other.is_error() ? other : NoSuchOverload();
    return Value::Bool(Equals(other.object()));
  }
  int64_t Size() const override { return a_.is4 ? 4 : 16; }
  const IPAddr& addr() const { return a_; }

 private:
  IPAddr a_;
};

Value ToIP(Args a) {
  IPAddr addr;
  std::string err;
  if (!ParseIPAddr(a[0].string_value(), &addr, &err)) return Err(err);
  return IPValue(addr);
}
Value IsIP(Args a) {
  IPAddr addr;
  std::string err;
  return Value::Bool(ParseIPAddr(a[0].string_value(), &addr, &err));
}
Value IsCanonical(Args a) {
  IPAddr addr;
  std::string err;
  if (!ParseIPAddr(a[0].string_value(), &addr, &err)) return Err(err);
  return Value::Bool(IPAddrString(addr) == a[0].string_value());
}
Value IPToString(Args a) { return Value::String(IPAddrString(IPOf(a[0]))); }
Value Family(Args a) { return Value::Int(IPOf(a[0]).is4 ? 4 : 6); }

bool AllZero(const IPAddr& a) {
  for (int i = 0; i < (a.is4 ? 4 : 16); ++i) {
    if (a.bytes[i] != 0) return false;
  }
  return true;
}
Value IsUnspecified(Args a) { return Value::Bool(AllZero(IPOf(a[0]))); }
Value IsLoopback(Args a) {
  const IPAddr& x = IPOf(a[0]);
  if (x.is4) return Value::Bool(x.bytes[0] == 127);
  for (int i = 0; i < 15; ++i) {
    if (x.bytes[i] != 0) return Value::Bool(false);
  }
  return Value::Bool(x.bytes[15] == 1);
}
Value IsLinkLocalMulticast(Args a) {
  const IPAddr& x = IPOf(a[0]);
  if (x.is4) return Value::Bool(x.bytes[0] == 224 && x.bytes[1] == 0 && x.bytes[2] == 0);
  return Value::Bool(x.bytes[0] == 0xff && (x.bytes[1] & 0x0f) == 0x02);
}
Value IsLinkLocalUnicast(Args a) {
  const IPAddr& x = IPOf(a[0]);
  if (x.is4) return Value::Bool(x.bytes[0] == 169 && x.bytes[1] == 254);
  return Value::Bool(x.bytes[0] == 0xfe && (x.bytes[1] & 0xc0) == 0x80);
}
Value IsGlobalUnicast(Args a) {
  const IPAddr& x = IPOf(a[0]);
  if (x.is4) {
    bool broadcast = x.bytes[0] == 255 && x.bytes[1] == 255 && x.bytes[2] == 255 && x.bytes[3] == 255;
    bool multicast = (x.bytes[0] & 0xf0) == 0xe0;
    bool loop = x.bytes[0] == 127;
    bool ll = x.bytes[0] == 169 && x.bytes[1] == 254;
    return Value::Bool(!AllZero(x) && !broadcast && !multicast && !loop && !ll);
  }
  bool multicast = x.bytes[0] == 0xff;
  bool ll = x.bytes[0] == 0xfe && (x.bytes[1] & 0xc0) == 0x80;
  bool loop = true;
  for (int i = 0; i < 15; ++i) loop = loop && x.bytes[i] == 0;
  loop = loop && x.bytes[15] == 1;
  return Value::Bool(!AllZero(x) && !multicast && !ll && !loop);
}

uint64_t CostDoubleTraversal(Args a, const Value&) {
  return CeilCost(static_cast<double>(ActualSize(a[0])), 2 * kStringTraversalCostFactor);
}

}  // namespace

bool ParseIPAddr(std::string_view s, IPAddr* out, std::string* error) {
  IPAddr a;
  std::string why;
  bool ok = false;
  std::string_view text = s;
  bool has_zone = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      ok = ParseIPv4(s, a.bytes, &why);
      a.is4 = true;
      break;
    }
    if (s[i] == ':') {
      size_t pct = s.find('%');
      if (pct != std::string_view::npos) {
        if (pct + 1 == s.size()) {
          why = "zone must be a non-empty string";
          break;
        }
        has_zone = true;
        text = s.substr(0, pct);
      }
      ok = ParseIPv6(text, a.bytes, &why);
      break;
    }
    if (s[i] == '%') {
      why = "missing IPv6 address";
      break;
    }
  }
  if (!ok) {
    if (why.empty()) why = "unable to parse IP";
    *error = "IP Address " + QuoteGo(s) + " parse error during conversion from string: ParseAddr(" + QuoteGo(s) +
             "): " + why;
    return false;
  }
  if (has_zone) {
    *error = "IP address " + QuoteGo(s) + " with zone value is not allowed";
    return false;
  }
  if (IsIn4In6(a)) {
    *error = "IPv4-mapped IPv6 address " + QuoteGo(s) + " is not allowed";
    return false;
  }
  *out = a;
  return true;
}

std::string IPAddrString(const IPAddr& a) {
  char buf[8];
  if (a.is4) {
    return std::to_string(a.bytes[0]) + "." + std::to_string(a.bytes[1]) + "." + std::to_string(a.bytes[2]) + "." +
           std::to_string(a.bytes[3]);
  }
  uint16_t f[8];
  for (int i = 0; i < 8; ++i) f[i] = static_cast<uint16_t>(a.bytes[2 * i] << 8 | a.bytes[2 * i + 1]);
  // The longest run of two or more zero fields becomes "::" (the first such).
  int best = -1, best_len = 0;
  for (int i = 0; i < 8;) {
    if (f[i] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && f[j] == 0) ++j;
    if (j - i > best_len && j - i >= 2) best = i, best_len = j - i;
    i = j;
  }
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ":";
    std::snprintf(buf, sizeof buf, "%x", f[i]);
    out += buf;
  }
  return out;
}

Value IPValue(const IPAddr& a) { return Value::Object(std::make_shared<IPObject>(a)); }
const IPAddr& IPOf(const Value& v) { return As<IPObject>(v).addr(); }

void RegisterIPLibrary(FunctionRegistry& r) {
  const std::vector<std::string_view> ip = {kIPType};
  AddOverload(r, "ip", "string_to_ip", {K::kString}, &ToIP, &CostArg0Traversal);
  AddOverload(r, "isIP", "is_ip", {K::kString}, &IsIP, &CostArg0Traversal);
  AddOverload(r, "ip.isCanonical", "ip_is_canonical", {K::kString}, &IsCanonical, &CostDoubleTraversal);
  AddOverload(r, "string", "ip_to_string", {K::kObject}, &IPToString, nullptr, ip);
  AddOverload(r, "family", "ip_family", {K::kObject}, &Family, &Cost1, ip);
  AddOverload(r, "isUnspecified", "ip_is_unspecified", {K::kObject}, &IsUnspecified, &Cost1, ip);
  AddOverload(r, "isLoopback", "ip_is_loopback", {K::kObject}, &IsLoopback, &Cost1, ip);
  AddOverload(r, "isLinkLocalMulticast", "ip_is_link_local_multicast", {K::kObject}, &IsLinkLocalMulticast, &Cost1, ip);
  AddOverload(r, "isLinkLocalUnicast", "ip_is_link_local_unicast", {K::kObject}, &IsLinkLocalUnicast, &Cost1, ip);
  AddOverload(r, "isGlobalUnicast", "ip_is_global_unicast", {K::kObject}, &IsGlobalUnicast, &Cost1, ip);
}

}  // namespace lib
}  // namespace schedkit::cel
