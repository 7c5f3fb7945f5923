// Internal to the allocator (allocator.h): what it digests from each slice
// once, the pools it gathers per node, and the helpers its search calls.
// Nothing here is for other callers.
#ifndef SCHEDKIT_LIB_DRA_ALLOCATOR_INTERNAL_H_
#define SCHEDKIT_LIB_DRA_ALLOCATOR_INTERNAL_H_

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "dra/allocator.h"
#include "dra/quantity_value.h"
#include "schedkit/api/selector.h"

namespace schedkit::dra::internal {

// A device capacity with its request policy, quantities parsed.
struct CapacityInfo {
  std::string_view name;
  QuantityValue value;
  bool has_policy = false;
  std::optional<QuantityValue> policy_default;
  std::vector<QuantityValue> valid_values;
  bool has_valid_range = false;
  std::optional<QuantityValue> range_min, range_max, range_step;
};

// One consumesCounters entry, quantities parsed.
struct CounterUse {
  std::string_view counter_set;
  std::vector<std::pair<std::string_view, QuantityValue>> counters;
};

struct DeviceInfo {
  const api::v1::Device* device = nullptr;
  Symbol name;
  std::vector<CapacityInfo> capacity;  // sorted by name, for deterministic errors
  std::vector<CounterUse> consumes;
  absl::Status parse_error;  // the first quantity of this device that did not parse
  // The device's own node selector, compiled (per-device node selection).
  std::optional<absl::StatusOr<api::NodeSelector>> node_selector;
};

// A ResourceSlice as the allocator reads it, built once per Allocator.
struct SliceInfo {
  const api::v1::ResourceSlice* slice = nullptr;
  Symbol driver, pool;
  std::vector<DeviceInfo> devices;
  std::optional<absl::StatusOr<api::NodeSelector>> node_selector;
  bool uses_compatibility_groups = false;
  bool has_binding_conditions = false;

  const api::v1::ResourceSliceSpec& spec() const { return slice->spec(); }
  const std::string& name() const { return slice->metadata().name(); }
};

SliceInfo DigestSlice(const api::v1::ResourceSlice& slice);

// Counter set name → counter name → amount.
struct PoolCounters {
  absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, QuantityValue>> sets;
};

// A resource pool with devices for the node (upstream's Pool).
struct Pool {
  Symbol driver, pool;
  bool incomplete = false;
  bool invalid = false;
  std::string invalid_reason;
  std::vector<const SliceInfo*> targeting;      // slices with devices for the node, by name
  std::vector<const SliceInfo*> not_targeting;  // the pool's other device slices
  absl::flat_hash_map<std::string_view, const api::v1::CounterSet*> counter_sets;

  std::string Id() const;  // "<driver>/<pool>"
};

// The node Allocate runs for. Its labels and name are interned on first use
// only: most slices name their node, and interning takes a process-wide lock
// that parallel Allocate calls would contend on. Not thread-safe.
class NodeContext {
 public:
  explicit NodeContext(const api::v1::Node* node) : node_(node) {}
  const api::v1::Node* node() const { return node_; }
  const api::LabelSet& labels() const {
    Resolve();
    return labels_;
  }
  Symbol name() const {
    Resolve();
    return name_;
  }

 private:
  void Resolve() const {
    if (resolved_ || node_ == nullptr) return;
    labels_ = api::LabelSet::FromMap(node_->metadata().labels());
    name_ = Symbol::Intern(node_->metadata().name());
    resolved_ = true;
  }
  const api::v1::Node* node_;
  mutable bool resolved_ = false;
  mutable api::LabelSet labels_;
  mutable Symbol name_;
};

// Upstream's NodeMatches: a node name wins, then allNodes, then the selector
// (null: none set).
absl::StatusOr<bool> NodeMatches(const NodeContext& node, std::string_view node_name, bool all_nodes,
                                 const absl::StatusOr<api::NodeSelector>* selector);

// Upstream's GatherPools: the pools with devices for the node, sorted by
// (driver, pool), pools with binding conditions last.
absl::StatusOr<std::vector<Pool>> GatherPools(std::span<const SliceInfo* const> slices_for_node,
                                              const NodeContext& node, const Features& features,
                                              std::span<const SliceInfo> all_slices);

// Upstream's DeviceCapacity request checks (consumable_capacity.go).
// `current` and `allocating` may be null (nothing consumed yet).
absl::StatusOr<bool> RequestFitsCapacity(const ConsumedCapacity* current,
                                         const std::vector<std::pair<std::string, QuantityValue>>* requests,
                                         const DeviceInfo& device, const ConsumedCapacity* allocating,
                                         bool fractional_capacity_range);
absl::StatusOr<ConsumedCapacity> ConsumedCapacityFromRequest(
    const std::vector<std::pair<std::string, QuantityValue>>* requests, const DeviceInfo& device,
    bool fractional_capacity_range);

// Adds/removes one share's consumption (upstream's ConsumedCapacityCollection
// Insert/Remove: an entry that drops to all zeros disappears).
void InsertCapacity(absl::flat_hash_map<DeviceId, ConsumedCapacity>& collection, const DeviceId& id,
                    const ConsumedCapacity& consumed);
void RemoveCapacity(absl::flat_hash_map<DeviceId, ConsumedCapacity>& collection, const DeviceId& id,
                    const ConsumedCapacity& consumed);

// The counters of `pool` left after the devices `is_allocated` reports took
// theirs.
absl::StatusOr<PoolCounters> AvailableCounters(const Pool& pool,
                                               const std::function<bool(const DeviceId&)>& is_allocated);
// Adds the device's consumption to `consumed` if every counter of the pool
// still fits; otherwise leaves `consumed` as it was and returns false.
bool ReserveCounters(const PoolCounters& available, PoolCounters& consumed, const DeviceInfo& device);
void ReleaseCounters(PoolCounters& consumed, const DeviceInfo& device);

// A claim constraint (matchAttribute / distinctAttribute). Add is called for
// each device about to be allocated for a request the constraint applies to;
// each successful Add is undone by exactly one Remove, in reverse order.
class Constraint {
 public:
  enum class Kind { kMatch, kDistinct };
  Constraint(Kind kind, std::string attribute) : kind_(kind), attribute_(std::move(attribute)) {}
  bool Add(const api::v1::Device& device, const DeviceId& id);
  void Remove();

 private:
  Kind kind_;
  std::string attribute_;  // fully qualified
  std::vector<const api::v1::DeviceAttribute*> values_;  // match: only the first counts
};

// A device attribute by fully qualified name, or by its id when the domain is
// the driver's; null when absent.
const api::v1::DeviceAttribute* LookupAttribute(const api::v1::Device& device, const DeviceId& id,
                                                std::string_view qualified_name);

// Whether a NoSchedule/NoExecute taint of the device is not tolerated.
bool TaintPreventsAllocation(const api::v1::Device& device,
                             const google::protobuf::RepeatedPtrField<api::v1::DeviceToleration>& tolerations);

// One device chosen for a request, as the search records it.
struct ResultDevice {
  std::string_view request_name;  // "<request>" or "<request>/<subrequest>"
  const google::protobuf::RepeatedPtrField<api::v1::DeviceToleration>* tolerations = nullptr;
  DeviceId id;
  const DeviceInfo* device = nullptr;
  const SliceInfo* slice = nullptr;
  std::optional<std::string> share_id;
  ConsumedCapacity consumed_capacity;  // empty: none recorded
  bool admin_access = false;
};

// The node selector of one claim's result: the node itself when a device is
// local to it or binds to it, else the union of the slices' one-term
// selectors, else none (nullopt).
absl::StatusOr<std::optional<api::v1::NodeSelector>> CreateNodeSelector(std::span<const ResultDevice> devices,
                                                                        std::string_view node_name);

}  // namespace schedkit::dra::internal

#endif  // SCHEDKIT_LIB_DRA_ALLOCATOR_INTERNAL_H_
