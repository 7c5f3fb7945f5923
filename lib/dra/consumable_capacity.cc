// Consumable capacity (DRAConsumableCapacity, upstream's
// consumable_capacity.go): how much of a device's capacity a request
// consumes after its request policy rounds it, and whether that still fits
// next to what other shares consume.
#include <limits>
#include <string>

#include "dra/allocator_internal.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::dra::internal {
namespace {

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
constexpr std::string_view kNotRepresentable =
    "capacity request cannot be represented in the device's range arithmetic";

using Requests = std::vector<std::pair<std::string, QuantityValue>>;

const QuantityValue* FindRequest(const Requests* requests, std::string_view name) {
  if (requests == nullptr) return nullptr;
  for (const auto& [n, q] : *requests) {
    if (n == name) return &q;
  }
  return nullptr;
}

// The value in milli units when that loses nothing (upstream's safeMilliValue).
std::optional<int64_t> ExactMilli(const QuantityValue& q) {
  const int64_t milli = q.MilliValue();
  if (QuantityValue::FromMilli(milli, q.format()).nano() != q.nano()) return std::nullopt;
  return milli;
}

// Whether a range is computed in milli units: only with
// FractionalCapacityRange, when its bounds are exact in millis and the step is
// at least 1m.
bool UseMilli(const CapacityInfo& c, bool fractional_capacity_range) {
  if (!fractional_capacity_range) return false;
  for (const std::optional<QuantityValue>* q : {&c.range_min, &c.range_max, &c.range_step}) {
    if (!q->has_value()) continue;
    if (!ExactMilli(**q)) return false;
  }
  if (c.range_step && *ExactMilli(*c.range_step) < 1) return false;
  return true;
}

// Rounds a request up into the valid range: to the minimum, then to the
// next step above it.
absl::StatusOr<QuantityValue> RoundUpRange(const QuantityValue& requested, const CapacityInfo& c,
                                           bool fractional_capacity_range) {
  const QuantityValue& min = *c.range_min;
  if (requested.Cmp(min) < 0) return min;
  if (!c.range_step) return requested;
  const QuantityValue& step = *c.range_step;
  if (UseMilli(c, fractional_capacity_range)) {
    std::optional<int64_t> requested_milli = ExactMilli(requested);
    if (!requested_milli) {
      return absl::InvalidArgumentError(StrCat(kNotRepresentable, ": request ", requested.String(),
                                               " is not a representable milli value"));
    }
    const int64_t step_milli = step.MilliValue();
    const int64_t min_milli = min.MilliValue();
    const int64_t added = *requested_milli - min_milli;
    int64_t n = added / step_milli;
    if (added % step_milli != 0) ++n;
    if (n > (kMaxInt64 - min_milli) / step_milli) {
      return absl::InvalidArgumentError(StrCat(kNotRepresentable, ": rounding request ", requested.String(),
                                               " up to the next step passes the milli-value range"));
    }
    return QuantityValue::FromMilli(min_milli + step_milli * n, step.format());
  }
  // Above MaxInt64 the integer value would wrap; refuse rather than round it.
  if (requested.CmpInt64(kMaxInt64) > 0) {
    return absl::InvalidArgumentError(
        StrCat(kNotRepresentable, ": request ", requested.String(), " exceeds MaxInt64"));
  }
  const int64_t requested_int = requested.Value();
  const int64_t step_int = step.Value();
  const int64_t min_int = min.Value();
  if (step_int == 0) return absl::InvalidArgumentError(StrCat(kNotRepresentable, ": step is zero"));
  const int64_t added = requested_int - min_int;
  int64_t n = added / step_int;
  if (added % step_int != 0) ++n;
  if (min_int >= 0 && n > (kMaxInt64 - min_int) / step_int) {
    return absl::InvalidArgumentError(StrCat(kNotRepresentable, ": rounding request ", requested.String(),
                                             " up to the next step passes MaxInt64"));
  }
  return QuantityValue::FromInt(min_int + step_int * n, step.format());
}

// What a request (or its absence) consumes of one capacity.
absl::StatusOr<QuantityValue> ConsumedOf(const QuantityValue* requested, const CapacityInfo& c,
                                         bool fractional_capacity_range) {
  if (requested == nullptr) return c.policy_default ? *c.policy_default : c.value;
  if (!c.has_policy) return *requested;
  if (c.has_valid_range && c.range_min) return RoundUpRange(*requested, c, fractional_capacity_range);
  if (!c.valid_values.empty()) {
    // Validation keeps the list short and sorted ascending.
    for (const QuantityValue& v : c.valid_values) {
      if (requested->Cmp(v) <= 0) return v;
    }
  }
  return *requested;
}

bool ViolatesPolicy(const QuantityValue& consumed, const CapacityInfo& c, bool fractional_capacity_range) {
  if (!c.has_policy) return false;
  if (c.policy_default && consumed == *c.policy_default) return false;
  if (c.has_valid_range) {
    if (c.range_max && consumed.Cmp(*c.range_max) > 0) return true;
    if (c.range_step) {
      int64_t requested, step, min;
      const QuantityValue zero;
      const QuantityValue& range_min = c.range_min ? *c.range_min : zero;
      if (UseMilli(c, fractional_capacity_range)) {
        std::optional<int64_t> milli = ExactMilli(consumed);
        if (!milli) return true;
        requested = *milli;
        step = c.range_step->MilliValue();
        min = range_min.MilliValue();
      } else {
        requested = consumed.Value();
        step = c.range_step->Value();
        min = range_min.Value();
      }
      if (step == 0) return true;
      if ((requested - min) % step != 0) return true;
    }
    return false;
  }
  if (!c.valid_values.empty()) {
    for (const QuantityValue& v : c.valid_values) {
      if (consumed.Cmp(v) == 0) return false;
    }
    return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<bool> RequestFitsCapacity(const ConsumedCapacity* current, const Requests* requests,
                                         const DeviceInfo& device, const ConsumedCapacity* allocating,
                                         bool fractional_capacity_range) {
  // A device without a requested capacity cannot serve the request; another may.
  if (requests != nullptr) {
    for (const auto& [name, q] : *requests) {
      bool found = false;
      for (const CapacityInfo& c : device.capacity) found = found || c.name == name;
      if (!found) return false;
    }
  }
  if (!device.parse_error.ok()) return device.parse_error;
  // Resolve every capacity before any soft "does not fit": a request that
  // cannot be represented must abort whatever order capacities come in.
  std::vector<QuantityValue> consumed;
  consumed.reserve(device.capacity.size());
  for (const CapacityInfo& c : device.capacity) {
    absl::StatusOr<QuantityValue> q = ConsumedOf(FindRequest(requests, c.name), c, fractional_capacity_range);
    if (!q.ok()) return absl::InvalidArgumentError(StrCat("capacity \"", c.name, "\": ", q.status().message()));
    if (q->Sign() < 0) {
      // Negative capacity (from objects stored before stricter validation)
      // would over-allocate the device: a data problem, not a mismatch.
      return absl::InvalidArgumentError(StrCat("capacity \"", c.name, "\": capacity value is negative"));
    }
    consumed.push_back(*q);
  }
  for (size_t i = 0; i < device.capacity.size(); ++i) {
    const CapacityInfo& c = device.capacity[i];
    if (ViolatesPolicy(consumed[i], c, fractional_capacity_range)) return false;
    QuantityValue total = consumed[i];
    for (const ConsumedCapacity* already : {current, allocating}) {
      if (already == nullptr) continue;
      if (auto it = already->find(std::string(c.name)); it != already->end()) total.Add(it->second);
    }
    if (total.Cmp(c.value) > 0) return false;
  }
  return true;
}

absl::StatusOr<ConsumedCapacity> ConsumedCapacityFromRequest(const Requests* requests, const DeviceInfo& device,
                                                             bool fractional_capacity_range) {
  if (!device.parse_error.ok()) return device.parse_error;
  ConsumedCapacity out;
  for (const CapacityInfo& c : device.capacity) {
    absl::StatusOr<QuantityValue> q = ConsumedOf(FindRequest(requests, c.name), c, fractional_capacity_range);
    if (!q.ok()) return absl::InvalidArgumentError(StrCat("capacity \"", c.name, "\": ", q.status().message()));
    out.emplace(std::string(c.name), *q);
  }
  return out;
}

void InsertCapacity(absl::flat_hash_map<DeviceId, ConsumedCapacity>& collection, const DeviceId& id,
                    const ConsumedCapacity& consumed) {
  ConsumedCapacity& entry = collection[id];
  for (const auto& [name, q] : consumed) {
    auto [it, inserted] = entry.emplace(name, q);
    if (!inserted) it->second.Add(q);
  }
}

void RemoveCapacity(absl::flat_hash_map<DeviceId, ConsumedCapacity>& collection, const DeviceId& id,
                    const ConsumedCapacity& consumed) {
  auto entry = collection.find(id);
  if (entry == collection.end()) return;
  for (const auto& [name, q] : consumed) {
    if (auto it = entry->second.find(name); it != entry->second.end()) it->second.Sub(q);
  }
  bool empty = true;
  for (const auto& [name, q] : entry->second) empty = empty && q.IsZero();
  if (empty) collection.erase(entry);
}

}  // namespace schedkit::dra::internal
