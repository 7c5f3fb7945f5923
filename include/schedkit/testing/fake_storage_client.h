// FakeStorageClient: the objects and the writes of the volume plugins'
// tests, without a scheduler. It holds the objects given to Add (what the
// scheduler would hold) and answers reads of them as an ObjectLister, and it
// stands in for the API server behind VolumeBinding's PreBind writes as a
// ClusterClient. Everything else does nothing (NoopClusterClient).
//
//   FakeStorageClient client;
//   client.Add(claim);       // an api::v1::PersistentVolumeClaim
//   FakeHandle h;
//   h.set_client(&client);   // also serves h.objects()
//
// PreBind's writes (UpdateObject of a PersistentVolume or a claim) are
// recorded (pv_writes(), pvc_writes()) and then go to the write hook, when
// one is set, else to Apply, which stores them as an API server would and as
// if the host reported them back at once. A hook emulates an API error
// (return it), or the PV controller (call Apply, then change objects through
// Update / Delete). Every change to the held objects moves Generation(),
// which wakes WaitForChange.
//
// Thread-safe. Copies take the objects and the records, not the hooks
// (which usually capture the client they were set on) nor the waiters.
#ifndef SCHEDKIT_TESTING_FAKE_STORAGE_CLIENT_H_
#define SCHEDKIT_TESTING_FAKE_STORAGE_CLIENT_H_

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
#include "schedkit/api/builtin_kinds.h"
#include "schedkit/api/object_store.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/handle.h"
#include "schedkit/testing/noop_cluster_client.h"

namespace schedkit::testing {

class FakeStorageClient : public NoopClusterClient, public api::ObjectLister {
 public:
  using PV = api::v1::PersistentVolume;
  using PVC = api::v1::PersistentVolumeClaim;
  // What a write returns: the stored object, or the API error.
  using PVWriteHook = std::function<absl::StatusOr<std::shared_ptr<const PV>>(const PV&)>;
  using PVCWriteHook = std::function<absl::StatusOr<std::shared_ptr<const PVC>>(const PVC&)>;

  FakeStorageClient() : store_(std::make_unique<api::ObjectStore>(api::BuiltinKinds())) {}
  FakeStorageClient(const FakeStorageClient& other) : FakeStorageClient() { *this = other; }
  FakeStorageClient& operator=(const FakeStorageClient& other) {
    if (this == &other) return *this;
    for (const api::Kind* kind : api::BuiltinKinds()) {
      for (api::AnyObject& o : other.store_->ListObjects(*kind)) (void)store_->Upsert(*kind, std::move(o));
    }
    std::lock_guard<std::mutex> lock(mu_);
    std::lock_guard<std::mutex> other_lock(other.mu_);
    pv_writes_ = other.pv_writes_;
    pvc_writes_ = other.pvc_writes_;
    return *this;
  }

  // Adds an object as given, or replaces the one of its namespace and name.
  template <typename T>
  void Add(const T& o) {
    (void)store_->Upsert(std::make_shared<const T>(o));
  }
  // The same, named as the API server's update (resourceVersion is the caller's).
  void Update(const PV& o) { Add(o); }
  void Update(const PVC& o) { Add(o); }
  // Drops the held object, if any.
  void DeletePersistentVolume(std::string_view name) { (void)store_->Delete<PV>("", name); }
  void DeletePersistentVolumeClaim(std::string_view namespace_name, std::string_view name) {
    (void)store_->Delete<PVC>(namespace_name, name);
  }

  // An API server's update: NotFound without a held object of the name;
  // Aborted (409 Conflict) when the write names a resourceVersion other
  // than the held one (none: unconditional); the held object when the write
  // changes nothing (no new version, as the API server); otherwise stores
  // the object with the next resourceVersion and returns it.
  absl::StatusOr<std::shared_ptr<const PV>> Apply(const PV& o) { return ApplyTo(o, "persistentvolumes"); }
  absl::StatusOr<std::shared_ptr<const PVC>> Apply(const PVC& o) { return ApplyTo(o, "persistentvolumeclaims"); }

  // Replaces Apply for the writes that follow (null: back to Apply). The
  // hook runs without the client's lock, on the writing thread.
  void set_on_pv_write(PVWriteHook hook) {
    std::lock_guard<std::mutex> lock(mu_);
    on_pv_write_ = std::move(hook);
  }
  void set_on_pvc_write(PVCWriteHook hook) {
    std::lock_guard<std::mutex> lock(mu_);
    on_pvc_write_ = std::move(hook);
  }

  // Every write so far, as sent, oldest first.
  std::vector<PV> pv_writes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return pv_writes_;
  }
  std::vector<PVC> pvc_writes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return pvc_writes_;
  }

  // --- ClusterClient ---
  absl::StatusOr<api::AnyObject> UpdateObject(const api::Kind& kind, const google::protobuf::Message& object) override {
    if (&kind == &api::KindOf<PV>()) return Write(static_cast<const PV&>(object), pv_writes_, on_pv_write_);
    if (&kind == &api::KindOf<PVC>()) return Write(static_cast<const PVC&>(object), pvc_writes_, on_pvc_write_);
    return NoopClusterClient::UpdateObject(kind, object);
  }

  // --- ObjectLister: the held objects ---
  api::AnyObject GetObject(const api::Kind& kind, std::string_view namespace_name,
                           std::string_view name) const override {
    return store_->GetObject(kind, namespace_name, name);
  }
  api::AnyObjectList ListObjects(const api::Kind& kind) const override { return store_->ListObjects(kind); }
  api::AnyObjectList ListObjectsIn(const api::Kind& kind, std::string_view namespace_name) const override {
    return store_->ListObjectsIn(kind, namespace_name);
  }
  api::AnyObjectList ListIndexed(const api::Kind& kind, std::string_view index,
                                 std::string_view value) const override {
    return store_->ListIndexed(kind, index, value);
  }
  uint64_t Generation() const override { return store_->Generation(); }
  absl::StatusOr<uint64_t> WaitForChange(uint64_t generation, absl::Time deadline) const override {
    // The chrono conversion of "never" would overflow: a long wait instead.
    if (deadline == absl::InfiniteFuture()) deadline = absl::Now() + absl::Hours(24);
    return store_->WaitForChange(generation, deadline);
  }

 private:
  template <typename T, typename Hook>
  absl::StatusOr<api::AnyObject> Write(const T& object, std::vector<T>& writes, const Hook& hook_slot) {
    Hook hook;
    {
      std::lock_guard<std::mutex> lock(mu_);
      writes.push_back(object);
      hook = hook_slot;
    }
    absl::StatusOr<std::shared_ptr<const T>> stored = hook ? hook(object) : Apply(object);
    if (!stored.ok()) return stored.status();
    return api::AnyObject(*std::move(stored));
  }

  template <typename T>
  absl::StatusOr<std::shared_ptr<const T>> ApplyTo(const T& o, std::string_view resource) {
    // One write at a time, as the API server serializes writes to an object.
    std::lock_guard<std::mutex> lock(apply_mu_);
    std::shared_ptr<const T> held = store_->Get<T>(o.metadata().namespace_(), o.metadata().name());
    if (held == nullptr) {
      return absl::NotFoundError(schedkit::StrCat(resource, " \"", o.metadata().name(), "\" not found"));
    }
    const std::string& version = held->metadata().resource_version();
    const std::string& wanted = o.metadata().resource_version();
    if (!wanted.empty() && wanted != version) {
      return absl::AbortedError(schedkit::StrCat("Operation cannot be fulfilled on ", resource, " \"",
                                                 o.metadata().name(),
                                                 "\": the object has been modified; please apply your changes "
                                                 "to the latest version and try again"));
    }
    auto stored = std::make_shared<T>(o);
    stored->mutable_metadata()->set_resource_version(version);
    if (google::protobuf::util::MessageDifferencer::Equals(*stored, *held)) return held;
    uint64_t n = 0;
    if (!absl::SimpleAtoi(version, &n)) n = 0;
    stored->mutable_metadata()->set_resource_version(schedkit::StrCat(n + 1));
    std::shared_ptr<const T> result = std::move(stored);
    (void)store_->Upsert(result);
    return result;
  }

  std::unique_ptr<api::ObjectStore> store_;
  std::mutex apply_mu_;
  mutable std::mutex mu_;
  std::vector<PV> pv_writes_;
  std::vector<PVC> pvc_writes_;
  PVWriteHook on_pv_write_;
  PVCWriteHook on_pvc_write_;
};

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_FAKE_STORAGE_CLIENT_H_
