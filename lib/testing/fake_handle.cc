#include "schedkit/testing/fake_handle.h"

#include <cstdio>
#include <cstdlib>

#include "schedkit/api/builtin_kinds.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::testing {
namespace {

[[noreturn]] void Die(const absl::Status& s) {
  std::fprintf(stderr, "FakeHandle: invalid test cluster: %s\n", std::string(s.message()).c_str());
  std::abort();
}

}  // namespace

FakeHandle::FakeHandle(int parallelism)
    : state_(std::make_unique<framework::ClusterState>()),
      parallelizer_(std::make_unique<framework::Parallelizer>(parallelism)),
      metrics_(std::make_unique<framework::NoopMetricsRecorder>()),
      store_(std::make_unique<api::ObjectStore>(api::BuiltinKinds())),
      objects_(store_.get()) {}

FakeHandle::~FakeHandle() = default;

void FakeHandle::SetCluster(const std::vector<api::v1::Node>& nodes, const std::vector<api::v1::Pod>& pods,
                            const std::vector<api::v1::Namespace>& namespaces) {
  state_ = std::make_unique<framework::ClusterState>();
  snapshot_ = framework::Snapshot();
  for (const auto& n : nodes) {
    if (absl::Status s = state_->AddNode(std::make_shared<const api::v1::Node>(n)); !s.ok()) Die(s);
  }
  for (const auto& ns : namespaces) state_->SetNamespace(ns);
  for (const auto& p : pods) {
    if (p.spec().node_name().empty()) continue;
    auto info = framework::PodInfo::Create(p);
    if (!info.ok()) Die(info.status());
    if (absl::Status s = state_->AddPod(*std::move(info)); !s.ok()) Die(s);
  }
  Refresh();
}

void FakeHandle::Refresh() { state_->UpdateSnapshot(snapshot_); }

absl::StatusOr<std::unique_ptr<framework::Plugin>> FakeHandle::NewPlugin(const framework::Registry& registry,
                                                                         std::string_view name,
                                                                         std::string args_json) {
  const framework::PluginFactory* f = registry.Find(name);
  if (f == nullptr) return absl::NotFoundError(std::string(name));
  return (*f)(framework::PluginArgs(std::move(args_json)), *this);
}

framework::Status FakeHandle::RunFilterPlugins(const framework::CycleState&, const framework::PodInfo&,
                                               const framework::NodeInfo&) const {
  return framework::Status::Error("FakeHandle runs no plugins");
}
framework::Status FakeHandle::RunFilterPluginsWithNominatedPods(const framework::CycleState&,
                                                                const framework::PodInfo&,
                                                                const framework::NodeInfo&) const {
  return framework::Status::Error("FakeHandle runs no plugins");
}
framework::Status FakeHandle::RunPreFilterExtensionAddPod(framework::CycleState&, const framework::PodInfo&,
                                                          const framework::PodInfo&,
                                                          const framework::NodeInfo&) const {
  return framework::Status::Error("FakeHandle runs no plugins");
}
framework::Status FakeHandle::RunPreFilterExtensionRemovePod(framework::CycleState&, const framework::PodInfo&,
                                                             const framework::PodInfo&,
                                                             const framework::NodeInfo&) const {
  return framework::Status::Error("FakeHandle runs no plugins");
}

}  // namespace schedkit::testing
