// Uses the installed schedkit package only, as a plugin author outside the
// tree would: decodes a node and reads its quantities; then adds a kind of
// its own (a toy PodGroup CRD) with a plugin that reads it, and shows the
// decoder reading the kind from a file, the scheduler's store holding it, and
// an event of the kind requeueing a pod the plugin rejected.
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "pod_group.pb.h"
#include "schedkit/api/decode.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/lister.h"
#include "schedkit/api/quantity.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/clock.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"

using consumer::v1alpha1::PodGroup;

// The kind, declared as schedkit's own kinds are.
template <>
struct schedkit::api::KindTraits<PodGroup> {
  static constexpr KindName kName = {.group = "scheduling.x-k8s.io", .version = "v1alpha1", .kind = "PodGroup",
                                     .resource = "podgroups", .namespaced = true};
  static absl::Status Validate(const PodGroup& group) {
    if (group.spec().min_member() < 1) return absl::InvalidArgumentError("spec.minMember: must be at least 1");
    return absl::OkStatus();
  }
};

namespace {

namespace fw = schedkit::framework;
constexpr std::string_view kGroupLabel = "scheduling.x-k8s.io/pod-group";

// Lets a pod that names a pod group through only once the group exists.
class GangGate : public fw::PreFilterPlugin, public fw::EnqueueExtensions {
 public:
  explicit GangGate(fw::Handle& handle) : handle_(handle) {}
  std::string_view Name() const override { return "GangGate"; }

  Result PreFilter(fw::CycleState&, const fw::PodInfo& pod, std::span<const fw::NodeInfo* const>) override {
    const std::string group = GroupOf(pod);
    if (group.empty()) return {{}, fw::Status::Skip()};
    if (handle_.objects().Get<PodGroup>(pod.pod().metadata().namespace_(), group) == nullptr) {
      return {{}, fw::Status::WithText(fw::Code::kUnschedulableAndUnresolvable,
                                       "pod group \"" + group + "\" not found")};
    }
    return {{}, fw::Status()};
  }

  std::vector<fw::ClusterEventWithHint> EventsToRegister() const override {
    return {{{fw::EventResource::Of<PodGroup>(), fw::kActionAdd, "PodGroupAdd"},
             [](const fw::PodInfo& pod, const fw::EventObjects& e) -> absl::StatusOr<fw::QueueingHint> {
               const PodGroup* added = e.New<PodGroup>();
               if (added == nullptr) return absl::InvalidArgumentError("not a PodGroup event");
               return added->metadata().name() == GroupOf(pod) ? fw::QueueingHint::kQueue : fw::QueueingHint::kSkip;
             }}};
  }

 private:
  static std::string GroupOf(const fw::PodInfo& pod) {
    const auto& labels = pod.pod().metadata().labels();
    auto it = labels.find(std::string(kGroupLabel));
    return it == labels.end() ? "" : it->second;
  }
  fw::Handle& handle_;
};

class RecordingHost : public schedkit::scheduler::Host {
 public:
  absl::Status Bind(const schedkit::api::v1::Pod& pod, std::string_view node) override {
    std::lock_guard<std::mutex> lock(mu_);
    bound_[pod.metadata().name()] = std::string(node);
    return absl::OkStatus();
  }
  void OnFailedScheduling(const schedkit::api::v1::Pod& pod,
                          const schedkit::scheduler::SchedulingFailure& failure) override {
    std::lock_guard<std::mutex> lock(mu_);
    failures_[pod.metadata().name()] = std::string(failure.message);
  }
  std::string BoundTo(const std::string& pod) {
    std::lock_guard<std::mutex> lock(mu_);
    return bound_.contains(pod) ? bound_[pod] : "";
  }
  std::string Failure(const std::string& pod) {
    std::lock_guard<std::mutex> lock(mu_);
    return failures_[pod];
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::string> bound_;
  std::map<std::string, std::string> failures_;
};

std::shared_ptr<const PodGroup> Group(const std::string& name, int min_member) {
  auto group = std::make_shared<PodGroup>();
  group->set_api_version("scheduling.x-k8s.io/v1alpha1");
  group->set_kind("PodGroup");
  group->mutable_metadata()->set_namespace_("default");
  group->mutable_metadata()->set_name(name);
  group->mutable_spec()->set_min_member(min_member);
  return group;
}

constexpr char kCluster[] = R"(
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: member, uid: uid-member, labels: {scheduling.x-k8s.io/pod-group: g1}}
spec: {containers: [{name: c, image: busybox}]}
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: PodGroup
metadata: {name: other}
spec: {minMember: 3}
)";

#define CHECK(cond)                                                                    \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      std::fprintf(stderr, "consumer: %s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

int DecodesANode() {
  auto cluster = schedkit::api::Decode(
      R"({"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"1500m"}}})");
  CHECK(cluster.ok() && cluster->objects.Of<schedkit::api::v1::Node>().size() == 1);
  auto cpu = schedkit::api::ParseResourceQuantity(
      "cpu", cluster->objects.Of<schedkit::api::v1::Node>()[0].status().allocatable().at("cpu"));
  CHECK(cpu.ok() && *cpu == 1500);
  std::printf("consumer ok: node n1 has %lld millicores\n", static_cast<long long>(*cpu));
  return 0;
}

int AddsAKindOfItsOwn() {
  schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
  CHECK(registry
            .Add("GangGate",
                 [](const fw::PluginArgs&, fw::Handle& h) -> absl::StatusOr<std::unique_ptr<fw::Plugin>> {
                   return std::make_unique<GangGate>(h);
                 })
            .ok());
  registry.AddKind<PodGroup>();

  // The decoder reads the kind from a file once it is among the kinds; it
  // checks it as its traits say, naming the object and field.
  auto without = schedkit::api::Decode(kCluster, "cluster.yaml");
  CHECK(without.ok() && without->skipped_kinds.at("PodGroup") == 1);
  auto decoded = schedkit::api::Decode(kCluster, "cluster.yaml", registry.kinds());
  CHECK(decoded.ok() && decoded->skipped_kinds.empty());
  CHECK(decoded->objects.Of<PodGroup>().size() == 1);
  CHECK(decoded->objects.Of<PodGroup>()[0].spec().min_member() == 3);
  CHECK(decoded->objects.Of<PodGroup>()[0].metadata().namespace_() == "default");  // the API server's default
  auto bad = schedkit::api::Decode(
      "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\nmetadata: {name: empty}\nspec: {minMember: 0}\n",
      "bad.yaml", registry.kinds());
  CHECK(!bad.ok());
  CHECK(bad.status().message() == "bad.yaml: document 1 (PodGroup empty): spec.minMember: must be at least 1");

  // A scheduler whose profile runs the plugin, started from the file.
  schedkit::config::SchedulerConfiguration config = schedkit::config::DefaultConfiguration();
  config.profiles[0].plugins.pre_filter.enabled.push_back({"GangGate", 0});
  RecordingHost host;
  schedkit::framework::FakeClock clock;
  schedkit::scheduler::InlineExecutor executor;
  schedkit::scheduler::SchedulerOptions options;
  options.clock = &clock;
  options.executor = &executor;
  const schedkit::api::StaticClusterLister lister(decoded->objects);
  auto sched = schedkit::scheduler::Scheduler::Create(config, registry, host, lister, options);
  CHECK(sched.ok());
  (*sched)->RunUntilIdle();
  CHECK(host.BoundTo("member").empty());
  std::printf("consumer: the gated pod's failure: %s\n", host.Failure("member").c_str());
  // The default profile's PostFilters speak too: DynamicResources (no reason
  // since v1.36), then DefaultPreemption.
  CHECK(host.Failure("member") ==
        "0/1 nodes are available: pod group \"g1\" not found. preemption: 0/1 nodes "
        "are available: 1 Preemption is not helpful for scheduling.");

  // The store holds the kind: what the lister gave, and what comes after.
  CHECK((*sched)->objects().Get<PodGroup>("default", "other") != nullptr);
  CHECK((*sched)->Upsert(Group("unrelated", 1)).ok());
  CHECK((*sched)->objects().List<PodGroup>("default").size() == 2);
  // Another group's arrival leaves the pod where it waits (the hint says Skip)...
  (*sched)->RunUntilIdle();
  CHECK(host.BoundTo("member").empty());
  // ...its own group's arrival requeues it, and it schedules.
  CHECK((*sched)->Upsert(Group("g1", 1)).ok());
  (*sched)->RunUntilIdle();
  CHECK(host.BoundTo("member") == "n1");
  CHECK((*sched)->Delete<PodGroup>("default", "g1").ok());
  CHECK((*sched)->Delete<PodGroup>("default", "g1").code() == absl::StatusCode::kNotFound);
  (*sched)->Stop();
  std::printf("consumer ok: a PodGroup of the consumer's own requeued the pod it gated\n");
  return 0;
}

}  // namespace

int main() {
  if (int rc = DecodesANode(); rc != 0) return rc;
  return AddsAKindOfItsOwn();
}
