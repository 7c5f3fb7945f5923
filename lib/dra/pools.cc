// Gathering the resource pools a node can use (upstream's GatherPools and
// buildPool), and digesting each slice once per Allocator.
#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "dra/allocator_internal.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::dra::internal {
namespace {

// Parses `text` into `out`, remembering the first failure in `error`.
void ParseInto(std::string_view text, QuantityValue& out, absl::Status& error) {
  absl::StatusOr<QuantityValue> q = QuantityValue::Parse(text);
  if (q.ok()) {
    out = *q;
  } else if (error.ok()) {
    error = q.status();
  }
}

void ParseOptional(bool present, std::string_view text, std::optional<QuantityValue>& out, absl::Status& error) {
  if (!present) return;
  out.emplace();
  ParseInto(text, *out, error);
}

DeviceInfo DigestDevice(const api::v1::Device& device, bool per_device_node_selection) {
  DeviceInfo info;
  info.device = &device;
  info.name = Symbol::Intern(device.name());
  for (const auto& [name, capacity] : device.capacity()) {
    CapacityInfo c;
    c.name = name;
    ParseInto(capacity.value(), c.value, info.parse_error);
    if (capacity.has_request_policy()) {
      const api::v1::CapacityRequestPolicy& policy = capacity.request_policy();
      c.has_policy = true;
      ParseOptional(policy.has_default_(), policy.default_(), c.policy_default, info.parse_error);
      for (const std::string& v : policy.valid_values()) ParseInto(v, c.valid_values.emplace_back(), info.parse_error);
      if (policy.has_valid_range()) {
        const api::v1::CapacityRequestPolicyRange& range = policy.valid_range();
        c.has_valid_range = true;
        ParseOptional(range.has_min(), range.min(), c.range_min, info.parse_error);
        ParseOptional(range.has_max(), range.max(), c.range_max, info.parse_error);
        ParseOptional(range.has_step(), range.step(), c.range_step, info.parse_error);
      }
    }
    info.capacity.push_back(std::move(c));
  }
  std::sort(info.capacity.begin(), info.capacity.end(),
            [](const CapacityInfo& a, const CapacityInfo& b) { return a.name < b.name; });
  for (const api::v1::DeviceCounterConsumption& consumption : device.consumes_counters()) {
    CounterUse use;
    use.counter_set = consumption.counter_set();
    for (const auto& [name, counter] : consumption.counters()) {
      ParseInto(counter.value(), use.counters.emplace_back(name, QuantityValue()).second, info.parse_error);
    }
    info.consumes.push_back(std::move(use));
  }
  if (per_device_node_selection && device.has_node_selector()) {
    info.node_selector = api::NodeSelector::Compile(device.node_selector());
  }
  return info;
}

// Slices whose pool entries are all for one generation, grouped by pool.
using PoolSlices = absl::flat_hash_map<std::pair<Symbol, Symbol>, std::vector<const SliceInfo*>>;

// Upstream's addSlice: a newer generation replaces what was gathered, an
// older one is ignored.
void AddSlice(PoolSlices& pools, const SliceInfo* slice) {
  std::vector<const SliceInfo*>& slices = pools[{slice->driver, slice->pool}];
  if (slices.empty()) {
    slices.push_back(slice);
    return;
  }
  const int64_t generation = slice->spec().pool().generation();
  const int64_t current = slices.front()->spec().pool().generation();
  if (generation < current) return;
  if (generation > current) slices.clear();
  slices.push_back(slice);
}

bool PoolHasBindingConditions(const Pool& pool) {
  for (const SliceInfo* slice : pool.targeting) {
    if (slice->has_binding_conditions) return true;
  }
  return false;
}

// Upstream's checkSlicesInPool: all slices of the pool at `generation`, or
// nullopt when a newer generation exists (the pool is being replaced).
std::optional<std::vector<const SliceInfo*>> SlicesOfPool(std::span<const SliceInfo> all, Symbol driver, Symbol pool,
                                                          int64_t generation) {
  std::vector<const SliceInfo*> out;
  for (const SliceInfo& slice : all) {
    if (slice.driver != driver || slice.pool != pool) continue;
    const int64_t g = slice.spec().pool().generation();
    if (g == generation) {
      out.push_back(&slice);
    } else if (g > generation) {
      return std::nullopt;
    }
  }
  return out;
}

Pool InvalidPool(Symbol driver, Symbol pool, std::string reason) {
  Pool p;
  p.driver = driver;
  p.pool = pool;
  p.invalid = true;
  p.invalid_reason = std::move(reason);
  return p;
}

// Device names must be unique within a pool's device slices.
std::optional<std::string> DuplicateDeviceName(const std::vector<const SliceInfo*>& slices) {
  absl::flat_hash_set<Symbol> seen;
  for (const SliceInfo* slice : slices) {
    for (const DeviceInfo& device : slice->devices) {
      if (!seen.insert(device.name).second) return StrCat("duplicate device name ", device.name.str());
    }
  }
  return std::nullopt;
}

// Every consumesCounters entry must name a counter set of the pool and
// counters in it.
std::optional<std::string> BadCounterConsumption(const Pool& pool, const std::vector<const SliceInfo*>& slices) {
  for (const SliceInfo* slice : slices) {
    for (const api::v1::Device& device : slice->spec().devices()) {
      for (const api::v1::DeviceCounterConsumption& consumption : device.consumes_counters()) {
        auto set = pool.counter_sets.find(std::string_view(consumption.counter_set()));
        if (set == pool.counter_sets.end()) return StrCat("counter set ", consumption.counter_set(), " not found");
        for (const auto& [name, counter] : consumption.counters()) {
          if (!set->second->counters().contains(name)) {
            return StrCat("counter ", name, " not found in counter set ", set->second->name());
          }
        }
      }
    }
  }
  return std::nullopt;
}

// Upstream's buildPool. `all_slices_of_pool` is empty when `slices` is the
// whole pool already.
Pool BuildPool(Symbol driver, Symbol pool_name, std::vector<const SliceInfo*> slices, const Features& features,
               const std::vector<const SliceInfo*>& all_slices_of_pool) {
  // Sorting by name makes the first-fit order deterministic and lets driver
  // authors steer it. Stable, so duplicates keep their input order.
  std::stable_sort(slices.begin(), slices.end(),
                   [](const SliceInfo* a, const SliceInfo* b) { return a->name() < b->name(); });
  std::vector<const SliceInfo*> device_slices, counter_slices, not_targeting;
  auto has_counter_sets = [&](const SliceInfo* s) {
    return features.partitionable_devices && s->spec().shared_counters_size() > 0;
  };
  for (const SliceInfo* slice : slices) {
    (has_counter_sets(slice) ? counter_slices : device_slices).push_back(slice);
  }
  if (slices.size() < all_slices_of_pool.size()) {
    absl::flat_hash_set<std::string_view> seen;
    for (const SliceInfo* slice : slices) seen.insert(slice->name());
    for (const SliceInfo* slice : all_slices_of_pool) {
      if (seen.contains(slice->name())) continue;
      (has_counter_sets(slice) ? counter_slices : not_targeting).push_back(slice);
    }
  }
  if (std::optional<std::string> bad = DuplicateDeviceName(device_slices)) {
    return InvalidPool(driver, pool_name, *std::move(bad));
  }
  Pool pool;
  pool.driver = driver;
  pool.pool = pool_name;
  pool.targeting = std::move(device_slices);
  if (!features.partitionable_devices) return pool;
  for (const SliceInfo* slice : counter_slices) {
    for (const api::v1::CounterSet& set : slice->spec().shared_counters()) {
      if (!pool.counter_sets.emplace(set.name(), &set).second) {
        return InvalidPool(driver, pool_name, StrCat("duplicate counter set name ", set.name()));
      }
    }
  }
  for (const std::vector<const SliceInfo*>* group : {&pool.targeting, &not_targeting}) {
    if (std::optional<std::string> bad = BadCounterConsumption(pool, *group)) {
      return InvalidPool(driver, pool_name, *std::move(bad));
    }
  }
  pool.not_targeting = std::move(not_targeting);
  return pool;
}

bool SliceUsesCompatibilityGroups(const api::v1::ResourceSlice& slice) {
  for (const api::v1::Device& device : slice.spec().devices()) {
    for (const api::v1::DeviceCounterConsumption& c : device.consumes_counters()) {
      if (c.compatibility_groups_size() > 0) return true;
    }
  }
  return false;
}

}  // namespace

std::string Pool::Id() const { return StrCat(driver.str(), "/", pool.str()); }

SliceInfo DigestSlice(const api::v1::ResourceSlice& slice) {
  SliceInfo info;
  info.slice = &slice;
  const api::v1::ResourceSliceSpec& spec = slice.spec();
  info.driver = Symbol::Intern(spec.driver());
  info.pool = Symbol::Intern(spec.pool().name());
  const bool per_device = spec.per_device_node_selection();
  info.devices.reserve(spec.devices_size());
  for (const api::v1::Device& device : spec.devices()) {
    info.devices.push_back(DigestDevice(device, per_device));
    if (device.binding_conditions_size() > 0) info.has_binding_conditions = true;
  }
  if (spec.has_node_selector()) info.node_selector = api::NodeSelector::Compile(spec.node_selector());
  info.uses_compatibility_groups = SliceUsesCompatibilityGroups(slice);
  return info;
}

absl::StatusOr<std::vector<Pool>> GatherPools(std::span<const SliceInfo* const> slices_for_node,
                                              const NodeContext& node, const Features& features,
                                              std::span<const SliceInfo> all_slices) {
  PoolSlices pools;
  for (const SliceInfo* slice : slices_for_node) {
    const api::v1::ResourceSliceSpec& spec = slice->spec();
    if (!features.partitionable_devices &&
        (spec.has_per_device_node_selection() || spec.shared_counters_size() > 0)) {
      continue;
    }
    // Without the feature, devices with compatibility groups cannot be
    // checked, so their slice is left out, which leaves the pool incomplete.
    if (!features.compatibility_groups && slice->uses_compatibility_groups) continue;
    bool relevant = false;
    const std::string_view node_name = spec.has_node_name() ? std::string_view(spec.node_name()) : "";
    if (!node_name.empty() || spec.all_nodes() || spec.has_node_selector()) {
      absl::StatusOr<bool> match =
          NodeMatches(node, node_name, spec.all_nodes(), slice->node_selector ? &*slice->node_selector : nullptr);
      if (!match.ok()) {
        return absl::Status(match.status().code(), StrCat("failed to perform node selection for slice ",
                                                           slice->name(), ": ", match.status().message()));
      }
      relevant = *match;
    } else if (spec.per_device_node_selection()) {
      for (const DeviceInfo& device : slice->devices) {
        const api::v1::Device& d = *device.device;
        absl::StatusOr<bool> match = NodeMatches(node, d.has_node_name() ? std::string_view(d.node_name()) : "",
                                                 d.all_nodes(), device.node_selector ? &*device.node_selector : nullptr);
        if (!match.ok()) {
          return absl::Status(match.status().code(),
                              StrCat("failed to perform node selection for device ", d.name(), " in slice ",
                                     slice->name(), ": ", match.status().message()));
        }
        if (*match) {
          relevant = true;
          break;
        }
      }
    } else {
      // None of the known ways to select nodes is set: some future
      // extension this allocator does not understand. Other pools may do.
      continue;
    }
    if (relevant) AddSlice(pools, slice);
  }

  std::vector<Pool> result, with_binding_conditions;
  result.reserve(pools.size());
  for (auto& [id, slices] : pools) {
    const api::v1::ResourcePool& first = slices.front()->spec().pool();
    std::vector<const SliceInfo*> all_of_pool;
    if (static_cast<int64_t>(slices.size()) != first.resource_slice_count()) {
      // Slices that looked irrelevant for the node may complete the pool;
      // "all" requests must see whether it is complete.
      std::optional<std::vector<const SliceInfo*>> found =
          SlicesOfPool(all_slices, id.first, id.second, first.generation());
      if (!found) continue;  // being replaced by a newer generation: ignore the old one
      all_of_pool = *std::move(found);
      if (!features.compatibility_groups) {
        std::erase_if(all_of_pool, [](const SliceInfo* s) { return s->uses_compatibility_groups; });
      }
      if (static_cast<int64_t>(all_of_pool.size()) != first.resource_slice_count()) {
        Pool incomplete;
        incomplete.driver = id.first;
        incomplete.pool = id.second;
        incomplete.incomplete = true;
        result.push_back(std::move(incomplete));
        continue;
      }
    }
    Pool pool = BuildPool(id.first, id.second, std::move(slices), features, all_of_pool);
    (PoolHasBindingConditions(pool) ? with_binding_conditions : result).push_back(std::move(pool));
  }
  // Sorted by ID, so the first-fit search is deterministic; pools whose
  // devices need binding conditions are tried last.
  auto by_id = [](const Pool& a, const Pool& b) {
    if (a.driver != b.driver) return a.driver.str() < b.driver.str();
    return a.pool.str() < b.pool.str();
  };
  std::sort(result.begin(), result.end(), by_id);
  std::sort(with_binding_conditions.begin(), with_binding_conditions.end(), by_id);
  for (Pool& p : with_binding_conditions) result.push_back(std::move(p));
  return result;
}

}  // namespace schedkit::dra::internal
