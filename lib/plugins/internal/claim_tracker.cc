#include "plugins/internal/claim_tracker.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/strings/numbers.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins::internal {
namespace {

std::string Key(std::string_view namespace_name, std::string_view name) {
  return schedkit::StrCat(namespace_name, "/", name);
}

// resourceVersion as the assume cache compares it: an integer; anything
// else (a host that sets none) counts as 0.
int64_t VersionOf(const api::v1::ResourceClaim& claim) {
  int64_t v = 0;
  if (!absl::SimpleAtoi(claim.metadata().resource_version(), &v)) return 0;
  return v;
}

// Whether `rule` selects `device` of `slice` (upstream's applyPatches: each
// set field of the selector must equal the slice's driver, pool, device).
bool Selects(const api::v1::DeviceTaintRule& rule, const api::v1::ResourceSlice& slice,
             const api::v1::Device& device) {
  if (!rule.spec().has_device_selector()) return false;
  const api::v1::DeviceTaintSelector& s = rule.spec().device_selector();
  if (s.has_driver() && s.driver() != slice.spec().driver()) return false;
  if (s.has_pool() && s.pool() != slice.spec().pool().name()) return false;
  return !s.has_device() || s.device() == device.name();
}

std::shared_ptr<const api::v1::ResourceSlice> Patch(
    const std::shared_ptr<const api::v1::ResourceSlice>& slice,
    const std::vector<std::shared_ptr<const api::v1::DeviceTaintRule>>& rules) {
  std::shared_ptr<api::v1::ResourceSlice> copy;
  for (const auto& rule : rules) {
    for (int i = 0; i < slice->spec().devices_size(); ++i) {
      if (!Selects(*rule, *slice, slice->spec().devices(i))) continue;
      if (copy == nullptr) copy = std::make_shared<api::v1::ResourceSlice>(*slice);
      *copy->mutable_spec()->mutable_devices(i)->add_taints() = rule->spec().taint();
    }
  }
  if (copy == nullptr) return slice;
  return copy;
}

}  // namespace

absl::StatusOr<std::shared_ptr<ClaimTracker>> ClaimTracker::Shared(const framework::Handle& handle) {
  framework::SharedState* shared = handle.shared_state();
  const api::ObjectLister& objects = handle.objects();
  auto make = [&objects] { return std::make_shared<ClaimTracker>(objects); };
  if (shared == nullptr) return make();
  return shared->GetOrCreate<ClaimTracker>("DynamicResources/ClaimTracker", make);
}

std::shared_ptr<const api::v1::ResourceClaim> ClaimTracker::Get(std::string_view namespace_name,
                                                                std::string_view name) const {
  std::shared_ptr<const Claim> held = objects_.Get<Claim>(namespace_name, name);
  absl::MutexLock lock(&mu_);
  return LatestLocked(Key(namespace_name, name), std::move(held));
}

std::shared_ptr<const api::v1::ResourceClaim> ClaimTracker::LatestLocked(const std::string& key,
                                                                         std::shared_ptr<const Claim> held) const {
  if (assumed_.empty()) return held;
  auto it = assumed_.find(key);
  if (it == assumed_.end()) return held;
  // The scheduler caught up, or the claim is gone (it was held when it was
  // assumed): what PreBind wrote is no longer needed, as upstream's assume
  // cache drops an object its informer updates or deletes.
  if (held == nullptr || VersionOf(*held) >= VersionOf(*it->second)) {
    assumed_.erase(it);
    return held;
  }
  return it->second;
}

absl::Status ClaimTracker::Assume(std::shared_ptr<const api::v1::ResourceClaim> claim) {
  const std::string key = Key(claim->metadata().namespace_(), claim->metadata().name());
  std::shared_ptr<const Claim> held = objects_.Get<Claim>(claim->metadata().namespace_(), claim->metadata().name());
  // One lock for the check and the write: two binding threads assuming one
  // shared claim keep the newer version.
  absl::MutexLock lock(&mu_);
  std::shared_ptr<const Claim> latest = LatestLocked(key, std::move(held));
  if (latest == nullptr) {
    return absl::NotFoundError(schedkit::StrCat("could not find ResourceClaim \"", key, "\""));
  }
  if (VersionOf(*claim) < VersionOf(*latest)) {
    return absl::FailedPreconditionError(schedkit::StrCat("ResourceClaim \"", key, "\" is out of sync (stored: ",
                                                          VersionOf(*latest), ", assume: ", VersionOf(*claim), ")"));
  }
  assumed_[key] = std::move(claim);
  return absl::OkStatus();
}

void ClaimTracker::Restore(std::string_view namespace_name, std::string_view name) {
  absl::MutexLock lock(&mu_);
  assumed_.erase(Key(namespace_name, name));
}

std::shared_ptr<const api::v1::ResourceClaim> ClaimTracker::PendingAllocation(std::string_view uid) const {
  absl::MutexLock lock(&mu_);
  auto it = in_flight_.find(absl::string_view(uid.data(), uid.size()));
  return it == in_flight_.end() ? nullptr : it->second.claim;
}

absl::Status ClaimTracker::SignalPendingAllocation(std::string_view uid,
                                                   std::shared_ptr<const api::v1::ResourceClaim> allocated) {
  {
    absl::MutexLock lock(&mu_);
    if (auto it = in_flight_.find(absl::string_view(uid.data(), uid.size())); it != in_flight_.end()) {
      ++it->second.sharers;
      return absl::OkStatus();
    }
  }
  // A pod's extended-resource claim made in memory is nobody else's and
  // not stored yet: nothing to look up.
  if (allocated->metadata().name() == kInMemoryClaimName) {
    absl::MutexLock lock(&mu_);
    in_flight_[std::string(uid)] = InFlight{std::move(allocated), 1};
    return absl::OkStatus();
  }
  std::shared_ptr<const Claim> latest = Get(allocated->metadata().namespace_(), allocated->metadata().name());
  if (latest == nullptr) {
    return absl::NotFoundError(schedkit::StrCat("look up assumed claim ", allocated->metadata().namespace_(), "/",
                                                allocated->metadata().name(), ", UID=", uid,
                                                ": could not find ResourceClaim \"", allocated->metadata().namespace_(),
                                                "/", allocated->metadata().name(), "\""));
  }
  if (latest->metadata().uid() == uid && latest->status().has_allocation()) return absl::OkStatus();
  absl::MutexLock lock(&mu_);
  in_flight_[std::string(uid)] = InFlight{std::move(allocated), 1};
  return absl::OkStatus();
}

bool ClaimTracker::MaybeRemovePendingAllocation(std::string_view uid, bool force) {
  absl::MutexLock lock(&mu_);
  auto it = in_flight_.find(absl::string_view(uid.data(), uid.size()));
  if (it == in_flight_.end()) return false;
  if (force || it->second.sharers == 1) {
    in_flight_.erase(it);
    return true;
  }
  --it->second.sharers;
  return false;
}

void AddAllocatedDevices(const api::v1::ResourceClaim& claim, bool consumable_capacity, dra::AllocatedState& state) {
  if (!claim.status().has_allocation()) return;
  for (const api::v1::DeviceRequestAllocationResult& r : claim.status().allocation().devices().results()) {
    if (r.has_admin_access() && r.admin_access()) continue;
    const dra::DeviceId id = dra::DeviceId::Make(r.driver(), r.pool(), r.device());
    if (consumable_capacity && r.has_share_id()) {
      state.allocated_shared_device_ids.insert(dra::SharedDeviceId{id, Symbol::Intern(r.share_id())});
      if (!r.consumed_capacity().empty()) {
        dra::ConsumedCapacity& sum = state.aggregated_capacity[id];
        for (const auto& [name, amount] : r.consumed_capacity()) {
          // The API server validated the quantity; a broken one adds nothing.
          if (absl::StatusOr<dra::QuantityValue> q = dra::QuantityValue::Parse(amount); q.ok()) sum[name].Add(*q);
        }
      }
      continue;
    }
    state.allocated_devices.insert(id);
  }
}

dra::AllocatedState ClaimTracker::GatherAllocatedState(bool consumable_capacity) const {
  dra::AllocatedState state;
  api::ObjectList<Claim> held = objects_.List<Claim>();
  absl::MutexLock lock(&mu_);
  for (const std::shared_ptr<const Claim>& claim : held) {
    const Claim* latest = claim.get();
    if (!assumed_.empty()) {
      auto it = assumed_.find(Key(claim->metadata().namespace_(), claim->metadata().name()));
      if (it != assumed_.end() && VersionOf(*claim) < VersionOf(*it->second)) latest = it->second.get();
    }
    AddAllocatedDevices(*latest, consumable_capacity, state);
  }
  for (const auto& [uid, in_flight] : in_flight_) AddAllocatedDevices(*in_flight.claim, consumable_capacity, state);
  return state;
}

std::vector<std::shared_ptr<const api::v1::ResourceSlice>> ClaimTracker::Slices(bool taint_rules) const {
  api::ObjectList<api::v1::ResourceSlice> slices = objects_.List<api::v1::ResourceSlice>();
  if (!taint_rules) return slices;
  api::ObjectList<api::v1::DeviceTaintRule> rules = objects_.List<api::v1::DeviceTaintRule>();
  if (rules.empty()) return slices;
  std::sort(rules.begin(), rules.end(),
            [](const auto& a, const auto& b) { return a->metadata().name() < b->metadata().name(); });
  absl::MutexLock lock(&slices_mu_);
  if (rules != rules_) {
    rules_ = rules;
    patched_.clear();
  }
  absl::flat_hash_map<std::string, Patched> kept;
  kept.reserve(slices.size());
  for (std::shared_ptr<const api::v1::ResourceSlice>& slice : slices) {
    const std::string& name = slice->metadata().name();
    auto it = patched_.find(name);
    std::shared_ptr<const api::v1::ResourceSlice> patched =
        it != patched_.end() && it->second.original == slice ? it->second.patched : Patch(slice, rules_);
    kept[name] = Patched{slice, patched};
    slice = std::move(patched);
  }
  patched_ = std::move(kept);
  return slices;
}

}  // namespace schedkit::plugins::internal
