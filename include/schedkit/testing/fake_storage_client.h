// FakeStorageClient: a ClusterClient for testing the volume plugins without
// a scheduler. It holds the storage objects given to Add (what the scheduler
// would hold), answers the storage reads from them, and stands in for the
// API server behind VolumeBinding's PreBind writes. Everything else does
// nothing (NoopClusterClient).
//
//   FakeStorageClient client;
//   client.Add(claim);  // an api::v1::PersistentVolumeClaim
//   FakeHandle h;
//   h.set_client(&client);
//
// PreBind's writes (UpdatePersistentVolume / UpdatePersistentVolumeClaim)
// are recorded (pv_writes(), pvc_writes()) and then go to the write hook,
// when one is set, else to Apply, which stores them as an API server would
// and as if the host reported them back at once. A hook emulates an API
// error (return it), or the PV controller (call Apply, then change objects
// through Update / Delete). Every change to the held objects moves
// StorageGeneration(), which wakes WaitForStorageChange.
//
// Thread-safe. Copies take the objects and the records, not the hooks
// (which usually capture the client they were set on) nor the waiters.
#ifndef SCHEDKIT_TESTING_FAKE_STORAGE_CLIENT_H_
#define SCHEDKIT_TESTING_FAKE_STORAGE_CLIENT_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/time/time.h"
#include "google/protobuf/util/message_differencer.h"
#include "schedkit/api/str_cat.h"
#include "schedkit/framework/handle.h"
#include "schedkit/testing/noop_cluster_client.h"

namespace schedkit::testing {

class FakeStorageClient : public NoopClusterClient {
 public:
  using PV = api::v1::PersistentVolume;
  using PVC = api::v1::PersistentVolumeClaim;
  // What a write returns: the stored object, or the API error.
  using PVWriteHook = std::function<absl::StatusOr<std::shared_ptr<const PV>>(const PV&)>;
  using PVCWriteHook = std::function<absl::StatusOr<std::shared_ptr<const PVC>>(const PVC&)>;

  FakeStorageClient() = default;
  FakeStorageClient(const FakeStorageClient& other) : NoopClusterClient(other) { *this = other; }
  FakeStorageClient& operator=(const FakeStorageClient& other) {
    if (this == &other) return *this;
    Held copy;
    {
      std::lock_guard<std::mutex> lock(other.mu_);
      copy = other.held_;
    }
    copy.on_pv_write = nullptr;
    copy.on_pvc_write = nullptr;
    std::lock_guard<std::mutex> lock(mu_);
    held_ = std::move(copy);
    ++held_.generation;
    changed_.notify_all();
    return *this;
  }

  // Adds an object as given (a second one of the same name is listed, not
  // found).
  void Add(const PV& o) { Change([&] { held_.pvs.push_back(std::make_shared<const PV>(o)); }); }
  void Add(const PVC& o) { Change([&] { held_.pvcs.push_back(std::make_shared<const PVC>(o)); }); }
  void Add(const api::v1::StorageClass& o) {
    Change([&] { held_.classes.push_back(std::make_shared<const api::v1::StorageClass>(o)); });
  }
  void Add(const api::v1::CSINode& o) {
    Change([&] { held_.csi_nodes.push_back(std::make_shared<const api::v1::CSINode>(o)); });
  }
  void Add(const api::v1::CSIDriver& o) {
    Change([&] { held_.csi_drivers.push_back(std::make_shared<const api::v1::CSIDriver>(o)); });
  }
  void Add(const api::v1::CSIStorageCapacity& o) {
    Change([&] { held_.capacities.push_back(std::make_shared<const api::v1::CSIStorageCapacity>(o)); });
  }
  void Add(const api::v1::VolumeAttachment& o) {
    Change([&] { held_.attachments.push_back(std::make_shared<const api::v1::VolumeAttachment>(o)); });
  }

  // Replaces the held object of the same name (adds it when there is none),
  // as given: resourceVersion is the caller's.
  void Update(const PV& o) { Change([&] { Put(held_.pvs, std::make_shared<const PV>(o)); }); }
  void Update(const PVC& o) { Change([&] { Put(held_.pvcs, std::make_shared<const PVC>(o)); }); }
  // Drops the held object, if any.
  void DeletePersistentVolume(std::string_view name) {
    Change([&] { std::erase_if(held_.pvs, [&](const auto& o) { return o->metadata().name() == name; }); });
  }
  void DeletePersistentVolumeClaim(std::string_view namespace_name, std::string_view name) {
    Change([&] {
      std::erase_if(held_.pvcs, [&](const auto& o) { return SameClaim(*o, namespace_name, name); });
    });
  }

  // An API server's update: NotFound without a held object of the name;
  // Aborted (409 Conflict) when the write names a resourceVersion other
  // than the held one (none: unconditional); the held object when the write
  // changes nothing (no new version, as the API server); otherwise stores
  // the object with the next resourceVersion and returns it.
  absl::StatusOr<std::shared_ptr<const PV>> Apply(const PV& o) {
    return ApplyTo(held_.pvs, o, "persistentvolumes");
  }
  absl::StatusOr<std::shared_ptr<const PVC>> Apply(const PVC& o) {
    return ApplyTo(held_.pvcs, o, "persistentvolumeclaims");
  }

  // Replaces Apply for the writes that follow (null: back to Apply). The
  // hook runs without the client's lock, on the writing thread.
  void set_on_pv_write(PVWriteHook hook) {
    std::lock_guard<std::mutex> lock(mu_);
    held_.on_pv_write = std::move(hook);
  }
  void set_on_pvc_write(PVCWriteHook hook) {
    std::lock_guard<std::mutex> lock(mu_);
    held_.on_pvc_write = std::move(hook);
  }

  // Every write so far, as sent, oldest first.
  std::vector<PV> pv_writes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return held_.pv_writes;
  }
  std::vector<PVC> pvc_writes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return held_.pvc_writes;
  }

  // --- ClusterClient ---

  std::shared_ptr<const PVC> GetPersistentVolumeClaim(std::string_view namespace_name,
                                                      std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& o : held_.pvcs) {
      if (SameClaim(*o, namespace_name, name)) return o;
    }
    return nullptr;
  }
  std::shared_ptr<const PV> GetPersistentVolume(std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    return Find(held_.pvs, name);
  }
  std::vector<std::shared_ptr<const PV>> ListPersistentVolumes() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return held_.pvs;
  }
  std::shared_ptr<const api::v1::StorageClass> GetStorageClass(std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    return Find(held_.classes, name);
  }
  std::shared_ptr<const api::v1::CSINode> GetCSINode(std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    return Find(held_.csi_nodes, name);
  }
  std::shared_ptr<const api::v1::CSIDriver> GetCSIDriver(std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    return Find(held_.csi_drivers, name);
  }
  std::vector<std::shared_ptr<const api::v1::CSIStorageCapacity>> ListCSIStorageCapacities() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return held_.capacities;
  }
  std::vector<std::shared_ptr<const api::v1::VolumeAttachment>> ListVolumeAttachments() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return held_.attachments;
  }

  absl::StatusOr<std::shared_ptr<const PV>> UpdatePersistentVolume(const PV& pv) override {
    PVWriteHook hook;
    {
      std::lock_guard<std::mutex> lock(mu_);
      held_.pv_writes.push_back(pv);
      hook = held_.on_pv_write;
    }
    return hook ? hook(pv) : Apply(pv);
  }
  absl::StatusOr<std::shared_ptr<const PVC>> UpdatePersistentVolumeClaim(const PVC& claim) override {
    PVCWriteHook hook;
    {
      std::lock_guard<std::mutex> lock(mu_);
      held_.pvc_writes.push_back(claim);
      hook = held_.on_pvc_write;
    }
    return hook ? hook(claim) : Apply(claim);
  }
  uint64_t StorageGeneration() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return held_.generation;
  }
  absl::StatusOr<uint64_t> WaitForStorageChange(uint64_t generation, absl::Time deadline) const override {
    std::unique_lock<std::mutex> lock(mu_);
    auto moved = [&] { return held_.generation != generation; };
    if (deadline == absl::InfiniteFuture()) {
      changed_.wait(lock, moved);  // the chrono conversion of "never" would overflow
    } else {
      changed_.wait_until(lock, absl::ToChronoTime(deadline), moved);
    }
    return held_.generation;
  }

 private:
  struct Held {
    std::vector<std::shared_ptr<const PV>> pvs;
    std::vector<std::shared_ptr<const PVC>> pvcs;
    std::vector<std::shared_ptr<const api::v1::StorageClass>> classes;
    std::vector<std::shared_ptr<const api::v1::CSINode>> csi_nodes;
    std::vector<std::shared_ptr<const api::v1::CSIDriver>> csi_drivers;
    std::vector<std::shared_ptr<const api::v1::CSIStorageCapacity>> capacities;
    std::vector<std::shared_ptr<const api::v1::VolumeAttachment>> attachments;
    std::vector<PV> pv_writes;
    std::vector<PVC> pvc_writes;
    PVWriteHook on_pv_write;
    PVCWriteHook on_pvc_write;
    uint64_t generation = 0;
  };

  template <typename T>
  static std::shared_ptr<const T> Find(const std::vector<std::shared_ptr<const T>>& objects,
                                       std::string_view name) {
    for (const auto& o : objects) {
      if (o->metadata().name() == name) return o;
    }
    return nullptr;
  }
  static bool SameClaim(const PVC& o, std::string_view namespace_name, std::string_view name) {
    return o.metadata().namespace_() == namespace_name && o.metadata().name() == name;
  }
  template <typename T>
  static bool SameObject(const T& a, const T& b) {
    return a.metadata().namespace_() == b.metadata().namespace_() &&
           a.metadata().name() == b.metadata().name();
  }
  template <typename T>
  static void Put(std::vector<std::shared_ptr<const T>>& objects, std::shared_ptr<const T> o) {
    for (auto& held : objects) {
      if (SameObject(*held, *o)) {
        held = std::move(o);
        return;
      }
    }
    objects.push_back(std::move(o));
  }

  // Runs `fn` on the held objects under the lock, then wakes the waiters.
  template <typename Fn>
  void Change(Fn fn) {
    std::lock_guard<std::mutex> lock(mu_);
    fn();
    ++held_.generation;
    changed_.notify_all();
  }

  template <typename T>
  absl::StatusOr<std::shared_ptr<const T>> ApplyTo(std::vector<std::shared_ptr<const T>>& objects, const T& o,
                                                   std::string_view resource) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& held : objects) {
      if (!SameObject(*held, o)) continue;
      const std::string& version = held->metadata().resource_version();
      const std::string& wanted = o.metadata().resource_version();
      if (!wanted.empty() && wanted != version) {
        return absl::AbortedError(
            schedkit::StrCat("Operation cannot be fulfilled on ", resource, " \"", o.metadata().name(),
                             "\": the object has been modified; please apply your changes to the latest "
                             "version and try again"));
      }
      auto stored = std::make_shared<T>(o);
      stored->mutable_metadata()->set_resource_version(version);
      if (google::protobuf::util::MessageDifferencer::Equals(*stored, *held)) return held;
      uint64_t n = 0;
      if (!absl::SimpleAtoi(version, &n)) n = 0;
      stored->mutable_metadata()->set_resource_version(schedkit::StrCat(n + 1));
      held = stored;
      ++held_.generation;
      changed_.notify_all();
      return std::shared_ptr<const T>(std::move(stored));
    }
    return absl::NotFoundError(schedkit::StrCat(resource, " \"", o.metadata().name(), "\" not found"));
  }

  mutable std::mutex mu_;
  mutable std::condition_variable changed_;
  Held held_;
};

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_FAKE_STORAGE_CLIENT_H_
