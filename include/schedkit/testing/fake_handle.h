// FakeHandle: a Handle for testing plugins without a scheduler — it holds a
// snapshot built from nodes and bound pods, an object store of every
// built-in kind, a parallelizer, and optional nominator/activator/client
// doubles; it runs no other plugin (the runner's calls return an Error) and
// has no waiting pods.
//
//   FakeHandle h;
//   h.SetCluster({MakeNode().Name("n1").Obj()}, {MakePod().Name("p").Node("n1").Obj()});
//   h.store().Upsert(std::make_shared<const api::v1::Service>(service));
//   auto plugin = h.NewPlugin(registry, "NodePorts", R"({})");
//
// Not thread-safe for mutation; reads may be concurrent.
#ifndef SCHEDKIT_TESTING_FAKE_HANDLE_H_
#define SCHEDKIT_TESTING_FAKE_HANDLE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/api/object_store.h"
#include "schedkit/api/v1/namespace.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/registry.h"
#include "schedkit/framework/snapshot.h"

namespace schedkit::testing {

class FakeHandle : public framework::Handle, public framework::PluginRunner, public framework::WaitingPods {
 public:
  explicit FakeHandle(int parallelism = 1);
  ~FakeHandle() override;

  // Replaces the snapshot with these nodes, bound pods and namespaces;
  // aborts on invalid input (tests must be valid).
  void SetCluster(const std::vector<api::v1::Node>& nodes, const std::vector<api::v1::Pod>& pods,
                  const std::vector<api::v1::Namespace>& namespaces = {});
  framework::ClusterState& state() { return *state_; }
  // Re-syncs the snapshot after edits through state().
  void Refresh();

  // Builds the plugin `name` from `registry` with `args_json` (may be empty).
  absl::StatusOr<std::unique_ptr<framework::Plugin>> NewPlugin(const framework::Registry& registry,
                                                               std::string_view name,
                                                               std::string args_json = "");

  // The objects plugins read: the handle's own store, unless another lister
  // is set (a client that is also an ObjectLister, such as
  // FakeStorageClient, sets itself).
  api::ObjectStore& store() { return *store_; }
  void set_objects(const api::ObjectLister* objects) { objects_ = objects != nullptr ? objects : store_.get(); }
  void set_nominator(framework::PodNominator* n) { nominator_ = n; }
  void set_activator(framework::PodActivator* a) { activator_ = a; }
  void set_client(framework::ClusterClient* c) {
    client_ = c;
    if (const auto* objects = dynamic_cast<const api::ObjectLister*>(c)) set_objects(objects);
  }

  const framework::Snapshot& snapshot() const override { return snapshot_; }
  framework::Parallelizer& parallelizer() const override { return *parallelizer_; }
  std::string_view profile_name() const override { return "default-scheduler"; }
  framework::MetricsRecorder& metrics() const override { return *metrics_; }
  const api::ObjectLister& objects() const override { return *objects_; }
  framework::PodNominator* nominator() const override { return nominator_; }
  framework::PodActivator* activator() const override { return activator_; }
  framework::ClusterClient* client() const override { return client_; }
  framework::EventRecorder* events() const override { return nullptr; }
  framework::WaitingPods& waiting_pods() const override { return const_cast<FakeHandle&>(*this); }
  const framework::PluginRunner& plugin_runner() const override { return *this; }
  // One for the handle's plugins, as a scheduler's profiles share one.
  framework::SharedState* shared_state() const override { return shared_state_.get(); }
  void IterateOverWaitingPods(const std::function<void(framework::WaitingPod&)>&) override {}
  bool HasWaitingPod(std::string_view) const override { return false; }
  bool AllowWaitingPod(std::string_view, Symbol) override { return false; }
  bool RejectWaitingPod(std::string_view, std::string) override { return false; }
  framework::Status RunFilterPlugins(const framework::CycleState&, const framework::PodInfo&,
                                     const framework::NodeInfo&) const override;
  framework::Status RunFilterPluginsWithNominatedPods(const framework::CycleState&, const framework::PodInfo&,
                                                      const framework::NodeInfo&) const override;
  framework::Status RunPreFilterExtensionAddPod(framework::CycleState&, const framework::PodInfo&,
                                                const framework::PodInfo&,
                                                const framework::NodeInfo&) const override;
  framework::Status RunPreFilterExtensionRemovePod(framework::CycleState&, const framework::PodInfo&,
                                                   const framework::PodInfo&,
                                                   const framework::NodeInfo&) const override;

 private:
  std::unique_ptr<framework::ClusterState> state_;
  framework::Snapshot snapshot_;
  std::unique_ptr<framework::Parallelizer> parallelizer_;
  std::unique_ptr<framework::MetricsRecorder> metrics_;
  std::unique_ptr<api::ObjectStore> store_;
  const api::ObjectLister* objects_ = nullptr;
  framework::PodNominator* nominator_ = nullptr;
  framework::PodActivator* activator_ = nullptr;
  framework::ClusterClient* client_ = nullptr;
  std::unique_ptr<framework::SharedState> shared_state_ = std::make_unique<framework::SharedState>();
};

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_FAKE_HANDLE_H_
