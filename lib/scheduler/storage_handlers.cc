// The storage objects as the host sees them change (upstream's informer
// handlers for PersistentVolumes, claims, StorageClasses and the CSI kinds),
// and the ClusterClient's reads of them for the volume plugins. Each change
// is held under the pod table's lock, then told to the queue as the cluster
// event upstream's handlers give it.
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "scheduler/scheduler_impl.h"

namespace schedkit::scheduler {
namespace {

using framework::ClusterEvent;
using framework::EventObjects;
using framework::EventResource;

// The EventObjects fields of one storage kind.
template <typename T>
struct StorageSlots;
template <>
struct StorageSlots<api::v1::PersistentVolume> {
  static constexpr EventResource kResource = EventResource::kPersistentVolume;
  static constexpr std::string_view kKind = "PersistentVolume";
  static constexpr auto kOld = &EventObjects::old_pv;
  static constexpr auto kNew = &EventObjects::new_pv;
};
template <>
struct StorageSlots<api::v1::PersistentVolumeClaim> {
  static constexpr EventResource kResource = EventResource::kPersistentVolumeClaim;
  static constexpr std::string_view kKind = "PersistentVolumeClaim";
  static constexpr auto kOld = &EventObjects::old_pvc;
  static constexpr auto kNew = &EventObjects::new_pvc;
};
template <>
struct StorageSlots<api::v1::StorageClass> {
  static constexpr EventResource kResource = EventResource::kStorageClass;
  static constexpr std::string_view kKind = "StorageClass";
  static constexpr auto kOld = &EventObjects::old_storage_class;
  static constexpr auto kNew = &EventObjects::new_storage_class;
};
template <>
struct StorageSlots<api::v1::CSINode> {
  static constexpr EventResource kResource = EventResource::kCSINode;
  static constexpr std::string_view kKind = "CSINode";
  static constexpr auto kOld = &EventObjects::old_csi_node;
  static constexpr auto kNew = &EventObjects::new_csi_node;
};
template <>
struct StorageSlots<api::v1::CSIDriver> {
  static constexpr EventResource kResource = EventResource::kCSIDriver;
  static constexpr std::string_view kKind = "CSIDriver";
  static constexpr auto kOld = &EventObjects::old_csi_driver;
  static constexpr auto kNew = &EventObjects::new_csi_driver;
};
template <>
struct StorageSlots<api::v1::CSIStorageCapacity> {
  static constexpr EventResource kResource = EventResource::kCSIStorageCapacity;
  static constexpr std::string_view kKind = "CSIStorageCapacity";
  static constexpr auto kOld = &EventObjects::old_capacity;
  static constexpr auto kNew = &EventObjects::new_capacity;
};
template <>
struct StorageSlots<api::v1::VolumeAttachment> {
  static constexpr EventResource kResource = EventResource::kVolumeAttachment;
  static constexpr std::string_view kKind = "VolumeAttachment";
  static constexpr auto kOld = &EventObjects::old_attachment;
  static constexpr auto kNew = &EventObjects::new_attachment;
};

template <typename T>
void TellQueue(SchedulingQueue& queue, framework::ActionType action, std::string_view verb,
               std::shared_ptr<const T> old_object, std::shared_ptr<const T> new_object) {
  using Slots = StorageSlots<T>;
  SharedEventObjects objects;
  objects.storage.*Slots::kOld = old_object.get();
  objects.storage.*Slots::kNew = new_object.get();
  objects.storage_old_owner = std::move(old_object);
  objects.storage_new_owner = std::move(new_object);
  queue.OnClusterEventShared(ClusterEvent{Slots::kResource, action, schedkit::StrCat(Slots::kKind, verb)}, objects);
}

// Puts `object` in the impl's `held` store and tells the queue. (ImplT is
// the scheduler's private Impl, deduced so that it need not be named here.)
template <typename ImplT, typename T>
absl::Status PutStorage(ImplT& impl, NamespacedObjects<T> ImplT::*held, std::shared_ptr<const T> object) {
  std::shared_ptr<const T> old;
  {
    std::lock_guard<SpinningMutex> lock(impl.pods_mu);
    old = (impl.*held).Put(object);
  }
  impl.StorageChanged();
  if (old == nullptr) {
    TellQueue<T>(*impl.queue, framework::kActionAdd, "Add", nullptr, std::move(object));
  } else {
    TellQueue<T>(*impl.queue, framework::kActionUpdate, "Update", std::move(old), std::move(object));
  }
  return absl::OkStatus();
}

template <typename ImplT, typename T>
absl::Status TakeStorage(ImplT& impl, NamespacedObjects<T> ImplT::*held, std::string_view namespace_name,
                         std::string_view name) {
  std::shared_ptr<const T> old;
  {
    std::lock_guard<SpinningMutex> lock(impl.pods_mu);
    old = (impl.*held).Take(namespace_name, name);
  }
  if (old != nullptr) impl.StorageChanged();
  if (old == nullptr) {
    return absl::NotFoundError(schedkit::StrCat(StorageSlots<T>::kKind, " ", namespace_name,
                                                namespace_name.empty() ? "" : "/", name, " not found"));
  }
  TellQueue<T>(*impl.queue, framework::kActionDelete, "Delete", std::move(old), nullptr);
  return absl::OkStatus();
}

}  // namespace

absl::Status Scheduler::AddPersistentVolume(std::shared_ptr<const api::v1::PersistentVolume> pv) {
  return PutStorage(*impl_, &Impl::pvs, std::move(pv));
}
absl::Status Scheduler::DeletePersistentVolume(std::string_view name) { return TakeStorage(*impl_, &Impl::pvs, "", name); }

absl::Status Scheduler::AddPersistentVolumeClaim(std::shared_ptr<const api::v1::PersistentVolumeClaim> pvc) {
  return PutStorage(*impl_, &Impl::pvcs, std::move(pvc));
}
absl::Status Scheduler::DeletePersistentVolumeClaim(std::string_view namespace_name, std::string_view name) {
  return TakeStorage(*impl_, &Impl::pvcs, namespace_name, name);
}

absl::Status Scheduler::AddStorageClass(std::shared_ptr<const api::v1::StorageClass> sc) {
  return PutStorage(*impl_, &Impl::storage_classes, std::move(sc));
}
absl::Status Scheduler::DeleteStorageClass(std::string_view name) {
  return TakeStorage(*impl_, &Impl::storage_classes, "", name);
}

absl::Status Scheduler::AddCSINode(std::shared_ptr<const api::v1::CSINode> node) {
  return PutStorage(*impl_, &Impl::csi_nodes, std::move(node));
}
absl::Status Scheduler::DeleteCSINode(std::string_view name) { return TakeStorage(*impl_, &Impl::csi_nodes, "", name); }

absl::Status Scheduler::AddCSIDriver(std::shared_ptr<const api::v1::CSIDriver> driver) {
  return PutStorage(*impl_, &Impl::csi_drivers, std::move(driver));
}
absl::Status Scheduler::DeleteCSIDriver(std::string_view name) { return TakeStorage(*impl_, &Impl::csi_drivers, "", name); }

absl::Status Scheduler::AddCSIStorageCapacity(std::shared_ptr<const api::v1::CSIStorageCapacity> capacity) {
  return PutStorage(*impl_, &Impl::csi_storage_capacities, std::move(capacity));
}
absl::Status Scheduler::DeleteCSIStorageCapacity(std::string_view namespace_name, std::string_view name) {
  return TakeStorage(*impl_, &Impl::csi_storage_capacities, namespace_name, name);
}

absl::Status Scheduler::AddVolumeAttachment(std::shared_ptr<const api::v1::VolumeAttachment> attachment) {
  return PutStorage(*impl_, &Impl::volume_attachments, std::move(attachment));
}
absl::Status Scheduler::DeleteVolumeAttachment(std::string_view name) {
  return TakeStorage(*impl_, &Impl::volume_attachments, "", name);
}

// ---- ClusterClient reads

std::shared_ptr<const api::v1::PersistentVolumeClaim> Scheduler::Impl::GetPersistentVolumeClaim(
    std::string_view namespace_name, std::string_view name) const {
  std::lock_guard<SpinningMutex> lock(pods_mu);
  return pvcs.Get(namespace_name, name);
}

std::shared_ptr<const api::v1::PersistentVolume> Scheduler::Impl::GetPersistentVolume(std::string_view name) const {
  std::lock_guard<SpinningMutex> lock(pods_mu);
  return pvs.Get("", name);
}

std::vector<std::shared_ptr<const api::v1::PersistentVolume>> Scheduler::Impl::ListPersistentVolumes() const {
  std::lock_guard<SpinningMutex> lock(pods_mu);
  return pvs.ListAll();
}

std::shared_ptr<const api::v1::StorageClass> Scheduler::Impl::GetStorageClass(std::string_view name) const {
  std::lock_guard<SpinningMutex> lock(pods_mu);
  return storage_classes.Get("", name);
}

std::shared_ptr<const api::v1::CSINode> Scheduler::Impl::GetCSINode(std::string_view name) const {
  std::lock_guard<SpinningMutex> lock(pods_mu);
  return csi_nodes.Get("", name);
}

std::shared_ptr<const api::v1::CSIDriver> Scheduler::Impl::GetCSIDriver(std::string_view name) const {
  std::lock_guard<SpinningMutex> lock(pods_mu);
  return csi_drivers.Get("", name);
}

std::vector<std::shared_ptr<const api::v1::CSIStorageCapacity>> Scheduler::Impl::ListCSIStorageCapacities() const {
  std::lock_guard<SpinningMutex> lock(pods_mu);
  return csi_storage_capacities.ListAll();
}

std::vector<std::shared_ptr<const api::v1::VolumeAttachment>> Scheduler::Impl::ListVolumeAttachments() const {
  std::lock_guard<SpinningMutex> lock(pods_mu);
  return volume_attachments.ListAll();
}

// ---- VolumeBinding's writes and waits

absl::StatusOr<std::shared_ptr<const api::v1::PersistentVolume>> Scheduler::Impl::UpdatePersistentVolume(
    const api::v1::PersistentVolume& pv) {
  auto stored = CallHostOr<api::v1::PersistentVolume>([&] { return host->UpdatePersistentVolume(pv); });
  if (!stored.ok()) return stored.status();
  return std::make_shared<const api::v1::PersistentVolume>(*std::move(stored));
}

absl::StatusOr<std::shared_ptr<const api::v1::PersistentVolumeClaim>> Scheduler::Impl::UpdatePersistentVolumeClaim(
    const api::v1::PersistentVolumeClaim& claim) {
  auto stored = CallHostOr<api::v1::PersistentVolumeClaim>([&] { return host->UpdatePersistentVolumeClaim(claim); });
  if (!stored.ok()) return stored.status();
  return std::make_shared<const api::v1::PersistentVolumeClaim>(*std::move(stored));
}

uint64_t Scheduler::Impl::StorageGeneration() const {
  std::lock_guard<std::mutex> lock(storage_mu);
  return storage_generation;
}

absl::StatusOr<uint64_t> Scheduler::Impl::WaitForStorageChange(uint64_t generation, absl::Time deadline) const {
  std::unique_lock<std::mutex> lock(storage_mu);
  // Real time, as upstream's poll: a simulated clock would never reach the deadline.
  storage_cv.wait_until(lock, absl::ToChronoTime(deadline),
                        [&] { return storage_generation != generation || storage_waits_cancelled; });
  if (storage_waits_cancelled) return absl::CancelledError("the scheduler is stopping");
  return storage_generation;
}

void Scheduler::Impl::StorageChanged() {
  {
    std::lock_guard<std::mutex> lock(storage_mu);
    ++storage_generation;
  }
  storage_cv.notify_all();
}

void Scheduler::Impl::CancelStorageWaits() {
  {
    std::lock_guard<std::mutex> lock(storage_mu);
    storage_waits_cancelled = true;
  }
  storage_cv.notify_all();
}

}  // namespace schedkit::scheduler
