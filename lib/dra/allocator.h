// Internal: DRA's structured allocator (k8s.io/dynamic-resource-allocation
// v0.37.2, structured.NewAllocator with its "incubating" variant, the one
// kube-scheduler v1.37.2 runs with its default gates): picks devices from
// ResourceSlices for the ResourceClaims of one pod, on one node.
//
//   AllocatorOptions options;
//   options.features = features;
//   options.allocated_state = std::move(state);  // devices of allocated claims
//   options.class_lister = &classes;
//   options.slices = slices;                     // every ResourceSlice
//   options.selector_cache = &cache;
//   SCHEDKIT_ASSIGN_OR_RETURN(std::unique_ptr<Allocator> allocator, Allocator::Create(std::move(options)));
//   AllocateResult r = allocator->Allocate(node, claims, interrupt);
//   if (!r.ok()) ...                   // IsFailedAllocationOnNode(r.status()): unschedulable here
//   else if (!r->has_value()) ...      // no allocation possible on this node
//   else for (const api::v1::AllocationResult& a : **r) ...  // one per claim
//
// The search is upstream's: depth first over claims, requests (and the
// subrequests of firstAvailable), pools sorted by (driver, pool) with pools of
// devices with binding conditions last, slices by name, devices in slice
// order; the first full solution wins. DeviceTaintRules are not applied here:
// as upstream, the slice tracker patches their taints into the slices the
// caller passes, and the allocator reads only each device's taints.
//
// Thread-safety: an Allocator is immutable apart from caches it guards and
// its work counter; Allocate may run on many threads at once (one per node).
#ifndef SCHEDKIT_LIB_DRA_ALLOCATOR_H_
#define SCHEDKIT_LIB_DRA_ALLOCATOR_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "dra/cel_device.h"
#include "dra/quantity_value.h"
#include "schedkit/api/v1/device_class.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/resource_claim.h"
#include "schedkit/api/v1/resource_slice.h"
#include "schedkit/base/symbol.h"

namespace schedkit::dra {

// Optional allocator behaviour, one flag per feature gate (upstream's
// internal.Features). The incubating allocator supports the first seven;
// Create refuses a set with any of the others, as upstream's NewAllocator
// finds no variant for it.
struct Features {
  bool admin_access = false;               // DRAAdminAccess
  bool prioritized_list = false;           // DRAPrioritizedList
  bool partitionable_devices = false;      // DRAPartitionableDevices
  bool device_taints = false;              // DRADeviceTaints
  bool device_binding_and_status = false;  // DRADeviceBindingConditions + DRAResourceClaimDeviceStatus
  bool consumable_capacity = false;        // DRAConsumableCapacity
  bool fractional_capacity_range = false;  // DRAFractionalCapacityRange
  // Experimental-only; not supported here.
  bool compatibility_groups = false;      // DRADeviceCompatibilityGroups
  bool derived_attributes = false;        // DRADerivedAttributes
  bool list_type_attributes = false;      // DRAListTypeAttributes
  bool optional_node_operations = false;  // DRAOptionalNodeOperations

  // The gate names of the enabled flags, sorted (upstream's Features.Set()).
  std::vector<std::string> EnabledNames() const;
};

// The features the incubating variant implements.
inline constexpr Features kIncubatingFeatures = {
    .admin_access = true, .prioritized_list = true, .partitionable_devices = true, .device_taints = true,
    .device_binding_and_status = true, .consumable_capacity = true, .fractional_capacity_range = true};

// A device by driver, pool and device name. Symbols, so the search compares
// and hashes integers.
struct DeviceId {
  Symbol driver;
  Symbol pool;
  Symbol device;

  static DeviceId Make(std::string_view driver, std::string_view pool, std::string_view device);
  std::string String() const;  // "<driver>/<pool>/<device>", as upstream prints it
  friend bool operator==(const DeviceId&, const DeviceId&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const DeviceId& d) {
    return H::combine(std::move(h), d.driver, d.pool, d.device);
  }
};

// One share of a device that allows multiple allocations (shareID of a
// result); share_id is empty for results without one.
struct SharedDeviceId {
  DeviceId device;
  Symbol share_id;

  friend bool operator==(const SharedDeviceId&, const SharedDeviceId&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const SharedDeviceId& d) {
    return H::combine(std::move(h), d.device, d.share_id);
  }
};

// Capacity name → amount consumed (upstream's ConsumedCapacity).
using ConsumedCapacity = absl::flat_hash_map<std::string, QuantityValue>;

// Devices in use by claims allocated before this cycle (upstream's
// AllocatedState, gathered by the caller from allocated claims).
struct AllocatedState {
  absl::flat_hash_set<DeviceId> allocated_devices;
  absl::flat_hash_set<SharedDeviceId> allocated_shared_device_ids;
  // The sum of what allocated shares consume from each device.
  absl::flat_hash_map<DeviceId, ConsumedCapacity> aggregated_capacity;
};

// Whether any allocated claim uses the device, whole or shared.
bool IsDeviceAllocated(const DeviceId& id, const AllocatedState& state);

// Where the allocator finds DeviceClasses. Get is called during Allocate,
// possibly from many threads at once; the class it returns must stay valid
// until that Allocate returns. A missing class is an error whose text follows
// "could not retrieve device class <name>: ".
class DeviceClassLister {
 public:
  virtual ~DeviceClassLister() = default;
  virtual absl::StatusOr<const api::v1::DeviceClass*> Get(std::string_view name) const = 0;
};

// Stops a search early, as upstream's context does: checked at every search
// step. Default: never.
struct Interrupt {
  std::stop_token stop;  // "filter operation aborted: context canceled"
  std::optional<std::chrono::steady_clock::time_point> deadline;  // "... context deadline exceeded"
};

// Allocate's answer: an error, no allocation possible on this node (nullopt),
// or one AllocationResult per claim, in the claims' order.
using AllocateResult = absl::StatusOr<std::optional<std::vector<api::v1::AllocationResult>>>;

// True for the errors that make this node unsuitable but let the scheduler
// try others (upstream's errors.Is(err, ErrFailedAllocationOnNode)), e.g.
// "invalid resource pools were encountered". Every other error is internal.
bool IsFailedAllocationOnNode(const absl::Status& status);

// True for the errors an Interrupt causes (codes kCancelled, kDeadlineExceeded).
bool IsInterrupted(const absl::Status& status);

// Whether a device or slice with this node name, allNodes and node selector
// (null: unset) is available on `node` (upstream's structured.NodeMatches):
// the name wins, then allNodes, then the selector. Fails when the selector
// does not compile.
absl::StatusOr<bool> NodeMatches(const api::v1::Node& node, std::string_view node_name, bool all_nodes,
                                 const api::v1::NodeSelector* selector);

struct AllocatorOptions {
  Features features;
  AllocatedState allocated_state;
  // Not owned; must outlive the allocator.
  const DeviceClassLister* class_lister = nullptr;
  // Every ResourceSlice of the cluster; not owned, must outlive the allocator.
  std::vector<const api::v1::ResourceSlice*> slices;
  // Compiled CEL selectors, usually shared across cycles; not owned.
  SelectorCache* selector_cache = nullptr;
  // Makes the shareID of each share of a multi-allocatable device. Default:
  // a random UUID (upstream's uuid.NewUUID). Called from the threads that run
  // Allocate, possibly concurrently.
  std::function<std::string()> new_share_id;
};

namespace internal {
struct SliceInfo;
struct PoolCounters;
class Search;
}  // namespace internal

class Allocator {
 public:
  // Fails, as upstream's NewAllocator, when `options.features` holds a
  // feature the incubating variant lacks; also when a lister or cache is
  // missing.
  static absl::StatusOr<std::unique_ptr<Allocator>> Create(AllocatorOptions options);
  ~Allocator();
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  // Allocates devices for `claims` (none allocated yet) on `node`. Claims and
  // node are read during the call only. Errors carry upstream's texts:
  // unschedulable ones (IsFailedAllocationOnNode), interruptions
  // (IsInterrupted), and internal ones such as invalid requests or CEL
  // runtime errors, which upstream's scheduler turns into an Error status.
  AllocateResult Allocate(const api::v1::Node& node, std::span<const api::v1::ResourceClaim* const> claims,
                          const Interrupt& interrupt = {}) const;

  // How many search steps all Allocate calls took so far (upstream's
  // Stats.NumAllocateOneInvocations): a measure of the work done.
  int64_t num_allocate_one_invocations() const { return num_allocate_one_invocations_.load(); }

  const Features& features() const { return options_.features; }

 private:
  friend class internal::Search;
  explicit Allocator(AllocatorOptions options);

  AllocatorOptions options_;
  // Devices of allocated_state's shared ids, so "is it allocated" is one lookup.
  absl::flat_hash_set<DeviceId> shared_allocated_devices_;
  // Every slice, digested once: interned names, compiled node selectors,
  // parsed quantities. slices_on_node_ and shared_slices_ index into it.
  std::vector<internal::SliceInfo> slices_;
  absl::flat_hash_map<std::string, std::vector<const internal::SliceInfo*>> slices_on_node_;
  std::vector<const internal::SliceInfo*> shared_slices_;

  // Counters still available in each pool after allocated devices took
  // theirs, computed the first time a pool needs them (upstream caches the
  // same way, per pool and allocator).
  mutable absl::Mutex counters_mu_;
  mutable absl::flat_hash_map<std::pair<Symbol, Symbol>, std::shared_ptr<const internal::PoolCounters>>
      available_counters_ ABSL_GUARDED_BY(counters_mu_);

  mutable std::atomic<int64_t> num_allocate_one_invocations_{0};
};

}  // namespace schedkit::dra

#endif  // SCHEDKIT_LIB_DRA_ALLOCATOR_H_
