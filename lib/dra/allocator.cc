// The allocator's search (upstream's incubating Allocator.Allocate and
// allocateOne): validate the claims' requests, then a depth-first,
// first-fit walk over claims, requests, subrequests and devices that undoes
// each tentative choice when the rest cannot be satisfied.
#include "dra/allocator.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/random/random.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_format.h"
#include "dra/allocator_internal.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::dra {
namespace {

// resource.k8s.io's AllocationResultsMaxSize: devices per claim.
constexpr int kAllocationResultsMaxSize = 32;

constexpr char kFailedAllocationOnNodeUrl[] = "type.schedkit.dev/dra.FailedAllocationOnNode";

// The search's signal that a claim would need more than
// kAllocationResultsMaxSize devices: callers backtrack harder on it. Only the
// search makes this status.
absl::Status MaxSizeExceeded() { return absl::ResourceExhaustedError("allocation max size exceeded"); }
bool IsMaxSizeExceeded(const absl::Status& s) {
  return s.code() == absl::StatusCode::kResourceExhausted && s.message() == "allocation max size exceeded";
}

std::string ClaimRef(const api::v1::ResourceClaim& claim) {
  const api::v1::ObjectMeta& m = claim.metadata();
  return m.namespace_().empty() ? m.name() : StrCat(m.namespace_(), "/", m.name());
}

absl::Status Error(std::string message) { return absl::InvalidArgumentError(std::move(message)); }

// Wraps a status's message as upstream's fmt.Errorf("...: %w") does, keeping its code.
absl::Status Wrap(const absl::Status& s, std::string_view prefix) {
  return absl::Status(s.code(), StrCat(prefix, s.message()));
}

std::string NewRandomShareId() {
  thread_local absl::BitGen gen;
  uint64_t hi = absl::Uniform<uint64_t>(gen);
  uint64_t lo = absl::Uniform<uint64_t>(gen);
  hi = (hi & ~uint64_t{0xF000}) | uint64_t{0x4000};  // version 4
  lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // RFC 4122 variant
  return absl::StrFormat("%08x-%04x-%04x-%04x-%012x", hi >> 32, (hi >> 16) & 0xFFFF, hi & 0xFFFF, lo >> 48,
                         lo & 0xFFFFFFFFFFFFULL);
}

}  // namespace

std::vector<std::string> Features::EnabledNames() const {
  std::vector<std::string> names;
  const std::pair<bool, const char*> all[] = {
      {admin_access, "DRAAdminAccess"},
      {compatibility_groups, "DRADeviceCompatibilityGroups"},
      {consumable_capacity, "DRAConsumableCapacity"},
      {derived_attributes, "DRADerivedAttributes"},
      {device_taints, "DRADeviceTaints"},
      {fractional_capacity_range, "DRAFractionalCapacityRange"},
      {list_type_attributes, "DRAListTypeAttributes"},
      {optional_node_operations, "DRAOptionalNodeOperations"},
      {partitionable_devices, "DRAPartitionableDevices"},
      {prioritized_list, "DRAPrioritizedList"},
      {device_binding_and_status, "DRADeviceBindingConditions+DRAResourceClaimDeviceStatus"},
  };
  for (const auto& [on, name] : all) {
    if (on) names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

DeviceId DeviceId::Make(std::string_view driver, std::string_view pool, std::string_view device) {
  return DeviceId{Symbol::Intern(driver), Symbol::Intern(pool), Symbol::Intern(device)};
}

std::string DeviceId::String() const { return StrCat(driver.str(), "/", pool.str(), "/", device.str()); }

bool IsDeviceAllocated(const DeviceId& id, const AllocatedState& state) {
  if (state.allocated_devices.contains(id) || state.aggregated_capacity.contains(id)) return true;
  for (const SharedDeviceId& shared : state.allocated_shared_device_ids) {
    if (shared.device == id) return true;
  }
  return false;
}

bool IsFailedAllocationOnNode(const absl::Status& status) {
  return status.GetPayload(kFailedAllocationOnNodeUrl).has_value();
}

bool IsInterrupted(const absl::Status& status) {
  return status.code() == absl::StatusCode::kCancelled || status.code() == absl::StatusCode::kDeadlineExceeded;
}

namespace internal {

// A request or one subrequest of firstAvailable, read through one interface
// (upstream's requestAccessor). Exactly one of exact/sub is set.
struct RequestView {
  std::string_view name;
  const api::v1::ExactDeviceRequest* exact = nullptr;
  const api::v1::DeviceSubRequest* sub = nullptr;

  const std::string& device_class_name() const { return exact ? exact->device_class_name() : sub->device_class_name(); }
  const std::string& allocation_mode() const { return exact ? exact->allocation_mode() : sub->allocation_mode(); }
  int64_t count() const { return exact ? exact->count() : sub->count(); }
  bool admin_access() const { return exact != nullptr && exact->admin_access(); }
  bool has_admin_access() const { return exact != nullptr && exact->has_admin_access(); }
  const google::protobuf::RepeatedPtrField<api::v1::DeviceSelector>& selectors() const {
    return exact ? exact->selectors() : sub->selectors();
  }
  const google::protobuf::RepeatedPtrField<api::v1::DeviceToleration>& tolerations() const {
    return exact ? exact->tolerations() : sub->tolerations();
  }
  const api::v1::CapacityRequirements* capacity() const {
    if (exact) return exact->has_capacity() ? &exact->capacity() : nullptr;
    return sub->has_capacity() ? &sub->capacity() : nullptr;
  }
  int derived_attributes_size() const {
    return exact ? exact->derived_attributes_size() : sub->derived_attributes_size();
  }
};

// A device of a pool as the search handles it (upstream's deviceWithID).
struct DeviceRef {
  DeviceId id;
  const DeviceInfo* device = nullptr;
  const SliceInfo* slice = nullptr;
  const Pool* pool = nullptr;
};

// What the search knows about one request or subrequest (upstream's requestData).
struct RequestData {
  RequestView request;
  std::string_view parent_name;  // the request of a subrequest; empty otherwise
  std::string full_name;         // "<request>" or "<request>/<subrequest>"
  const api::v1::DeviceClass* device_class = nullptr;
  int64_t num_devices = 0;
  std::vector<DeviceRef> all_devices;  // allocationMode All: the devices, decided up front
  std::vector<char> constraint_applies;  // per claim constraint
  bool has_capacity_requests = false;
  std::vector<std::pair<std::string, QuantityValue>> capacity_requests;
  // Selectors compiled on first use, so a compile error surfaces only when a
  // device is actually checked, as upstream's.
  std::vector<std::optional<CompileResult>> class_selectors, request_selectors;

  const std::vector<std::pair<std::string, QuantityValue>>* capacity_requests_or_null() const {
    return has_capacity_requests ? &capacity_requests : nullptr;
  }
};

// One request of a claim: one RequestData, or one per subrequest.
struct RequestSlot {
  bool has_subrequests = false;
  std::vector<RequestData> options;
  int selected = 0;  // the subrequest that was allocated
};

struct DeviceIndices {
  int claim = 0, request = 0, sub = 0, device = 0;
};

struct DeviceLocation {
  size_t pool = 0, slice = 0, device = 0;
};

struct MatchKey {
  DeviceId id;
  int claim, request, sub;
  friend bool operator==(const MatchKey&, const MatchKey&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const MatchKey& k) {
    return H::combine(std::move(h), k.id, k.claim, k.request, k.sub);
  }
};

// What AllocateDevice changed, so Rollback can undo exactly that.
struct Undo {
  bool counters_reserved = false;
  int constraints_added = 0;
  bool device_marked = false;
  bool capacity_inserted = false;
  bool capacity_entry_existed = false;
  bool result_added = false;
  size_t previous_num_results = 0;
  ConsumedCapacity consumed_capacity;
};

// One Allocate call: single-threaded state of the search.
class Search {
 public:
  Search(const Allocator& allocator, const api::v1::Node& node, std::span<const api::v1::ResourceClaim* const> claims,
         const Interrupt& interrupt)
      : a_(allocator), f_(allocator.options_.features), node_(&node), claims_(claims), interrupt_(interrupt) {}
  ~Search() { a_.num_allocate_one_invocations_.fetch_add(invocations_); }

  AllocateResult Run();

 private:
  absl::Status Prepare();
  absl::StatusOr<RequestData> ValidateRequest(RequestView request, std::string_view parent_name, int claim_index,
                                              int request_index, int sub_index);
  absl::StatusOr<bool> AllocateOne(DeviceIndices r, bool allocate_sub, DeviceLocation start);
  absl::StatusOr<bool> AllocateDevice(const DeviceIndices& r, const DeviceRef& device, bool must, Undo& undo);
  void Rollback(const DeviceIndices& r, const DeviceRef& device, const Undo& undo);
  absl::StatusOr<bool> IsSelectable(int claim, int request, int sub, RequestData& rd, const SliceInfo& slice,
                                    size_t device_index);
  absl::StatusOr<bool> SelectorsMatch(int claim, const DeviceInfo& device, const DeviceId& id, RequestData& rd,
                                      bool of_class);
  absl::StatusOr<bool> CapacityFits(const RequestData& rd, const DeviceRef& device) const;
  absl::StatusOr<bool> ReserveCountersFor(const DeviceRef& device);
  absl::Status CheckInterrupt() const;
  absl::StatusOr<std::vector<api::v1::AllocationResult>> BuildResults();

  RequestData& Data(int claim, int request, int sub) {
    RequestSlot& slot = requests_[claim][request];
    return slot.options[slot.has_subrequests ? sub : 0];
  }
  bool DeviceInUse(const DeviceId& id) const {
    if (a_.options_.allocated_state.allocated_devices.contains(id)) return true;
    auto it = allocating_devices_.find(id);
    return it != allocating_devices_.end() && !it->second.empty();
  }
  bool AllocatingForClaim(const DeviceId& id, int claim) const {
    auto it = allocating_devices_.find(id);
    return it != allocating_devices_.end() && std::find(it->second.begin(), it->second.end(), claim) != it->second.end();
  }
  // A multi-allocatable device already shared by someone: its counters are
  // taken already.
  bool DeviceCapacityInUse(const DeviceId& id) const {
    return a_.options_.allocated_state.aggregated_capacity.contains(id) || a_.shared_allocated_devices_.contains(id) ||
           allocating_capacity_.contains(id);
  }

  const Allocator& a_;
  const Features& f_;
  NodeContext node_;
  std::span<const api::v1::ResourceClaim* const> claims_;
  const Interrupt& interrupt_;
  int64_t invocations_ = 0;

  std::vector<Pool> pools_;
  std::vector<std::vector<RequestSlot>> requests_;       // [claim][request]
  std::vector<std::vector<Constraint>> constraints_;     // [claim]
  absl::flat_hash_map<MatchKey, bool> matches_;          // selector results, which do not change during a call
  absl::flat_hash_map<std::pair<Symbol, Symbol>, PoolCounters> consumed_counters_;
  // Devices being allocated in this call → the claims they are for.
  absl::flat_hash_map<DeviceId, absl::InlinedVector<int, 2>> allocating_devices_;
  // Capacity the shares chosen in this call consume, per device.
  absl::flat_hash_map<DeviceId, ConsumedCapacity> allocating_capacity_;
  std::vector<std::vector<ResultDevice>> results_;  // [claim]
};

absl::Status Search::CheckInterrupt() const {
  if (interrupt_.stop.stop_requested()) return absl::CancelledError("filter operation aborted: context canceled");
  if (interrupt_.deadline && std::chrono::steady_clock::now() >= *interrupt_.deadline) {
    return absl::DeadlineExceededError("filter operation aborted: context deadline exceeded");
  }
  return absl::OkStatus();
}

absl::StatusOr<RequestData> Search::ValidateRequest(RequestView request, std::string_view parent_name,
                                                    int claim_index, int request_index, int sub_index) {
  const api::v1::ResourceClaim& claim = *claims_[claim_index];
  RequestData rd;
  rd.request = request;
  rd.parent_name = parent_name;
  rd.full_name = parent_name.empty() ? std::string(request.name) : StrCat(parent_name, "/", request.name);
  const std::string prefix = StrCat("claim ", ClaimRef(claim), ", request ", request.name);
  if (request.derived_attributes_size() > 0) {
    return Error(StrCat(prefix, ": cannot handle request with derived attributes, the feature is disabled"));
  }
  for (int i = 0; i < request.selectors().size(); ++i) {
    if (!request.selectors().Get(i).has_cel()) {
      return Error(StrCat(prefix, ", selector #", i, ": CEL expression empty (unsupported selector type?)"));
    }
  }
  if (!f_.admin_access && request.has_admin_access()) {
    return Error(StrCat(prefix, ": admin access is requested, but the feature is disabled"));
  }
  if (request.device_class_name().empty()) {
    return Error(StrCat(prefix, ": missing device class name (unsupported request type?)"));
  }
  absl::StatusOr<const api::v1::DeviceClass*> device_class = a_.options_.class_lister->Get(request.device_class_name());
  if (!device_class.ok()) {
    return Wrap(device_class.status(),
                StrCat(prefix, ": could not retrieve device class ", request.device_class_name(), ": "));
  }
  rd.device_class = *device_class;
  rd.class_selectors.resize(rd.device_class->spec().selectors_size());
  rd.request_selectors.resize(request.selectors().size());
  if (const api::v1::CapacityRequirements* capacity = request.capacity()) {
    rd.has_capacity_requests = true;
    for (const auto& [name, text] : capacity->requests()) {
      absl::StatusOr<QuantityValue> q = QuantityValue::Parse(text);
      if (!q.ok()) return Wrap(q.status(), StrCat(prefix, ": capacity ", name, ": "));
      rd.capacity_requests.emplace_back(name, *q);
    }
    std::sort(rd.capacity_requests.begin(), rd.capacity_requests.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
  }

  const std::string& mode = request.allocation_mode();
  if (mode == "ExactCount") {
    rd.num_devices = request.count();
  } else if (mode == "All") {
    // "All" must see every device, so an incomplete or invalid pool makes
    // the request fail rather than succeed with part of the devices.
    rd.all_devices.reserve(kAllocationResultsMaxSize);
    for (const Pool& pool : pools_) {
      if (pool.incomplete) {
        return Error(StrCat(prefix, ": asks for all devices, but resource pool ", pool.Id(),
                            " is currently being updated"));
      }
      if (pool.invalid) {
        return Error(StrCat(prefix, ": asks for all devices, but resource pool ", pool.Id(), " is currently invalid"));
      }
      for (const SliceInfo* slice : pool.targeting) {
        for (size_t i = 0; i < slice->devices.size(); ++i) {
          absl::StatusOr<bool> selectable = IsSelectable(claim_index, request_index, sub_index, rd, *slice, i);
          if (!selectable.ok()) return selectable.status();
          if (!*selectable) continue;
          const DeviceInfo& device = slice->devices[i];
          if (f_.consumable_capacity) {
            // Static capacity only: what others consume is checked while
            // allocating, so a busy device keeps "All" from succeeding.
            absl::StatusOr<bool> fits = RequestFitsCapacity(nullptr, rd.capacity_requests_or_null(), device, nullptr,
                                                            f_.fractional_capacity_range);
            if (!fits.ok()) {
              return Wrap(fits.status(), StrCat(prefix, ": checking capacity for device ", device.name.str(), ": "));
            }
            if (!*fits) continue;
          }
          rd.all_devices.push_back(DeviceRef{DeviceId{slice->driver, slice->pool, device.name}, &device, slice, &pool});
        }
      }
    }
    rd.num_devices = static_cast<int64_t>(rd.all_devices.size());
  } else {
    return Error(StrCat(prefix, ": unsupported count mode ", mode));
  }
  return rd;
}

absl::Status Search::Prepare() {
  requests_.resize(claims_.size());
  constraints_.resize(claims_.size());
  results_.resize(claims_.size());
  for (size_t c = 0; c < claims_.size(); ++c) {
    const api::v1::ResourceClaim& claim = *claims_[c];
    const api::v1::DeviceClaim& devices = claim.spec().devices();
    int64_t min_devices_per_claim = 0;
    requests_[c].resize(devices.requests_size());
    for (int r = 0; r < devices.requests_size(); ++r) {
      const api::v1::DeviceRequest& request = devices.requests(r);
      RequestSlot& slot = requests_[c][r];
      slot.has_subrequests = request.first_available_size() > 0;
      if (!f_.prioritized_list && slot.has_subrequests) {
        return Error(StrCat("claim ", ClaimRef(claim), ", request ", request.name(),
                            ": has subrequests, but the DRAPrioritizedList feature is disabled"));
      }
      if (!f_.consumable_capacity) {
        if (request.has_exactly() && request.exactly().has_capacity()) {
          return Error(StrCat("claim ", ClaimRef(claim), ", request ", request.name(),
                              ": has capacity requests, but the DRAConsumableCapacity feature is disabled"));
        }
        for (const api::v1::DeviceSubRequest& sub : request.first_available()) {
          if (sub.has_capacity()) {
            return Error(StrCat("claim ", ClaimRef(claim), ", subrequest ", sub.name(),
                                ": has capacity requests, but the DRAConsumableCapacity feature is disabled"));
          }
        }
      }
      int64_t min_devices = 0;
      if (slot.has_subrequests) {
        // Which subrequest wins is only known later: count the smallest.
        min_devices = std::numeric_limits<int64_t>::max();
        for (int s = 0; s < request.first_available_size(); ++s) {
          const api::v1::DeviceSubRequest& sub = request.first_available(s);
          absl::StatusOr<RequestData> rd =
              ValidateRequest(RequestView{.name = sub.name(), .sub = &sub}, request.name(), c, r, s);
          if (!rd.ok()) return rd.status();
          min_devices = std::min(min_devices, rd->num_devices);
          slot.options.push_back(*std::move(rd));
        }
      } else {
        absl::StatusOr<RequestData> rd =
            ValidateRequest(RequestView{.name = request.name(), .exact = &request.exactly()}, "", c, r, 0);
        if (!rd.ok()) return rd.status();
        min_devices = rd->num_devices;
        slot.options.push_back(*std::move(rd));
      }
      // Compared against what is left, so a huge count cannot overflow the sum.
      if (min_devices > kAllocationResultsMaxSize - min_devices_per_claim) {
        return Error(StrCat("claim ", ClaimRef(claim), ", request ", request.name(), ": adding ", min_devices,
                            " devices exceeds the claim limit of ", kAllocationResultsMaxSize, ", with ",
                            min_devices_per_claim, " already accounted for"));
      }
      min_devices_per_claim += min_devices;
    }
    results_[c].reserve(min_devices_per_claim);

    // Constraints are monotonic: once one fails, more devices cannot make it
    // hold again, which lets the search stop early.
    for (int i = 0; i < devices.constraints_size(); ++i) {
      const api::v1::DeviceConstraint& constraint = devices.constraints(i);
      if (constraint.has_match_attribute()) {
        constraints_[c].emplace_back(Constraint::Kind::kMatch, constraint.match_attribute());
      } else if (constraint.has_distinct_attribute()) {
        constraints_[c].emplace_back(Constraint::Kind::kDistinct, constraint.distinct_attribute());
      } else {
        return Error(StrCat("claim ", ClaimRef(claim), ", constraint #", i,
                            ": empty constraint (unsupported constraint type?)"));
      }
    }
    // Which constraints apply to which request, decided once: all when a
    // constraint names no requests, else those named by request or by
    // "<request>/<subrequest>".
    for (RequestSlot& slot : requests_[c]) {
      for (RequestData& rd : slot.options) {
        rd.constraint_applies.resize(devices.constraints_size());
        for (int i = 0; i < devices.constraints_size(); ++i) {
          const auto& names = devices.constraints(i).requests();
          const std::string_view base = rd.parent_name.empty() ? rd.request.name : rd.parent_name;
          rd.constraint_applies[i] =
              names.empty() || std::any_of(names.begin(), names.end(), [&](const std::string& n) {
                return n == base || (!rd.parent_name.empty() && n == rd.full_name);
              });
        }
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> Search::SelectorsMatch(int claim, const DeviceInfo& device, const DeviceId& id, RequestData& rd,
                                            bool of_class) {
  const auto& selectors = of_class ? rd.device_class->spec().selectors() : rd.request.selectors();
  auto& compiled = of_class ? rd.class_selectors : rd.request_selectors;
  auto owner = [&]() {
    return of_class ? StrCat("class ", rd.device_class->metadata().name()) : StrCat("claim ", ClaimRef(*claims_[claim]));
  };
  for (int i = 0; i < selectors.size(); ++i) {
    if (!compiled[i]) compiled[i] = a_.options_.selector_cache->GetOrCompile(selectors.Get(i).cel().expression());
    const CompileResult& expr = *compiled[i];
    if (!expr.error.ok()) {
      // A newer API server may have stored an expression this version
      // cannot compile.
      return Wrap(expr.error, StrCat(owner(), ": selector #", i, ": CEL compile error: "));
    }
    const api::v1::Device& d = *device.device;
    absl::StatusOr<bool> matches = expr.selector->Matches(CelDevice{.driver = id.driver.str(),
                                                                    .allow_multiple_allocations = d.allow_multiple_allocations(),
                                                                    .attributes = &d.attributes(),
                                                                    .capacity = &d.capacity()});
    if (!matches.ok()) {
      std::string message(matches.status().message());
      // Upstream's EnhanceRuntimeError: point at the usual fix for a missing key.
      if (message.find("no such key:") != std::string::npos) {
        message += ". consider using CEL optional chaining (.? followed by orValue()) or guarding the check with "
                   "has() for optional fields";
      }
      return absl::Status(matches.status().code(), StrCat(owner(), ": selector #", i, " on device ", id.String(),
                                                          ": CEL runtime error: ", message));
    }
    if (!*matches) return false;
  }
  return true;
}

absl::StatusOr<bool> Search::IsSelectable(int claim, int request, int sub, RequestData& rd, const SliceInfo& slice,
                                          size_t device_index) {
  const DeviceInfo& device = slice.devices[device_index];
  // Without the feature, devices that need binding conditions are not offered.
  if (!f_.device_binding_and_status && device.device->binding_conditions_size() > 0) return false;
  const DeviceId id{slice.driver, slice.pool, device.name};
  const MatchKey key{id, claim, request, sub};
  if (auto it = matches_.find(key); it != matches_.end()) return it->second;
  bool match = true;
  if (rd.device_class != nullptr) {
    absl::StatusOr<bool> m = SelectorsMatch(claim, device, id, rd, /*of_class=*/true);
    if (!m.ok()) return m.status();
    match = *m;
  }
  if (match) {
    absl::StatusOr<bool> m = SelectorsMatch(claim, device, id, rd, /*of_class=*/false);
    if (!m.ok()) return m.status();
    match = *m;
  }
  if (match && slice.spec().per_device_node_selection()) {
    const api::v1::Device& d = *device.device;
    absl::StatusOr<bool> m = NodeMatches(node_, d.has_node_name() ? std::string_view(d.node_name()) : "",
                                         d.all_nodes(), device.node_selector ? &*device.node_selector : nullptr);
    if (!m.ok()) return m.status();
    match = *m;
  }
  matches_[key] = match;
  return match;
}

absl::StatusOr<bool> Search::CapacityFits(const RequestData& rd, const DeviceRef& device) const {
  const ConsumedCapacity* allocated = nullptr;
  if (auto it = a_.options_.allocated_state.aggregated_capacity.find(device.id);
      it != a_.options_.allocated_state.aggregated_capacity.end()) {
    allocated = &it->second;
  }
  const ConsumedCapacity* allocating = nullptr;
  if (auto it = allocating_capacity_.find(device.id); it != allocating_capacity_.end()) allocating = &it->second;
  return RequestFitsCapacity(allocated, rd.capacity_requests_or_null(), *device.device, allocating,
                             f_.fractional_capacity_range);
}

absl::StatusOr<bool> Search::ReserveCountersFor(const DeviceRef& device) {
  const std::pair<Symbol, Symbol> pool_id{device.pool->driver, device.pool->pool};
  std::shared_ptr<const PoolCounters> available;
  {
    absl::MutexLock lock(&a_.counters_mu_);
    if (auto it = a_.available_counters_.find(pool_id); it != a_.available_counters_.end()) available = it->second;
  }
  if (available == nullptr) {
    // Computed outside the lock; two threads may both compute it, with the
    // same result.
    const AllocatedState& state = a_.options_.allocated_state;
    absl::StatusOr<PoolCounters> computed = AvailableCounters(*device.pool, [&](const DeviceId& id) {
      return state.allocated_devices.contains(id) || a_.shared_allocated_devices_.contains(id) ||
             state.aggregated_capacity.contains(id);
    });
    if (!computed.ok()) return computed.status();
    available = std::make_shared<const PoolCounters>(*std::move(computed));
    absl::MutexLock lock(&a_.counters_mu_);
    a_.available_counters_.emplace(pool_id, available);
  }
  return ReserveCounters(*available, consumed_counters_[pool_id], *device.device);
}

absl::StatusOr<bool> Search::AllocateDevice(const DeviceIndices& r, const DeviceRef& device, bool must, Undo& undo) {
  const api::v1::ResourceClaim& claim = *claims_[r.claim];
  RequestData& rd = Data(r.claim, r.request, r.sub);
  const RequestView& request = rd.request;
  const api::v1::Device& d = *device.device->device;
  const bool allow_multiple = f_.consumable_capacity && d.allow_multiple_allocations();
  if (!allow_multiple && request.admin_access() && AllocatingForClaim(device.id, r.claim)) return false;
  if (!request.admin_access() && DeviceInUse(device.id)) return false;
  if (!f_.partitionable_devices && d.consumes_counters_size() > 0) return false;

  undo = Undo{};
  undo.previous_num_results = results_[r.claim].size();
  // A share of a device that is shared already does not consume its
  // counters again.
  const bool skip_counters = allow_multiple && DeviceCapacityInUse(device.id);
  if (!skip_counters && d.consumes_counters_size() > 0) {
    absl::StatusOr<bool> ok = ReserveCountersFor(device);
    if (!ok.ok()) return ok.status();
    if (!*ok) return false;
    undo.counters_reserved = true;
  }

  if (f_.device_taints && TaintPreventsAllocation(d, request.tolerations())) {
    Rollback(r, device, undo);
    return false;
  }
  std::vector<Constraint>& constraints = constraints_[r.claim];
  for (size_t i = 0; i < constraints.size(); ++i) {
    if (rd.constraint_applies[i] && !constraints[i].Add(d, device.id)) {
      Rollback(r, device, undo);
      if (must) {
        // A claim whose constraint rules out one of the devices it must
        // get cannot be satisfied at all.
        return Error(StrCat("claim ", ClaimRef(claim), ", request ", request.name, ": cannot add device ",
                            device.id.String(), " because a claim constraint would not be satisfied"));
      }
      return false;
    }
    ++undo.constraints_added;
  }

  if (!allow_multiple) {
    allocating_devices_[device.id].push_back(r.claim);
    undo.device_marked = true;
  }
  std::optional<std::string> share_id;
  if (f_.consumable_capacity) {
    absl::StatusOr<bool> fits = CapacityFits(rd, device);
    if (!fits.ok()) {
      Rollback(r, device, undo);
      return Wrap(fits.status(), StrCat("claim ", ClaimRef(claim), ", request ", request.name,
                                        ": rechecking capacity for device ", device.id.String(), ": "));
    }
    if (!*fits) {
      Rollback(r, device, undo);
      return false;
    }
    if (allow_multiple) {
      absl::StatusOr<ConsumedCapacity> consumed =
          ConsumedCapacityFromRequest(rd.capacity_requests_or_null(), *device.device, f_.fractional_capacity_range);
      if (!consumed.ok()) {
        Rollback(r, device, undo);
        return Wrap(consumed.status(), StrCat("claim ", ClaimRef(claim), ", request ", request.name,
                                              ": computing consumed capacity for device ", device.id.String(), ": "));
      }
      share_id = a_.options_.new_share_id();
      // The entry doubles as "this device is shared already"; if an earlier
      // share made it, Rollback must leave it in place.
      undo.capacity_entry_existed = allocating_capacity_.contains(device.id);
      InsertCapacity(allocating_capacity_, device.id, *consumed);
      undo.capacity_inserted = true;
      undo.consumed_capacity = *std::move(consumed);
    }
  }

  ResultDevice& result = results_[r.claim].emplace_back();
  result.request_name = rd.full_name;
  result.tolerations = &request.tolerations();
  result.id = device.id;
  result.device = device.device;
  result.slice = device.slice;
  result.share_id = std::move(share_id);
  result.admin_access = request.admin_access();
  result.consumed_capacity = undo.consumed_capacity;
  undo.result_added = true;
  return true;
}

void Search::Rollback(const DeviceIndices& r, const DeviceRef& device, const Undo& undo) {
  if (undo.result_added) results_[r.claim].resize(undo.previous_num_results);
  if (undo.capacity_inserted) {
    RemoveCapacity(allocating_capacity_, device.id, undo.consumed_capacity);
    // Remove drops an entry that became empty, but an earlier share still
    // needs it as its "shared" marker.
    if (undo.capacity_entry_existed && !allocating_capacity_.contains(device.id)) allocating_capacity_[device.id];
  }
  if (undo.device_marked) {
    auto& claims = allocating_devices_[device.id];
    claims.erase(std::find(claims.begin(), claims.end(), r.claim));
  }
  RequestData& rd = Data(r.claim, r.request, r.sub);
  for (int i = undo.constraints_added - 1; i >= 0; --i) {
    if (rd.constraint_applies[i]) constraints_[r.claim][i].Remove();
  }
  if (undo.counters_reserved) {
    ReleaseCounters(consumed_counters_[{device.pool->driver, device.pool->pool}], *device.device);
  }
}

// Finds a device for the r.device-th slot of one request, then recurses for
// the next slot, request or claim. Within a request, devices are tried in
// pool/slice/device order from `start` on, so each combination is tried once,
// not each permutation; across requests and claims the order matters and
// every device is a candidate again.
absl::StatusOr<bool> Search::AllocateOne(DeviceIndices r, bool allocate_sub, DeviceLocation start) {
  ++invocations_;
  SCHEDKIT_RETURN_IF_ERROR(CheckInterrupt());
  if (r.claim >= static_cast<int>(claims_.size())) return true;  // first solution found

  if (r.request >= static_cast<int>(requests_[r.claim].size())) {
    absl::StatusOr<bool> next = AllocateOne(DeviceIndices{.claim = r.claim + 1}, false, {});
    // Too many devices for a later claim is not fatal: another choice for
    // this claim may let that one pick a smaller subrequest.
    if (!next.ok() && IsMaxSizeExceeded(next.status())) return false;
    return next;
  }

  RequestSlot& slot = requests_[r.claim][r.request];
  if (!allocate_sub && slot.has_subrequests) {
    // Only one subrequest must be satisfied: the first that works wins.
    bool all_exceeded = true;
    for (int s = 0; s < static_cast<int>(slot.options.size()); ++s) {
      r.sub = s;
      absl::StatusOr<bool> done = AllocateOne(r, true, {});
      // A subrequest needing fewer devices may still fit.
      if (!done.ok() && IsMaxSizeExceeded(done.status())) continue;
      all_exceeded = false;
      if (!done.ok()) return done.status();
      if (*done) {
        slot.selected = s;
        return true;
      }
    }
    // If every subrequest ran over the limit, no choice in an earlier
    // request of this claim can help.
    if (all_exceeded) return MaxSizeExceeded();
    return false;
  }

  RequestData& rd = Data(r.claim, r.request, r.sub);
  const bool all_devices = rd.request.allocation_mode() == "All";
  if (all_devices && rd.all_devices.empty()) return false;  // "All" needs at least one device

  if (r.device >= rd.num_devices) {
    return AllocateOne(DeviceIndices{.claim = r.claim, .request = r.request + 1}, false, {});
  }
  const int64_t remaining = rd.num_devices - r.device;
  const int64_t available = kAllocationResultsMaxSize - static_cast<int64_t>(results_[r.claim].size());
  if (remaining > available) return MaxSizeExceeded();

  const DeviceIndices next_slot{.claim = r.claim, .request = r.request, .sub = r.sub, .device = r.device + 1};
  Undo undo;
  if (all_devices) {
    // The devices are known; the order does not matter, so if this one
    // cannot be had there is no solution.
    const DeviceRef& device = rd.all_devices[r.device];
    absl::StatusOr<bool> ok = AllocateDevice(r, device, /*must=*/true, undo);
    if (!ok.ok() || !*ok) return ok;
    absl::StatusOr<bool> done = AllocateOne(next_slot, allocate_sub, {});
    if (!done.ok() || !*done) {
      Rollback(r, device, undo);
      return done;
    }
    return true;
  }

  const bool admin = rd.request.admin_access();
  for (size_t p = start.pool; p < pools_.size(); ++p) {
    const Pool& pool = pools_[p];
    // Incomplete or invalid pools are never allocated from; others may do.
    if (pool.incomplete || pool.invalid) continue;
    for (size_t s = (p == start.pool ? start.slice : 0); s < pool.targeting.size(); ++s) {
      const SliceInfo& slice = *pool.targeting[s];
      for (size_t i = (p == start.pool && s == start.slice ? start.device : 0); i < slice.devices.size(); ++i) {
        const DeviceRef device{DeviceId{pool.driver, pool.pool, slice.devices[i].name}, &slice.devices[i], &slice,
                               &pool};
        // "In use" is cheap, so it goes first.
        if (admin ? AllocatingForClaim(device.id, r.claim) : DeviceInUse(device.id)) continue;
        absl::StatusOr<bool> selectable = IsSelectable(r.claim, r.request, r.sub, rd, slice, i);
        if (!selectable.ok()) return selectable.status();
        if (!*selectable) continue;
        if (f_.consumable_capacity) {
          absl::StatusOr<bool> fits = CapacityFits(rd, device);
          if (!fits.ok()) {
            return Wrap(fits.status(), StrCat("claim ", ClaimRef(*claims_[r.claim]), ", request ", rd.request.name,
                                              ": checking capacity for device ", device.id.String(), ": "));
          }
          if (!*fits) continue;
        }
        absl::StatusOr<bool> allocated = AllocateDevice(r, device, /*must=*/false, undo);
        if (!allocated.ok()) return allocated.status();
        if (!*allocated) continue;
        absl::StatusOr<bool> done = AllocateOne(next_slot, allocate_sub, DeviceLocation{p, s, i + 1});
        if (done.ok() && *done) return true;
        Rollback(r, device, undo);
        // An error ends the search; the "too many devices" one is caught
        // above, where another subrequest may still fit.
        if (!done.ok()) return done.status();
      }
    }
  }
  return false;
}

absl::StatusOr<std::vector<api::v1::AllocationResult>> Search::BuildResults() {
  std::vector<api::v1::AllocationResult> out(claims_.size());
  for (size_t c = 0; c < claims_.size(); ++c) {
    const api::v1::DeviceClaim& claim_devices = claims_[c]->spec().devices();
    api::v1::AllocationResult& allocation = out[c];
    api::v1::DeviceAllocationResult* devices = allocation.mutable_devices();
    for (const ResultDevice& rd : results_[c]) {
      api::v1::DeviceRequestAllocationResult* r = devices->add_results();
      r->set_request(std::string(rd.request_name));
      r->set_driver(std::string(rd.id.driver.str()));
      r->set_pool(std::string(rd.id.pool.str()));
      r->set_device(std::string(rd.id.device.str()));
      if (rd.admin_access) r->set_admin_access(true);
      *r->mutable_tolerations() = *rd.tolerations;
      if (rd.share_id) r->set_share_id(*rd.share_id);
      for (const auto& [name, q] : rd.consumed_capacity) (*r->mutable_consumed_capacity())[name] = q.String();
      // Without the feature no chosen device has binding conditions.
      if (f_.device_binding_and_status) {
        *r->mutable_binding_conditions() = rd.device->device->binding_conditions();
        *r->mutable_binding_failure_conditions() = rd.device->device->binding_failure_conditions();
      }
    }

    // The selected request or subrequest of each claim request.
    auto chosen = [&](int request) -> const RequestData& {
      const RequestSlot& slot = requests_[c][request];
      return slot.options[slot.has_subrequests ? slot.selected : 0];
    };
    // A class's configs are added once; later requests of the class join
    // their request lists.
    absl::flat_hash_map<std::string_view, std::pair<int, int>> class_configs;
    for (int r = 0; r < claim_devices.requests_size(); ++r) {
      const RequestData& rd = chosen(r);
      if (rd.device_class == nullptr) continue;
      auto [it, inserted] = class_configs.try_emplace(rd.device_class->metadata().name());
      if (!inserted) {
        for (int i = it->second.first; i < it->second.second; ++i) {
          devices->mutable_config(i)->add_requests(rd.full_name);
        }
        continue;
      }
      it->second.first = devices->config_size();
      for (const api::v1::DeviceClassConfiguration& config : rd.device_class->spec().config()) {
        api::v1::DeviceAllocationConfiguration* out_config = devices->add_config();
        out_config->set_source("FromClass");
        out_config->add_requests(rd.full_name);
        if (config.has_opaque()) *out_config->mutable_opaque() = config.opaque();
      }
      it->second.second = devices->config_size();
    }
    auto names_request = [&](const google::protobuf::RepeatedPtrField<std::string>& names, int r) {
      const api::v1::DeviceRequest& request = claim_devices.requests(r);
      if (std::find(names.begin(), names.end(), request.name()) != names.end()) return true;
      const RequestSlot& slot = requests_[c][r];
      return slot.has_subrequests && std::find(names.begin(), names.end(), chosen(r).full_name) != names.end();
    };
    for (const api::v1::DeviceClaimConfiguration& config : claim_devices.config()) {
      bool include = config.requests().empty();
      for (int r = 0; !include && r < claim_devices.requests_size(); ++r) include = names_request(config.requests(), r);
      if (!include) continue;
      api::v1::DeviceAllocationConfiguration* out_config = devices->add_config();
      out_config->set_source("FromClaim");
      *out_config->mutable_requests() = config.requests();
      if (config.has_opaque()) *out_config->mutable_opaque() = config.opaque();
    }
    // A config for every request is written with no requests ("all").
    for (api::v1::DeviceAllocationConfiguration& config : *devices->mutable_config()) {
      if (config.requests().empty()) continue;
      bool applies_to_all = true;
      for (int r = 0; applies_to_all && r < claim_devices.requests_size(); ++r) {
        applies_to_all = names_request(config.requests(), r);
      }
      if (applies_to_all) config.clear_requests();
    }

    absl::StatusOr<std::optional<api::v1::NodeSelector>> selector =
        CreateNodeSelector(results_[c], node_.node()->metadata().name());
    if (!selector.ok()) {
      return Wrap(selector.status(), StrCat("create NodeSelector for claim ", claims_[c]->metadata().name(), ": "));
    }
    if (*selector) *allocation.mutable_node_selector() = **std::move(selector);
  }
  return out;
}

AllocateResult Search::Run() {
  std::vector<const SliceInfo*> slices_for_node;
  if (auto it = a_.slices_on_node_.find(node_.node()->metadata().name()); it != a_.slices_on_node_.end()) {
    slices_for_node = it->second;
  }
  slices_for_node.insert(slices_for_node.end(), a_.shared_slices_.begin(), a_.shared_slices_.end());
  absl::StatusOr<std::vector<Pool>> pools = GatherPools(slices_for_node, node_, f_, a_.slices_);
  if (!pools.ok()) return Wrap(pools.status(), "gather pool information: ");
  pools_ = *std::move(pools);

  SCHEDKIT_RETURN_IF_ERROR(Prepare());

  absl::StatusOr<bool> done = AllocateOne({}, false, {});
  if (!done.ok()) return done.status();
  if (!*done) {
    // Invalid pools are reported only when nothing could be allocated: the
    // claims might have been satisfied from valid pools. Not fatal for the
    // cycle; other nodes may do.
    for (const Pool& pool : pools_) {
      if (pool.invalid) {
        absl::Status s = absl::FailedPreconditionError("invalid resource pools were encountered");
        s.SetPayload(kFailedAllocationOnNodeUrl, absl::Cord());
        return s;
      }
    }
    return std::optional<std::vector<api::v1::AllocationResult>>();
  }
  absl::StatusOr<std::vector<api::v1::AllocationResult>> results = BuildResults();
  if (!results.ok()) return results.status();
  return std::optional<std::vector<api::v1::AllocationResult>>(*std::move(results));
}

}  // namespace internal

Allocator::Allocator(AllocatorOptions options) : options_(std::move(options)) {
  if (!options_.new_share_id) options_.new_share_id = NewRandomShareId;
  for (const SharedDeviceId& shared : options_.allocated_state.allocated_shared_device_ids) {
    shared_allocated_devices_.insert(shared.device);
  }
  slices_.reserve(options_.slices.size());
  for (const api::v1::ResourceSlice* slice : options_.slices) slices_.push_back(internal::DigestSlice(*slice));
  for (const internal::SliceInfo& slice : slices_) {
    const api::v1::ResourceSliceSpec& spec = slice.spec();
    if (spec.has_node_name() && !spec.node_name().empty()) {
      slices_on_node_[spec.node_name()].push_back(&slice);
    } else {
      shared_slices_.push_back(&slice);
    }
  }
}

Allocator::~Allocator() = default;

absl::StatusOr<std::unique_ptr<Allocator>> Allocator::Create(AllocatorOptions options) {
  const Features& f = options.features;
  const bool unsupported =
      f.compatibility_groups || f.derived_attributes || f.list_type_attributes || f.optional_node_operations;
  if (unsupported) {
    std::string names;
    for (const std::string& n : f.EnabledNames()) StrAppend(&names, names.empty() ? "" : ", ", n);
    return absl::InvalidArgumentError(
        StrCat("internal error: no allocator available for feature set [", names, "], enabled allocators: incubating"));
  }
  if (options.class_lister == nullptr || options.selector_cache == nullptr) {
    return absl::InvalidArgumentError("allocator needs a device class lister and a CEL selector cache");
  }
  return std::unique_ptr<Allocator>(new Allocator(std::move(options)));
}

AllocateResult Allocator::Allocate(const api::v1::Node& node, std::span<const api::v1::ResourceClaim* const> claims,
                                   const Interrupt& interrupt) const {
  internal::Search search(*this, node, claims, interrupt);
  return search.Run();
}

}  // namespace schedkit::dra
