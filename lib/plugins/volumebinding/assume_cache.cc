#include "plugins/volumebinding/assume_cache.h"

#include <algorithm>
#include <utility>

#include "schedkit/base/str_cat.h"

namespace schedkit::plugins::volumebinding {
namespace {

// Whether the scheduler's `current` object is still the one an assumption
// was made on. Upstream replaces an assumed object only with a newer
// resourceVersion, so a host that re-sends an unchanged object (a relist)
// keeps the assumption; without versions, any new object replaces it.
template <typename T>
bool StillBase(const std::shared_ptr<const T>& base, const std::shared_ptr<const T>& current) {
  if (current == nullptr) return false;
  if (base == current) return true;
  const std::string& was = base->metadata().resource_version();
  return !was.empty() && was == current->metadata().resource_version();
}

// Whether `restored` names the assumption `assumed`: the same object, or
// the same resourceVersion. Without versions only the object itself does.
template <typename T>
bool SameAssumption(const std::shared_ptr<const T>& assumed, const std::shared_ptr<const T>& restored) {
  if (assumed == restored) return true;
  const std::string& version = assumed->metadata().resource_version();
  return !version.empty() && version == restored->metadata().resource_version();
}

template <typename T, typename Map>
std::shared_ptr<const T> Latest(const Map& assumed, const std::string& key, std::shared_ptr<const T> current) {
  auto it = assumed.find(key);
  if (it != assumed.end() && StillBase(it->second.base, current)) return it->second.assumed;
  return current;
}

std::string ClaimKey(std::string_view namespace_name, std::string_view name) {
  return schedkit::StrCat(namespace_name, "/", name);
}

// An assumption is made on the object the scheduler holds: one made on
// another version (a claim or volume PreFilter read before it changed) is
// refused, as upstream's assume cache does, so that Reserve fails instead of
// binding on stale data.
template <typename T>
absl::Status SameVersion(std::string_view key, const T& current, const T& assumed) {
  const std::string& stored = current.metadata().resource_version();
  const std::string& wanted = assumed.metadata().resource_version();
  if (stored == wanted) return absl::OkStatus();
  return absl::FailedPreconditionError(
      schedkit::StrCat("\"", key, "\" is out of sync (stored: ", stored, ", assume: ", wanted, ")"));
}

}  // namespace

const std::string& VolumeClass(const api::v1::PersistentVolume& pv) {
  const auto& annotations = pv.metadata().annotations();
  if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class"); it != annotations.end()) {
    return it->second;
  }
  return pv.spec().storage_class_name();
}

std::shared_ptr<const api::v1::PersistentVolume> AssumeCache::GetVolume(std::string_view name) const {
  auto current = handle_.objects().Get<api::v1::PersistentVolume>(name);
  std::lock_guard<std::mutex> lock(mu_);
  return Latest(volumes_, std::string(name), std::move(current));
}

std::shared_ptr<const api::v1::PersistentVolumeClaim> AssumeCache::GetClaim(std::string_view namespace_name,
                                                                            std::string_view name) const {
  auto current = handle_.objects().Get<api::v1::PersistentVolumeClaim>(namespace_name, name);
  std::lock_guard<std::mutex> lock(mu_);
  return Latest(claims_, ClaimKey(namespace_name, name), std::move(current));
}

std::vector<std::shared_ptr<const api::v1::PersistentVolume>> AssumeCache::ListVolumes(
    std::string_view class_name) const {
  std::vector<std::shared_ptr<const api::v1::PersistentVolume>> out = handle_.objects().ListBy<api::v1::PersistentVolume>(
      api::KindTraits<api::v1::PersistentVolume>::kByStorageClass, class_name);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!volumes_.empty()) {
      for (auto& pv : out) pv = Latest(volumes_, pv->metadata().name(), pv);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a->metadata().name() < b->metadata().name(); });
  return out;
}

absl::Status AssumeCache::AssumeVolume(std::shared_ptr<const api::v1::PersistentVolume> pv) {
  const std::string& name = pv->metadata().name();
  auto current = handle_.objects().Get<api::v1::PersistentVolume>(name);
  if (current == nullptr) {
    return absl::NotFoundError(schedkit::StrCat("could not find v1.PersistentVolume \"", name, "\""));
  }
  if (absl::Status s = SameVersion(name, *current, *pv); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mu_);
  auto& entry = volumes_[name];
  if (!entry.base || !StillBase(entry.base, current)) entry.base = std::move(current);
  entry.assumed = std::move(pv);
  return absl::OkStatus();
}

absl::Status AssumeCache::AssumeClaim(std::shared_ptr<const api::v1::PersistentVolumeClaim> claim) {
  const std::string& ns = claim->metadata().namespace_();
  const std::string& name = claim->metadata().name();
  auto current = handle_.objects().Get<api::v1::PersistentVolumeClaim>(ns, name);
  if (current == nullptr) {
    return absl::NotFoundError(
        schedkit::StrCat("could not find v1.PersistentVolumeClaim \"", ClaimKey(ns, name), "\""));
  }
  if (absl::Status s = SameVersion(ClaimKey(ns, name), *current, *claim); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mu_);
  auto& entry = claims_[ClaimKey(ns, name)];
  if (!entry.base || !StillBase(entry.base, current)) entry.base = std::move(current);
  entry.assumed = std::move(claim);
  return absl::OkStatus();
}

void AssumeCache::RestoreVolume(const std::shared_ptr<const api::v1::PersistentVolume>& pv) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = volumes_.find(pv->metadata().name());
  if (it != volumes_.end() && SameAssumption(it->second.assumed, pv)) volumes_.erase(it);
}

void AssumeCache::RestoreClaim(const std::shared_ptr<const api::v1::PersistentVolumeClaim>& claim) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = claims_.find(ClaimKey(claim->metadata().namespace_(), claim->metadata().name()));
  if (it != claims_.end() && SameAssumption(it->second.assumed, claim)) claims_.erase(it);
}

}  // namespace schedkit::plugins::volumebinding
