// The fixture of the SchedulingQueue tests: a World (a framework of test
// plugins whose events and hints each test sets, a FakeClock, the queue under
// test), upstream's pod fixtures and the events its tests send. Upstream's
// storage events (PersistentVolume, PVC, CSINode) do not exist in schedkit;
// the ported cases use PodDisruptionBudget and Namespace events in their place.
#ifndef SCHEDKIT_TESTS_SCHEDULER_QUEUE_TEST_WORLD_H_
#define SCHEDKIT_TESTS_SCHEDULER_QUEUE_TEST_WORLD_H_

#include "schedkit/scheduler/queue.h"


#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "schedkit/testing/builders.h"
#include "scheduler/pod_update_events.h"

namespace schedkit::scheduler::queue_test {


using framework::ClusterEvent;
using framework::ClusterEventWithHint;
using framework::Code;
using framework::EventObjects;
using framework::EventResource;
using framework::PodInfo;
using framework::PodInfoPtr;
using framework::QueuedPodInfo;
using framework::QueueingHint;
using framework::QueueingHintFn;
using framework::Status;
using testing::MakePod;
using SubQueue = SchedulingQueue::SubQueue;

inline Symbol S(std::string_view s) { return Symbol::Intern(s); }

// ------------------------------------------------------------------ events

inline const ClusterEvent kNodeAdd{EventResource::Node(), framework::kActionAdd, "NodeAdd"};
// Upstream's storage events.
inline const ClusterEvent kPvAdd{EventResource::Named("PersistentVolume"), framework::kActionAdd,
                                 "PersistentVolumeAdd"};
inline const ClusterEvent kPvUpdate{EventResource::Named("PersistentVolume"), framework::kActionUpdate,
                                    "PersistentVolumeUpdate"};
inline const ClusterEvent kPvcAdd{EventResource::Named("PersistentVolumeClaim"), framework::kActionAdd,
                                  "PersistentVolumeClaimAdd"};
inline const ClusterEvent kCsiNodeUpdate{EventResource::Named("storage.k8s.io/CSINode"), framework::kActionUpdate,
                                         "CSINodeUpdate"};
inline const ClusterEvent kAssignedPodAdd{EventResource::AssignedPod(), framework::kActionAdd, "AssignedPodAdd"};
inline const ClusterEvent kUnscheduledPodUpdate{EventResource::UnscheduledPod(), framework::kActionUpdate,
                                         "UnscheduledPodUpdate"};
// A pending pod's own update, as the queue sends it (v1.37).
inline const ClusterEvent kTargetPodUpdate{EventResource::TargetPod(), framework::kActionUpdate, "TargetPodUpdate"};
inline const ClusterEvent kUnschedulableTimeout{EventResource::Wildcard(), framework::kActionAll,
                                         "UnschedulableTimeout"};
inline const ClusterEvent kForceActivate{EventResource::Wildcard(), framework::kActionAll, "ForceActivate"};
inline const ClusterEvent kWildcard{EventResource::Wildcard(), framework::kActionAll, "*"};

inline QueueingHintFn Returns(QueueingHint h, int* calls = nullptr) {
  return [h, calls](const PodInfo&, const EventObjects&) -> absl::StatusOr<QueueingHint> {
    if (calls != nullptr) ++*calls;
    return h;
  };
}
inline QueueingHintFn ReturnsError(int* calls = nullptr) {
  return [calls](const PodInfo&, const EventObjects&) -> absl::StatusOr<QueueingHint> {
    if (calls != nullptr) ++*calls;
    return absl::InternalError("unexpected error");
  };
}
inline const QueueingHintFn kQueue = Returns(QueueingHint::kQueue);
inline const QueueingHintFn kSkip = Returns(QueueingHint::kSkip);

// ------------------------------------------------------------------ plugins

// PrioritySort's order; the real plugin lives outside the core library.
// Unranked by default, so the queue calls Less; `ranked` gives PrioritySort's
// rank as well, for the queue's cached-rank path.
class TestSort : public framework::QueueSortPlugin {
 public:
  std::string_view Name() const override { return "TestSort"; }
  bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const override {
    if (a.pod->priority() != b.pod->priority()) return a.pod->priority() > b.pod->priority();
    return a.timestamp < b.timestamp;
  }
  std::optional<int64_t> Rank(const PodInfo& pod) const override {
    if (!ranked) return std::nullopt;
    return -static_cast<int64_t>(pod.priority());
  }
  bool ranked = false;
};

class TestBinder : public framework::BindPlugin {
 public:
  std::string_view Name() const override { return "TestBinder"; }
  Status Bind(framework::CycleState&, const PodInfo&, Symbol) override { return Status(); }
};

struct PluginSpec {
  std::string name;
  // What EventsToRegister returns; the default is what a plugin without
  // EnqueueExtensions gets.
  std::vector<ClusterEventWithHint> events = {{kWildcard, {}}};
  // Set: the plugin also runs at PreEnqueue.
  std::function<Status(const PodInfo&)> pre_enqueue;
};

// A Filter plugin (so its rejections count) with configurable registrations.
class TestPlugin : public framework::PreEnqueuePlugin,
                   public framework::FilterPlugin,
                   public framework::EnqueueExtensions {
 public:
  explicit TestPlugin(PluginSpec spec) : spec_(std::move(spec)) {}
  std::string_view Name() const override { return spec_.name; }
  Status PreEnqueue(const PodInfo& pod) override {
    return spec_.pre_enqueue ? spec_.pre_enqueue(pod) : Status();
  }
  Status Filter(const framework::CycleState&, const PodInfo&, const framework::NodeInfo&) const override {
    return Status();
  }
  std::vector<ClusterEventWithHint> EventsToRegister() const override { return spec_.events; }

 private:
  PluginSpec spec_;
};

// Upstream's preEnqueuePlugin: admits pods carrying one of the labels.
inline std::function<Status(const PodInfo&)> AllowLabels(std::vector<std::string> allowed) {
  return [allowed](const PodInfo& pod) {
    for (const std::string& a : allowed) {
      if (pod.pod().metadata().labels().contains(a)) return Status();
    }
    return Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"pod name not in allowlists"});
  };
}

// Upstream's SchedulingGates plugin, reduced to what the queue sees.
inline PluginSpec SchedulingGatesSpec() {
  PluginSpec spec;
  spec.name = "SchedulingGates";
  spec.pre_enqueue = [](const PodInfo& pod) {
    if (pod.scheduling_gates().empty()) return Status();
    return Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"waiting for scheduling gates"});
  };
  spec.events = {{ClusterEvent{EventResource::Pod(), framework::kActionUpdatePodSchedulingGatesEliminated,
                               "PodUpdatePodSchedulingGatesEliminated"},
                  [](const PodInfo& pod, const EventObjects& e) -> absl::StatusOr<QueueingHint> {
                    if (e.New<api::v1::Pod>() == nullptr || e.New<api::v1::Pod>()->metadata().uid() != pod.uid())
                      return QueueingHint::kSkip;
                    return QueueingHint::kQueue;
                  }}};
  return spec;
}

class RecordingMetrics : public framework::NoopMetricsRecorder {
 public:
  void SetPendingPods(std::string_view queue, int64_t count) override {
    std::lock_guard<std::mutex> lock(mu_);
    pending_[std::string(queue)] = count;
  }
  std::map<std::string, int64_t> pending() const {
    std::lock_guard<std::mutex> lock(mu_);
    return pending_;
  }

 private:
  // A std::mutex: Debian's Abseil mutex is invisible to ThreadSanitizer.
  mutable std::mutex mu_;
  std::map<std::string, int64_t> pending_;
};

// ------------------------------------------------------------------ world

// A framework of TestPlugins, a FakeClock and the queue under test.
struct World {
  framework::FakeClock clock;
  RecordingMetrics metrics;
  TestSort sort;
  framework::Registry registry;
  framework::Profile profile;
  std::unique_ptr<framework::Framework> fw;
  QueueOptions options;
  std::unique_ptr<SchedulingQueue> queue;

  World() {
    REQUIRE(registry
                .Add("TestSort",
                     [](const framework::PluginArgs&,
                        framework::Handle&) -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
                       return std::make_unique<TestSort>();
                     })
                .ok());
    REQUIRE(registry
                .Add("TestBinder",
                     [](const framework::PluginArgs&,
                        framework::Handle&) -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
                       return std::make_unique<TestBinder>();
                     })
                .ok());
    profile.plugins.queue_sort.enabled = {{"TestSort"}};
    profile.plugins.bind.enabled = {{"TestBinder"}};
  }

  void Plugin(PluginSpec spec) {
    const std::string name = spec.name;
    if (spec.pre_enqueue) profile.plugins.pre_enqueue.enabled.push_back({name});
    profile.plugins.filter.enabled.push_back({name});
    REQUIRE(registry
                .Add(name,
                     [spec](const framework::PluginArgs&,
                            framework::Handle&) -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
                       return std::make_unique<TestPlugin>(spec);
                     })
                .ok());
  }
  // A plugin registered for one event with one hint.
  void Plugin(const std::string& name, const ClusterEvent& event, QueueingHintFn hint) {
    Plugin(PluginSpec{name, {{event, std::move(hint)}}, {}});
  }

  SchedulingQueue& Build() {
    framework::FrameworkOptions fo;
    fo.parallelism = 1;
    fo.clock = &clock;
    auto f = framework::Framework::Create(registry, profile, std::move(fo));
    INFO(f.status().ToString());
    REQUIRE(f.ok());
    fw = *std::move(f);
    options.clock = &clock;
    options.less = &sort;
    options.framework_for_pod = [this](const PodInfo&) { return fw.get(); };
    options.metrics = &metrics;
    queue = std::make_unique<SchedulingQueue>(options);
    return *queue;
  }
};

// ------------------------------------------------------------------ pods

inline PodInfoPtr Pod(const std::string& name, const std::string& ns, const std::string& uid, int32_t priority,
               const std::string& nominated = "") {
  auto b = MakePod().Name(name).Namespace(ns).UID(uid).Priority(priority);
  if (!nominated.empty()) b.NominatedNodeName(nominated);
  return b.Info();
}

// Upstream's fixtures.
inline constexpr int32_t kLowPriority = 0, kMidPriority = 100, kHighPriority = 1000;
inline constexpr int32_t kMediumPriority = (kLowPriority + kHighPriority) / 2;
inline PodInfoPtr HighPriorityPod() { return Pod("hpp", "ns1", "hppns1", kHighPriority); }
inline PodInfoPtr HighPriNominatedPod() { return Pod("hpp", "ns1", "hppns1", kHighPriority, "node1"); }
inline PodInfoPtr MedPriorityPod() {
  return MakePod()
      .Name("mpp")
      .Namespace("ns2")
      .UID("mppns2")
      .Annotation("annot2", "val2")
      .Priority(kMediumPriority)
      .NominatedNodeName("node1")
      .Info();
}
inline PodInfoPtr UnschedulablePod() {
  return MakePod()
      .Name("up")
      .Namespace("ns1")
      .UID("upns1")
      .Annotation("annot2", "val2")
      .Priority(kLowPriority)
      .NominatedNodeName("node1")
      .Info();
}

inline PodInfoPtr WithAnnotation(const PodInfoPtr& p, const std::string& key, const std::string& value) {
  api::v1::Pod copy = p->pod();
  (*copy.mutable_metadata()->mutable_annotations())[key] = value;
  return *PodInfo::Create(copy);
}
inline PodInfoPtr WithLabel(const PodInfoPtr& p, const std::string& key, const std::string& value) {
  api::v1::Pod copy = p->pod();
  (*copy.mutable_metadata()->mutable_labels())[key] = value;
  return *PodInfo::Create(copy);
}

// Upstream's newQueuedPodInfoForLookup: a fresh record naming the rejectors.
inline QueuedPodInfo Lookup(PodInfoPtr pod, std::vector<std::string> unschedulable = {},
                     std::vector<std::string> pending = {}) {
  QueuedPodInfo info;
  info.pod = std::move(pod);
  for (const auto& p : unschedulable) info.unschedulable_plugins.insert(S(p));
  for (const auto& p : pending) info.pending_plugins.insert(S(p));
  return info;
}

inline QueuedPodInfo PopExpect(SchedulingQueue& q, const PodInfoPtr& want) {
  std::optional<QueuedPodInfo> p = q.Pop();
  REQUIRE(p.has_value());
  CHECK(p->pod->key() == want->key());
  return *std::move(p);
}

inline std::vector<std::string> Names(std::vector<PodInfoPtr> pods, bool sorted = true) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.emplace_back(p->name().str());
  if (sorted) std::sort(out.begin(), out.end());
  return out;
}
using Strings = std::vector<std::string>;

inline std::vector<std::string> Nominated(const SchedulingQueue& q, const std::string& node) {
  return Names(q.NominatedPodsForNode(S(node)), /*sorted=*/false);
}

}  // namespace schedkit::scheduler::queue_test

#endif  // SCHEDKIT_TESTS_SCHEDULER_QUEUE_TEST_WORLD_H_
