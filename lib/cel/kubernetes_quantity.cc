// Kubernetes' Quantity library (k8s.io/apiserver pkg/cel/library/quantity.go,
// v0.37.2): quantity(), isQuantity, sign, isGreaterThan, isLessThan,
// compareTo, add, sub, asInteger, isInteger, asApproximateFloat.
//
// Values compare and add exactly, but isInteger/asInteger and
// asApproximateFloat see how resource.Quantity stores a value: an int64
// times 10^scale when ParseQuantity's fast path took it ("1.0" is 10 at
// scale -1, so not an integer), else an inf.Dec rounded to nano. The object
// keeps that representation (the text was validated by api::Quantity).
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

#include "cel/library_support.h"
#include "schedkit/api/quantity.h"

namespace schedkit::cel {
namespace lib {
namespace {

// An exact decimal: (neg ? -1 : 1) * digits * 10^-scale; digits without
// leading zeros, "" for zero.
struct Dec {
  bool neg = false;
  std::string digits;
  int64_t scale = 0;
};

void Trim(Dec& d) {
  size_t first = d.digits.find_first_not_of('0');
  d.digits.erase(0, first == std::string::npos ? d.digits.size() : first);
  if (d.digits.empty()) d.neg = false;
}

Dec FromInt(int64_t v, int64_t scale) {
  Dec d;
  d.neg = v < 0;
  uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  d.digits = mag == 0 ? "" : std::to_string(mag);
  d.scale = scale;
  Trim(d);
  return d;
}

// Pads the digits so the value has the given (larger) scale.
std::string Padded(const Dec& d, int64_t scale) {
  return d.digits + std::string(static_cast<size_t>(scale - d.scale), '0');
}

int CompareMag(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// Magnitudes of equal scale.
std::string AddMag(const std::string& a, const std::string& b) {
  std::string out;
  int carry = 0;
  for (size_t i = 0; i < std::max(a.size(), b.size()) || carry; ++i) {
    int x = carry;
    if (i < a.size()) x += a[a.size() - 1 - i] - '0';
    if (i < b.size()) x += b[b.size() - 1 - i] - '0';
    out.push_back(static_cast<char>('0' + x % 10));
    carry = x / 10;
  }
  return std::string(out.rbegin(), out.rend());
}
std::string SubMag(const std::string& a, const std::string& b) {  // a >= b
  std::string out;
  int borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int x = (a[a.size() - 1 - i] - '0') - borrow - (i < b.size() ? b[b.size() - 1 - i] - '0' : 0);
    borrow = x < 0;
    if (x < 0) x += 10;
    out.push_back(static_cast<char>('0' + x));
  }
  std::string r(out.rbegin(), out.rend());
  size_t first = r.find_first_not_of('0');
  return first == std::string::npos ? "" : r.substr(first);
}

// Exponent differences beyond this are not aligned digit by digit (upstream
// would build a big.Int of that many digits); the smaller operand is then
// compared or added as if it were the larger's last unit.
constexpr int64_t kMaxAlign = 4096;

int CompareDec(const Dec& a, const Dec& b) {
  int sa = a.digits.empty() ? 0 : (a.neg ? -1 : 1);
  int sb = b.digits.empty() ? 0 : (b.neg ? -1 : 1);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  int64_t s = std::max(a.scale, b.scale);
  int c;
  if (s - std::min(a.scale, b.scale) > kMaxAlign) {
    // Orders of magnitude apart: the one with more integer digits wins.
    int64_t ia = static_cast<int64_t>(a.digits.size()) - a.scale;
    int64_t ib = static_cast<int64_t>(b.digits.size()) - b.scale;
    c = ia < ib ? -1 : (ia > ib ? 1 : 0);
  } else {
    c = CompareMag(Padded(a, s), Padded(b, s));
  }
  return sa > 0 ? c : -c;
}

Dec AddDec(const Dec& a, const Dec& b) {
  int64_t s = std::max(a.scale, b.scale);
  if (s - std::min(a.scale, b.scale) > kMaxAlign) return a.digits.size() - a.scale > b.digits.size() - b.scale ? a : b;
  std::string x = a.digits.empty() ? "" : Padded(a, s);
  std::string y = b.digits.empty() ? "" : Padded(b, s);
  Dec r;
  r.scale = s;
  if (a.neg == b.neg) {
    r.neg = a.neg;
    r.digits = AddMag(x, y);
  } else if (CompareMag(x, y) >= 0) {
    r.neg = a.neg;
    r.digits = SubMag(x, y);
  } else {
    r.neg = b.neg;
    r.digits = SubMag(y, x);
  }
  Trim(r);
  return r;
}

// How resource.Quantity holds a value: int64Amount{value, scale} (value *
// 10^scale) or an inf.Dec.
struct Amount {
  bool is_dec = false;
  int64_t value = 0;
  int32_t scale = 0;
  Dec dec;

  Dec AsDec() const { return is_dec ? dec : FromInt(value, -static_cast<int64_t>(scale)); }
  int Sign() const {
    if (is_dec) return dec.digits.empty() ? 0 : (dec.neg ? -1 : 1);
    return value < 0 ? -1 : (value > 0 ? 1 : 0);
  }
};

std::optional<int64_t> MulInt(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> PositiveScale(int64_t base, int64_t scale) {
  int64_t v = base;
  for (int64_t i = 0; i < scale; ++i) {
    auto m = MulInt(v, 10);
    if (!m) return std::nullopt;
    v = *m;
  }
  return v;
}

// int64Amount.Add; false on overflow (the caller then adds as inf.Dec).
bool AddAmount(Amount& a, const Amount& b) {
  if (b.value == 0) return true;
  if (a.value == 0) {
    a.value = b.value;
    a.scale = b.scale;
    return true;
  }
  int64_t c;
  if (a.scale == b.scale) {
    if (__builtin_add_overflow(a.value, b.value, &c)) return false;
  } else if (a.scale > b.scale) {
    auto s = PositiveScale(a.value, a.scale - b.scale);
    if (!s || __builtin_add_overflow(*s, b.value, &c)) return false;
    a.scale = b.scale;
  } else {
    auto s = PositiveScale(b.value, b.scale - a.scale);
    if (!s || __builtin_add_overflow(a.value, *s, &c)) return false;
  }
  a.value = c;
  return true;
}

Amount Sum(const Amount& a, const Amount& b) {
  if (!a.is_dec && !b.is_dec) {
    Amount r = a;
    if (AddAmount(r, b)) return r;
  }
  Amount r;
  r.is_dec = true;
  r.dec = AddDec(a.AsDec(), b.AsDec());
  return r;
}

Amount Negated(const Amount& a) {
  Amount r = a;
  if (a.is_dec) {
    if (!r.dec.digits.empty()) r.dec.neg = !r.dec.neg;
  } else {
    r.value = static_cast<int64_t>(0 - static_cast<uint64_t>(a.value));  // Go's wrapping negation
  }
  return r;
}

// Go's math.Pow10.
double Pow10(int64_t n) {
  static const double kTab[32] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10,
                                  1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
                                  1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31};
  static const double kPos32[] = {1e0, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288};
  static const double kNeg32[] = {1e-0,   1e-32,  1e-64,  1e-96,  1e-128, 1e-160,
                                  1e-192, 1e-224, 1e-256, 1e-288, 1e-320};
  if (n >= 0 && n <= 308) return kPos32[n / 32] * kTab[n % 32];
  if (n < 0 && n >= -323) return kNeg32[(-n) / 32] / kTab[(-n) % 32];
  return n > 0 ? std::numeric_limits<double>::infinity() : 0;
}

double ApproximateFloat(const Amount& a) {
  double base;
  int64_t exponent;
  if (a.is_dec) {
    base = a.dec.digits.empty() ? 0 : std::strtod(a.dec.digits.c_str(), nullptr);
    if (a.dec.neg) base = -base;
    exponent = -a.dec.scale;
  } else {
    base = static_cast<double>(a.value);
    exponent = a.scale;
  }
  if (exponent == 0) return base;
  return base * Pow10(exponent);
}

std::optional<int64_t> AsInt64(const Amount& a) {
  if (a.is_dec) return std::nullopt;
  if (a.scale == 0) return a.value;
  if (a.scale < 0) return std::nullopt;
  return PositiveScale(a.value, a.scale);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// resource.ParseQuantity's choice of representation for text that
// api::Quantity accepted.
Amount ParseAmount(std::string_view str) {
  Amount out;
  if (str == "0") return out;
  bool positive = true;
  size_t pos = 0;
  const size_t end = str.size();
  if (pos < end && (str[0] == '-' || str[0] == '+')) {
    positive = str[0] != '-';
    ++pos;
  }
  while (pos < end && str[pos] == '0') ++pos;
  if (pos >= end) return out;  // all zeros
  size_t i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  std::string num(str.substr(pos, i - pos));
  std::string_view value = str.substr(0, i);
  pos = i;
  if (num.empty()) num = "0";
  std::string denom;
  if (pos < end && str[pos] == '.') {
    ++pos;
    i = pos;
    while (i < end && IsDigit(str[i])) ++i;
    denom = std::string(str.substr(pos, i - pos));
    pos = i;
  }
  value = str.substr(0, pos);
  std::string_view suffix = str.substr(pos);

  bool binary = false;
  int64_t exponent = 0;
  static constexpr std::pair<std::string_view, int> kDecimal[] = {
      {"", 0}, {"n", -9}, {"u", -6}, {"m", -3}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}};
  static constexpr std::pair<std::string_view, int> kBinary[] = {
      {"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
  bool found = false;
  for (const auto& [s, e] : kDecimal) {
    if (s == suffix) exponent = e, found = true;
  }
  for (const auto& [s, e] : kBinary) {
    if (s == suffix) exponent = e, found = true, binary = true;
  }
  if (!found && suffix.size() > 1) {
    exponent = static_cast<int32_t>(std::strtoll(std::string(suffix.substr(1)).c_str(), nullptr, 10));
  }

  int64_t precision = 0;
  int64_t scale = 0;
  int64_t mantissa = 1;
  if (!binary) {
    scale = exponent;
    precision = 18 - static_cast<int64_t>(num.size() + denom.size());
  } else if (denom.empty()) {
    mantissa = int64_t{1} << exponent;
    precision = 15 - static_cast<int64_t>(num.size()) -
                static_cast<int64_t>(static_cast<float>(exponent) * 3 / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale -= static_cast<int64_t>(denom.size());
    if (scale >= -9) {
      int64_t v = std::strtoll((num + denom).c_str(), nullptr, 10);
      if (auto r = MulInt(v, mantissa)) {
        out.value = positive ? *r : -*r;
        out.scale = static_cast<int32_t>(scale);
        return out;
      }
    }
  }
  // inf.Dec: the number's digits at the scale of its fraction, times the
  // suffix, rounded away from zero to nano (and padded to it).
  out.is_dec = true;
  Dec& d = out.dec;
  for (char c : value) {
    if (IsDigit(c)) d.digits.push_back(c);
  }
  d.scale = static_cast<int64_t>(denom.size());
  if (binary) {
    for (int64_t k = 0; k < exponent; ++k) d.digits = AddMag(d.digits, d.digits);
  } else {
    d.scale -= exponent;
  }
  Trim(d);
  if (!d.digits.empty()) {
    if (d.scale > 9) {
      size_t drop = static_cast<size_t>(d.scale - 9);
      bool inexact = false;
      if (drop >= d.digits.size()) {
        inexact = true;
        d.digits.clear();
      } else {
        inexact = d.digits.find_first_not_of('0', d.digits.size() - drop) != std::string::npos;
        d.digits.resize(d.digits.size() - drop);
      }
      if (inexact) d.digits = AddMag(d.digits.empty() ? "0" : d.digits, "1");
    } else if (d.scale < 9 && 9 - d.scale <= kMaxAlign) {
      d.digits.append(static_cast<size_t>(9 - d.scale), '0');
    } else if (d.scale < 9) {
      d.digits.append(static_cast<size_t>(kMaxAlign), '0');  // beyond any int64; see kMaxAlign
      d.scale = 9 - kMaxAlign;
    }
    if (d.scale > 9 || (d.scale < 9 && 9 - d.scale <= kMaxAlign)) d.scale = 9;
    Trim(d);
    if (binary) {
      Dec max = FromInt(std::numeric_limits<int64_t>::max(), 0);
      if (CompareDec(d, max) > 0) d = max;
    }
  }
  d.neg = !positive && !d.digits.empty();
  return out;
}

class QuantityObject final : public ObjectValue {
 public:
  // pointer: the value came from add/sub, which return *Quantity upstream;
  // its Equal accepts only a Quantity value, so `x == y.add(0)` is an error.
  QuantityObject(Amount a, bool pointer) : amount_(std::move(a)), pointer_(pointer) {}
  std::string_view TypeName() const override { return kQuantityType; }
  bool Equals(const ObjectValue& other) const override {
    return other.TypeName() == kQuantityType &&
           CompareDec(amount_.AsDec(), static_cast<const QuantityObject&>(other).amount_.AsDec()) == 0;
  }
  Value EqualTo(const Value& other) const override {
    if (!IsObject(other, kQuantityType) || As<QuantityObject>(other).pointer_) return NoSuchOverload();
    return Value::Bool(Equals(other.object()));
  }
  const Amount& amount() const { return amount_; }

 private:
  Amount amount_;
  bool pointer_;
};

Amount IntAmount(int64_t v) {
  Amount a;
  a.value = v;
  return a;
}

const Amount& AmountOf(const Value& v) { return As<QuantityObject>(v).amount(); }
Value Make(Amount a, bool pointer) { return Value::Object(std::make_shared<QuantityObject>(std::move(a), pointer)); }

// api::Quantity words its errors `invalid quantity "<text>": <why>`;
// upstream's are the why alone.
std::string UpstreamError(const absl::Status& s) {
  std::string m(s.message());
  size_t at = m.find("\": ");
  return at == std::string::npos ? m : m.substr(at + 3);
}

Value ToQuantity(Args a) {
  absl::StatusOr<Value> q = ParseQuantity(a[0].string_value());
  if (!q.ok()) return Err(std::string(q.status().message()));
  return *q;
}
Value IsQuantity(Args a) { return Value::Bool(api::Quantity::Parse(a[0].string_value()).ok()); }
Value Sign(Args a) { return Value::Int(AmountOf(a[0]).Sign()); }
Value Compare(Args a) { return Value::Int(CompareDec(AmountOf(a[0]).AsDec(), AmountOf(a[1]).AsDec())); }
Value IsGreater(Args a) { return Value::Bool(CompareDec(AmountOf(a[0]).AsDec(), AmountOf(a[1]).AsDec()) == 1); }
Value IsLess(Args a) { return Value::Bool(CompareDec(AmountOf(a[0]).AsDec(), AmountOf(a[1]).AsDec()) == -1); }
Value Add(Args a) { return Make(Sum(AmountOf(a[0]), AmountOf(a[1])), true); }
Value AddInt(Args a) { return Make(Sum(AmountOf(a[0]), IntAmount(a[1].int_value())), true); }
Value Sub(Args a) { return Make(Sum(AmountOf(a[0]), Negated(AmountOf(a[1]))), true); }
Value SubInt(Args a) { return Make(Sum(AmountOf(a[0]), Negated(IntAmount(a[1].int_value()))), true); }
Value AsInteger(Args a) {
  std::optional<int64_t> v = AsInt64(AmountOf(a[0]));
  if (!v) return Err("cannot convert value to integer");
  return Value::Int(*v);
}
Value IsInteger(Args a) { return Value::Bool(AsInt64(AmountOf(a[0])).has_value()); }
Value AsFloat(Args a) { return Value::Double(ApproximateFloat(AmountOf(a[0]))); }

// Kubernetes' CallCost: parsing costs a string traversal, the rest 1.
uint64_t ParseCost(Args a, const Value&) { return StringTraversal(a[0]); }

}  // namespace

void RegisterQuantityLibrary(FunctionRegistry& r) {
  const std::vector<std::string_view> q = {kQuantityType};
  const std::vector<std::string_view> qq = {kQuantityType, kQuantityType};
  AddOverload(r, "quantity", "string_to_quantity", {K::kString}, &ToQuantity, &ParseCost);
  AddOverload(r, "isQuantity", "is_quantity_string", {K::kString}, &IsQuantity, &ParseCost);
  AddOverload(r, "sign", "quantity_sign", {K::kObject}, &Sign, &Cost1, q);
  AddOverload(r, "isGreaterThan", "quantity_is_greater_than", {K::kObject, K::kObject}, &IsGreater, &Cost1, qq);
  AddOverload(r, "isLessThan", "quantity_is_less_than", {K::kObject, K::kObject}, &IsLess, &Cost1, qq);
  AddOverload(r, "compareTo", "quantity_compare_to", {K::kObject, K::kObject}, &Compare, &Cost1, qq);
  AddOverload(r, "add", "quantity_add", {K::kObject, K::kObject}, &Add, &Cost1, qq);
  AddOverload(r, "add", "quantity_add_int", {K::kObject, K::kInt}, &AddInt, &Cost1, q);
  AddOverload(r, "sub", "quantity_sub", {K::kObject, K::kObject}, &Sub, &Cost1, qq);
  AddOverload(r, "sub", "quantity_sub_int", {K::kObject, K::kInt}, &SubInt, &Cost1, q);
  AddOverload(r, "asInteger", "quantity_get_int", {K::kObject}, &AsInteger, &Cost1, q);
  AddOverload(r, "isInteger", "quantity_is_integer", {K::kObject}, &IsInteger, &Cost1, q);
  AddOverload(r, "asApproximateFloat", "quantity_get_float", {K::kObject}, &AsFloat, &Cost1, q);
}

}  // namespace lib

absl::StatusOr<Value> ParseQuantity(std::string_view text) {
  absl::StatusOr<api::Quantity> q = api::Quantity::Parse(text);
  if (!q.ok()) return absl::InvalidArgumentError(lib::UpstreamError(q.status()));
  return lib::Make(lib::ParseAmount(text), false);
}

}  // namespace schedkit::cel
