// SchedulingQueue: upstream v1.35's scheduling_queue_test.go, backoff_queue_test.go,
// active_queue_test.go and nominator behaviour, ported as facts. Each TEST_CASE
// names the upstream test it ports.
//
// Upstream tests often poke pods straight into a sub-queue; here every pod
// gets there through the public API (Add, Pop, AddUnschedulableIfNotPresent,
// events, Activate), which is how the scheduler drives the queue. Upstream's
// storage events (PersistentVolume, PVC, CSINode) do not exist in schedkit;
// the ported cases use PodDisruptionBudget and Namespace events in their place.
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
#include "schedkit/api/str_cat.h"
#include "schedkit/framework/framework.h"
#include "schedkit/testing/builders.h"
#include "scheduler/queue_pod_update.h"

namespace schedkit::scheduler {
namespace {

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

Symbol S(std::string_view s) { return Symbol::Intern(s); }

// ------------------------------------------------------------------ events

const ClusterEvent kNodeAdd{EventResource::kNode, framework::kActionAdd, "NodeAdd"};
// Stand-ins for upstream's storage events.
const ClusterEvent kPvAdd{EventResource::kPodDisruptionBudget, framework::kActionAdd,
                          "PodDisruptionBudgetAdd"};
const ClusterEvent kPvUpdate{EventResource::kPodDisruptionBudget, framework::kActionUpdate,
                             "PodDisruptionBudgetUpdate"};
const ClusterEvent kPvcAdd{EventResource::kNamespace, framework::kActionAdd, "NamespaceAdd"};
const ClusterEvent kCsiNodeUpdate{EventResource::kNamespace, framework::kActionUpdate, "NamespaceUpdate"};
const ClusterEvent kAssignedPodAdd{EventResource::kAssignedPod, framework::kActionAdd, "AssignedPodAdd"};
const ClusterEvent kUnscheduledPodUpdate{EventResource::kUnscheduledPod, framework::kActionUpdate,
                                         "UnscheduledPodUpdate"};
const ClusterEvent kUnschedulableTimeout{EventResource::kWildcard, framework::kActionAll,
                                         "UnschedulableTimeout"};
const ClusterEvent kForceActivate{EventResource::kWildcard, framework::kActionAll, "ForceActivate"};
const ClusterEvent kWildcard{EventResource::kWildcard, framework::kActionAll, "*"};

QueueingHintFn Returns(QueueingHint h, int* calls = nullptr) {
  return [h, calls](const PodInfo&, const EventObjects&) -> absl::StatusOr<QueueingHint> {
    if (calls != nullptr) ++*calls;
    return h;
  };
}
QueueingHintFn ReturnsError(int* calls = nullptr) {
  return [calls](const PodInfo&, const EventObjects&) -> absl::StatusOr<QueueingHint> {
    if (calls != nullptr) ++*calls;
    return absl::InternalError("unexpected error");
  };
}
const QueueingHintFn kQueue = Returns(QueueingHint::kQueue);
const QueueingHintFn kSkip = Returns(QueueingHint::kSkip);

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
std::function<Status(const PodInfo&)> AllowLabels(std::vector<std::string> allowed) {
  return [allowed](const PodInfo& pod) {
    for (const std::string& a : allowed) {
      if (pod.pod().metadata().labels().contains(a)) return Status();
    }
    return Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"pod name not in allowlists"});
  };
}

// Upstream's SchedulingGates plugin, reduced to what the queue sees.
PluginSpec SchedulingGatesSpec() {
  PluginSpec spec;
  spec.name = "SchedulingGates";
  spec.pre_enqueue = [](const PodInfo& pod) {
    if (pod.scheduling_gates().empty()) return Status();
    return Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"waiting for scheduling gates"});
  };
  spec.events = {{ClusterEvent{EventResource::kPod, framework::kActionUpdatePodSchedulingGatesEliminated,
                               "PodUpdatePodSchedulingGatesEliminated"},
                  [](const PodInfo& pod, const EventObjects& e) -> absl::StatusOr<QueueingHint> {
                    if (e.new_pod == nullptr || e.new_pod->metadata().uid() != pod.uid())
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

PodInfoPtr Pod(const std::string& name, const std::string& ns, const std::string& uid, int32_t priority,
               const std::string& nominated = "") {
  auto b = MakePod().Name(name).Namespace(ns).UID(uid).Priority(priority);
  if (!nominated.empty()) b.NominatedNodeName(nominated);
  return b.Info();
}

// Upstream's fixtures.
constexpr int32_t kLowPriority = 0, kMidPriority = 100, kHighPriority = 1000;
constexpr int32_t kMediumPriority = (kLowPriority + kHighPriority) / 2;
PodInfoPtr HighPriorityPod() { return Pod("hpp", "ns1", "hppns1", kHighPriority); }
PodInfoPtr HighPriNominatedPod() { return Pod("hpp", "ns1", "hppns1", kHighPriority, "node1"); }
PodInfoPtr MedPriorityPod() {
  return MakePod()
      .Name("mpp")
      .Namespace("ns2")
      .UID("mppns2")
      .Annotation("annot2", "val2")
      .Priority(kMediumPriority)
      .NominatedNodeName("node1")
      .Info();
}
PodInfoPtr UnschedulablePod() {
  return MakePod()
      .Name("up")
      .Namespace("ns1")
      .UID("upns1")
      .Annotation("annot2", "val2")
      .Priority(kLowPriority)
      .NominatedNodeName("node1")
      .Info();
}

PodInfoPtr WithAnnotation(const PodInfoPtr& p, const std::string& key, const std::string& value) {
  api::v1::Pod copy = p->pod();
  (*copy.mutable_metadata()->mutable_annotations())[key] = value;
  return *PodInfo::Create(copy);
}
PodInfoPtr WithLabel(const PodInfoPtr& p, const std::string& key, const std::string& value) {
  api::v1::Pod copy = p->pod();
  (*copy.mutable_metadata()->mutable_labels())[key] = value;
  return *PodInfo::Create(copy);
}

// Upstream's newQueuedPodInfoForLookup: a fresh record naming the rejectors.
QueuedPodInfo Lookup(PodInfoPtr pod, std::vector<std::string> unschedulable = {},
                     std::vector<std::string> pending = {}) {
  QueuedPodInfo info;
  info.pod = std::move(pod);
  for (const auto& p : unschedulable) info.unschedulable_plugins.insert(S(p));
  for (const auto& p : pending) info.pending_plugins.insert(S(p));
  return info;
}

QueuedPodInfo PopExpect(SchedulingQueue& q, const PodInfoPtr& want) {
  std::optional<QueuedPodInfo> p = q.Pop();
  REQUIRE(p.has_value());
  CHECK(p->pod->key() == want->key());
  return *std::move(p);
}

std::vector<std::string> Names(std::vector<PodInfoPtr> pods, bool sorted = true) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.emplace_back(p->name().str());
  if (sorted) std::sort(out.begin(), out.end());
  return out;
}
using Strings = std::vector<std::string>;

std::vector<std::string> Nominated(const SchedulingQueue& q, const std::string& node) {
  return Names(q.NominatedPodsForNode(S(node)), /*sorted=*/false);
}

// ==================================================================== tests

TEST_CASE("TestPriorityQueue_Add: pops by priority; pods with a nominatedNodeName are nominated", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(MedPriorityPod());
  q.Add(UnschedulablePod());
  q.Add(HighPriorityPod());
  CHECK(Nominated(q, "node1") == Strings{"mpp", "up"});
  PopExpect(q, HighPriorityPod());
  PopExpect(q, MedPriorityPod());
  PopExpect(q, UnschedulablePod());
  // Popping does not drop nominations.
  CHECK(Nominated(q, "node1").size() == 2);
}

TEST_CASE("TestPriorityQueue_AddWithReversePriorityLessFunc", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(MedPriorityPod());
  q.Add(HighPriorityPod());
  PopExpect(q, HighPriorityPod());
  PopExpect(q, MedPriorityPod());
}

TEST_CASE("Test_InFlightPods", "[queue]") {
  const PodInfoPtr pod1 = MakePod().Name("targetpod").UID("pod1").Info();
  const PodInfoPtr pod2 = MakePod().Name("targetpod2").UID("pod2").Info();
  const PodInfoPtr pod3 = MakePod().Name("targetpod3").UID("pod3").Info();
  World w;
  auto build = [&](std::vector<PodInfoPtr> initial) -> SchedulingQueue& {
    SchedulingQueue& q = w.Build();
    for (const auto& p : initial) {
      q.Add(p);
      w.clock.Advance(absl::Seconds(1));
    }
    return q;
  };
  auto fire = [&](const ClusterEvent& e) { w.queue->OnClusterEvent(e, {}); };

  SECTION("Pod and interested events are registered in inFlightPods/inFlightEvents") {
    w.Plugin("fooPlugin1", kPvAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    fire(kPvcAdd);  // nothing in flight: not recorded
    PopExpect(q, pod1);
    fire(kPvAdd);
    fire(kPvUpdate);  // no plugin is interested
    CHECK(Names(q.PodsIn(SubQueue::kInFlight)) == Strings{"targetpod"});
    CHECK(q.counts().in_flight_events == 1);
  }
  SECTION("Pod, registered in inFlightPods, is enqueued back to backoffQ") {
    w.Plugin(PluginSpec{"fooPlugin1", {{kPvAdd, kQueue}, {kNodeAdd, kQueue}, {kPvcAdd, kQueue}}, {}});
    SchedulingQueue& q = build({pod1, pod2});
    fire(kPvcAdd);
    PopExpect(q, pod1);
    fire(kPvAdd);
    PopExpect(q, pod2);
    fire(kNodeAdd);
    // No rejector: an error, retried after backoff.
    q.AddUnschedulableIfNotPresent(Lookup(pod1));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod"});
    CHECK(Names(q.PodsIn(SubQueue::kInFlight)) == Strings{"targetpod2"});
    // pvAdd predates pod2 and was pruned when pod1 finished.
    CHECK(q.counts().in_flight_events == 1);
  }
  SECTION("All Pods registered in inFlightPods are enqueued back to activeQ") {
    w.Plugin(PluginSpec{"fooPlugin1",
                        {{kPvAdd, kQueue}, {kNodeAdd, kQueue}, {kPvcAdd, kQueue}, {kCsiNodeUpdate, kQueue}},
                        {}});
    SchedulingQueue& q = build({pod1, pod2});
    fire(kPvcAdd);
    PopExpect(q, pod1);
    fire(kPvAdd);
    PopExpect(q, pod2);
    fire(kNodeAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1));
    fire(kCsiNodeUpdate);
    q.AddUnschedulableIfNotPresent(Lookup(pod2));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod", "targetpod2"});
    CHECK(q.PodsIn(SubQueue::kInFlight).empty());
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("One intermediate Pod registered in inFlightPods is enqueued back to activeQ") {
    w.Plugin(PluginSpec{"fooPlugin1", {{kPvAdd, kQueue}, {kNodeAdd, kQueue}, {kAssignedPodAdd, kQueue}}, {}});
    SchedulingQueue& q = build({pod1, pod2, pod3});
    fire(kPvcAdd);
    PopExpect(q, pod1);
    fire(kPvAdd);
    PopExpect(q, pod2);
    fire(kNodeAdd);
    PopExpect(q, pod3);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod2));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod2"});
    CHECK(Names(q.PodsIn(SubQueue::kInFlight), false) == Strings{"targetpod", "targetpod3"});
    // [pod1, pvAdd, nodeAdd, pod3, assignedPodAdd]
    CHECK(q.counts().in_flight_events == 3);
  }
  SECTION("events before popping Pod are ignored when Pod is enqueued back to queue") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, kSkip);
    SchedulingQueue& q = build({pod1});
    fire(kUnschedulableTimeout);
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin1"}));
    CHECK(q.Locate("pod1") == SubQueue::kUnschedulable);
    CHECK(q.counts().in_flight == 0);
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("pod is enqueued to backoff if no failed plugin") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod"});
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("pod is enqueued to unschedulable pod pool if no events that can make the pod schedulable") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kNodeAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin1"}));
    CHECK(q.Locate("pod1") == SubQueue::kUnschedulable);
  }
  SECTION(
      "pod is enqueued to unschedulable pod pool because the failed plugin has a hint fn but it returns "
      "Skip") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, kSkip);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin1"}));
    CHECK(q.Locate("pod1") == SubQueue::kUnschedulable);
  }
  SECTION("pod is enqueued to activeQ because the Pending plugins has a hint fn and it returns Queue") {
    w.Plugin("fooPlugin3", kAssignedPodAdd, kSkip);
    w.Plugin("fooPlugin2", kAssignedPodAdd, kQueue);
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin2", "fooPlugin3"}, {"fooPlugin1"}));
    CHECK(Names(q.PodsIn(SubQueue::kActive)) == Strings{"targetpod"});
  }
  SECTION("pod is enqueued to backoffQ because the failed plugin has a hint fn and it returns Queue") {
    w.Plugin("fooPlugin2", kAssignedPodAdd, kSkip);
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin1", "fooPlugin2"}));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod"});
  }
  SECTION(
      "pod is enqueued to activeQ because the pending plugin returns Queue for an event received while "
      "another "
      "pod was in flight") {
    w.Plugin("fooPlugin3", kAssignedPodAdd, kSkip);
    w.Plugin("fooPlugin2", kAssignedPodAdd, kQueue);
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1, pod2});
    QueuedPodInfo popped1 = PopExpect(q, pod1);
    fire(kNodeAdd);
    QueuedPodInfo popped2 = PopExpect(q, pod2);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(popped1);
    popped2.unschedulable_plugins = {S("fooPlugin2"), S("fooPlugin3")};
    popped2.pending_plugins = {S("fooPlugin1")};
    q.AddUnschedulableIfNotPresent(popped2);
    CHECK(Names(q.PodsIn(SubQueue::kActive)) == Strings{"targetpod2"});
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod"});
    CHECK(q.counts().in_flight == 0);
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("popped pod must have empty UnschedulablePlugins and PendingPlugins") {
    w.Plugin("fooPlugin1", kPvAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    QueuedPodInfo popped = PopExpect(q, pod1);
    popped.pending_plugins = {S("fooPlugin1")};
    popped.unschedulable_plugins = {S("fooPlugin2")};
    q.AddUnschedulableIfNotPresent(popped);
    CHECK(q.Locate("pod1") == SubQueue::kUnschedulable);
    fire(kPvAdd);  // Pending plugin says Queue: straight to activeQ
    CHECK(q.Locate("pod1") == SubQueue::kActive);
    popped = PopExpect(q, pod1);
    CHECK(popped.unschedulable_plugins.empty());
    CHECK(popped.pending_plugins.empty());
    q.AddUnschedulableIfNotPresent(popped);
    CHECK(q.Locate("pod1") == SubQueue::kBackoff);
  }
  SECTION("Pop is made twice for the same Pod, but the cleanup still happens correctly") {
    w.Plugin(PluginSpec{"fooPlugin1",
                        {{kPvAdd, kQueue}, {kNodeAdd, kQueue}, {kPvcAdd, kQueue}, {kCsiNodeUpdate, kQueue}},
                        {}});
    SchedulingQueue& q = build({pod1, pod2});
    fire(kPvcAdd);
    PopExpect(q, pod1);
    fire(kPvAdd);
    PopExpect(q, pod2);
    // The bug being guarded against: pod1 enters activeQ while in flight.
    q.Add(pod1);
    q.Add(pod3);
    // pod1 is discarded by Pop, pod3 comes out.
    PopExpect(q, pod3);
    CHECK(q.PodsIn(SubQueue::kActive).empty());
    fire(kNodeAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1));
    fire(kCsiNodeUpdate);
    q.AddUnschedulableIfNotPresent(Lookup(pod2));
    q.AddUnschedulableIfNotPresent(Lookup(pod3));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod", "targetpod2", "targetpod3"});
    CHECK(q.counts().in_flight == 0);
    CHECK(q.counts().in_flight_events == 0);
  }
}

// A queue whose plugin "foo" answers AssignedPodAdd with `hint`, holding
// `pod` popped (in flight).
SchedulingQueue& BuildWithPoppedPod(World& w, const PodInfoPtr& pod, QueueingHintFn hint) {
  w.Plugin(PluginSpec{"foo", {{kAssignedPodAdd, std::move(hint)}}, {}});
  SchedulingQueue& q = w.Build();
  q.Add(pod);
  PopExpect(q, pod);
  return q;
}

TEST_CASE("In-flight events keep shared objects and copy borrowed ones", "[queue]") {
  // Not upstream (Go's garbage collector keeps the objects alive): an event
  // recorded for an in-flight pod is replayed to the hints later, so the
  // queue keeps shared owners as they are and copies objects it only borrows.
  const PodInfoPtr pod = MakePod().Name("waiting").UID("w").Info();
  const PodInfoPtr assigned = MakePod().Name("assigned").UID("a").Node("n1").Info();
  for (bool shared : {true, false}) {
    const api::v1::Pod* seen = nullptr;
    std::string seen_node;
    QueueingHintFn hint = [&](const PodInfo&, const EventObjects& e) -> absl::StatusOr<QueueingHint> {
      seen = e.new_pod;
      if (e.new_pod != nullptr) seen_node = e.new_pod->spec().node_name();
      return QueueingHint::kQueue;
    };
    World w;
    SchedulingQueue& q = BuildWithPoppedPod(w, pod, hint);
    if (shared) {
      q.OnClusterEventShared(kAssignedPodAdd, SharedEventObjects{.new_pod = assigned->pod_ptr()});
    } else {
      api::v1::Pod borrowed = assigned->pod();
      q.OnClusterEvent(kAssignedPodAdd, EventObjects{.new_pod = &borrowed});
      borrowed.mutable_spec()->set_node_name("changed after the call");
    }
    CHECK(q.counts().in_flight_events == 1);
    q.AddUnschedulableIfNotPresent(Lookup(pod, {"foo"}));
    CHECK(seen_node == "n1");
    if (shared) CHECK(seen == &assigned->pod());
    CHECK(q.Locate("w") != SubQueue::kUnschedulable);
  }
}

TEST_CASE("An event given as a PodInfo shows its hints the node-named object", "[queue]") {
  // Not upstream: the scheduler passes an assumed pod as a PodInfo, whose
  // node-named API object is made only once a hint needs it.
  const PodInfoPtr pod = MakePod().Name("waiting").UID("w").Info();
  const PodInfoPtr assigned = MakePod().Name("assigned").UID("a").Info()->WithNodeName(S("n1"));
  for (bool in_flight : {true, false}) {
    std::string seen_node = "not called";
    QueueingHintFn hint = [&](const PodInfo&, const EventObjects& e) -> absl::StatusOr<QueueingHint> {
      seen_node = e.new_pod != nullptr ? e.new_pod->spec().node_name() : "no pod";
      return QueueingHint::kQueue;
    };
    World w;
    SchedulingQueue& q = BuildWithPoppedPod(w, pod, hint);
    if (in_flight) {
      q.OnClusterEventShared(kAssignedPodAdd, SharedEventObjects{.new_pod_info = assigned});
      CHECK(q.counts().in_flight_events == 1);
      q.AddUnschedulableIfNotPresent(Lookup(pod, {"foo"}));
    } else {
      q.AddUnschedulableIfNotPresent(Lookup(pod, {"foo"}));
      REQUIRE(q.Locate("w") == SubQueue::kUnschedulable);
      q.OnClusterEventShared(kAssignedPodAdd, SharedEventObjects{.new_pod_info = assigned});
    }
    CHECK(seen_node == "n1");
    CHECK(q.Locate("w") != SubQueue::kUnschedulable);
  }
}

TEST_CASE("TestPop: a popped pod has no pending plugins", "[queue]") {
  const PodInfoPtr pod = MakePod().Name("targetpod").UID("pod1").Info();
  World w;
  w.Plugin("fooPlugin1", kPvAdd, kQueue);
  SchedulingQueue& q = w.Build();
  q.Add(pod);
  QueuedPodInfo popped = PopExpect(q, pod);
  popped.pending_plugins = {S("fooPlugin1")};
  q.AddUnschedulableIfNotPresent(popped);
  q.OnClusterEvent(kPvAdd, {});
  popped = PopExpect(q, pod);
  CHECK(popped.pending_plugins.empty());
}

TEST_CASE("TestPriorityQueue_AddUnschedulableIfNotPresent", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(UnschedulablePod());
  PopExpect(q, UnschedulablePod());
  q.Add(HighPriNominatedPod());
  q.AddUnschedulableIfNotPresent(Lookup(UnschedulablePod(), {"plugin"}));
  PopExpect(q, HighPriNominatedPod());
  CHECK(Nominated(q, "node1") == Strings{"up", "hpp"});
  // No event arrived while it was being scheduled.
  CHECK(q.Locate("upns1") == SubQueue::kUnschedulable);
  CHECK(q.GetPod("upns1")->pod == q.PodsIn(SubQueue::kUnschedulable)[0]);
}

TEST_CASE("TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  std::vector<PodInfoPtr> pods;
  for (int i = 0; i < 10; ++i) {
    pods.push_back(Pod(StrCat("pod", i), StrCat("ns", i), StrCat("upns", i), i));
    q.Add(pods.back());
  }
  for (int i = 9; i > 0; --i) PopExpect(q, pods[i]);
  // A move request while they are being scheduled.
  q.OnClusterEvent(kUnschedulableTimeout, {});
  PopExpect(q, pods[0]);
  for (int i = 1; i < 10; ++i) q.AddUnschedulableIfNotPresent(Lookup(pods[i], {"plugin"}));
  // The request is replayed: each goes to backoffQ instead of the pool.
  for (int i = 1; i < 10; ++i) CHECK(q.Locate(pods[i]->uid()) == SubQueue::kBackoff);
}

TEST_CASE("TestPriorityQueue_Pop: an idle queue pops from backoffQ but not from the error backoffQ",
          "[queue]") {
  const PodInfoPtr hpp2 = Pod("hpp2", "ns1", "hpp2ns1", kHighPriority);
  World w;
  SchedulingQueue& q = w.Build();
  for (const auto& p : {HighPriorityPod(), hpp2, UnschedulablePod()}) {
    q.Add(p);
    PopExpect(q, p);
  }
  // An Activate for an in-flight pod sends it to backoffQ when it comes back.
  q.Activate({"hppns1"});
  q.AddUnschedulableIfNotPresent(Lookup(HighPriorityPod(), {"plugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(hpp2));                            // error backoffQ
  q.AddUnschedulableIfNotPresent(Lookup(UnschedulablePod(), {"plugin"}));  // pool
  q.Add(MedPriorityPod());
  CHECK(q.counts().backoff == 2);
  std::vector<std::string> got;
  while (auto p = q.Pop()) got.emplace_back(p->pod->name().str());
  CHECK(got == Strings{"mpp", "hpp"});
}

TEST_CASE("TestPriorityQueue_Update", "[queue]") {
  World w;
  w.Plugin("queuePlugin", kUnscheduledPodUpdate, kQueue);
  w.Plugin("skipPlugin", kUnscheduledPodUpdate, kSkip);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr med = MedPriorityPod();
  auto into_pool = [&](const PodInfoPtr& p, const std::string& plugin) {
    q.Add(p);
    PopExpect(q, p);
    q.AddUnschedulableIfNotPresent(Lookup(p, {plugin}));
    REQUIRE(q.Locate(p->uid()) == SubQueue::kUnschedulable);
  };

  SECTION("Update pod that didn't exist in the queue") {
    PodInfoPtr updated = WithAnnotation(med, "foo", "test");
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kActive);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION("Update highPriorityPodInfo and add a nominatedNodeName to it") {
    q.Update(HighPriorityPod(), HighPriNominatedPod());
    CHECK(q.Locate("hppns1") == SubQueue::kActive);
    CHECK(Nominated(q, "node1") == Strings{"hpp"});
  }
  SECTION("When updating a pod that is already in activeQ, the pod should remain in activeQ after Update()") {
    q.Add(HighPriorityPod());
    PodInfoPtr updated = HighPriorityPod();
    q.Update(HighPriorityPod(), updated);
    CHECK(q.Locate("hppns1") == SubQueue::kActive);
    CHECK(q.GetPod("hppns1")->pod == updated);
  }
  SECTION(
      "When updating a pod that is in backoff queue and is still backing off, it will be updated in backoff "
      "queue") {
    q.Add(med);
    PopExpect(q, med);
    q.AddUnschedulableIfNotPresent(Lookup(med));
    REQUIRE(q.Locate(med->uid()) == SubQueue::kBackoff);
    PodInfoPtr updated = MedPriorityPod();
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kBackoff);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION(
      "when updating a pod which is in unschedulable queue and is backing off, it will be moved to backoff "
      "queue") {
    into_pool(med, "queuePlugin");
    PodInfoPtr updated = WithAnnotation(med, "foo", "test");
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kBackoff);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION(
      "when updating a pod which is in unschedulable queue and is not backing off, it will be moved to "
      "active "
      "queue") {
    into_pool(med, "queuePlugin");
    PodInfoPtr updated = WithAnnotation(med, "foo", "test1");
    w.clock.Advance(absl::Seconds(10));
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kActive);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION(
      "when updating a pod which is in unschedulable pods but the plugin returns skip, it will remain in "
      "unschedulablePods") {
    into_pool(med, "skipPlugin");
    PodInfoPtr updated = WithAnnotation(med, "foo", "test1");
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kUnschedulable);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION("when updating a pod which is in flightPods, the pod will not be added to any queue") {
    q.Add(med);
    PopExpect(q, med);
    q.Update(med, WithAnnotation(med, "foo", "bar"));
    CHECK(q.Locate(med->uid()) == SubQueue::kInFlight);
    CHECK(q.counts().active + q.counts().backoff + q.counts().unschedulable == 0);
  }
}

TEST_CASE("TestPriorityQueue_UpdateWhenInflight", "[queue]") {
  World w;
  w.Plugin("fakePlugin", kUnscheduledPodUpdate, kQueue);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Info();
  q.Add(pod);
  PopExpect(q, pod);
  const PodInfoPtr updated = MakePod()
                                 .Name("test-pod")
                                 .Namespace("test-ns")
                                 .UID("test-uid")
                                 .Toleration("foo", "Exists", "", "NoSchedule")
                                 .Info();
  q.Update(pod, updated);
  // The update it got while being scheduled may fix what fakePlugin rejected.
  q.AddUnschedulableIfNotPresent(Lookup(updated, {"fakePlugin"}));
  CHECK(q.Locate("test-uid") == SubQueue::kBackoff);
  CHECK(q.GetPod("test-uid")->pod == updated);
}

TEST_CASE("TestPriorityQueue_Delete", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Update(HighPriorityPod(), HighPriNominatedPod());
  q.Add(UnschedulablePod());
  q.Delete(*HighPriNominatedPod());
  CHECK(q.Locate("upns1") == SubQueue::kActive);
  CHECK(!q.Locate("hppns1").has_value());
  CHECK(Nominated(q, "node1") == Strings{"up"});
  q.Delete(*UnschedulablePod());
  CHECK(Nominated(q, "node1").empty());
  CHECK(q.counts().active == 0);
}

TEST_CASE("TestPriorityQueue_Activate", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriNominatedPod();

  SECTION("pod already in activeQ") {
    q.Add(pod);
    q.Activate({pod->uid()});
    CHECK(q.counts().active == 1);
  }
  SECTION("pod not in unschedulablePods/backoffQ") {
    q.Activate({pod->uid()});
    CHECK(q.counts().active == 0);
  }
  SECTION("[QHint] pod not in unschedulablePods/backoffQ but in-flight") {
    q.Add(pod);
    PopExpect(q, pod);
    q.Activate({pod->uid()});
    CHECK(q.counts().active == 0);
    // A ForceActivate aimed at it is kept for its return.
    CHECK(q.counts().in_flight_events == 1);
    q.AddUnschedulableIfNotPresent(Lookup(pod, {"plugin"}));
    CHECK(q.Locate(pod->uid()) == SubQueue::kBackoff);
  }
  SECTION("[QHint] pod not in unschedulablePods/backoffQ and not in-flight") {
    q.Add(MedPriorityPod());
    PopExpect(q, MedPriorityPod());
    q.Activate({pod->uid()});
    CHECK(q.counts().active == 0);
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("pod in unschedulablePods") {
    q.Add(pod);
    PopExpect(q, pod);
    q.AddUnschedulableIfNotPresent(Lookup(pod, {"plugin"}));
    REQUIRE(q.Locate(pod->uid()) == SubQueue::kUnschedulable);
    q.Activate({pod->uid()});
    CHECK(q.Locate(pod->uid()) == SubQueue::kActive);
  }
  SECTION("pod in backoffQ") {
    q.Add(pod);
    PopExpect(q, pod);
    q.AddUnschedulableIfNotPresent(Lookup(pod));
    REQUIRE(q.Locate(pod->uid()) == SubQueue::kBackoff);
    q.Activate({pod->uid()});
    CHECK(q.Locate(pod->uid()) == SubQueue::kActive);
  }
}

TEST_CASE("TestPriorityQueue_moveToActiveQ: PreEnqueue gates pods on the way to activeQ", "[queue]") {
  World w;
  const PodInfoPtr p = MakePod().Name("p").Label("p", "").Info();
  const PodInfoPtr bar = MakePod().Name("bar").Label("bar", "").Info();
  auto check_update_keeps = [&](SchedulingQueue& q, const PodInfoPtr& pod, int want_gated) {
    q.Update(pod, WithAnnotation(pod, "foo", ""));
    CHECK(q.counts().gated == want_gated);
  };

  SECTION("no plugins registered") {
    SchedulingQueue& q = w.Build();
    q.Add(p);
    CHECK(q.counts().active == 1);
    CHECK(q.counts().gated == 0);
  }
  SECTION("preEnqueue plugin registered, pod name not in allowlists") {
    w.Plugin(PluginSpec{"preEnqueuePlugin1", {{kWildcard, {}}}, AllowLabels({})});
    w.Plugin(PluginSpec{"preEnqueuePlugin2", {{kWildcard, {}}}, AllowLabels({})});
    SchedulingQueue& q = w.Build();
    q.Add(p);
    CHECK(q.counts().gated == 1);
    CHECK(q.GetPod(p->uid())->gating_plugin == S("preEnqueuePlugin1"));
    check_update_keeps(q, p, 1);
  }
  SECTION("preEnqueue plugin registered, pod failed one preEnqueue plugin") {
    w.Plugin(PluginSpec{"preEnqueuePlugin1", {{kWildcard, {}}}, AllowLabels({"foo", "bar"})});
    w.Plugin(PluginSpec{"preEnqueuePlugin2", {{kWildcard, {}}}, AllowLabels({"foo"})});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    CHECK(q.counts().gated == 1);
    std::optional<QueuedPodInfo> info = q.GetPod(bar->uid());
    CHECK(info->gated);
    CHECK(info->gating_plugin == S("preEnqueuePlugin2"));
    CHECK(info->unschedulable_plugins.contains(S("preEnqueuePlugin2")));
    check_update_keeps(q, bar, 1);
  }
  SECTION("preEnqueue plugin registered, pod passed all preEnqueue plugins") {
    w.Plugin(PluginSpec{"preEnqueuePlugin1", {{kWildcard, {}}}, AllowLabels({"foo", "bar"})});
    w.Plugin(PluginSpec{"preEnqueuePlugin2", {{kWildcard, {}}}, AllowLabels({"bar"})});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    CHECK(q.counts().active == 1);
    check_update_keeps(q, bar, 0);
  }

  // A plugin whose verdict the test flips, to tell whether PreEnqueue ran.
  auto reject = std::make_shared<std::atomic<bool>>(false);
  auto toggled = [reject](const PodInfo&) {
    return reject->load() ? Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"rejected"}) : Status();
  };
  SECTION("pod moved from backoffQ after completing backoff: PreEnqueue is not executed again") {
    w.Plugin(PluginSpec{"toggle", {{kWildcard, {}}}, toggled});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    PopExpect(q, bar);
    q.AddUnschedulableIfNotPresent(Lookup(bar));  // error: backoffQ, PreEnqueue passed
    REQUIRE(q.Locate(bar->uid()) == SubQueue::kBackoff);
    reject->store(true);
    w.clock.Advance(absl::Seconds(2));
    q.FlushBackoffQCompleted();
    CHECK(q.Locate(bar->uid()) == SubQueue::kActive);
  }
  SECTION("pod activated from backoffQ: PreEnqueue is not executed again") {
    w.Plugin(PluginSpec{"toggle", {{kWildcard, {}}}, toggled});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    PopExpect(q, bar);
    q.AddUnschedulableIfNotPresent(Lookup(bar));
    reject->store(true);
    q.Activate({bar->uid()});
    CHECK(q.Locate(bar->uid()) == SubQueue::kActive);
  }
  SECTION("pod activated from unschedulablePods: PreEnqueue runs and gates it") {
    w.Plugin(PluginSpec{"toggle", {{kWildcard, {}}}, toggled});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    PopExpect(q, bar);
    q.AddUnschedulableIfNotPresent(Lookup(bar, {"toggle"}));
    REQUIRE(q.Locate(bar->uid()) == SubQueue::kUnschedulable);
    reject->store(true);
    q.Activate({bar->uid()});
    CHECK(q.Locate(bar->uid()) == SubQueue::kGated);
  }
}

TEST_CASE("TestPriorityQueue_moveToBackoffQ: PreEnqueue runs on the way into backoffQ", "[queue]") {
  auto reject = std::make_shared<std::atomic<bool>>(false);
  World w;
  w.Plugin(PluginSpec{"toggle", {{kNodeAdd, kQueue}}, [reject](const PodInfo&) {
                        return reject->load()
                                   ? Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"no"})
                                   : Status();
                      }});
  SchedulingQueue& q = w.Build();
  const PodInfoPtr bar = MakePod().Name("bar").Label("bar", "").Info();
  q.Add(bar);
  PopExpect(q, bar);
  q.OnClusterEvent(kNodeAdd, {});

  SECTION("pod passed all preEnqueue plugins") {
    q.AddUnschedulableIfNotPresent(Lookup(bar, {"toggle"}));
    CHECK(q.Locate(bar->uid()) == SubQueue::kBackoff);
  }
  SECTION("pod failed one preEnqueue plugin") {
    reject->store(true);
    q.AddUnschedulableIfNotPresent(Lookup(bar, {"toggle"}));
    CHECK(q.Locate(bar->uid()) == SubQueue::kGated);
    CHECK(q.counts().backoff == 0);
  }
}

TEST_CASE("TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint", "[queue]") {
  const PodInfoPtr p = MakePod().Name("pod1").Namespace("ns1").UID("1").Label("foo", "bar").Info();
  const PodInfoPtr gated_pod = MakePod().Name("pod1").Namespace("ns1").UID("1").Info();
  int calls = 0;
  QueueingHintFn must_not_run = ReturnsError(&calls);

  struct Case {
    QueuedPodInfo info;
    QueueingHintFn hint;
    absl::Duration wait = absl::ZeroDuration();
    ClusterEvent event = kNodeAdd;
    SubQueue want;
    bool hint_may_run = true;
  };
  auto gated_by = [](QueuedPodInfo info, const std::string& plugin) {
    info.gating_plugin = S(plugin);
    info.gated = true;
    info.unschedulable_plugins = {S(plugin)};
    return info;
  };
  auto run = [&](Case c) {
    World w;
    w.Plugin(PluginSpec{"foo", {{kNodeAdd, c.hint}}, AllowLabels({"foo"})});
    PluginSpec gates = SchedulingGatesSpec();
    gates.events = {{kUnscheduledPodUpdate, kQueue}};
    w.Plugin(gates);
    SchedulingQueue& q = w.Build();
    q.Add(c.info.pod);
    if (q.counts().active > 0) {
      PopExpect(q, c.info.pod);
      q.AddUnschedulableIfNotPresent(c.info);
    }  // else gated by "foo" on the way in
    w.clock.Advance(c.wait);
    q.OnClusterEvent(c.event, {});
    CHECK(q.Locate("1") == c.want);
    if (!c.hint_may_run) CHECK(calls == 0);
  };

  SECTION("Queue queues pod to activeQ") {
    run({Lookup(p, {}, {"foo"}), kQueue, absl::ZeroDuration(), kNodeAdd, SubQueue::kActive});
  }
  SECTION("Queue queues pod to backoffQ if Pod is backing off") {
    run({Lookup(p, {"foo"}), kQueue, absl::ZeroDuration(), kNodeAdd, SubQueue::kBackoff});
  }
  SECTION("Queue queues pod to activeQ if Pod is not backing off") {
    // 1 s of backoff, plus the ordering window its expiry falls in.
    run({Lookup(p, {"foo"}), kQueue, absl::Seconds(2), kNodeAdd, SubQueue::kActive});
  }
  SECTION("Skip queues pod to unschedulablePods") {
    run({Lookup(p, {"foo"}), kSkip, absl::ZeroDuration(), kNodeAdd, SubQueue::kUnschedulable});
  }
  SECTION("Queue queues pod to backoffQ if Pod is not gated and the event is wildcard") {
    run({Lookup(p, {"foo"}), must_not_run, absl::ZeroDuration(), kUnschedulableTimeout, SubQueue::kBackoff,
         false});
  }
  SECTION("Queue queues pod to backoffQ when Pod is no longer gated and the event is wildcard") {
    run({gated_by(Lookup(p), "foo"), must_not_run, absl::ZeroDuration(), kUnschedulableTimeout,
         SubQueue::kBackoff, false});
  }
  SECTION("Queue queues pod to unschedulableQ when Pod is gated and the event is wildcard") {
    run({gated_by(Lookup(gated_pod), "foo"), must_not_run, absl::ZeroDuration(), kUnschedulableTimeout,
         SubQueue::kGated, false});
  }
  SECTION(
      "QueueHintFunction is not called when Pod is gated by the plugin that isn't interested in the event") {
    run({gated_by(Lookup(p), "SchedulingGates"), must_not_run, absl::ZeroDuration(), kNodeAdd,
         SubQueue::kGated, false});
  }
  SECTION("QueueHintFunction is called when Pod is gated by the plugin that is interested in the event") {
    run({gated_by(Lookup(p), "foo"), kQueue, absl::ZeroDuration(), kNodeAdd, SubQueue::kBackoff});
  }
}

TEST_CASE("TestPriorityQueue_MoveAllToActiveOrBackoffQueue", "[queue]") {
  World w;
  w.Plugin("fooPlugin", kNodeAdd, kQueue);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr up = UnschedulablePod(), hpp = HighPriorityPod(), med = MedPriorityPod();
  const PodInfoPtr hpp1 = Pod("hpp1", "ns1", "hpp1", kHighPriority);
  const PodInfoPtr hpp2 = Pod("hpp2", "ns1", "hpp2", kHighPriority);
  auto in_flight = [&] { return Names(q.PodsIn(SubQueue::kInFlight)); };

  q.Add(up);
  PopExpect(q, up);
  q.Add(hpp);
  PopExpect(q, hpp);
  CHECK(in_flight() == Strings{"hpp", "up"});
  q.AddUnschedulableIfNotPresent(Lookup(up, {"fooPlugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(hpp, {"fooPlugin"}));
  CHECK(in_flight().empty());
  // No rejector: backoffQ.
  q.Add(hpp1);
  PopExpect(q, hpp1);
  QueuedPodInfo hpp1_info = Lookup(hpp1);
  hpp1_info.unschedulable_count = 1;
  q.AddUnschedulableIfNotPresent(hpp1_info);
  // Rejected by a plugin no event registration names: the pool.
  q.Add(hpp2);
  PopExpect(q, hpp2);
  q.AddUnschedulableIfNotPresent(Lookup(hpp2, {"barPlugin"}));
  // NodeAdd moves up and hpp (fooPlugin says Queue) to backoffQ.
  q.OnClusterEvent(kNodeAdd, {});
  q.Add(med);
  CHECK(q.counts().active == 1);
  PopExpect(q, med);
  CHECK(in_flight() == Strings{"mpp"});
  CHECK(q.counts().backoff == 3);

  // Flushing backoffQ makes no pod in flight.
  w.clock.Advance(absl::Seconds(10));
  q.FlushBackoffQCompleted();
  CHECK(in_flight() == Strings{"mpp"});
  for (int i = 0; i < 3; ++i) REQUIRE(q.Pop().has_value());
  CHECK(in_flight() == Strings{"hpp", "hpp1", "mpp", "up"});
  q.AddUnschedulableIfNotPresent(Lookup(up, {"fooPlugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(hpp, {"fooPlugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(hpp1));
  CHECK(in_flight() == Strings{"mpp"});
  q.Add(med);
  for (const auto& pod : {up, hpp, hpp2}) CHECK(q.Locate(pod->uid()) == SubQueue::kUnschedulable);
  CHECK(q.Locate(hpp1->uid()) == SubQueue::kBackoff);
  CHECK(q.counts().active == 1);

  w.clock.Advance(absl::Seconds(10));
  q.FlushBackoffQCompleted();
  q.OnClusterEvent(kNodeAdd, {});
  CHECK(q.counts().active == 4);
  CHECK(q.counts().backoff == 0);
  CHECK(in_flight() == Strings{"mpp"});
  // hpp2 stays whatever its backoff.
  CHECK(q.counts().unschedulable == 1);
}

TEST_CASE("TestPriorityQueue_NominatedPodsForNode", "[queue][nominator]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(MedPriorityPod());
  q.Add(UnschedulablePod());
  q.Add(HighPriorityPod());
  PopExpect(q, HighPriorityPod());
  CHECK(Nominated(q, "node1") == Strings{"mpp", "up"});
  CHECK(Nominated(q, "node2").empty());
}

TEST_CASE("TestPriorityQueue_NominatedPodDeleted (no pod lister in schedkit)", "[queue][nominator]") {
  World w;
  SchedulingQueue& q = w.Build();
  SECTION("alive pod gets added into PodNominator") {
    q.AddNominatedPod(MedPriorityPod(), Symbol());
    CHECK(Nominated(q, "node1").size() == 1);
  }
  SECTION("pod without .status.nominatedNodeName specified shouldn't be added into PodNominator") {
    q.AddNominatedPod(HighPriorityPod(), Symbol());
    CHECK(q.NominatedPodsForNode(Symbol()).empty());
  }
}

TEST_CASE("TestPriorityQueue_PendingPods", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(UnschedulablePod());
  PopExpect(q, UnschedulablePod());
  q.Add(HighPriorityPod());
  PopExpect(q, HighPriorityPod());
  q.Add(MedPriorityPod());
  q.AddUnschedulableIfNotPresent(Lookup(UnschedulablePod(), {"plugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(HighPriorityPod(), {"plugin"}));
  const Strings want{"hpp", "mpp", "up"};
  CHECK(Names(q.PendingPods()) == want);
  SchedulingQueue::Counts c = q.counts();
  CHECK((c.active == 1 && c.backoff == 0 && c.unschedulable == 2));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  CHECK(Names(q.PendingPods()) == want);
  c = q.counts();
  CHECK((c.active == 1 && c.backoff == 2 && c.unschedulable == 0));
}

TEST_CASE("TestPriorityQueue_UpdateNominatedPodForNode", "[queue][nominator]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(MedPriorityPod());
  q.AddNominatedPod(UnschedulablePod(), S("node5"));
  q.AddNominatedPod(HighPriorityPod(), S("node2"));
  auto check = [&](const std::map<std::string, Strings>& want) {
    for (const auto& [node, pods] : want) CHECK(Nominated(q, node) == pods);
  };
  check({{"node1", {"mpp"}}, {"node2", {"hpp"}}, {"node5", {"up"}}});
  PopExpect(q, MedPriorityPod());
  check({{"node1", {"mpp"}}, {"node2", {"hpp"}}, {"node5", {"up"}}});
  q.AddNominatedPod(HighPriorityPod(), S("node4"));
  check({{"node1", {"mpp"}}, {"node2", {}}, {"node4", {"hpp"}}, {"node5", {"up"}}});
  // An already scheduled pod is not nominated.
  q.AddNominatedPod(MakePod().Name("sp").Namespace("ns1").UID("spns1").Node("foo").Info(), S("node1"));
  check({{"node1", {"mpp"}}, {"node4", {"hpp"}}, {"node5", {"up"}}});
  q.DeleteNominatedPodIfExists(*HighPriorityPod());
  check({{"node1", {"mpp"}}, {"node4", {}}, {"node5", {"up"}}});
}

TEST_CASE("Nominator: Update keeps an in-memory nomination and follows status changes (UpdateNominatedPod)",
          "[queue][nominator]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  q.Add(pod);
  q.AddNominatedPod(pod, S("node3"));  // preemption nominated it; the status patch is not seen yet
  const PodInfoPtr relabelled = WithLabel(pod, "a", "b");
  q.Update(pod, relabelled);
  CHECK(Nominated(q, "node3") == Strings{"hpp"});
  CHECK(q.NominatedPodsForNode(S("node3"))[0] == relabelled);  // the queue's latest version
  // The status now names another node.
  q.Update(relabelled, HighPriNominatedPod());
  CHECK(Nominated(q, "node3").empty());
  CHECK(Nominated(q, "node1") == Strings{"hpp"});
  // The status clears it.
  q.Update(HighPriNominatedPod(), pod);
  CHECK(Nominated(q, "node1").empty());
}

TEST_CASE("TestPriorityQueue_NewWithOptions", "[queue][backoff]") {
  World w;
  w.options.pod_initial_backoff = absl::Seconds(2);
  w.options.pod_max_backoff = absl::Seconds(20);
  SchedulingQueue& q = w.Build();
  QueuedPodInfo info = Lookup(HighPriorityPod());
  info.unschedulable_count = 1;
  CHECK(q.BackoffDuration(info) == absl::Seconds(2));
  info.unschedulable_count = 10;
  CHECK(q.BackoffDuration(info) == absl::Seconds(20));
}

TEST_CASE("TestSchedulingQueue_Close: PopWait returns nothing once closed", "[queue][tsan]") {
  World w;
  SchedulingQueue& q = w.Build();
  std::optional<QueuedPodInfo> got = Lookup(HighPriorityPod());
  std::thread t([&] { got = q.PopWait(absl::Now() + absl::Seconds(60)); });
  absl::SleepFor(absl::Milliseconds(20));
  q.Close();
  t.join();
  CHECK(!got.has_value());
  q.Add(HighPriorityPod());
  CHECK(!q.Pop().has_value());
}

TEST_CASE("TestClose: Close forgets in-flight pods and events", "[queue]") {
  World w;
  w.Plugin(PluginSpec{"fooPlugin1", {{kNodeAdd, kQueue}, {kCsiNodeUpdate, kQueue}}, {}});
  SchedulingQueue& q = w.Build();
  q.Add(MakePod().Name("p1").Namespace("foo").UID("p1").Info());
  q.Add(MakePod().Name("p2").Namespace("bar").UID("p2").Info());
  REQUIRE(q.Pop().has_value());
  REQUIRE(q.Pop().has_value());
  q.OnClusterEvent(kNodeAdd, {});
  q.OnClusterEvent(kCsiNodeUpdate, {});
  CHECK(q.counts().in_flight_events == 2);
  CHECK(q.counts().in_flight == 2);
  q.Close();
  CHECK(q.counts().in_flight_events == 0);
  CHECK(q.counts().in_flight == 0);
}

TEST_CASE("PopWait blocks until a pod arrives or the deadline passes", "[queue][tsan]") {
  World w;
  SchedulingQueue& q = w.Build();
  CHECK(!q.PopWait(absl::Now() + absl::Milliseconds(30)).has_value());
  std::optional<QueuedPodInfo> got;
  std::thread t([&] { got = q.PopWait(absl::Now() + absl::Seconds(60)); });
  absl::SleepFor(absl::Milliseconds(20));
  q.Add(HighPriorityPod());
  t.join();
  REQUIRE(got.has_value());
  CHECK(got->pod->name() == S("hpp"));
}

TEST_CASE("TestRecentlyTriedPodsGoBack", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  for (int i = 0; i < 5; ++i) {
    q.Add(Pod(StrCat("test-pod-", i), "ns1", StrCat("tp00", i), kHighPriority, "node1"));
  }
  w.clock.Advance(absl::Microseconds(1));
  QueuedPodInfo p1 = *q.Pop();
  p1.unschedulable_plugins = {S("plugin")};
  q.AddUnschedulableIfNotPresent(p1);
  w.clock.Advance(absl::Seconds(10));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  for (int i = 0; i < 5; ++i) {
    std::optional<QueuedPodInfo> p = q.Pop();
    REQUIRE(p.has_value());
    CHECK((i == 4) == (p->pod->uid() == p1.pod->uid()));
  }
}

TEST_CASE("TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr unsched = Pod("test-pod-unscheduled", "ns1", "tp001", kHighPriority, "node1");
  q.Add(unsched);
  PopExpect(q, unsched);
  q.AddUnschedulableIfNotPresent(Lookup(unsched, {"plugin"}));
  w.clock.Advance(absl::Seconds(2));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  PopExpect(q, unsched);
  // A newer pod arrives while the old one is being scheduled...
  const PodInfoPtr newer = Pod("test-newer-pod", "ns1", "tp002", kHighPriority, "node1");
  q.Add(newer);
  // ...which fails again.
  q.AddUnschedulableIfNotPresent(Lookup(unsched, {"plugin"}));
  w.clock.Advance(absl::Seconds(2));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  PopExpect(q, newer);
}

TEST_CASE("TestHighPriorityBackoff", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr mid = Pod("test-midpod", "ns1", "tp-mid", kMidPriority, "node1");
  const PodInfoPtr high = Pod("test-highpod", "ns1", "tp-high", kHighPriority, "node1");
  q.Add(mid);
  q.Add(high);
  PopExpect(q, high);
  q.AddUnschedulableIfNotPresent(Lookup(high, {"fooPlugin"}));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  // high is backing off.
  PopExpect(q, mid);
}

TEST_CASE("TestHighPriorityFlushUnschedulablePodsLeftover", "[queue]") {
  World w;
  w.Plugin("fakePlugin", kNodeAdd, kQueue);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr mid = Pod("test-midpod", "ns1", "tp-mid", kMidPriority, "node1");
  const PodInfoPtr high = Pod("test-highpod", "ns1", "tp-high", kHighPriority, "node1");
  q.Add(high);
  PopExpect(q, high);
  q.Add(mid);
  PopExpect(q, mid);
  q.AddUnschedulableIfNotPresent(Lookup(high, {"fakePlugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(mid, {"fakePlugin"}));
  w.clock.Advance(absl::Minutes(5) + absl::Seconds(1));
  q.FlushUnschedulablePodsLeftover();
  PopExpect(q, high);
  PopExpect(q, mid);
}

TEST_CASE("TestPriorityQueue_initPodMaxInUnschedulablePodsDuration", "[queue]") {
  for (absl::Duration max : {absl::Minutes(5), absl::Seconds(30)}) {
    World w;
    w.options.pod_max_in_unschedulable_pods = max;
    SchedulingQueue& q = w.Build();
    const PodInfoPtr pod1 = Pod("test-pod-1", "ns1", "tp-1", 0, "node1");
    const PodInfoPtr pod2 = Pod("test-pod-2", "ns2", "tp-2", 0, "node2");
    q.Add(pod1);
    q.Add(pod2);
    QueuedPodInfo info1 = PopExpect(q, pod1);
    QueuedPodInfo info2 = PopExpect(q, pod2);
    info1.unschedulable_plugins = {S("plugin")};
    info2.unschedulable_plugins = {S("plugin")};
    q.AddUnschedulableIfNotPresent(info2);  // pod2 fails first: older
    w.clock.Advance(absl::Seconds(1));
    q.AddUnschedulableIfNotPresent(info1);
    w.clock.Advance(max);
    q.FlushUnschedulablePodsLeftover();
    CHECK(q.counts().active == 1);  // only pod2 stayed longer than max
    w.clock.Advance(absl::Seconds(1));
    q.FlushUnschedulablePodsLeftover();
    CHECK(q.counts().active == 2);
    QueuedPodInfo first = PopExpect(q, pod2);
    PopExpect(q, pod1);
    CHECK(first.attempts == 2);
  }
}

TEST_CASE("TestPodTimestamp: pods moved back to activeQ keep the order of their timestamps", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod1 = Pod("test-pod-1", "ns1", "tp-1", 0, "node1");
  const PodInfoPtr pod2 = Pod("test-pod-2", "ns2", "tp-2", 0, "node2");
  q.Add(pod2);
  q.Add(pod1);
  PopExpect(q, pod2);
  PopExpect(q, pod1);
  const absl::Time t0 = w.clock.Now();
  q.AddUnschedulableIfNotPresent(Lookup(pod1, {"plugin"}));
  w.clock.Advance(absl::Seconds(1));
  q.AddUnschedulableIfNotPresent(Lookup(pod2, {"plugin"}));
  CHECK(q.GetPod("tp-1")->timestamp == t0);
  CHECK(q.GetPod("tp-2")->timestamp == t0 + absl::Seconds(1));
  CHECK(q.GetPod("tp-2")->last_failure == t0 + absl::Seconds(1));
  w.clock.Advance(absl::Seconds(3));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  CHECK(Names(q.PodsIn(SubQueue::kActive), false) == Strings{"test-pod-1", "test-pod-2"});
  // Moving to activeQ does not refresh the timestamp.
  CHECK(q.GetPod("tp-1")->timestamp == t0);
}

TEST_CASE("TestPendingPodsMetric", "[queue][metrics]") {
  World w;
  w.Plugin(PluginSpec{"preEnqueuePlugin", {{kUnscheduledPodUpdate, kQueue}}, AllowLabels({"queueable"})});
  SchedulingQueue& q = w.Build();
  std::vector<PodInfoPtr> queueable, failme;
  for (int i = 1; i <= 50; ++i) {
    queueable.push_back(MakePod()
                            .Name(StrCat("x-", i))
                            .Namespace(StrCat("ns", i))
                            .UID(StrCat("x-", i))
                            .Label("queueable", "")
                            .Info());
  }
  for (int i = 1; i <= 10; ++i) {
    failme.push_back(MakePod()
                         .Name(StrCat("y-", i))
                         .Namespace(StrCat("ns", i))
                         .UID(StrCat("y-", i))
                         .Label("failme", "")
                         .Info());
  }
  // Into the pool after a rejection; failme pods are gated on Add.
  auto to_pool = [&](const PodInfoPtr& p) {
    q.Add(p);
    if (q.Locate(p->uid()) == SubQueue::kGated) return;
    PopExpect(q, p);
    q.AddUnschedulableIfNotPresent(Lookup(p, {"preEnqueuePlugin"}));
  };
  auto pending = [&] {
    auto m = w.metrics.pending();
    return std::vector<int64_t>{m["active"], m["backoff"], m["unschedulable"], m["gated"]};
  };
  using Ints = std::vector<int64_t>;

  SECTION("add pods to activeQ and unschedulablePods") {
    for (int i = 30; i < 50; ++i) to_pool(queueable[i]);
    for (const auto& p : failme) to_pool(p);
    for (int i = 0; i < 30; ++i) q.Add(queueable[i]);
    CHECK(pending() == Ints{30, 0, 20, 10});
  }
  SECTION("add pods to unschedulablePods and then move all to activeQ") {
    for (const auto& p : queueable) to_pool(p);
    for (const auto& p : failme) to_pool(p);
    w.clock.Advance(absl::Seconds(3));
    q.OnClusterEvent(kUnschedulableTimeout, {});
    CHECK(pending() == Ints{50, 0, 0, 10});
  }
  SECTION("make some pods subject to backoff, add pods to unschedulablePods, and then move all to activeQ") {
    for (int i = 20; i < 50; ++i) to_pool(queueable[i]);
    for (const auto& p : failme) to_pool(p);
    w.clock.Advance(absl::Seconds(3));
    for (int i = 0; i < 20; ++i) to_pool(queueable[i]);
    q.OnClusterEvent(kUnschedulableTimeout, {});
    CHECK(pending() == Ints{30, 20, 0, 10});
  }
  SECTION("add pods to activeQ/unschedulablePods and then delete some Pods") {
    for (int i = 30; i < 50; ++i) to_pool(queueable[i]);
    for (const auto& p : failme) to_pool(p);
    for (int i = 0; i < 30; ++i) q.Add(queueable[i]);
    for (int i : {0, 1, 30, 31, 32}) q.Delete(*queueable[i]);
    for (int i : {0, 1, 2, 3}) q.Delete(*failme[i]);
    CHECK(pending() == Ints{28, 0, 17, 6});
  }
  SECTION("add pods to activeQ/unschedulablePods and then update some Pods as queueable") {
    for (int i = 30; i < 50; ++i) to_pool(queueable[i]);
    for (const auto& p : failme) to_pool(p);
    for (int i = 0; i < 30; ++i) q.Add(queueable[i]);
    for (int i = 0; i < 5; ++i) q.Update(failme[i], WithLabel(failme[i], "queueable", ""));
    CHECK(pending() == Ints{35, 0, 20, 5});
  }
}

TEST_CASE("TestPerPodSchedulingMetrics", "[queue][metrics]") {
  World w;
  const PodInfoPtr pod = MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Info();
  const absl::Time t0 = w.clock.Now();
  int want_attempts = 0;
  absl::Time want_initial;

  SECTION("pod is created and scheduled after 1 attempt") {
    SchedulingQueue& q = w.Build();
    q.Add(pod);
    want_attempts = 1;
    want_initial = t0;
  }
  SECTION("pod is created and scheduled after 2 attempts") {
    SchedulingQueue& q = w.Build();
    q.Add(pod);
    QueuedPodInfo info = *q.Pop();
    info.unschedulable_plugins = {S("plugin")};
    q.AddUnschedulableIfNotPresent(info);
    w.clock.Advance(absl::Minutes(5) + absl::Nanoseconds(1));
    q.FlushUnschedulablePodsLeftover();
    want_attempts = 2;
    want_initial = t0;
  }
  SECTION("pod is created and scheduled after 2 attempts but before the second pop, call update") {
    SchedulingQueue& q = w.Build();
    q.Add(pod);
    QueuedPodInfo info = *q.Pop();
    info.unschedulable_plugins = {S("plugin")};
    q.AddUnschedulableIfNotPresent(info);
    w.clock.Advance(absl::Minutes(5) + absl::Nanoseconds(1));
    q.FlushUnschedulablePodsLeftover();
    q.Update(pod, WithAnnotation(pod, "generation", "1"));
    want_attempts = 2;
    want_initial = t0;
  }
  SECTION("A gated pod is created and scheduled after lifting gate") {
    w.Plugin(PluginSpec{"preEnqueuePlugin", {{kWildcard, {}}}, AllowLabels({"foo"})});
    SchedulingQueue& q = w.Build();
    q.Add(pod);
    CHECK(q.Locate(pod->uid()) == SubQueue::kGated);
    w.clock.Advance(absl::Minutes(1));
    q.Update(pod, WithLabel(pod, "foo", ""));
    want_attempts = 1;
    want_initial = t0 + absl::Minutes(1);
  }
  std::optional<QueuedPodInfo> info = w.queue->Pop();
  REQUIRE(info.has_value());
  CHECK(info->attempts == want_attempts);
  CHECK(info->initial_attempt_timestamp == want_initial);
}

TEST_CASE("TestBackOffFlow", "[queue][backoff]") {
  const std::vector<absl::Duration> steps = {absl::Seconds(1), absl::Seconds(2),  absl::Seconds(4),
                                             absl::Seconds(8), absl::Seconds(10), absl::Seconds(10),
                                             absl::Seconds(10)};
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Info();
  q.Add(pod);
  for (size_t i = 0; i < steps.size(); ++i) {
    INFO("step " << i);
    const absl::Time timestamp = w.clock.Now();
    QueuedPodInfo info = PopExpect(q, pod);
    CHECK(info.attempts == static_cast<int>(i) + 1);
    info.unschedulable_plugins.insert(S("unsched-plugin"));
    q.AddUnschedulableIfNotPresent(info);
    q.OnClusterEvent(kUnschedulableTimeout, {});
    REQUIRE(q.Locate("test-uid") == SubQueue::kBackoff);
    std::optional<QueuedPodInfo> queued = q.GetPod("test-uid");
    CHECK(queued->unschedulable_count == static_cast<int>(i) + 1);
    CHECK(q.BackoffDuration(*queued) == steps[i]);
    // The expiry is rounded to the ordering window, and the pod stays out
    // for the whole window its expiry falls in.
    CHECK(q.NextBackoffExpiry() - timestamp == steps[i] + absl::Seconds(1));
    w.clock.Advance(absl::Seconds(1));
    q.FlushBackoffQCompleted();
    CHECK(q.Locate("test-uid") == SubQueue::kBackoff);
    w.clock.Advance(steps[i]);
    q.FlushBackoffQCompleted();
    CHECK(q.Locate("test-uid") == SubQueue::kActive);
  }
}

TEST_CASE("TestBackoffQueue_calculateBackoffDuration", "[queue][backoff]") {
  struct Case {
    absl::Duration initial, max;
    int count;
    absl::Duration want;
  };
  const int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();
  const int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
  for (const Case& c : std::vector<Case>{
           {absl::Nanoseconds(1), absl::Nanoseconds(32), 0, absl::ZeroDuration()},     // no backoff
           {absl::Nanoseconds(3), absl::Nanoseconds(1000), 5, absl::Nanoseconds(48)},  // normal
           {absl::Nanoseconds(1), absl::Nanoseconds(32), 16, absl::Nanoseconds(32)},   // hitting max
           {absl::Nanoseconds(1), absl::Nanoseconds(kMaxInt32), 32,
            absl::Nanoseconds(kMaxInt32)},  // overflow_32bit
           {absl::Nanoseconds(1), absl::Nanoseconds(kMaxInt64), 64,
            absl::Nanoseconds(kMaxInt64)},  // overflow_64bit
       }) {
    World w;
    w.options.pod_initial_backoff = c.initial;
    w.options.pod_max_backoff = c.max;
    SchedulingQueue& q = w.Build();
    QueuedPodInfo info;
    info.unschedulable_count = c.count;
    CHECK(q.BackoffDuration(info) == c.want);
  }
}

TEST_CASE("TestBackoffQueue_getBackoffTime", "[queue][backoff]") {
  World w;
  w.options.pod_initial_backoff = absl::Seconds(1);
  w.options.pod_max_backoff = absl::Seconds(32);
  SchedulingQueue& q = w.Build();
  QueuedPodInfo info;
  CHECK(q.BackoffDuration(info) == absl::ZeroDuration());  // no backoff
  info.unschedulable_count = 16;
  CHECK(q.BackoffDuration(info) == absl::Seconds(32));  // by UnschedulableCount
  info.unschedulable_count = 5;
  info.consecutive_errors = 16;
  CHECK(q.BackoffDuration(info) == absl::Seconds(32));  // ConsecutiveErrorsCount wins
  info.consecutive_errors = 1;
  CHECK(q.BackoffDuration(info) == absl::Seconds(1));
}

TEST_CASE("TestBackoffQueue_getBackoffTime: zero maxBackoffDuration means no backoff", "[queue][backoff]") {
  World w;
  w.options.pod_initial_backoff = absl::ZeroDuration();
  w.options.pod_max_backoff = absl::ZeroDuration();
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  q.Add(pod);
  PopExpect(q, pod);
  q.Activate({pod->uid()});  // requeue it as soon as it comes back
  q.AddUnschedulableIfNotPresent(Lookup(pod, {"plugin"}));
  CHECK(q.Locate(pod->uid()) == SubQueue::kActive);
}

// Puts `pod` into backoffQ at the clock's current time: popped, then failed
// with an Activate replayed on its return (errors, when `error`).
void IntoBackoff(SchedulingQueue& q, const PodInfoPtr& pod, bool error = false) {
  q.Add(pod);
  PopExpect(q, pod);
  q.Activate({pod->uid()});
  q.AddUnschedulableIfNotPresent(error ? Lookup(pod) : Lookup(pod, {"plugin"}));
  REQUIRE(q.Locate(pod->uid()) == SubQueue::kBackoff);
}

TEST_CASE("TestBackoffQueue_popAllBackoffCompleted", "[queue][backoff]") {
  const PodInfoPtr pod0 = MakePod().Name("pod0").Info();  // unschedulable, failed 2 s before the flush
  const PodInfoPtr pod1 = MakePod().Name("pod1").Info();  // unschedulable, failed just now
  const PodInfoPtr pod2 = MakePod().Name("pod2").Info();  // error, 2 s before
  const PodInfoPtr pod3 = MakePod().Name("pod3").Info();  // error, just now
  auto run = [](std::vector<std::pair<PodInfoPtr, bool>> early, std::vector<std::pair<PodInfoPtr, bool>> late,
                Strings want) {
    World w;
    SchedulingQueue& q = w.Build();
    for (auto& [p, error] : early) IntoBackoff(q, p, error);
    w.clock.Advance(absl::Seconds(3));
    for (auto& [p, error] : late) IntoBackoff(q, p, error);
    q.FlushBackoffQCompleted();
    CHECK(Names(q.PodsIn(SubQueue::kActive)) == want);
    CHECK(q.counts().backoff == static_cast<int>(early.size() + late.size() - want.size()));
  };
  SECTION("Both queues empty, no pods moved to activeQ") { run({}, {}, {}); }
  SECTION("Pods only in backoffQ, some pods moved to activeQ") {
    run({{pod0, false}}, {{pod1, false}}, {"pod0"});
  }
  SECTION("Pods only in errorBackoffQ, some pods moved to activeQ") {
    run({{pod2, true}}, {{pod3, true}}, {"pod2"});
  }
  SECTION("Pods in both queues, some pods moved to activeQ") {
    run({{pod0, false}, {pod2, true}}, {{pod1, false}, {pod3, true}}, {"pod0", "pod2"});
  }
  SECTION("Pods in both queues, all pods moved to activeQ") {
    run({{pod0, false}, {pod2, true}}, {}, {"pod0", "pod2"});
  }
  SECTION("Pods in both queues, no pods moved to activeQ") { run({}, {{pod1, false}, {pod3, true}}, {}); }
}

TEST_CASE("TestBackoffQueueOrdering: within a window backoffQ orders like activeQ", "[queue][backoff]") {
  World w;
  SchedulingQueue& q = w.Build();
  auto pod = [](const std::string& name, int32_t prio) { return MakePod().Name(name).Priority(prio).Info(); };
  // Failures at T-3, T-2, T-2+1ms, T-1 and T (the clock starts on a whole second).
  IntoBackoff(q, pod("pod5", 1));
  w.clock.Advance(absl::Seconds(1));
  IntoBackoff(q, pod("pod3", 1));
  IntoBackoff(q, pod("pod4", 2));
  w.clock.Advance(absl::Milliseconds(1));
  IntoBackoff(q, pod("pod2", 2));
  w.clock.Advance(absl::Seconds(1) - absl::Milliseconds(1));
  IntoBackoff(q, pod("pod1", 1));
  w.clock.Advance(absl::Seconds(1));
  IntoBackoff(q, pod("pod0", 1));
  CHECK(Names(q.PodsIn(SubQueue::kBackoff), false) ==
        Strings{"pod5", "pod4", "pod2", "pod3", "pod1", "pod0"});
  // With activeQ empty, Pop takes backoffQ's head even before its backoff ends.
  std::vector<std::string> popped;
  while (auto p = q.Pop()) popped.emplace_back(p->pod->name().str());
  CHECK(popped == Strings{"pod5", "pod4", "pod2", "pod3", "pod1", "pod0"});
}

TEST_CASE("TestMoveAllToActiveOrBackoffQueue_PreEnqueueChecks: events no plugin registered are ignored",
          "[queue]") {
  World w;
  w.Plugin("plugin", kNodeAdd, kQueue);
  SchedulingQueue& q = w.Build();
  std::vector<PodInfoPtr> pods;
  for (int i = 0; i < 5; ++i) {
    pods.push_back(MakePod().Name(StrCat("p", i)).Priority(i).Info());
    q.Add(pods.back());
    PopExpect(q, pods.back());
    q.AddUnschedulableIfNotPresent(Lookup(pods.back(), {"plugin"}));
  }
  SECTION("not interesting") {
    q.Add(HighPriorityPod());
    REQUIRE(q.Pop().has_value());
    q.OnClusterEvent(kPvAdd, {});
    CHECK(q.counts().unschedulable == 5);
    CHECK(q.counts().in_flight_events == 0);  // nor kept for in-flight pods
  }
  SECTION("wildcard moves every pod") {
    q.OnClusterEvent(kUnschedulableTimeout, {});
    w.clock.Advance(absl::Seconds(20));
    q.FlushBackoffQCompleted();
    CHECK(Names(q.PodsIn(SubQueue::kActive)) == Strings{"p0", "p1", "p2", "p3", "p4"});
  }
}

TEST_CASE("Test_isPodWorthRequeuing", "[queue][hints]") {
  const PodInfoPtr pod1 = MakePod().Name("pod1").Namespace("ns1").UID("1").Info();
  const api::v1::Node node = testing::MakeNode().Name("n").Obj();
  int count = 0;
  World w;
  // Rejected by `unsched`/`pending`, then `event` arrives with a new node.
  auto run = [&](std::vector<std::string> unsched, std::vector<std::string> pending,
                 const ClusterEvent& event, std::optional<EventObjects> objects = std::nullopt) {
    SchedulingQueue& q = w.Build();
    q.Add(pod1);
    PopExpect(q, pod1);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, unsched, pending));
    REQUIRE(q.Locate("1") == SubQueue::kUnschedulable);
    q.OnClusterEvent(event, objects.value_or(EventObjects{nullptr, &node, nullptr, nullptr}));
    return q.Locate("1");  // kUnschedulable: skip; kBackoff: after backoff; kActive: immediately
  };
  const std::optional<SubQueue> kSkipped = SubQueue::kUnschedulable;
  const std::optional<SubQueue> kAfterBackoff = SubQueue::kBackoff;
  const std::optional<SubQueue> kImmediately = SubQueue::kActive;

  SECTION("return Skip when no queueing hint function is registered for the event") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1"}, {}, kNodeAdd) == kSkipped);
    CHECK(count == 0);
  }
  SECTION("Treat the event as Queue when QueueHintFn returns error") {
    w.Plugin("fooPlugin1", kNodeAdd, ReturnsError(&count));
    CHECK(run({"fooPlugin1"}, {}, kNodeAdd) == kAfterBackoff);
    CHECK(count == 1);
  }
  SECTION("return Queue when the event is wildcard") {
    CHECK(run({"fooPlugin1"}, {}, kUnschedulableTimeout, EventObjects{nullptr, nullptr, nullptr, nullptr}) ==
          kAfterBackoff);
  }
  SECTION(
      "return Queue when the event is wildcard and the wildcard targets the pod to be requeued right now") {
    CHECK(run({"fooPlugin1"}, {}, kForceActivate, EventObjects{nullptr, nullptr, nullptr, &pod1->pod()}) ==
          kAfterBackoff);
  }
  SECTION("return Skip when the event is wildcard, but the wildcard targets a different pod") {
    const api::v1::Pod other = MakePod().Name("pod-different").Namespace("ns2").UID("2").Obj();
    CHECK(run({"fooPlugin1"}, {}, kForceActivate, EventObjects{nullptr, nullptr, nullptr, &other}) ==
          kSkipped);
  }
  SECTION("interprets Queue from the Pending plugin as queueImmediately") {
    w.Plugin("fooPlugin1", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    w.Plugin("fooPlugin2", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    w.Plugin("fooPlugin3", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    w.Plugin("fooPlugin4", kNodeAdd, ReturnsError(&count));
    CHECK(run({"fooPlugin1", "fooPlugin3"}, {"fooPlugin2"}, kNodeAdd) == kImmediately);
    CHECK(count == 2);
  }
  SECTION("interprets Queue from the Unschedulable plugin as queueAfterBackoff") {
    w.Plugin("fooPlugin1", kNodeAdd, Returns(QueueingHint::kSkip, &count));
    w.Plugin("fooPlugin2", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1", "fooPlugin2"}, {}, kNodeAdd) == kAfterBackoff);
    CHECK(count == 2);
  }
  SECTION(
      "Queueing hint function that isn't from the plugin in UnschedulablePlugins/PendingPlugins is ignored") {
    w.Plugin("fooPlugin1", kNodeAdd, Returns(QueueingHint::kSkip, &count));
    w.Plugin("fooPlugin2", kNodeAdd, Returns(QueueingHint::kSkip, &count));
    w.Plugin("fooPlugin3", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1", "fooPlugin2"}, {}, kNodeAdd) == kSkipped);
    CHECK(count == 2);
  }
  SECTION(
      "If event is specific Node update event, queueing hint function for NodeUpdate/UpdateNodeLabel is also "
      "executed") {
    const ClusterEvent label{EventResource::kNode, framework::kActionUpdateNodeLabel, "NodeUpdateNodeLabel"};
    const ClusterEvent update{EventResource::kNode, framework::kActionUpdate, "NodeUpdate"};
    w.Plugin(PluginSpec{"fooPlugin1",
                        {{label, Returns(QueueingHint::kQueue, &count)},
                         {update, Returns(QueueingHint::kQueue, &count)},
                         {kNodeAdd, Returns(QueueingHint::kQueue, &count)}},
                        {}});
    w.Plugin("fooPlugin2", label, Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1", "fooPlugin2"}, {}, label) == kAfterBackoff);
    CHECK(count == 1);
  }
  SECTION("If event with '*' Resource, queueing hint function for specified Resource is also executed") {
    w.Plugin("fooPlugin1", ClusterEvent{EventResource::kWildcard, framework::kActionAdd, "*Add"},
             Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1"}, {}, kNodeAdd) == kAfterBackoff);
    CHECK(count == 1);
  }
  SECTION("If event is a wildcard one, queueing hint function for all kinds of events is executed") {
    w.Plugin("fooPlugin1", kWildcard, Returns(QueueingHint::kQueue, &count));
    const ClusterEvent ev{EventResource::kNode,
                          framework::kActionUpdateNodeLabel | framework::kActionUpdateNodeTaint,
                          "NodeUpdate"};
    CHECK(run({"fooPlugin1"}, {}, ev) == kAfterBackoff);
    CHECK(count == 1);
  }
}

TEST_CASE("buildQueueingHintMap: a plugin registering Node/Add also hears Node/UpdateNodeTaint",
          "[queue][hints]") {
  World w;
  w.Plugin("fooPlugin1", kNodeAdd, kSkip);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  q.Add(pod);
  PopExpect(q, pod);
  q.AddUnschedulableIfNotPresent(Lookup(pod, {"fooPlugin1"}));
  q.OnClusterEvent(kNodeAdd, {});
  CHECK(q.Locate(pod->uid()) == SubQueue::kUnschedulable);
  q.OnClusterEvent(
      ClusterEvent{EventResource::kNode, framework::kActionUpdateNodeTaint, "NodeUpdateNodeTaint"}, {});
  CHECK(q.Locate(pod->uid()) == SubQueue::kBackoff);
}

TEST_CASE("Test_queuedPodInfo_gatedSetUponCreationAndUnsetUponUpdate", "[queue][gated]") {
  World w;
  w.Plugin(SchedulingGatesSpec());
  SchedulingQueue& q = w.Build();
  const PodInfoPtr gated = MakePod().Name("p").UID("p").SchedulingGates({"hello world"}).Info();
  q.Add(gated);
  CHECK(q.Locate("p") == SubQueue::kGated);
  CHECK(q.GetPod("p")->gating_plugin == S("SchedulingGates"));
  CHECK(q.counts().gated == 1);
  // An unrelated update does not ungate it.
  const PodInfoPtr relabelled = WithLabel(gated, "a", "b");
  q.Update(gated, relabelled);
  CHECK(q.Locate("p") == SubQueue::kGated);
  const PodInfoPtr ungated = MakePod().Name("p").UID("p").Label("a", "b").Info();
  q.Update(relabelled, ungated);
  CHECK(q.Locate("p") == SubQueue::kActive);
  std::optional<QueuedPodInfo> info = q.Pop();
  REQUIRE(info.has_value());
  CHECK(!info->gated);
  CHECK(info->gating_plugin.empty());
  CHECK(info->pod == ungated);
}

TEST_CASE("Gated pods: only the gating plugin's events re-run PreEnqueue; a wildcard re-runs it for all",
          "[queue][gated]") {
  auto allow = std::make_shared<std::atomic<bool>>(false);
  int runs = 0;
  World w;
  w.Plugin(PluginSpec{"gate", {{kNodeAdd, kQueue}}, [allow, &runs](const PodInfo&) {
                        ++runs;
                        return allow->load() ? Status()
                                             : Status::WithReasons(Code::kUnschedulable, {"closed"});
                      }});
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  q.Add(pod);
  REQUIRE(q.Locate(pod->uid()) == SubQueue::kGated);
  CHECK(runs == 1);
  q.OnClusterEvent(kAssignedPodAdd, {});  // the gate did not register it
  CHECK(runs == 1);
  q.OnClusterEvent(kNodeAdd, {});  // still closed
  CHECK(runs == 2);
  CHECK(q.Locate(pod->uid()) == SubQueue::kGated);
  allow->store(true);
  q.FlushUnschedulablePodsLeftover();  // not stale yet: nothing happens
  CHECK(runs == 2);
  w.clock.Advance(absl::Minutes(6));
  q.FlushUnschedulablePodsLeftover();
  CHECK(runs == 3);
  CHECK(q.Locate(pod->uid()) == SubQueue::kActive);
  // A gated pod never attempted has no backoff: it goes straight to activeQ.
  CHECK(q.GetPod(pod->uid())->unschedulable_count == 0);
}

TEST_CASE("TestPriorityQueue_GetPod", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr active = MakePod().Name("pod1").Info();
  const PodInfoPtr backoff = MakePod().Name("pod2").Info();
  const PodInfoPtr unsched = MakePod().Name("pod3").Info();
  q.Add(backoff);
  PopExpect(q, backoff);
  q.AddUnschedulableIfNotPresent(Lookup(backoff));
  q.Add(unsched);
  PopExpect(q, unsched);
  q.AddUnschedulableIfNotPresent(Lookup(unsched, {"plugin"}));
  q.Add(active);
  CHECK(q.GetPod("pod1")->pod == active);
  CHECK(q.GetPod("pod2")->pod == backoff);
  CHECK(q.GetPod("pod3")->pod == unsched);
  CHECK(!q.GetPod("pod4").has_value());
}

TEST_CASE("QueuedPodInfo bookkeeping across attempts", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  const absl::Time t0 = w.clock.Now();
  q.Add(pod);
  CHECK(q.GetPod(pod->uid())->timestamp == t0);
  CHECK(q.GetPod(pod->uid())->initial_attempt_timestamp == t0);
  w.clock.Advance(absl::Seconds(5));
  QueuedPodInfo info = PopExpect(q, pod);
  CHECK(info.attempts == 1);
  // An error counts consecutive errors only.
  q.AddUnschedulableIfNotPresent(info);
  info = *q.GetPod(pod->uid());
  CHECK((info.consecutive_errors == 1 && info.unschedulable_count == 0));
  CHECK(info.timestamp == t0 + absl::Seconds(5));
  CHECK(info.last_failure == t0 + absl::Seconds(5));
  w.clock.Advance(absl::Seconds(5));
  q.FlushBackoffQCompleted();
  info = PopExpect(q, pod);
  CHECK(info.attempts == 2);
  // A rejection resets the error count.
  info.unschedulable_plugins = {S("plugin")};
  q.AddUnschedulableIfNotPresent(info);
  info = *q.GetPod(pod->uid());
  CHECK((info.consecutive_errors == 0 && info.unschedulable_count == 1));
  CHECK(info.initial_attempt_timestamp == t0);
  // Adding it again while held does not duplicate it.
  q.AddUnschedulableIfNotPresent(info);
  CHECK(q.counts().unschedulable == 1);
}

TEST_CASE("TestPodSchedulingPropertiesChange (framework/events_test.go)", "[queue][events]") {
  using queue_internal::PodUpdateEvents;
  const PodInfoPtr base = MakePod().Name("p").Req({{"cpu", "1"}}).Toleration("a").Info();
  auto actions = [](const std::vector<ClusterEvent>& events) {
    std::vector<framework::ActionType> out;
    for (const auto& e : events) {
      CHECK(e.resource == EventResource::kUnscheduledPod);
      out.push_back(e.action);
    }
    return out;
  };
  using Actions = std::vector<framework::ActionType>;
  CHECK(actions(PodUpdateEvents(*base, *WithAnnotation(base, "x", "y"))) ==
        Actions{framework::kActionUpdate});
  CHECK(actions(PodUpdateEvents(*base, *WithLabel(base, "x", "y"))) ==
        Actions{framework::kActionUpdatePodLabel});
  CHECK(actions(PodUpdateEvents(*base, *MakePod().Name("p").Req({{"cpu", "500m"}}).Toleration("a").Info())) ==
        Actions{framework::kActionUpdatePodScaleDown});
  CHECK(actions(PodUpdateEvents(*base, *MakePod().Name("p").Req({{"cpu", "2"}}).Toleration("a").Info())) ==
        Actions{framework::kActionUpdate});
  CHECK(
      actions(PodUpdateEvents(
          *base,
          *MakePod().Name("p").Req({{"cpu", "1"}}).Toleration("a").Toleration("b").Label("l", "v").Info())) ==
      Actions{framework::kActionUpdatePodLabel, framework::kActionUpdatePodToleration});
  const PodInfoPtr gated = MakePod().Name("p").SchedulingGates({"g"}).Info();
  CHECK(actions(PodUpdateEvents(*gated, *MakePod().Name("p").Info())) ==
        Actions{framework::kActionUpdatePodSchedulingGatesEliminated});
  const std::vector<ClusterEvent> bound =
      PodUpdateEvents(*base, *MakePod().Name("p").Req({{"cpu", "1"}}).Toleration("a").Node("n1").Info());
  REQUIRE(bound.size() == 1);
  CHECK(bound[0].resource == EventResource::kAssignedPod);
}

TEST_CASE("Pending-pod metrics follow every change", "[queue][metrics]") {
  World w;
  SchedulingQueue& q = w.Build();
  auto m = w.metrics.pending();
  CHECK(m ==
        std::map<std::string, int64_t>{{"active", 0}, {"backoff", 0}, {"gated", 0}, {"unschedulable", 0}});
  q.Add(HighPriorityPod());
  CHECK(w.metrics.pending()["active"] == 1);
  QueuedPodInfo info = *q.Pop();
  CHECK(w.metrics.pending()["active"] == 0);
  q.AddUnschedulableIfNotPresent(info);
  CHECK(w.metrics.pending()["backoff"] == 1);
  w.clock.Advance(absl::Seconds(2));
  q.FlushBackoffQCompleted();
  CHECK(w.metrics.pending()["backoff"] == 0);
  CHECK(w.metrics.pending()["active"] == 1);
}

// Several threads add, pop, fail and finish pods while events, activations
// and flushes run; every pod must come out scheduled exactly once.
// schedkit-specific: a QueueSort plugin that gives ranks leads to the same pop
// order as one that only answers Less, through adds, priority updates in
// activeQ and backoffQ, failures, backoff and events.
TEST_CASE("Cached QueueSort ranks pop in Less's order", "[queue]") {
  auto run = [](bool ranked) {
    World w;
    w.sort.ranked = ranked;
    w.Plugin("fooPlugin", kNodeAdd, kQueue);
    SchedulingQueue& q = w.Build();
    std::vector<std::string> order;
    std::map<std::string, PodInfoPtr> live;
    uint32_t x = 12345;
    auto next = [&x](uint32_t mod) {
      x = x * 1103515245u + 12345u;
      return (x >> 16) % mod;
    };
    for (int step = 0; step < 600; ++step) {
      switch (next(6)) {
        case 0:
        case 1: {
          const std::string name = StrCat("p", step);
          PodInfoPtr p = MakePod().Name(name).Namespace("ns").UID(name).Priority(
              static_cast<int32_t>(next(4)) - 1).Info();
          live[name] = p;
          q.Add(p);
          break;
        }
        case 2: {  // a priority change of a waiting pod
          if (live.empty()) break;
          auto it = std::next(live.begin(), next(static_cast<uint32_t>(live.size())));
          api::v1::Pod copy = it->second->pod();
          copy.mutable_spec()->set_priority(static_cast<int32_t>(next(4)) - 1);
          PodInfoPtr updated = *PodInfo::Create(copy);
          q.Update(it->second, updated);
          it->second = updated;
          break;
        }
        case 3: {  // pop and fail: back through backoff or the pool
          std::optional<QueuedPodInfo> p = q.Pop();
          if (!p) break;
          order.push_back(StrCat("fail:", p->pod->name().str()));
          if (next(2) == 0) p->unschedulable_plugins.insert(S("fooPlugin"));
          live[std::string(p->pod->name().str())] = p->pod;
          q.AddUnschedulableIfNotPresent(*std::move(p));
          break;
        }
        case 4: {  // pop and schedule
          std::optional<QueuedPodInfo> p = q.Pop();
          if (!p) break;
          order.emplace_back(p->pod->name().str());
          live.erase(std::string(p->pod->name().str()));
          q.Done(p->pod->uid());
          break;
        }
        default:
          w.clock.Advance(absl::Milliseconds(700));
          if (next(3) == 0) q.OnClusterEvent(kNodeAdd, {});
          q.FlushBackoffQCompleted();
          break;
      }
    }
    return order;
  };
  const std::vector<std::string> with_less = run(false);
  const std::vector<std::string> with_ranks = run(true);
  CHECK(with_less.size() > 150);
  CHECK(with_ranks == with_less);
}

TEST_CASE("Concurrent adds, pops, failures and events", "[queue][tsan]") {
  constexpr int kProducers = 2, kPodsPerProducer = 300, kWorkers = 3, kMaxFailures = 3;
  constexpr int kTotal = kProducers * kPodsPerProducer;
  std::atomic<int> hint_calls{0};
  World w;
  w.Plugin(PluginSpec{"fooPlugin",
                      {{kNodeAdd,
                        [&hint_calls](const PodInfo&, const EventObjects&) -> absl::StatusOr<QueueingHint> {
                          hint_calls.fetch_add(1, std::memory_order_relaxed);
                          return QueueingHint::kQueue;
                        }}},
                      {}});
  SchedulingQueue& q = w.Build();

  std::atomic<int> scheduled{0};
  std::atomic<int> failures{0};
  std::atomic<bool> stop{false};
  std::mutex seen_mu;
  std::set<std::string> seen;
  bool duplicate = false;

  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < kPodsPerProducer; ++i) {
        const std::string name = StrCat("pod-", p, "-", i);
        q.Add(MakePod()
                  .Name(name)
                  .Namespace("ns")
                  .Priority(i % 7)
                  .NominatedNodeName(i % 5 == 0 ? "n1" : "")
                  .Info());
      }
    });
  }
  for (int k = 0; k < kWorkers; ++k) {
    threads.emplace_back([&, k] {
      int n = 0;
      while (!stop.load()) {
        std::optional<QueuedPodInfo> info = q.PopWait(absl::Now() + absl::Milliseconds(5));
        if (!info.has_value()) continue;
        (void)q.NominatedPodsForNode(S("n1"));
        ++n;
        if (info->attempts <= kMaxFailures && (n + k) % 3 != 0) {
          if ((n + k) % 2 == 0) info->unschedulable_plugins.insert(S("fooPlugin"));
          q.AddUnschedulableIfNotPresent(*std::move(info));
          failures.fetch_add(1);
          continue;
        }
        {
          std::lock_guard<std::mutex> lock(seen_mu);
          duplicate |= !seen.insert(info->pod->key()).second;
        }
        q.DeleteNominatedPodIfExists(*info->pod);
        q.Done(info->pod->uid());
        scheduled.fetch_add(1);
      }
    });
  }
  threads.emplace_back([&] {
    int round = 0;
    while (!stop.load()) {
      q.OnClusterEvent(kNodeAdd, {});
      if (++round % 4 == 0) {
        std::vector<framework::PodInfoPtr> pending = q.PendingPods();
        std::vector<std::string> uids;
        for (size_t i = 0; i < pending.size(); i += 3) uids.push_back(pending[i]->uid());
        q.Activate(uids);
      }
      w.clock.Advance(absl::Seconds(1));
      q.FlushBackoffQCompleted();
      q.FlushUnschedulablePodsLeftover();
      (void)q.counts();
      absl::SleepFor(absl::Microseconds(200));
    }
  });

  const absl::Time give_up = absl::Now() + absl::Seconds(120);
  while (scheduled.load() < kTotal && absl::Now() < give_up) absl::SleepFor(absl::Milliseconds(5));
  stop.store(true);
  for (auto& t : threads) t.join();
  q.Close();

  CHECK(scheduled.load() == kTotal);
  CHECK(!duplicate);
  const SchedulingQueue::Counts c = q.counts();
  CHECK(c.active + c.backoff + c.unschedulable + c.gated == 0);
  CHECK(failures.load() > kTotal / 2);
  CHECK(hint_calls.load() > 0);
}

}  // namespace
}  // namespace schedkit::scheduler
