// Kubernetes' URL library (k8s.io/apiserver pkg/cel/library/urls.go,
// v0.37.2): url(), isURL, getScheme, getHost, getHostname, getPort,
// getEscapedPath, getQuery. Parsing follows Go's net/url ParseRequestURI
// for the forms selectors use (absolute URLs and absolute paths).
#include <map>

#include "cel/library_support.h"
#include "cel/literals.h"

namespace schedkit::cel {
namespace lib {
namespace {

struct Url {
  std::string scheme, host, path, raw_query, text;
};

bool ValidScheme(std::string_view s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool other = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
    if (!(alpha || (i > 0 && other))) return false;
  }
  return true;
}

// Go's url.ParseRequestURI, simplified: "scheme:..." or an absolute path;
// no fragment handling (a '#' stays in the path, as ParseRequestURI does).
bool Parse(std::string_view s, Url* u, std::string* err) {
  u->text = std::string(s);
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      *err = "parse " + QuoteGo(s) + ": net/url: invalid control character in URL";
      return false;
    }
  }
  std::string_view rest = s;
  size_t q = rest.find('?');
  if (q != std::string_view::npos) {
    u->raw_query = std::string(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  size_t colon = rest.find(':');
  size_t slash = rest.find('/');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
    if (colon == 0) {
      *err = "parse " + QuoteGo(s) + ": missing protocol scheme";
      return false;
    }
    if (!ValidScheme(rest.substr(0, colon))) {
      *err = "parse " + QuoteGo(s) + ": first path segment in URL cannot contain colon";
      return false;
    }
    u->scheme = std::string(rest.substr(0, colon));
    rest = rest.substr(colon + 1);
  }
  if (u->scheme.empty() && (rest.empty() || rest[0] != '/')) {
    *err = "parse " + QuoteGo(s) + ": invalid URI for request";
    return false;
  }
  if (!u->scheme.empty() && (rest.empty() || rest[0] != '/')) {
    // Opaque ("mailto:x"): no host, no path.
    return true;
  }
  if (rest.substr(0, 2) == "//") {
    rest = rest.substr(2);
    size_t end = rest.find('/');
    std::string_view authority = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
    size_t at = authority.rfind('@');
    if (at != std::string_view::npos) authority = authority.substr(at + 1);
    u->host = std::string(authority);
  }
  u->path = std::string(rest);
  return true;
}

class URLObject final : public ObjectValue {
 public:
  explicit URLObject(Url u) : u_(std::move(u)) {}
  std::string_view TypeName() const override { return kURLType; }
  bool Equals(const ObjectValue& other) const override {
    return other.TypeName() == kURLType && static_cast<const URLObject&>(other).u_.text == u_.text;
  }
  Value EqualTo(const Value& other) const override {
    if (!IsObject(other, kURLType)) return other.is_error() ? other : NoSuchOverload();
    return Value::Bool(Equals(other.object()));
  }
  const Url& url() const { return u_; }

 private:
  Url u_;
};

const Url& UrlOf(const Value& v) { return As<URLObject>(v).url(); }

Value ToURL(Args a) {
  Url u;
  std::string err;
  if (!Parse(a[0].string_value(), &u, &err)) return Err("URL parse error during conversion from string: " + err);
  return Value::Object(std::make_shared<URLObject>(std::move(u)));
}
Value IsURL(Args a) {
  Url u;
  std::string err;
  return Value::Bool(Parse(a[0].string_value(), &u, &err));
}
Value Scheme(Args a) { return Value::String(UrlOf(a[0]).scheme); }
Value Host(Args a) { return Value::String(UrlOf(a[0]).host); }

// Go's URL.Hostname and Port.
std::pair<std::string, std::string> SplitHostPort(const std::string& host) {
  size_t colon = host.rfind(':');
  std::string h = host, port;
  if (colon != std::string::npos && host.find(']', colon) == std::string::npos) {
    h = host.substr(0, colon);
    port = host.substr(colon + 1);
  }
  if (!h.empty() && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  return {h, port};
}
Value Hostname(Args a) { return Value::String(SplitHostPort(UrlOf(a[0]).host).first); }
Value Port(Args a) { return Value::String(SplitHostPort(UrlOf(a[0]).host).second); }
Value EscapedPath(Args a) { return Value::String(UrlOf(a[0]).path); }

int Hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
// Go's QueryUnescape; false when malformed (the pair is dropped).
bool Unescape(std::string_view s, std::string* out) {
  out->clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      if (i + 2 >= s.size()) return false;
      int h = Hex(s[i + 1]), l = Hex(s[i + 2]);
      if (h < 0 || l < 0) return false;
      out->push_back(static_cast<char>(h * 16 + l));
      i += 2;
    } else if (s[i] == '+') {
      out->push_back(' ');
    } else {
      out->push_back(s[i]);
    }
  }
  return true;
}

Value Query(Args a) {
  std::map<std::string, std::vector<Value>> q;
  std::vector<std::string> order;
  std::string_view raw = UrlOf(a[0]).raw_query;
  while (!raw.empty()) {
    size_t amp = raw.find('&');
    std::string_view part = raw.substr(0, amp);
    raw = amp == std::string_view::npos ? std::string_view() : raw.substr(amp + 1);
    if (part.empty() || part.find(';') != std::string_view::npos) continue;
    size_t eq = part.find('=');
    std::string k, v;
    if (!Unescape(part.substr(0, eq), &k)) continue;
    if (!Unescape(eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1), &v)) continue;
    if (!q.count(k)) order.push_back(k);
    q[k].push_back(Value::String(v));
  }
  std::vector<std::pair<Value, Value>> entries;
  for (const std::string& k : order) entries.emplace_back(Value::String(k), Value::List(q[k]));
  return Value::Map(std::move(entries));
}

}  // namespace

void RegisterURLLibrary(FunctionRegistry& r) {
  const std::vector<std::string_view> u = {kURLType};
  AddOverload(r, "url", "string_to_url", {K::kString}, &ToURL, &CostArg0Traversal);
  AddOverload(r, "isURL", "is_url_string", {K::kString}, &IsURL, &CostArg0Traversal);
  AddOverload(r, "getScheme", "url_get_scheme", {K::kObject}, &Scheme, &Cost1, u);
  AddOverload(r, "getHost", "url_get_host", {K::kObject}, &Host, &Cost1, u);
  AddOverload(r, "getHostname", "url_get_hostname", {K::kObject}, &Hostname, &Cost1, u);
  AddOverload(r, "getPort", "url_get_port", {K::kObject}, &Port, &Cost1, u);
  AddOverload(r, "getEscapedPath", "url_get_escaped_path", {K::kObject}, &EscapedPath, &Cost1, u);
  AddOverload(r, "getQuery", "url_get_query", {K::kObject}, &Query, &Cost1, u);
}

}  // namespace lib
}  // namespace schedkit::cel
