// Internal: DRA device selectors (k8s.io/dynamic-resource-allocation/cel,
// v0.37.2): a CEL expression over one `device` compiled once, then matched
// against devices, with upstream's errors and runtime cost limit.
//
//   SelectorCache cache;  // upstream's cel.NewCache(10, ...)
//   CompileResult c = cache.GetOrCompile("device.attributes['gpu.example.com'].memory > 8");
//   if (!c.error.ok()) return c.error;  // "compilation failed: ..."
//   absl::StatusOr<bool> m = c.selector->Matches({.driver = "gpu.example.com", .attributes = &attrs});
//
// The environment is upstream's StoredExpressions one (the one the
// scheduler's cache uses): the base Kubernetes libraries at v1.37.2's
// compatibility version plus ext.Bindings, `device` typed with
// allowMultipleAllocations and list-type attributes. Compiling is cel-go's:
// parse, type check (lib/cel/checker.h, with the output type check), plan;
// what upstream refuses at compile time is refused here with its text.
//
// Thread-safety: CompiledSelector is immutable and Matches may run on many
// threads at once; SelectorCache is thread-safe.
#ifndef SCHEDKIT_LIB_DRA_CEL_DEVICE_H_
#define SCHEDKIT_LIB_DRA_CEL_DEVICE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "schedkit/api/v1/resource_slice.h"

namespace schedkit::dra {

// resource.k8s.io's CELSelectorExpressionMaxCost: the runtime cost limit of
// one Matches call.
inline constexpr uint64_t kCelSelectorExpressionMaxCost = 1000000;

// What a device selector sees of one device (upstream cel.Device). The
// pointed-to maps must outlive the Matches call.
struct CelDevice {
  std::string_view driver;
  bool allow_multiple_allocations = false;
  // Qualified name ("<domain>/<id>", or an id in the driver's domain) → value.
  const google::protobuf::Map<std::string, api::v1::DeviceAttribute>* attributes = nullptr;  // may be null
  const google::protobuf::Map<std::string, api::v1::DeviceCapacity>* capacity = nullptr;     // may be null
};

class CompiledSelector {  // immutable; Matches may run on many threads at once
 public:
  struct Impl;  // the planned program, internal
  explicit CompiledSelector(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

  // Upstream's CompilationResult.DeviceMatches: true/false, or its error with
  // upstream's text: a CEL runtime error, the cost limit ("operation
  // cancelled: actual cost limit exceeded"), a result that is not a bool
  // ("CEL result of type <t> could not be converted to bool"), a version
  // attribute that does not parse ("attribute <name>: parse semantic
  // version: ..."). All errors are absl::InvalidArgumentError. When `cost` is
  // set it receives the CEL actual cost of the evaluation (0 when the device
  // could not be converted, as upstream).
  absl::StatusOr<bool> Matches(const CelDevice& device, uint64_t* cost = nullptr) const;

  // The expression as compiled.
  const std::string& expression() const;

 private:
  std::shared_ptr<const Impl> impl_;
};

struct CompileResult {
  std::shared_ptr<const CompiledSelector> selector;  // null when error is set
  absl::Status error;  // upstream's CompilationResult.Error text, e.g. "compilation failed: ..."
};

// Compiles one expression, uncached (upstream's CompileCELExpression with
// DisableCostEstimation).
CompileResult CompileSelector(std::string_view expression);

// Upstream's cel.Cache: compiles each expression once, keeps the most
// recently used `max_entries` results (failures included). Thread-safe;
// concurrent misses on one expression may compile it twice, which is
// harmless.
class SelectorCache {
 public:
  explicit SelectorCache(size_t max_entries = 10);
  SelectorCache(const SelectorCache&) = delete;
  SelectorCache& operator=(const SelectorCache&) = delete;

  CompileResult GetOrCompile(std::string_view expression);

 private:
  using Lru = std::list<std::pair<std::string, CompileResult>>;
  const size_t max_entries_;
  absl::Mutex mu_;
  Lru lru_ ABSL_GUARDED_BY(mu_);  // most recent first
  absl::flat_hash_map<absl::string_view, Lru::iterator> index_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::dra

#endif  // SCHEDKIT_LIB_DRA_CEL_DEVICE_H_
