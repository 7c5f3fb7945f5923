// Kubernetes' regex library (k8s.io/apiserver pkg/cel/library/regex.go,
// v0.37.2): find and findAll with Go regexp semantics (RE2, leftmost-first;
// findAll drops an empty match that abuts the previous match). A constant
// pattern that does not compile fails planning (cel-go's regex
// optimization); one computed at run time fails with "Illegal regex: ...".
#include <memory>

#include "cel/lexer.h"
#include "cel/library_support.h"
#include "re2/re2.h"

namespace schedkit::cel {
namespace lib {
namespace {

std::unique_ptr<RE2> Compile(const std::string& pattern, Value* err) {
  RE2::Options opts;
  opts.set_log_errors(false);
  auto re = std::make_unique<RE2>(pattern, opts);
  if (!re->ok()) {
    *err = Err("Illegal regex: " + RegexError(*re));
    return nullptr;
  }
  return re;
}

Value Find(Args a) {
  Value err;
  auto re = Compile(a[1].string_value(), &err);
  if (re == nullptr) return err;
  re2::StringPiece in(a[0].string_value());
  re2::StringPiece m;
  if (!re->Match(in, 0, in.size(), RE2::UNANCHORED, &m, 1)) return Value::String("");
  return Value::String(std::string(m));
}

Value FindAll(Args a) {
  Value err;
  auto re = Compile(a[1].string_value(), &err);
  if (re == nullptr) return err;
  int64_t n = a.size() == 3 ? a[2].int_value() : -1;
  std::vector<Value> out;
  const std::string& s = a[0].string_value();
  re2::StringPiece in(s);
  size_t pos = 0;
  std::optional<size_t> prev_end;
  while (pos <= s.size() && (n < 0 || static_cast<int64_t>(out.size()) < n)) {
    re2::StringPiece m;
    if (!re->Match(in, pos, in.size(), RE2::UNANCHORED, &m, 1)) break;
    size_t start = static_cast<size_t>(m.data() - in.data());
    size_t end = start + m.size();
    bool accept = !(m.empty() && prev_end && start == *prev_end);
    if (accept) out.push_back(Value::String(std::string(m)));
    if (m.empty()) {
      // Step over one rune past an empty match.
      if (start >= s.size()) break;
      size_t size = 1;
      DecodeRuneAt(s, start, &size);
      pos = start + size;
    } else {
      pos = end;
    }
    if (accept) prev_end = end;
  }
  return Value::List(std::move(out));
}

uint64_t CostFind(Args a, const Value&) {
  uint64_t str = CeilCost(1.0 + static_cast<double>(ActualSize(a[0])), kStringTraversalCostFactor);
  uint64_t re = CeilCost(static_cast<double>(ActualSize(a[1])), kRegexStringLengthCostFactor);
  return str * re;
}

}  // namespace

void RegisterRegexLibrary(FunctionRegistry& r) {
  AddOverload(r, "find", "string_find_string", {K::kString, K::kString}, &Find, &CostFind);
  AddOverload(r, "findAll", "string_find_all_string", {K::kString, K::kString}, &FindAll, &CostFind);
  AddOverload(r, "findAll", "string_find_all_string_int", {K::kString, K::kString, K::kInt}, &FindAll, &CostFind);
}

}  // namespace lib
}  // namespace schedkit::cel
