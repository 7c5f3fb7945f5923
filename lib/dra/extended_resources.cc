#include "dra/extended_resources.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "api/validate.h"
#include "schedkit/api/quantity.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::dra {
namespace {

// A class's creationTimestamp as upstream compares it (UnixNano); a missing
// or unreadable one is the zero time, before every other.
absl::Time CreatedAt(const api::v1::DeviceClass& c) {
  const std::string& text = c.metadata().creation_timestamp();
  if (text.empty()) return absl::InfinitePast();
  absl::StatusOr<absl::Time> t = api::internal::ParseTimestamp(text);
  return t.ok() ? *t : absl::InfinitePast();
}

// The container's request for `resource` as a whole number of devices
// (upstream's Quantity.AsInt64); nullopt when it has none, it is zero or it
// is not an integer.
std::optional<int64_t> DeviceCount(const api::v1::Container& c, const std::string& resource) {
  const auto& requests = c.resources().requests();
  auto it = requests.find(resource);
  if (it == requests.end()) return std::nullopt;
  absl::StatusOr<api::Quantity> q = api::Quantity::Parse(it->second);
  if (!q.ok()) return std::nullopt;
  constexpr __int128 kNano = 1'000'000'000;
  const __int128 nano = q->NanoValue();
  if (nano % kNano != 0) return std::nullopt;
  const __int128 whole = nano / kNano;
  if (whole == 0 || whole > INT64_MAX || whole < INT64_MIN) return std::nullopt;
  return static_cast<int64_t>(whole);
}

// The index of `resource` among the container's request names, sorted.
int RequestIndex(const api::v1::Container& c, const std::string& resource) {
  std::vector<std::string_view> names;
  names.reserve(c.resources().requests().size());
  for (const auto& [name, quantity] : c.resources().requests()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return static_cast<int>(std::lower_bound(names.begin(), names.end(), resource) - names.begin());
}

struct ContainerRequest {
  std::optional<api::v1::DeviceRequest> request;  // none when reused requests cover it
  std::vector<ExtendedResourceMapping> mappings;
};

// Upstream's createResourceRequestAndMappings for container `index`:
// `reusable` are the long-lived containers' requests from this one on.
ContainerRequest RequestFor(int index, const api::v1::Container& c, const std::string& resource,
                            const std::string& class_name,
                            std::span<const std::optional<api::v1::DeviceRequest>> reusable) {
  ContainerRequest out;
  std::optional<int64_t> want = DeviceCount(c, resource);
  if (!want) return out;
  int64_t covered = 0;
  for (const std::optional<api::v1::DeviceRequest>& r : reusable) {
    if (!r) continue;
    covered += r->exactly().count();
    out.mappings.push_back({c.name(), resource, r->name()});
    if (covered >= *want) return out;
  }
  api::v1::DeviceRequest& request = out.request.emplace();
  request.set_name(schedkit::StrCat("container-", index, "-request-", RequestIndex(c, resource)));
  api::v1::ExactDeviceRequest& exactly = *request.mutable_exactly();
  exactly.set_device_class_name(class_name);
  exactly.set_allocation_mode("ExactCount");
  exactly.set_count(*want - covered);
  out.mappings.push_back({c.name(), resource, request.name()});
  return out;
}

}  // namespace

ExtendedResourceClasses::ExtendedResourceClasses(const api::ObjectList<api::v1::DeviceClass>& classes) {
  std::vector<std::shared_ptr<const api::v1::DeviceClass>> sorted(classes.begin(), classes.end());
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return a->metadata().name() < b->metadata().name(); });
  for (const std::shared_ptr<const api::v1::DeviceClass>& c : sorted) {
    if (c->spec().has_extended_resource_name()) {
      auto held = by_resource_.find(c->spec().extended_resource_name());
      if (held != by_resource_.end()) {
        const absl::Time mine = CreatedAt(*c);
        const absl::Time theirs = CreatedAt(*held->second);
        // The class already holding the name stays when it is newer, or as
        // new and smaller by name.
        if (mine < theirs || (mine == theirs && c->metadata().name() >= held->second->metadata().name())) continue;
      }
      by_resource_[c->spec().extended_resource_name()] = c;
    }
    by_resource_[schedkit::StrCat(kDeviceClassResourcePrefix, c->metadata().name())] = c;
  }
}

const api::v1::DeviceClass* ExtendedResourceClasses::Find(std::string_view resource) const {
  auto it = by_resource_.find(absl::string_view(resource.data(), resource.size()));
  return it == by_resource_.end() ? nullptr : it->second.get();
}

ExtendedResourceRequests ExtendedResourceRequestsFor(const api::v1::Pod& pod,
                                                     const std::vector<std::string>& resources,
                                                     const ExtendedResourceClasses& classes) {
  // Init containers first, then the others, indexed together.
  std::vector<const api::v1::Container*> containers;
  const int num_init = pod.spec().init_containers_size();
  for (const api::v1::Container& c : pod.spec().init_containers()) containers.push_back(&c);
  for (const api::v1::Container& c : pod.spec().containers()) containers.push_back(&c);
  auto short_lived = [&](int i) { return i < num_init && containers[i]->restart_policy() != "Always"; };

  std::vector<std::string> names = resources;
  std::sort(names.begin(), names.end());
  ExtendedResourceRequests out;
  for (const std::string& resource : names) {
    const api::v1::DeviceClass* cls = classes.Find(resource);
    if (cls == nullptr) continue;
    const std::string& class_name = cls->metadata().name();
    std::vector<std::optional<api::v1::DeviceRequest>> long_lived(containers.size());
    std::vector<ExtendedResourceMapping> long_mappings;
    for (int i = 0; i < static_cast<int>(containers.size()); ++i) {
      if (short_lived(i)) continue;
      ContainerRequest r = RequestFor(i, *containers[i], resource, class_name, {});
      long_lived[i] = std::move(r.request);
      for (ExtendedResourceMapping& m : r.mappings) long_mappings.push_back(std::move(m));
    }
    // Init containers run one at a time: the largest of their own requests
    // serves them all.
    std::optional<api::v1::DeviceRequest> largest;
    absl::flat_hash_set<std::string> short_names;
    std::vector<ExtendedResourceMapping> short_mappings;
    for (int i = 0; i < static_cast<int>(containers.size()); ++i) {
      if (!short_lived(i)) continue;
      ContainerRequest r = RequestFor(i, *containers[i], resource, class_name,
                                      std::span<const std::optional<api::v1::DeviceRequest>>(long_lived).subspan(i));
      if (r.request) {
        short_names.insert(r.request->name());
        if (!largest || largest->exactly().count() < r.request->exactly().count()) largest = r.request;
      }
      for (ExtendedResourceMapping& m : r.mappings) short_mappings.push_back(std::move(m));
    }
    if (largest && short_names.size() > 1) {
      short_names.erase(largest->name());
      for (ExtendedResourceMapping& m : short_mappings) {
        if (short_names.contains(m.request)) m.request = largest->name();
      }
    }
    if (largest) out.requests.push_back(*std::move(largest));
    for (std::optional<api::v1::DeviceRequest>& r : long_lived) {
      if (r) out.requests.push_back(*std::move(r));
    }
    for (ExtendedResourceMapping& m : long_mappings) out.mappings.push_back(std::move(m));
    for (ExtendedResourceMapping& m : short_mappings) out.mappings.push_back(std::move(m));
  }
  // Upstream's sort.Slice is not stable, but the names are unique.
  std::sort(out.requests.begin(), out.requests.end(),
            [](const api::v1::DeviceRequest& a, const api::v1::DeviceRequest& b) { return a.name() < b.name(); });
  return out;
}

}  // namespace schedkit::dra
