// Shared counters of partitionable devices (DRAPartitionableDevices): a
// device that consumes counters fits only while every counter of its pool
// stays at or above what the devices being allocated consume.
#include "dra/allocator_internal.h"

namespace schedkit::dra::internal {

absl::StatusOr<PoolCounters> AvailableCounters(const Pool& pool,
                                               const std::function<bool(const DeviceId&)>& is_allocated) {
  PoolCounters available;
  for (const auto& [set_name, set] : pool.counter_sets) {
    auto& counters = available.sets[std::string(set_name)];
    for (const auto& [name, counter] : set->counters()) {
      absl::StatusOr<QuantityValue> q = QuantityValue::Parse(counter.value());
      if (!q.ok()) return q.status();
      counters.emplace(name, *q);
    }
  }
  // Devices allocated before this cycle hold their counters for good; a
  // result may go negative, which just means nothing is left.
  for (const std::vector<const SliceInfo*>* group : {&pool.targeting, &pool.not_targeting}) {
    for (const SliceInfo* slice : *group) {
      for (const DeviceInfo& device : slice->devices) {
        if (device.consumes.empty()) continue;
        if (!is_allocated(DeviceId{slice->driver, slice->pool, device.name})) continue;
        if (!device.parse_error.ok()) return device.parse_error;
        for (const CounterUse& use : device.consumes) {
          auto set = available.sets.find(std::string(use.counter_set));
          if (set == available.sets.end()) continue;
          for (const auto& [name, q] : use.counters) {
            if (auto it = set->second.find(std::string(name)); it != set->second.end()) it->second.Sub(q);
          }
        }
      }
    }
  }
  return available;
}

void ReleaseCounters(PoolCounters& consumed, const DeviceInfo& device) {
  for (const CounterUse& use : device.consumes) {
    auto& set = consumed.sets[std::string(use.counter_set)];
    for (const auto& [name, q] : use.counters) set[std::string(name)].Sub(q);
  }
}

bool ReserveCounters(const PoolCounters& available, PoolCounters& consumed, const DeviceInfo& device) {
  for (const CounterUse& use : device.consumes) {
    auto& set = consumed.sets[std::string(use.counter_set)];
    for (const auto& [name, q] : use.counters) {
      auto [it, inserted] = set.emplace(std::string(name), q);
      if (!inserted) it->second.Add(q);
    }
  }
  // Every counter of the pool is checked, not only this device's: one
  // already overdrawn by allocated devices blocks any further consumer.
  for (const auto& [set_name, counters] : available.sets) {
    auto consumed_set = consumed.sets.find(set_name);
    for (const auto& [name, available_q] : counters) {
      QuantityValue used;
      if (consumed_set != consumed.sets.end()) {
        if (auto it = consumed_set->second.find(name); it != consumed_set->second.end()) used = it->second;
      }
      if (available_q.Cmp(used) < 0) {
        ReleaseCounters(consumed, device);
        return false;
      }
    }
  }
  return true;
}

}  // namespace schedkit::dra::internal
