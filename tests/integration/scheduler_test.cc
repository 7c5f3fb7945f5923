// The scheduler end to end with the in-tree plugins and an in-memory host:
// invariants (no node over-committed, no pod lost) under injected faults,
// permit, gates, requeue on events, backoff with a fake clock.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "schedkit/api/v1/kinds.h"
#include "schedkit/api/lister.h"
#include "schedkit/api/quantity.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"
#include "schedkit/testing/builders.h"

namespace schedkit::scheduler {
namespace {

using testing::MakeNode;
using testing::MakePod;

// A host that binds into its own ledger, checks capacity on every bind and
// can fail a fraction of binds.
class LedgerHost : public Host {
 public:
  explicit LedgerHost(double fail_rate = 0, uint64_t seed = 1) : fail_rate_(fail_rate), rng_(seed) {}

  void AddNode(const api::v1::Node& n) {
    std::lock_guard<std::mutex> lock(mu_);
    auto cpu = api::ParseResourceQuantity("cpu", n.status().allocatable().at("cpu"));
    capacity_[n.metadata().name()] = *cpu;
  }

  void RemoveNode(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu_);
    capacity_.erase(name);
  }

  // A bound pod went away (evicted): its cpu is free again.
  void Release(const api::v1::Pod& pod) {
    std::lock_guard<std::mutex> lock(mu_);
    const std::string key = schedkit::StrCat(pod.metadata().namespace_(), "/", pod.metadata().name());
    auto it = bound_.find(key);
    if (it == bound_.end()) return;
    used_[it->second] -= CpuOf(pod);
    bound_.erase(it);
  }

  static int64_t CpuOf(const api::v1::Pod& pod) {
    int64_t cpu = 0;
    for (const auto& c : pod.spec().containers()) {
      if (auto it = c.resources().requests().find("cpu"); it != c.resources().requests().end()) {
        cpu += *api::ParseResourceQuantity("cpu", it->second);
      }
    }
    return cpu;
  }

  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++bind_calls_;
    if (!capacity_.contains(std::string(node))) {
      return absl::NotFoundError(schedkit::StrCat("node ", node, " not found"));
    }
    if (fail_rate_ > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < fail_rate_) {
      ++failed_binds_;
      return absl::UnavailableError("injected bind failure");
    }
    const std::string key = schedkit::StrCat(pod.metadata().namespace_(), "/", pod.metadata().name());
    if (!pod.spec().node_name().empty()) ++calls_with_node_name_;
    if (bound_.contains(key)) {
      double_binds_.push_back(key);
    }
    used_[std::string(node)] += CpuOf(pod);
    if (used_[std::string(node)] > capacity_[std::string(node)]) overcommitted_.push_back(std::string(node));
    bound_[key] = std::string(node);
    return absl::OkStatus();
  }

  void OnScheduled(const api::v1::Pod& pod, std::string_view node) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!pod.spec().node_name().empty()) ++calls_with_node_name_;
    scheduled_[schedkit::StrCat(pod.metadata().namespace_(), "/", pod.metadata().name())] = std::string(node);
  }

  void OnFailedScheduling(const api::v1::Pod& pod, const SchedulingFailure& failure) override {
    std::lock_guard<std::mutex> lock(mu_);
    last_failure_[schedkit::StrCat(pod.metadata().namespace_(), "/", pod.metadata().name())] =
        std::string(failure.message);
  }

  size_t bound() const {
    std::lock_guard<std::mutex> lock(mu_);
    return bound_.size();
  }
  std::map<std::string, std::string> bindings() const {
    std::lock_guard<std::mutex> lock(mu_);
    return {bound_.begin(), bound_.end()};
  }
  // OnScheduled's reports, pod key → node.
  std::map<std::string, std::string> scheduled() const {
    std::lock_guard<std::mutex> lock(mu_);
    return scheduled_;
  }
  // Bind and OnScheduled calls whose pod had spec.nodeName set.
  int calls_with_node_name() const {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_with_node_name_;
  }
  std::vector<std::string> overcommitted() const {
    std::lock_guard<std::mutex> lock(mu_);
    return overcommitted_;
  }
  std::vector<std::string> double_binds() const {
    std::lock_guard<std::mutex> lock(mu_);
    return double_binds_;
  }
  int failed_binds() const {
    std::lock_guard<std::mutex> lock(mu_);
    return failed_binds_;
  }
  std::string last_failure(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = last_failure_.find(key);
    return it == last_failure_.end() ? "" : it->second;
  }

 private:
  mutable std::mutex mu_;
  double fail_rate_;
  std::mt19937_64 rng_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, int64_t> capacity_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, int64_t> used_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::string> bound_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::string> last_failure_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> overcommitted_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> double_binds_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::string> scheduled_ ABSL_GUARDED_BY(mu_);
  int calls_with_node_name_ ABSL_GUARDED_BY(mu_) = 0;
  int bind_calls_ ABSL_GUARDED_BY(mu_) = 0;
  int failed_binds_ ABSL_GUARDED_BY(mu_) = 0;
};

struct Env {
  framework::FakeClock clock;
  InlineExecutor inline_executor;
  api::ObjectSet cluster;
  std::unique_ptr<LedgerHost> host;
  std::unique_ptr<Scheduler> sched;
  bool bind_on_scheduling_thread = false;

  void Start(double fail_rate = 0, Executor* executor = nullptr, config::SchedulerConfiguration cfg = config::DefaultConfiguration()) {
    host = std::make_unique<LedgerHost>(fail_rate);
    for (const auto& n : cluster.Of<api::v1::Node>()) host->AddNode(n);
    SchedulerOptions o;
    o.clock = &clock;
    o.executor = executor != nullptr ? executor : &inline_executor;
    o.seed = 7;
    o.bind_on_scheduling_thread = bind_on_scheduling_thread;
    api::StaticClusterLister lister(cluster);
    auto s = Scheduler::Create(cfg, plugins::NewInTreeRegistry(), *host, lister, o);
    INFO(s.status().ToString());
    REQUIRE(s.ok());
    sched = *std::move(s);
  }

  // Runs until idle, letting backoff expire between rounds, at most `rounds` times.
  void Drain(int rounds = 50) {
    for (int i = 0; i < rounds; ++i) {
      sched->RunUntilIdle();
      auto c = sched->queue().counts();
      if (c.active == 0 && c.backoff == 0) break;
      clock.Advance(absl::Seconds(11));
    }
  }
};

TEST_CASE("1000 pods onto 100 nodes: all bound, no node over-committed", "[integration]") {
  Env env;
  for (int i = 0; i < 100; ++i) {
    env.cluster.Add(MakeNode().Name(schedkit::StrCat("node-", i)).Capacity({{"cpu", "4"}, {"memory", "32Gi"}, {"pods", "110"}}).Obj());
  }
  for (int i = 0; i < 1000; ++i) {
    env.cluster.Add(MakePod().Name(schedkit::StrCat("pod-", i)).Req({{"cpu", "400m"}, {"memory", "1Gi"}}).Obj());
  }
  env.Start();
  env.Drain();
  CHECK(env.host->bound() == 1000);
  CHECK(env.host->overcommitted().empty());
  CHECK(env.host->double_binds().empty());
  // 100 nodes × 4 cpu / 400m = exactly 1000 slots: every node is full.
  std::map<std::string, int> per_node;
  for (const auto& [pod, node] : env.host->bindings()) ++per_node[node];
  CHECK(per_node.size() == 100);
  for (const auto& [node, n] : per_node) CHECK(n == 10);
  // The host hears of each pod as it delivered it, with the node beside it.
  CHECK(env.host->scheduled() == env.host->bindings());
  CHECK(env.host->calls_with_node_name() == 0);
}

TEST_CASE("with 20% of binds failing every pod still ends bound exactly once", "[integration]") {
  Env env;
  for (int i = 0; i < 50; ++i) {
    env.cluster.Add(MakeNode().Name(schedkit::StrCat("node-", i)).Capacity({{"cpu", "4"}, {"memory", "32Gi"}, {"pods", "110"}}).Obj());
  }
  for (int i = 0; i < 400; ++i) {
    env.cluster.Add(MakePod().Name(schedkit::StrCat("pod-", i)).Req({{"cpu", "500m"}}).Obj());
  }
  env.Start(/*fail_rate=*/0.2);
  env.Drain(200);
  CHECK(env.host->failed_binds() > 40);
  CHECK(env.host->bound() == 400);
  CHECK(env.host->overcommitted().empty());
  CHECK(env.host->double_binds().empty());
  CHECK(env.sched->cache().sizes().assumed_pods == 0);
  CHECK(env.sched->cache().sizes().pods == 400);
}

TEST_CASE("an unschedulable pod is moved back when a fitting node is added", "[integration]") {
  Env env;
  env.cluster.Add(MakeNode().Name("small").Capacity({{"cpu", "1"}, {"pods", "110"}}).Obj());
  env.cluster.Add(MakePod().Name("big").Req({{"cpu", "3"}}).Obj());
  env.Start();
  env.Drain();
  CHECK(env.host->bound() == 0);
  CHECK_THAT(env.host->last_failure("default/big"), Catch::StartsWith("0/1 nodes are available: 1 Insufficient cpu."));
  CHECK(env.sched->queue().counts().unschedulable == 1);
  auto node = MakeNode().Name("large").Capacity({{"cpu", "8"}, {"pods", "110"}}).Obj();
  env.host->AddNode(node);
  REQUIRE(env.sched->AddNode(std::make_shared<const api::v1::Node>(node)).ok());
  env.Drain();
  CHECK(env.host->bindings() == std::map<std::string, std::string>{{"default/big", "large"}});
}

TEST_CASE("gated pods wait until their gates are removed", "[integration]") {
  Env env;
  env.cluster.Add(MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"pods", "110"}}).Obj());
  env.cluster.Add(MakePod().Name("gated").Req({{"cpu", "1"}}).SchedulingGates({"example.com/wait"}).Obj());
  env.Start();
  env.Drain();
  CHECK(env.host->bound() == 0);
  CHECK(env.sched->queue().counts().gated == 1);
  auto ungated = MakePod().Name("gated").Req({{"cpu", "1"}}).Obj();
  ungated.mutable_metadata()->set_uid(env.cluster.Of<api::v1::Pod>()[0].metadata().uid());
  REQUIRE(env.sched->UpdatePod(std::make_shared<const api::v1::Pod>(ungated)).ok());
  env.Drain();
  CHECK(env.host->bound() == 1);
}

// Never runs what it is given unless asked: shows which binding cycles left the scheduling thread.
class ManualExecutor : public Executor {
 public:
  void Submit(std::function<void()> task) override { tasks.push_back(std::move(task)); }
  std::vector<std::function<void()>> tasks;
};

TEST_CASE("bind_on_scheduling_thread: ScheduleOne returns with the pod bound", "[integration]") {
  ManualExecutor manual;
  Env env;
  env.bind_on_scheduling_thread = true;
  for (int i = 0; i < 3; ++i) {
    env.cluster.Add(MakeNode().Name(schedkit::StrCat("n", i)).Capacity({{"cpu", "2"}, {"pods", "110"}}).Obj());
  }
  for (int i = 0; i < 7; ++i) {
    env.cluster.Add(MakePod().Name(schedkit::StrCat("p", i)).Req({{"cpu", "1"}}).Obj());
  }
  env.Start(0, &manual);
  for (int i = 1; i <= 6; ++i) {
    REQUIRE(env.sched->ScheduleOne());
    CHECK(env.host->bound() == static_cast<size_t>(i));
    CHECK(env.sched->cache().sizes().assumed_pods == 0);
  }
  REQUIRE(env.sched->ScheduleOne());  // the seventh pod does not fit
  CHECK(env.host->bound() == 6);
  CHECK(manual.tasks.empty());
  CHECK(env.host->overcommitted().empty());
}

TEST_CASE("bind_on_scheduling_thread: a failed bind unreserves and requeues the pod", "[integration]") {
  ManualExecutor manual;
  Env env;
  env.bind_on_scheduling_thread = true;
  env.cluster.Add(MakeNode().Name("n").Capacity({{"cpu", "2"}, {"pods", "110"}}).Obj());
  env.cluster.Add(MakePod().Name("p").Req({{"cpu", "1"}}).Obj());
  env.Start(/*fail_rate=*/1, &manual);
  REQUIRE(env.sched->ScheduleOne());
  CHECK(manual.tasks.empty());
  CHECK(env.host->bound() == 0);
  CHECK(env.sched->cache().sizes().assumed_pods == 0);
  const auto c = env.sched->queue().counts();
  CHECK(c.active + c.backoff + c.unschedulable == 1);  // not lost
}

TEST_CASE("an update written before our bind does not queue the bound pod again", "[integration]") {
  // What an informer delivers after a bind: first the pod's status patch
  // (nominatedNodeName, no spec.nodeName yet), then the bound pod. Until the
  // bound pod arrives the older update must not send the pod back to the
  // queue (found by the end-to-end comparison: the pod
  // was scheduled twice and preempted twice).
  Env env;
  env.cluster.Add(MakeNode().Name("a").Capacity({{"cpu", "4"}, {"pods", "110"}}).Obj());
  env.cluster.Add(MakePod().Name("p").UID("uid-p").Req({{"cpu", "1"}}).Obj());
  env.Start();
  REQUIRE(env.sched->ScheduleOne());
  REQUIRE(env.host->bound() == 1);
  auto stale = std::make_shared<api::v1::Pod>(env.cluster.Of<api::v1::Pod>()[0]);
  stale->mutable_status()->set_nominated_node_name("a");
  REQUIRE(env.sched->UpdatePod(stale).ok());
  CHECK_FALSE(env.sched->ScheduleOne());
  CHECK(env.sched->queue().counts().active == 0);
  // The bound pod confirms the bind.
  auto bound = std::make_shared<api::v1::Pod>(*stale);
  bound->mutable_spec()->set_node_name("a");
  REQUIRE(env.sched->UpdatePod(bound).ok());
  CHECK(env.sched->cache().sizes().pods == 1);
  env.Drain();
  CHECK(env.host->double_binds().empty());
  CHECK(env.host->bindings() == std::map<std::string, std::string>{{"default/p", "a"}});
}

TEST_CASE("a node deleted while pods are assumed on it", "[integration]") {
  // Binding happens later (a manual executor), so the pod stays assumed while
  // its node goes away; the failed bind forgets it and it is retried elsewhere.
  ManualExecutor manual;
  Env env;
  env.cluster.Add(MakeNode().Name("a").Capacity({{"cpu", "4"}, {"pods", "110"}}).Label("kubernetes.io/hostname", "a").Obj());
  env.cluster.Add(MakePod().Name("p").Req({{"cpu", "1"}}).NodeSelector({{"kubernetes.io/hostname", "a"}}).Obj());
  env.Start(0, &manual);
  REQUIRE(env.sched->ScheduleOne());
  CHECK(env.sched->cache().sizes().assumed_pods == 1);
  env.host->RemoveNode("a");
  REQUIRE(env.sched->DeleteNode("a").ok());
  CHECK(env.sched->cache().NumNodes() == 0);
  for (auto& t : manual.tasks) t();  // the bind fails: the node is gone
  manual.tasks.clear();
  CHECK(env.host->bound() == 0);
  CHECK(env.sched->cache().sizes().assumed_pods == 0);
  CHECK(env.sched->cache().sizes().pods == 0);
  // Not lost: the pod is queued again and lands when the node comes back.
  auto back = env.cluster.Of<api::v1::Node>()[0];
  env.host->AddNode(back);
  REQUIRE(env.sched->AddNode(std::make_shared<const api::v1::Node>(back)).ok());
  for (int i = 0; i < 5 && env.host->bound() == 0; ++i) {
    while (env.sched->ScheduleOne()) {
    }
    for (auto& t : manual.tasks) t();
    manual.tasks.clear();
    env.clock.Advance(absl::Seconds(11));
  }
  CHECK(env.host->bindings() == std::map<std::string, std::string>{{"default/p", "a"}});
}

TEST_CASE("backoff doubles up to the maximum (fake clock)", "[integration]") {
  Env env;
  env.cluster.Add(MakeNode().Name("n1").Capacity({{"cpu", "1"}, {"pods", "110"}}).Obj());
  env.cluster.Add(MakePod().Name("p").Req({{"cpu", "2"}}).Obj());
  env.Start();
  env.sched->RunUntilIdle();
  framework::QueuedPodInfo info;
  info.unschedulable_count = 1;
  CHECK(env.sched->queue().BackoffDuration(info) == absl::Seconds(1));
  info.unschedulable_count = 2;
  CHECK(env.sched->queue().BackoffDuration(info) == absl::Seconds(2));
  info.unschedulable_count = 4;
  CHECK(env.sched->queue().BackoffDuration(info) == absl::Seconds(8));
  info.unschedulable_count = 9;
  CHECK(env.sched->queue().BackoffDuration(info) == absl::Seconds(10));
}

}  // namespace
}  // namespace schedkit::scheduler

namespace schedkit::scheduler {
namespace {

// An out-of-tree Permit plugin that parks every pod for 10 s.
class WaitPermit : public framework::PermitPlugin {
 public:
  std::string_view Name() const override { return "WaitPermit"; }
  PermitPlugin::Result Permit(framework::CycleState&, const framework::PodInfo&, Symbol) override {
    return {framework::Status::Wait(), absl::Seconds(10)};
  }
};

struct PermitEnv {
  framework::FakeClock clock;
  LedgerHost host;
  std::unique_ptr<Scheduler> sched;

  explicit PermitEnv(bool bind_on_scheduling_thread = false) {
    api::ObjectSet cluster;
    cluster.Add(MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"pods", "110"}}).Obj());
    cluster.Add(MakePod().Name("p").UID("uid-p").Req({{"cpu", "1"}}).Obj());
    host.AddNode(cluster.Of<api::v1::Node>()[0]);
    framework::Registry registry = plugins::NewInTreeRegistry();
    REQUIRE(registry.Add("WaitPermit", [](const framework::PluginArgs&, framework::Handle&)
                                           -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
      return std::make_unique<WaitPermit>();
    }).ok());
    config::SchedulerConfiguration cfg = config::DefaultConfiguration();
    cfg.profiles[0].plugins.permit.enabled.push_back({"WaitPermit"});
    SchedulerOptions o;
    o.clock = &clock;  // binding runs on the default thread pool: WaitOnPermit blocks there
    o.bind_on_scheduling_thread = bind_on_scheduling_thread;
    api::StaticClusterLister lister(cluster);
    auto s = Scheduler::Create(cfg, registry, host, lister, o);
    REQUIRE(s.ok());
    sched = *std::move(s);
  }
  framework::Framework& fw() { return *sched->FrameworkFor("default-scheduler"); }
};

TEST_CASE("Permit wait: allowed pods bind", "[integration][tsan]") {
  PermitEnv env;
  REQUIRE(env.sched->ScheduleOne());
  CHECK(env.fw().HasWaitingPod("uid-p"));
  CHECK(env.host.bound() == 0);
  CHECK(env.fw().AllowWaitingPod("uid-p", Symbol::Intern("WaitPermit")));
  env.sched->WaitForBindings();
  CHECK(env.host.bindings() == std::map<std::string, std::string>{{"default/p", "n1"}});
}

TEST_CASE("Permit wait with bind_on_scheduling_thread: the waiting pod still binds on the pool",
          "[integration][tsan]") {
  PermitEnv env(/*bind_on_scheduling_thread=*/true);
  REQUIRE(env.sched->ScheduleOne());  // returns: the wait is not on this thread
  CHECK(env.fw().HasWaitingPod("uid-p"));
  CHECK(env.host.bound() == 0);
  CHECK(env.fw().AllowWaitingPod("uid-p", Symbol::Intern("WaitPermit")));
  env.sched->WaitForBindings();
  CHECK(env.host.bindings() == std::map<std::string, std::string>{{"default/p", "n1"}});
}

TEST_CASE("Permit wait: a rejected pod is unreserved and requeued", "[integration][tsan]") {
  PermitEnv env;
  REQUIRE(env.sched->ScheduleOne());
  CHECK(env.fw().RejectWaitingPod("uid-p", "not today"));
  env.sched->WaitForBindings();
  CHECK(env.host.bound() == 0);
  CHECK(env.sched->cache().sizes().assumed_pods == 0);
  CHECK(env.host.last_failure("default/p") == "0/1 nodes are available: 1 not today.");
  CHECK(env.sched->queue().counts().unschedulable + env.sched->queue().counts().backoff == 1);
}

TEST_CASE("Permit wait: the timeout rejects", "[integration][tsan]") {
  PermitEnv env;
  REQUIRE(env.sched->ScheduleOne());
  env.clock.Advance(absl::Seconds(10));
  env.sched->WaitForBindings();
  CHECK(env.host.bound() == 0);
  CHECK(env.host.last_failure("default/p") ==
        "0/1 nodes are available: 1 rejected due to timeout after waiting 10s at plugin WaitPermit.");
}

TEST_CASE("Run() schedules pods arriving as events; Stop() drains", "[integration][tsan]") {
  api::ObjectSet cluster;
  for (int i = 0; i < 5; ++i) {
    cluster.Add(MakeNode().Name(schedkit::StrCat("n", i)).Capacity({{"cpu", "4"}, {"pods", "110"}}).Obj());
  }
  LedgerHost host;
  for (const auto& n : cluster.Of<api::v1::Node>()) host.AddNode(n);
  api::StaticClusterLister lister(cluster);
  auto s = Scheduler::Create(config::DefaultConfiguration(), plugins::NewInTreeRegistry(), host, lister, {});
  REQUIRE(s.ok());
  Scheduler& sched = **s;
  sched.Run();
  for (int i = 0; i < 40; ++i) {
    REQUIRE(sched.AddPod(std::make_shared<const api::v1::Pod>(
                             MakePod().Name(schedkit::StrCat("p", i)).Req({{"cpu", "500m"}}).Obj()))
                .ok());
  }
  for (int tries = 0; tries < 500 && host.bound() < 40; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  sched.Stop();
  CHECK(host.bound() == 40);
  CHECK(host.overcommitted().empty());
  CHECK(sched.cache().sizes().assumed_pods == 0);
}

TEST_CASE("pods for other schedulers are ignored", "[integration]") {
  Env env;
  env.cluster.Add(MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"pods", "110"}}).Obj());
  env.cluster.Add(MakePod().Name("mine").Req({{"cpu", "1"}}).Obj());
  env.cluster.Add(MakePod().Name("theirs").SchedulerName("other-scheduler").Req({{"cpu", "1"}}).Obj());
  env.Start();
  env.Drain();
  CHECK(env.host->bindings() == std::map<std::string, std::string>{{"default/mine", "n1"}});
  CHECK(env.sched->queue().counts().unschedulable == 0);
}

TEST_CASE("a pod event the cache refuses leaves the pod table as the cache has it", "[integration]") {
  Env env;
  env.cluster.Add(MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"pods", "110"}}).Obj());
  env.Start();
  Scheduler& sched = *env.sched;
  auto bound = [](const std::string& name, const std::string& uid, const std::string& cpu) {
    return std::make_shared<const api::v1::Pod>(MakePod().Name(name).UID(uid).Node("n1").Req({{"cpu", cpu}}).Obj());
  };
  REQUIRE(sched.AddPod(bound("a", "uid-a", "1")).ok());
  // Another name with a uid the cache holds: refused, and not remembered.
  CHECK(absl::IsAlreadyExists(sched.AddPod(bound("b", "uid-a", "1"))));
  CHECK(sched.AddPod(bound("b", "uid-b", "1")).ok());
  // An update the cache refuses (its uid is not the one bound under that
  // name) keeps the old object: a later good update still applies.
  CHECK(absl::IsNotFound(sched.UpdatePod(bound("b", "uid-other", "3"))));
  REQUIRE(sched.UpdatePod(bound("b", "uid-b", "2")).ok());
  CHECK(sched.cache().GetPod("uid-b")->requests().milli_cpu == 2000);
  CHECK(sched.DeletePod("default", "b").ok());
  CHECK(sched.cache().GetPod("uid-b") == nullptr);
}

}  // namespace
}  // namespace schedkit::scheduler

namespace schedkit::scheduler {
namespace {

// A host that also evicts: victims leave the ledger and the scheduler.
class EvictingHost : public LedgerHost {
 public:
  Scheduler* sched = nullptr;
  absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod&, std::string_view) override {
    const std::string key = schedkit::StrCat(victim.metadata().namespace_(), "/", victim.metadata().name());
    {
      std::lock_guard<std::mutex> lock(evict_mu_);
      ++evictions_[key];
    }
    Release(victim);
    return sched->DeletePod(victim.metadata().namespace_(), victim.metadata().name());
  }
  std::map<std::string, int> evictions() const {
    std::lock_guard<std::mutex> lock(evict_mu_);
    return evictions_;
  }

 private:
  mutable std::mutex evict_mu_;
  std::map<std::string, int> evictions_;
};

TEST_CASE("a burst of high-priority pods preempts a full cluster with minimal victims", "[integration][preemption]") {
  // 20 nodes of 4 cpu, each full with four 1-cpu low-priority pods (two of
  // priority 1, two of priority 5). 20 high-priority 2-cpu pods arrive: each
  // needs exactly two victims, and the cheapest are the priority-1 pods.
  api::ObjectSet cluster;
  for (int n = 0; n < 20; ++n) {
    const std::string node = schedkit::StrCat("n", n);
    cluster.Add(MakeNode().Name(node).Capacity({{"cpu", "4"}, {"memory", "32Gi"}, {"pods", "110"}}).Obj());
    for (int k = 0; k < 4; ++k) {
      cluster.Add(MakePod()
                                .Name(schedkit::StrCat("low-", n, "-", k))
                                .Node(node)
                                .Priority(k < 2 ? 1 : 5)
                                .StartTime(schedkit::StrCat("2024-01-01T00:00:0", k, "Z"))
                                .Req({{"cpu", "1"}})
                                .Obj());
    }
  }
  for (int i = 0; i < 20; ++i) {
    cluster.Add(MakePod().Name(schedkit::StrCat("high-", i)).Priority(1000).Req({{"cpu", "2"}}).Obj());
  }
  framework::FakeClock clock;
  InlineExecutor executor;
  EvictingHost host;
  for (const auto& n : cluster.Of<api::v1::Node>()) host.AddNode(n);
  // The running pods count against the ledger's capacity too.
  for (const auto& p : cluster.Of<api::v1::Pod>()) {
    if (!p.spec().node_name().empty()) REQUIRE(host.Bind(p, p.spec().node_name()).ok());
  }
  SchedulerOptions o;
  o.clock = &clock;
  o.executor = &executor;
  o.seed = 3;
  api::StaticClusterLister lister(cluster);
  auto s = Scheduler::Create(config::DefaultConfiguration(), plugins::NewInTreeRegistry(), host, lister, o);
  REQUIRE(s.ok());
  host.sched = s->get();
  for (int round = 0; round < 20; ++round) {
    (*s)->RunUntilIdle();
    clock.Advance(absl::Seconds(11));
  }
  int placed = 0;
  for (const auto& [pod, node] : host.bindings()) placed += pod.rfind("default/high-", 0) == 0 ? 1 : 0;
  CHECK(placed == 20);
  CHECK(host.overcommitted().empty());
  const auto evictions = host.evictions();
  CHECK(evictions.size() == 40);  // two per preemptor: the minimum
  for (const auto& [victim, times] : evictions) {
    INFO(victim);
    CHECK(times == 1);  // each victim reported exactly once
    // Only the cheapest (priority 1, k < 2) pods were chosen.
    CHECK((victim.ends_with("-0") || victim.ends_with("-1")));
  }
}

}  // namespace
}  // namespace schedkit::scheduler

namespace schedkit::scheduler {
namespace {

TEST_CASE("a pod waiting for its claim is placed by its volume's zone once the claim arrives", "[integration][storage]") {
  Env env;
  env.cluster.Add(MakeNode().Name("n-a").Label("topology.kubernetes.io/zone", "a").Capacity({{"cpu", "4"}, {"pods", "110"}}).Obj());
  env.cluster.Add(MakeNode().Name("n-b").Label("topology.kubernetes.io/zone", "b").Capacity({{"cpu", "2"}, {"pods", "110"}}).Obj());
  env.cluster.Add(MakePod().Name("db").Req({{"cpu", "1"}}).PVC("data").Obj());
  api::v1::StorageClass sc;
  sc.mutable_metadata()->set_name("standard");
  sc.set_provisioner("pd.csi.storage.gke.io");
  sc.set_volume_binding_mode("Immediate");
  env.cluster.Add(sc);
  env.Start();
  env.Drain();
  CHECK(env.host->bound() == 0);
  CHECK_THAT(env.host->last_failure("default/db"),
             Catch::StartsWith("0/2 nodes are available: persistentvolumeclaim \"data\" not found."));

  // The volume first (no pod moves: it waits for a claim), then the claim bound to it.
  api::v1::PersistentVolume pv;
  pv.mutable_metadata()->set_name("pv-data");
  (*pv.mutable_metadata()->mutable_labels())["topology.kubernetes.io/zone"] = "b";
  (*pv.mutable_spec()->mutable_capacity())["storage"] = "1Gi";
  pv.mutable_spec()->add_access_modes("ReadWriteOnce");
  pv.mutable_spec()->set_storage_class_name("standard");
  REQUIRE(env.sched->Upsert(std::make_shared<const api::v1::PersistentVolume>(pv)).ok());
  api::v1::PersistentVolumeClaim pvc;
  pvc.mutable_metadata()->set_name("data");
  pvc.mutable_metadata()->set_namespace_("default");
  (*pvc.mutable_metadata()->mutable_annotations())["pv.kubernetes.io/bind-completed"] = "yes";
  pvc.mutable_spec()->add_access_modes("ReadWriteOnce");
  pvc.mutable_spec()->set_storage_class_name("standard");
  pvc.mutable_spec()->set_volume_name("pv-data");
  REQUIRE(env.sched->Upsert(std::make_shared<const api::v1::PersistentVolumeClaim>(pvc)).ok());
  env.Drain();
  // Zone b although n-a has more room: VolumeZone follows the volume.
  CHECK(env.host->bindings() == std::map<std::string, std::string>{{"default/db", "n-b"}});

  // Replacing is an update; deleting what is not held is NotFound.
  REQUIRE(env.sched->Upsert(std::make_shared<const api::v1::PersistentVolumeClaim>(pvc)).ok());
  CHECK(env.sched->Delete<api::v1::PersistentVolumeClaim>("default", "data").ok());
  const absl::Status again = env.sched->Delete<api::v1::PersistentVolumeClaim>("default", "data");
  CHECK(again.code() == absl::StatusCode::kNotFound);
  CHECK(again.message() == "PersistentVolumeClaim default/data not found");
  CHECK(env.sched->Delete<api::v1::StorageClass>("", "standard").ok());
  CHECK(env.sched->Delete<api::v1::PersistentVolume>("", "missing").message() == "PersistentVolume missing not found");
}

}  // namespace
}  // namespace schedkit::scheduler
