// Kubernetes' CIDR library (k8s.io/apiserver pkg/cel/library/cidr.go,
// v0.37.2): cidr(), isCIDR, string(cidr), containsIP, containsCIDR, ip,
// masked, prefixLength. Prefixes parse as Go's netip.ParsePrefix (the
// address keeps its host bits; masked() clears them).
#include <cstring>

#include "cel/library_support.h"
#include "cel/literals.h"

namespace schedkit::cel {
namespace lib {
namespace {

struct Prefix {
  IPAddr addr;
  int bits = 0;
  bool operator==(const Prefix& o) const { return addr == o.addr && bits == o.bits; }
};

class CIDRObject final : public ObjectValue {
 public:
  explicit CIDRObject(Prefix p) : p_(p) {}
  std::string_view TypeName() const override { return kCIDRType; }
  bool Equals(const ObjectValue& other) const override {
    return other.TypeName() == kCIDRType && static_cast<const CIDRObject&>(other).p_ == p_;
  }
  Value EqualTo(const Value& other) const override {
    if (!IsObject(other, kCIDRType)) return other.is_error() ? other : NoSuchOverload();
    return Value::Bool(Equals(other.object()));
  }
  int64_t Size() const override { return (p_.bits + 7) / 8; }
  const Prefix& prefix() const { return p_; }

 private:
  Prefix p_;
};

const Prefix& PrefixOf(const Value& v) { return As<CIDRObject>(v).prefix(); }
Value Make(const Prefix& p) { return Value::Object(std::make_shared<CIDRObject>(p)); }

bool ParsePrefix(std::string_view s, Prefix* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = "network address parse error during conversion from string: network address parse error during "
             "conversion from string: netip.ParsePrefix(" + QuoteGo(s) + "): " + why;
    return false;
  };
  size_t slash = s.rfind('/');
  if (slash == std::string_view::npos) return fail("no '/'");
  std::string_view addr_text = s.substr(0, slash);
  std::string_view bits_text = s.substr(slash + 1);
  Prefix p;
  std::string err;
  if (addr_text.find('%') != std::string_view::npos) return fail("IPv6 zones cannot be present in a prefix");
  if (!ParseIPAddr(addr_text, &p.addr, &err)) {
    if (err.rfind("IPv4-mapped", 0) == 0) {
      *error = "IPv4-mapped IPv6 address " + QuoteGo(s) + " is not allowed";
      return false;
    }
    return fail("bad address");
  }
  if (bits_text.empty() || bits_text.size() > 3) return fail("bad bits after slash: " + QuoteGo(bits_text));
  if (bits_text.size() > 1 && bits_text[0] == '0') return fail("bad bits after slash: " + QuoteGo(bits_text));
  int bits = 0;
  for (char c : bits_text) {
    if (c < '0' || c > '9') return fail("bad bits after slash: " + QuoteGo(bits_text));
    bits = bits * 10 + (c - '0');
  }
  if (bits > p.addr.BitLen()) return fail("prefix length out of range");
  p.bits = bits;
  *out = p;
  return true;
}

IPAddr Masked(const IPAddr& a, int bits) {
  IPAddr m = a;
  int n = a.is4 ? 4 : 16;
  for (int i = 0; i < n; ++i) {
    int keep = bits - 8 * i;
    if (keep >= 8) continue;
    uint8_t mask = keep <= 0 ? 0 : static_cast<uint8_t>(0xff << (8 - keep));
    m.bytes[i] &= mask;
  }
  return m;
}

bool Contains(const Prefix& p, const IPAddr& ip) {
  if (p.addr.is4 != ip.is4) return false;
  return Masked(p.addr, p.bits) == Masked(ip, p.bits);
}

bool Overlaps(const Prefix& a, const Prefix& b) {
  if (a.addr.is4 != b.addr.is4) return false;
  int bits = std::min(a.bits, b.bits);
  return Masked(a.addr, bits) == Masked(b.addr, bits);
}

Value ToCIDR(std::string_view s) {
  Prefix p;
  std::string err;
  if (!ParsePrefix(s, &p, &err)) return Err(err);
  return Make(p);
}
Value ToCIDRFn(Args a) { return ToCIDR(a[0].string_value()); }
Value IsCIDR(Args a) {
  Prefix p;
  std::string err;
  return Value::Bool(ParsePrefix(a[0].string_value(), &p, &err));
}
Value CIDRToString(Args a) {
  const Prefix& p = PrefixOf(a[0]);
  return Value::String(IPAddrString(p.addr) + "/" + std::to_string(p.bits));
}
Value ContainsIP(Args a) { return Value::Bool(Contains(PrefixOf(a[0]), IPOf(a[1]))); }
Value ContainsIPString(Args a) {
  IPAddr ip;
  std::string err;
  // Upstream hands the parse error to a check that reports the CIDR
  // argument: "no such overload".
  if (!ParseIPAddr(a[1].string_value(), &ip, &err)) return NoSuchOverload();
  return Value::Bool(Contains(PrefixOf(a[0]), ip));
}
bool ContainsPrefix(const Prefix& p, const Prefix& o) { return Overlaps(p, o) && p.bits <= o.bits; }
Value ContainsCIDR(Args a) {
  if (!IsObject(a[1], kCIDRType)) return NoSuchOverload();
  return Value::Bool(ContainsPrefix(PrefixOf(a[0]), PrefixOf(a[1])));
}
Value ContainsCIDRString(Args a) {
  Value other = ToCIDR(a[1].string_value());
  if (other.is_error()) return other;
  return Value::Bool(ContainsPrefix(PrefixOf(a[0]), PrefixOf(other)));
}
Value PrefixLength(Args a) { return Value::Int(PrefixOf(a[0]).bits); }
Value CIDRIP(Args a) { return IPValue(PrefixOf(a[0]).addr); }
Value MaskedFn(Args a) {
  Prefix p = PrefixOf(a[0]);
  p.addr = Masked(p.addr, p.bits);
  return Make(p);
}

// Kubernetes' CallCost for containsIP / containsCIDR.
uint64_t CostContainsIP(Args a, const Value&) {
  double cidr = static_cast<double>(ActualSize(a[0]));
  uint64_t cost = CeilCost(cidr + cidr, kStringTraversalCostFactor);
  if (a[1].kind() == ValueKind::kString) cost += StringTraversal(a[1]);
  return cost;
}
uint64_t CostContainsCIDR(Args a, const Value&) {
  double cidr = static_cast<double>(ActualSize(a[0]));
  uint64_t cost = CeilCost(cidr + cidr, kStringTraversalCostFactor);
  cost += CeilCost(cidr, kStringTraversalCostFactor) + 1;
  if (a[1].kind() == ValueKind::kString) cost += StringTraversal(a[1]);
  return cost;
}

}  // namespace

void RegisterCIDRLibrary(FunctionRegistry& r) {
  const std::vector<std::string_view> c = {kCIDRType};
  const std::vector<std::string_view> cc = {kCIDRType, kCIDRType};
  const std::vector<std::string_view> ci = {kCIDRType, kIPType};
  AddOverload(r, "cidr", "string_to_cidr", {K::kString}, &ToCIDRFn, &CostArg0Traversal);
  AddOverload(r, "isCIDR", "is_cidr", {K::kString}, &IsCIDR, &CostArg0Traversal);
  AddOverload(r, "string", "cidr_to_string", {K::kObject}, &CIDRToString, nullptr, c);
  AddOverload(r, "containsIP", "cidr_contains_ip_string", {K::kObject, K::kString}, &ContainsIPString,
              &CostContainsIP, c);
  AddOverload(r, "containsIP", "cidr_contains_ip_ip", {K::kObject, K::kObject}, &ContainsIP, &CostContainsIP, ci);
  AddOverload(r, "containsCIDR", "cidr_contains_cidr_string", {K::kObject, K::kString}, &ContainsCIDRString,
              &CostContainsCIDR, c);
  AddOverload(r, "containsCIDR", "cidr_contains_cidr", {K::kObject, K::kObject}, &ContainsCIDR, &CostContainsCIDR,
              cc);
  AddOverload(r, "ip", "cidr_ip", {K::kObject}, &CIDRIP, &Cost1, c);
  AddOverload(r, "masked", "cidr_masked", {K::kObject}, &MaskedFn, &Cost1, c);
  AddOverload(r, "prefixLength", "cidr_prefix_length", {K::kObject}, &PrefixLength, &Cost1, c);
}

}  // namespace lib
}  // namespace schedkit::cel
