// DRA device selectors on schedkit's CEL (k8s.io/dynamic-resource-allocation
// cel/compile.go and cache.go, v0.37.2).
#include "dra/cel_device.h"

#include <utility>
#include <vector>

#include "cel/dra_declarations.h"
#include "cel/eval.h"
#include "cel/kubernetes_libraries.h"
#include "cel/parser.h"
#include "cel/value.h"

namespace schedkit::dra {

struct CompiledSelector::Impl {
  std::string expression;
  cel::Program program;
};

namespace {

// The variable and field names compile.go declares.
constexpr char kDeviceVar[] = "device";

// Splits a qualified name into domain and id; a name without a domain is in
// the driver's (upstream's parseQualifiedName).
std::pair<std::string_view, std::string_view> SplitQualifiedName(std::string_view name, std::string_view driver) {
  size_t sep = name.find('/');
  if (sep == std::string_view::npos) return {driver, name};
  return {name.substr(0, sep), name.substr(sep + 1)};
}

// One attribute as upstream's getAttributeValue converts it: list values
// first, then the scalars; versions parse as strict semver.
absl::StatusOr<cel::Value> AttributeValue(const api::v1::DeviceAttribute& a) {
  if (a.int_values_size() > 0) {
    std::vector<cel::Value> out;
    for (int64_t v : a.int_values()) out.push_back(cel::Value::Int(v));
    return cel::Value::List(std::move(out));
  }
  if (a.bool_values_size() > 0) {
    std::vector<cel::Value> out;
    for (bool v : a.bool_values()) out.push_back(cel::Value::Bool(v));
    return cel::Value::List(std::move(out));
  }
  if (a.string_values_size() > 0) {
    std::vector<cel::Value> out;
    for (const std::string& v : a.string_values()) out.push_back(cel::Value::String(v));
    return cel::Value::List(std::move(out));
  }
  if (a.version_values_size() > 0) {
    std::vector<cel::Value> out;
    for (const std::string& v : a.version_values()) {
      absl::StatusOr<cel::Value> sv = cel::ParseSemver(v);
      if (!sv.ok()) return absl::InvalidArgumentError("parse semantic version: " + std::string(sv.status().message()));
      out.push_back(*std::move(sv));
    }
    return cel::Value::List(std::move(out));
  }
  if (a.has_int_value()) return cel::Value::Int(a.int_value());
  if (a.has_bool_value()) return cel::Value::Bool(a.bool_value());
  if (a.has_string_value()) return cel::Value::String(a.string_value());
  if (a.has_version_value()) {
    absl::StatusOr<cel::Value> sv = cel::ParseSemver(a.version_value());
    if (!sv.ok()) return absl::InvalidArgumentError("parse semantic version: " + std::string(sv.status().message()));
    return sv;
  }
  return absl::InvalidArgumentError("unsupported attribute value");
}

// Entries grouped by domain, in first-seen order.
class DomainMaps {
 public:
  void Add(std::string_view domain, std::string_view id, cel::Value v) {
    for (auto& [d, entries] : domains_) {
      if (d == domain) {
        entries.emplace_back(cel::Value::String(std::string(id)), std::move(v));
        return;
      }
    }
    domains_.emplace_back(domain, std::vector<std::pair<cel::Value, cel::Value>>{});
    domains_.back().second.emplace_back(cel::Value::String(std::string(id)), std::move(v));
  }
  // The outer map: an unknown domain reads as an empty map, as upstream's
  // newStringInterfaceMapWithDefault.
  cel::Value Build() && {
    std::vector<std::pair<cel::Value, cel::Value>> outer;
    outer.reserve(domains_.size());
    for (auto& [d, entries] : domains_) {
      outer.emplace_back(cel::Value::String(std::string(d)), cel::Value::Map(std::move(entries)));
    }
    return cel::Value::MapWithDefault(std::move(outer), cel::Value::Map({}));
  }

 private:
  std::vector<std::pair<std::string_view, std::vector<std::pair<cel::Value, cel::Value>>>> domains_;
};

class DeviceActivation final : public cel::Activation {
 public:
  explicit DeviceActivation(cel::Value device) : device_(std::move(device)) {}
  const cel::Value* FindVariable(std::string_view name) const override {
    return name == kDeviceVar ? &device_ : nullptr;
  }
  bool MayHaveQualifiedNames() const override { return false; }

 private:
  cel::Value device_;
};

// What Go's ConvertToNative(bool) says for a value that is not a bool.
std::string NotBoolMessage(const cel::Value& v) {
  std::string type(cel::TypeName(v));
  return "CEL result of type " + type + " could not be converted to bool: type conversion error from '" + type +
         "' to 'bool'";
}

}  // namespace

absl::StatusOr<bool> CompiledSelector::Matches(const CelDevice& device, uint64_t* cost) const {
  if (cost != nullptr) *cost = 0;
  DomainMaps attributes;
  if (device.attributes != nullptr) {
    for (const auto& [name, attr] : *device.attributes) {
      absl::StatusOr<cel::Value> v = AttributeValue(attr);
      if (!v.ok()) return absl::InvalidArgumentError("attribute " + name + ": " + std::string(v.status().message()));
      auto [domain, id] = SplitQualifiedName(name, device.driver);
      attributes.Add(domain, id, *std::move(v));
    }
  }
  DomainMaps capacity;
  if (device.capacity != nullptr) {
    for (const auto& [name, cap] : *device.capacity) {
      // The API server validated the quantity; one that does not parse reads
      // as zero, as an unset resource.Quantity does.
      absl::StatusOr<cel::Value> q = cel::ParseQuantity(cap.value());
      if (!q.ok()) q = cel::ParseQuantity("0");
      auto [domain, id] = SplitQualifiedName(name, device.driver);
      capacity.Add(domain, id, *std::move(q));
    }
  }
  cel::Value dev = cel::Value::Map({
      {cel::Value::String("driver"), cel::Value::String(std::string(device.driver))},
      {cel::Value::String("allowMultipleAllocations"), cel::Value::Bool(device.allow_multiple_allocations)},
      {cel::Value::String("attributes"), std::move(attributes).Build()},
      {cel::Value::String("capacity"), std::move(capacity).Build()},
  });
  DeviceActivation vars(std::move(dev));
  cel::EvalResult r = impl_->program.Evaluate(vars, {.cost_limit = kCelSelectorExpressionMaxCost});
  if (cost != nullptr) *cost = r.cost;
  if (r.value.is_bool()) return r.value.bool_value();
  if (r.value.is_error()) return absl::InvalidArgumentError(r.value.error_message());
  return absl::InvalidArgumentError(NotBoolMessage(r.value));
}

const std::string& CompiledSelector::expression() const { return impl_->expression; }

CompileResult CompileSelector(std::string_view expression) {
  CompileResult out;
  cel::ParserOptions options;
  options.macros.bindings = true;  // compile.go adds ext.Bindings
  cel::ParseResult parsed = cel::ParseWithIssues(expression, options);
  if (!parsed.issues.empty()) {
    out.error = absl::InvalidArgumentError("compilation failed: " + cel::FormatIssues(parsed));
    return out;
  }
  // cel-go's checker: what upstream refuses at compile time (an undeclared
  // name, no matching overload, a result that is not a bool) never runs.
  if (cel::DraSelectorCheck check = cel::CheckDraSelector(parsed); !check.status.ok()) {
    out.error = std::move(check.status);
    return out;
  }
  absl::StatusOr<cel::Program> program =
      cel::Program::Create(std::move(parsed.expr), cel::KubernetesFunctions());
  if (!program.ok()) {
    out.error = absl::InvalidArgumentError("program instantiation failed: " + std::string(program.status().message()));
    return out;
  }
  auto impl = std::make_shared<CompiledSelector::Impl>(
      CompiledSelector::Impl{.expression = std::string(expression), .program = *std::move(program)});
  out.selector = std::make_shared<const CompiledSelector>(std::move(impl));
  return out;
}

SelectorCache::SelectorCache(size_t max_entries) : max_entries_(max_entries) {}

CompileResult SelectorCache::GetOrCompile(std::string_view expression) {
  {
    absl::MutexLock lock(&mu_);
    auto it = index_.find(absl::string_view(expression.data(), expression.size()));
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      return it->second->second;
    }
  }
  CompileResult result = CompileSelector(expression);
  absl::MutexLock lock(&mu_);
  auto it = index_.find(absl::string_view(expression.data(), expression.size()));
  if (it != index_.end()) return it->second->second;  // compiled meanwhile by another thread
  if (max_entries_ == 0) return result;
  lru_.emplace_front(std::string(expression), result);
  index_.emplace(absl::string_view(lru_.front().first), lru_.begin());
  while (lru_.size() > max_entries_) {
    index_.erase(absl::string_view(lru_.back().first));
    lru_.pop_back();
  }
  return result;
}

}  // namespace schedkit::dra
