// FakeStorageClient: a ClusterClient for testing the volume plugins without
// a scheduler. It holds the storage objects given to Add, answers the
// storage reads from them, and does nothing else (NoopClusterClient).
//
//   FakeStorageClient client;
//   client.Add(claim);  // an api::v1::PersistentVolumeClaim
//   FakeHandle h;
//   h.set_client(&client);
//
// Not thread-safe for mutation; reads may be concurrent.
#ifndef SCHEDKIT_TESTING_FAKE_STORAGE_CLIENT_H_
#define SCHEDKIT_TESTING_FAKE_STORAGE_CLIENT_H_

#include <memory>
#include <string_view>
#include <vector>

#include "schedkit/framework/handle.h"
#include "schedkit/testing/noop_cluster_client.h"

namespace schedkit::testing {

class FakeStorageClient : public NoopClusterClient {
 public:
  void Add(const api::v1::PersistentVolume& o) { pvs_.push_back(std::make_shared<const api::v1::PersistentVolume>(o)); }
  void Add(const api::v1::PersistentVolumeClaim& o) {
    pvcs_.push_back(std::make_shared<const api::v1::PersistentVolumeClaim>(o));
  }
  void Add(const api::v1::StorageClass& o) { classes_.push_back(std::make_shared<const api::v1::StorageClass>(o)); }
  void Add(const api::v1::CSINode& o) { csi_nodes_.push_back(std::make_shared<const api::v1::CSINode>(o)); }
  void Add(const api::v1::CSIDriver& o) { csi_drivers_.push_back(std::make_shared<const api::v1::CSIDriver>(o)); }
  void Add(const api::v1::CSIStorageCapacity& o) {
    capacities_.push_back(std::make_shared<const api::v1::CSIStorageCapacity>(o));
  }
  void Add(const api::v1::VolumeAttachment& o) {
    attachments_.push_back(std::make_shared<const api::v1::VolumeAttachment>(o));
  }

  std::shared_ptr<const api::v1::PersistentVolumeClaim> GetPersistentVolumeClaim(
      std::string_view namespace_name, std::string_view name) const override {
    for (const auto& o : pvcs_) {
      if (o->metadata().namespace_() == namespace_name && o->metadata().name() == name) return o;
    }
    return nullptr;
  }
  std::shared_ptr<const api::v1::PersistentVolume> GetPersistentVolume(std::string_view name) const override {
    return Find(pvs_, name);
  }
  std::vector<std::shared_ptr<const api::v1::PersistentVolume>> ListPersistentVolumes() const override {
    return pvs_;
  }
  std::shared_ptr<const api::v1::StorageClass> GetStorageClass(std::string_view name) const override {
    return Find(classes_, name);
  }
  std::shared_ptr<const api::v1::CSINode> GetCSINode(std::string_view name) const override {
    return Find(csi_nodes_, name);
  }
  std::shared_ptr<const api::v1::CSIDriver> GetCSIDriver(std::string_view name) const override {
    return Find(csi_drivers_, name);
  }
  std::vector<std::shared_ptr<const api::v1::CSIStorageCapacity>> ListCSIStorageCapacities() const override {
    return capacities_;
  }
  std::vector<std::shared_ptr<const api::v1::VolumeAttachment>> ListVolumeAttachments() const override {
    return attachments_;
  }

 private:
  template <typename T>
  static std::shared_ptr<const T> Find(const std::vector<std::shared_ptr<const T>>& objects, std::string_view name) {
    for (const auto& o : objects) {
      if (o->metadata().name() == name) return o;
    }
    return nullptr;
  }

  std::vector<std::shared_ptr<const api::v1::PersistentVolume>> pvs_;
  std::vector<std::shared_ptr<const api::v1::PersistentVolumeClaim>> pvcs_;
  std::vector<std::shared_ptr<const api::v1::StorageClass>> classes_;
  std::vector<std::shared_ptr<const api::v1::CSINode>> csi_nodes_;
  std::vector<std::shared_ptr<const api::v1::CSIDriver>> csi_drivers_;
  std::vector<std::shared_ptr<const api::v1::CSIStorageCapacity>> capacities_;
  std::vector<std::shared_ptr<const api::v1::VolumeAttachment>> attachments_;
};

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_FAKE_STORAGE_CLIENT_H_
