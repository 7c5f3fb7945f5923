#include "schedkit/scheduler/scheduler.h"

#include <atomic>
#include <deque>
#include <exception>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"
#include "framework/records_nothing.h"
#include "schedkit/api/str_cat.h"
#include "schedkit/framework/snapshot.h"
#include "scheduler/spinning_mutex.h"

namespace schedkit::scheduler {
namespace {

using framework::ClusterEvent;
using framework::Code;
using framework::CycleState;
using framework::EventObjects;
using framework::EventResource;
using framework::PodInfo;
using framework::PodInfoPtr;
using framework::QueuedPodInfo;
using framework::Status;

std::string PodKey(std::string_view ns, std::string_view name) { return schedkit::StrCat(ns, "/", name); }

// A small pool for binding cycles when the host gives no executor.
class ThreadPoolExecutor : public Executor {
 public:
  explicit ThreadPoolExecutor(int threads) {
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { Loop(); });
  }
  ~ThreadPoolExecutor() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }
  void Submit(std::function<void()> task) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      tasks_.push_back(std::move(task));
    }
    cv_.notify_one();
  }

 private:
  void Loop() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> workers_;
};

// Node update → the action bits upstream derives (nodeSchedulingPropertiesChange).
framework::ActionType NodeUpdateActions(const api::v1::Node& o, const api::v1::Node& n) {
  framework::ActionType a = 0;
  auto same_map = [](const auto& x, const auto& y) {
    if (x.size() != y.size()) return false;
    for (const auto& [k, v] : x) {
      auto it = y.find(k);
      if (it == y.end() || it->second != v) return false;
    }
    return true;
  };
  if (!same_map(o.status().allocatable(), n.status().allocatable())) a |= framework::kActionUpdateNodeAllocatable;
  if (!same_map(o.metadata().labels(), n.metadata().labels())) a |= framework::kActionUpdateNodeLabel;
  if (o.spec().unschedulable() != n.spec().unschedulable() ||
      o.spec().taints().size() != n.spec().taints().size() ||
      !std::equal(o.spec().taints().begin(), o.spec().taints().end(), n.spec().taints().begin(),
                  [](const auto& x, const auto& y) {
                    return x.key() == y.key() && x.value() == y.value() && x.effect() == y.effect();
                  })) {
    a |= framework::kActionUpdateNodeTaint;
  }
  if (o.status().conditions_size() != n.status().conditions_size()) a |= framework::kActionUpdateNodeCondition;
  if (!same_map(o.metadata().annotations(), n.metadata().annotations())) a |= framework::kActionUpdateNodeAnnotation;
  return a;
}

// Pod update → action bits (upstream podSchedulingPropertiesChange, the parts we model).
framework::ActionType PodUpdateActions(const PodInfo& o, const PodInfo& n) {
  framework::ActionType a = 0;
  if (!(o.labels() == n.labels())) a |= framework::kActionUpdatePodLabel;
  const auto& ro = o.requests();
  const auto& rn = n.requests();
  if (rn.milli_cpu < ro.milli_cpu || rn.memory < ro.memory || rn.ephemeral_storage < ro.ephemeral_storage) {
    a |= framework::kActionUpdatePodScaleDown;
  }
  if (o.tolerations().size() != n.tolerations().size()) a |= framework::kActionUpdatePodToleration;
  if (!o.scheduling_gates().empty() && n.scheduling_gates().empty()) {
    a |= framework::kActionUpdatePodSchedulingGatesEliminated;
  }
  return a == 0 ? framework::kActionUpdate : a;
}

}  // namespace

struct Scheduler::Impl : public framework::ClusterClient {
  Host* host = nullptr;
  SchedulerOptions options;
  config::SchedulerConfiguration config;
  std::unique_ptr<Executor> owned_executor;
  Executor* executor = nullptr;
  framework::Clock* clock = nullptr;
  std::unique_ptr<framework::NoopMetricsRecorder> noop_metrics;
  framework::MetricsRecorder* metrics = nullptr;
  std::shared_ptr<framework::Parallelizer> parallelizer;
  std::vector<std::unique_ptr<framework::Framework>> frameworks;
  absl::flat_hash_map<std::string, framework::Framework*> by_profile;
  std::unique_ptr<SchedulingQueue> queue;
  Cache cache;
  framework::Snapshot snapshot;  // scheduling thread only
  framework::SelectionState selection;

  // Every pod we know (latest object), by namespace/name.
  mutable SpinningMutex pods_mu;
  absl::flat_hash_map<std::string, PodInfoPtr> pods ABSL_GUARDED_BY(pods_mu);
  absl::flat_hash_map<std::string, std::shared_ptr<const api::v1::PodDisruptionBudget>> pdbs ABSL_GUARDED_BY(pods_mu);
  absl::flat_hash_map<std::string, std::shared_ptr<const api::v1::Node>> nodes ABSL_GUARDED_BY(pods_mu);

  std::mutex bind_mu;
  std::condition_variable bind_cv;
  int bindings_in_flight ABSL_GUARDED_BY(bind_mu) = 0;

  // Our own binding threads are joined before any member they use is gone.
  ~Impl() override { owned_executor.reset(); }

  std::mutex observer_mu;
  std::function<void(const CycleReport&)> observer ABSL_GUARDED_BY(observer_mu);

  // Periodic flushes; each re-arms itself from its callback.
  struct Periodic {
    std::mutex mu;
    std::shared_ptr<framework::Timer> timer ABSL_GUARDED_BY(mu);
    bool stopped ABSL_GUARDED_BY(mu) = false;
  };
  std::vector<std::shared_ptr<Periodic>> periodics;
  std::atomic<bool> stopping{false};
  std::thread loop;

  // ---- ClusterClient (what plugins reach through the Handle) ----
  absl::Status Bind(const PodInfo& pod, Symbol node) override { return CallHost([&] { return host->Bind(pod.received_pod(), node.str()); }); }
  absl::Status Evict(const PodInfo& victim, const PodInfo& preemptor, Symbol node) override {
    return CallHost([&] { return host->Evict(victim.pod(), preemptor.pod(), node.str()); });
  }
  absl::Status ClearNominatedNodeName(const PodInfo& pod) override {
    queue->DeleteNominatedPodIfExists(pod);
    PodInfoPtr current;
    {
      std::lock_guard<SpinningMutex> lock(pods_mu);
      auto it = pods.find(pod.key());
      if (it != pods.end() && it->second->uid() == pod.uid()) current = it->second;
    }
    CallHostVoid([&] { host->OnNominatedNodeChanged(pod.pod(), ""); });
    if (current != nullptr && !current->nominated_node_name().empty()) {
      ApplyPendingPodUpdate(current, current->WithNominatedNodeName(""));
    }
    return absl::OkStatus();
  }
  std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>> ListPodDisruptionBudgets() const override {
    std::lock_guard<SpinningMutex> lock(pods_mu);
    std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>> out;
    for (const auto& [k, v] : pdbs) out.push_back(v);
    return out;
  }

  // Host callbacks never take the scheduler down: errors and exceptions
  // become statuses.
  template <typename F>
  absl::Status CallHost(F&& f) {
    try {
      return f();
    } catch (const std::exception& e) {
      return absl::InternalError(schedkit::StrCat("host callback threw: ", e.what()));
    } catch (...) {
      return absl::InternalError("host callback threw");
    }
  }
  template <typename F>
  void CallHostVoid(F&& f) {
    try {
      f();
    } catch (...) {
    }
  }

  framework::Framework* FrameworkForPod(const PodInfo& pod) const {
    auto it = by_profile.find(std::string(pod.scheduler_name().str()));
    return it == by_profile.end() ? nullptr : it->second;
  }

  void Notify(CycleReport report) {
    std::lock_guard<std::mutex> lock(observer_mu);
    if (observer) observer(report);
  }

  void ArmTimers() {
    Arm(absl::Seconds(1), [this] { queue->FlushBackoffQCompleted(); });
    Arm(absl::Seconds(30), [this] { queue->FlushUnschedulablePodsLeftover(); });
  }

  void Arm(absl::Duration period, std::function<void()> work) {
    auto p = std::make_shared<Periodic>();
    periodics.push_back(p);
    ArmOnce(p, period, std::move(work));
  }

  void ArmOnce(std::shared_ptr<Periodic> p, absl::Duration period, std::function<void()> work) {
    std::weak_ptr<Periodic> weak = p;
    std::lock_guard<std::mutex> lock(p->mu);
    if (p->stopped) return;
    p->timer = clock->AfterFunc(period, [this, weak, period, work] {
      auto self = weak.lock();
      if (self == nullptr || stopping.load()) return;
      work();
      ArmOnce(self, period, work);
    });
  }

  void StopTimers() {
    for (auto& p : periodics) {
      std::lock_guard<std::mutex> lock(p->mu);
      p->stopped = true;
      if (p->timer) p->timer->Stop();
    }
  }

  void ReportFailure(const QueuedPodInfo& qpi, const Status& status, const std::string& message,
                     const framework::Diagnosis* diagnosis, const framework::NominatingInfo& nominating,
                     CycleReport& report) {
    QueuedPodInfo back = qpi;
    std::vector<std::string> plugins;
    if (diagnosis != nullptr) {
      back.unschedulable_plugins = diagnosis->unschedulable_plugins;
      back.pending_plugins = diagnosis->pending_plugins;
      for (Symbol p : diagnosis->unschedulable_plugins) plugins.emplace_back(p.str());
      std::sort(plugins.begin(), plugins.end());
    } else {
      back.unschedulable_plugins.clear();
      back.pending_plugins.clear();
    }
    report.code = status.code();
    report.message = message;
    CallHostVoid([&] { host->OnFailedScheduling(qpi.pod->pod(), message, plugins); });

    // The pod may have been deleted or bound meanwhile; then it is not requeued.
    PodInfoPtr current;
    {
      std::lock_guard<SpinningMutex> lock(pods_mu);
      auto it = pods.find(qpi.pod->key());
      if (it != pods.end() && it->second->uid() == qpi.pod->uid()) current = it->second;
    }
    if (current == nullptr || !current->node_name().empty()) {
      queue->Done(qpi.pod->uid());
      return;
    }
    back.pod = current;
    queue->AddUnschedulableIfNotPresent(std::move(back));
    if (nominating.mode == framework::NominatingInfo::Mode::kOverride) {
      const std::string node(nominating.node_name.str());
      PodInfoPtr nominated = current->WithNominatedNodeName(node);
      if (!node.empty()) {
        queue->AddNominatedPod(nominated, nominating.node_name);
        report.nominated_node = node;
      } else {
        queue->DeleteNominatedPodIfExists(*current);
      }
      CallHostVoid([&] { host->OnNominatedNodeChanged(nominated->pod(), node); });
      // The status update comes back as a pod update, as from an informer.
      ApplyPendingPodUpdate(current, std::move(nominated));
    }
  }

  // A pending pod changed (here: its nomination); upstream's
  // updatePodInSchedulingQueue.
  void ApplyPendingPodUpdate(const PodInfoPtr& old_pod, PodInfoPtr new_pod) {
    {
      std::lock_guard<SpinningMutex> lock(pods_mu);
      auto it = pods.find(old_pod->key());
      if (it == pods.end() || it->second->uid() != old_pod->uid()) return;
      it->second = new_pod;
    }
    if (cache.IsAssumed(old_pod->uid())) return;
    queue->Update(old_pod, new_pod);
    const Symbol old_nnn = old_pod->nominated_node_name();
    if (!old_nnn.empty() && old_nnn != new_pod->nominated_node_name()) {
      // Treat it like a pod leaving its nominated node: lower- or equal-priority
      // pods may fit there now.
      const int32_t priority = old_pod->priority();
      queue->OnClusterEventShared(
          ClusterEvent{EventResource::kAssignedPod, framework::kActionDelete, "AssignedPodDelete"},
          SharedEventObjects{.old_pod = old_pod->pod_ptr()},
          [priority](const PodInfo& p) { return p.priority() <= priority; });
    }
  }

  void BindingCycle(framework::Framework* fw, std::shared_ptr<CycleState> state, QueuedPodInfo qpi,
                    PodInfoPtr assumed) {
    const Symbol node = assumed->node_name();
    Status s = fw->WaitOnPermit(*assumed);
    if (s.IsSuccess()) {
      queue->Done(assumed->uid());
      s = fw->RunPreBindPlugins(*state, *assumed, node);
    }
    if (s.IsSuccess()) {
      s = fw->RunBindPlugins(*state, *assumed, node);
      if (s.IsSkip()) s = Status::Error("all bind plugins skipped");
    }
    if (s.IsSuccess()) {
      (void)cache.FinishBinding(*assumed);
      bool deleted_meanwhile = false;
      {
        std::lock_guard<SpinningMutex> lock(pods_mu);
        auto it = pods.find(assumed->key());
        if (it != pods.end() && it->second->uid() == assumed->uid()) {
          it->second = assumed;
        } else {
          deleted_meanwhile = true;
        }
      }
      if (deleted_meanwhile) {
        (void)cache.RemovePod(*assumed);
      } else {
        // What the host's informer would deliver next: the pod is now
        // assigned; pods rejected for lack of it may fit now.
        queue->OnClusterEventShared(
            ClusterEvent{EventResource::kAssignedPod, framework::kActionAdd, "AssignedPodAdd"},
            SharedEventObjects{.new_pod_info = assumed});
      }
      CallHostVoid([&] { host->OnScheduled(assumed->received_pod(), node.str()); });
      fw->RunPostBindPlugins(*state, *assumed, node);
      metrics->ObserveScheduleAttempt("scheduled", fw->profile_name(), absl::ZeroDuration());
    } else {
      // Undo: resources come back, which may help other pods.
      fw->RunReservePluginsUnreserve(*state, *assumed, node);
      (void)cache.ForgetPod(*assumed);
      queue->OnClusterEventShared(
          ClusterEvent{EventResource::kAssignedPod, framework::kActionDelete, "AssignedPodDelete"},
          SharedEventObjects{.old_pod_info = assumed});
      CycleReport report;
      report.pod = qpi.pod;
      report.profile = std::string(fw->profile_name());
      const std::string msg = s.Message();
      if (s.IsRejected()) {
        framework::Diagnosis d;
        d.unschedulable_plugins.insert(s.plugin());
        framework::FitError fe;
        fe.pod = qpi.pod;
        fe.num_all_nodes = 1;
        fe.diagnosis.node_to_status.Set(node, s);
        fe.diagnosis.unschedulable_plugins = d.unschedulable_plugins;
        ReportFailure(qpi, s, fe.Message(), &fe.diagnosis, {}, report);
      } else {
        ReportFailure(qpi, s, msg, nullptr, {}, report);
      }
      metrics->ObserveScheduleAttempt(s.IsRejected() ? "unschedulable" : "error", fw->profile_name(),
                                      absl::ZeroDuration());
    }
    // Notify under the lock: once the count reaches zero, Stop() may destroy
    // this object, so nothing here may touch it after the lock is released.
    std::lock_guard<std::mutex> lock(bind_mu);
    --bindings_in_flight;
    bind_cv.notify_all();
  }

  bool ScheduleOne() {
    std::optional<QueuedPodInfo> popped = queue->Pop();
    if (!popped) return false;
    ScheduleQueued(std::move(*popped));
    return true;
  }

  void ScheduleQueued(QueuedPodInfo qpi) {
    const PodInfoPtr pod = qpi.pod;
    // The clock is read only for a host's recorder, as the framework does.
    const absl::Time start = metrics != noop_metrics.get() ? absl::Now() : absl::Time();
    framework::Framework* fw = FrameworkForPod(*pod);
    if (fw == nullptr || pod->terminating() || cache.IsAssumed(pod->uid())) {
      queue->Done(pod->uid());
      return;
    }
    CycleReport report;
    report.pod = pod;
    report.profile = std::string(fw->profile_name());
    auto state = std::make_shared<CycleState>();
    cache.UpdateSnapshot(snapshot);
    framework::CycleTrace* trace = options.trace_cycles ? &report.trace : nullptr;
    framework::ScheduleOutcome out = fw->SchedulePod(*state, pod, snapshot, selection, trace);

    if (!out.status.IsSuccess()) {
      framework::NominatingInfo nominating;
      if (out.fit_error) {
        nominating.mode = framework::NominatingInfo::Mode::kOverride;  // clear unless preemption nominates
        if (fw->HasPostFilterPlugins()) {
          framework::PostFilterPlugin::Result post =
              fw->RunPostFilterPlugins(*state, *pod, out.fit_error->diagnosis.node_to_status);
          out.fit_error->diagnosis.post_filter_msg = post.status.Message();
          nominating = post.nominating_info;
          if (nominating.mode == framework::NominatingInfo::Mode::kNoop && !pod->nominated_node_name().empty()) {
            nominating = framework::NominatingInfo();  // keep the old nomination
          }
        }
        if (nominating.mode == framework::NominatingInfo::Mode::kOverride && nominating.node_name.empty() &&
            pod->nominated_node_name().empty()) {
          nominating = framework::NominatingInfo();  // nothing to clear
        }
        ReportFailure(qpi, out.status, out.fit_error->Message(), &out.fit_error->diagnosis, nominating, report);
        metrics->ObserveScheduleAttempt("unschedulable", fw->profile_name(), absl::Now() - start);
      } else {
        ReportFailure(qpi, out.status, out.status.Message(), nullptr, {}, report);
        metrics->ObserveScheduleAttempt("error", fw->profile_name(), absl::Now() - start);
      }
      Notify(std::move(report));
      return;
    }

    // Assume, Reserve, Permit on this thread; binding continues on the executor.
    const Symbol host_node = out.result.suggested_host;
    PodInfoPtr assumed = pod->WithNodeName(host_node);
    if (absl::Status s = cache.AssumePod(assumed); !s.ok()) {
      ReportFailure(qpi, Status::Error(std::string(s.message())), std::string(s.message()), nullptr, {}, report);
      Notify(std::move(report));
      return;
    }
    queue->DeleteNominatedPodIfExists(*pod);
    auto fail_after_assume = [&](const Status& s) {
      fw->RunReservePluginsUnreserve(*state, *assumed, host_node);
      (void)cache.ForgetPod(*assumed);
      if (s.IsRejected()) {
        framework::FitError fe;
        fe.pod = pod;
        fe.num_all_nodes = 1;
        fe.diagnosis.node_to_status.Set(host_node, s);
        fe.diagnosis.unschedulable_plugins.insert(s.plugin());
        ReportFailure(qpi, s, fe.Message(), &fe.diagnosis, {}, report);
      } else {
        ReportFailure(qpi, s, s.Message(), nullptr, {}, report);
      }
      Notify(std::move(report));
    };
    if (Status s = fw->RunReservePluginsReserve(*state, *assumed, host_node); !s.IsSuccess()) {
      fail_after_assume(s);
      return;
    }
    const Status permit = fw->RunPermitPlugins(*state, assumed, host_node);
    if (!permit.IsSuccess() && !permit.IsWait()) {
      fail_after_assume(permit);
      return;
    }
    report.node = std::string(host_node.str());
    Notify(std::move(report));
    state->DeleteSchedulingCycleOnly();
    {
      std::lock_guard<std::mutex> lock(bind_mu);
      ++bindings_in_flight;
    }
    if (options.bind_on_scheduling_thread && permit.IsSuccess()) {
      BindingCycle(fw, std::move(state), std::move(qpi), std::move(assumed));
      return;
    }
    executor->Submit([this, fw, state, qpi = std::move(qpi), assumed]() mutable {
      BindingCycle(fw, std::move(state), std::move(qpi), std::move(assumed));
    });
  }

  void WaitForBindings() {
    std::unique_lock<std::mutex> lock(bind_mu);
    bind_cv.wait(lock, [this] { return bindings_in_flight == 0; });
  }
};

Scheduler::Scheduler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Scheduler::~Scheduler() { Stop(); }

absl::StatusOr<std::unique_ptr<Scheduler>> Scheduler::Create(const config::SchedulerConfiguration& config,
                                                             const framework::Registry& registry, Host& host,
                                                             const api::ClusterLister& lister,
                                                             SchedulerOptions options) {
  if (absl::Status s = config::ValidateConfiguration(config); !s.ok()) return s;
  auto impl = std::make_unique<Impl>();
  Impl& im = *impl;
  im.host = &host;
  im.options = options;
  im.config = config;
  im.clock = options.clock != nullptr ? options.clock : &framework::Clock::Real();
  if (options.executor != nullptr) {
    im.executor = options.executor;
  } else {
    im.owned_executor = std::make_unique<ThreadPoolExecutor>(4);
    im.executor = im.owned_executor.get();
  }
  // A recorder that records nothing counts as none, so the clock is not read for it.
  if (!framework::RecordsNothing(options.metrics)) {
    im.metrics = options.metrics;
  } else {
    im.noop_metrics = std::make_unique<framework::NoopMetricsRecorder>();
    im.metrics = im.noop_metrics.get();
  }
  im.selection.tie_break = options.tie_break;
  im.selection.rng.seed(options.seed != 0 ? options.seed : std::random_device{}());
  im.parallelizer = std::make_shared<framework::Parallelizer>(config.parallelism);

  QueueOptions qo;
  qo.clock = im.clock;
  qo.metrics = im.metrics;
  qo.pod_initial_backoff = absl::Seconds(config.pod_initial_backoff_seconds);
  qo.pod_max_backoff = absl::Seconds(config.pod_max_backoff_seconds);
  qo.framework_for_pod = [p = &im](const PodInfo& pod) { return p->FrameworkForPod(pod); };
  for (const framework::Profile& profile : config.profiles) {
    framework::FrameworkOptions fo;
    fo.parallelizer = im.parallelizer;
    fo.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score;
    fo.clock = im.clock;
    fo.metrics = im.metrics;
    fo.client = &im;
    fo.memoize_per_node_outcomes = options.memoize_per_node_outcomes;
    auto fw = framework::Framework::Create(registry, profile, fo);
    if (!fw.ok()) return fw.status();
    im.by_profile[profile.scheduler_name] = fw->get();
    im.frameworks.push_back(*std::move(fw));
  }
  // One queue for all profiles (they share the QueueSort plugin); it is
  // also the nominator every framework's two-pass filter consults.
  qo.less = &im.frameworks.front()->queue_sort();
  im.queue = std::make_unique<SchedulingQueue>(qo);
  for (auto& fw : im.frameworks) fw->SetPodNominator(im.queue.get());

  std::unique_ptr<Scheduler> sched(new Scheduler(std::move(impl)));
  // Initial state: nodes, namespaces, PDBs, then pods (bound ones first so
  // pending pods see them).
  auto nodes = lister.ListNodes();
  if (!nodes.ok()) return nodes.status();
  for (auto& n : *nodes) {
    if (absl::Status s = sched->impl_->cache.AddNode(n); !s.ok()) return s;
  }
  auto namespaces = lister.ListNamespaces();
  if (!namespaces.ok()) return namespaces.status();
  for (auto& ns : *namespaces) sched->impl_->cache.SetNamespace(*ns);
  auto pdbs = lister.ListPodDisruptionBudgets();
  if (!pdbs.ok()) return pdbs.status();
  for (auto& p : *pdbs) {
    if (absl::Status s = sched->AddPodDisruptionBudget(p); !s.ok()) return s;
  }
  auto pods = lister.ListPods();
  if (!pods.ok()) return pods.status();
  for (int pass = 0; pass < 2; ++pass) {
    for (auto& p : *pods) {
      const bool bound = !p->spec().node_name().empty();
      if ((pass == 0) != bound) continue;
      if (absl::Status s = sched->AddPod(p); !s.ok()) return s;
    }
  }
  sched->impl_->ArmTimers();
  return sched;
}

absl::Status Scheduler::AddNode(std::shared_ptr<const api::v1::Node> node) {
  if (absl::Status s = impl_->cache.AddNode(node); !s.ok()) return s;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    impl_->nodes[node->metadata().name()] = node;
  }
  impl_->queue->OnClusterEventShared(ClusterEvent{EventResource::kNode, framework::kActionAdd, "NodeAdd"},
                                     SharedEventObjects{.new_node = std::move(node)});
  return absl::OkStatus();
}

absl::Status Scheduler::UpdateNode(std::shared_ptr<const api::v1::Node> node) {
  if (absl::Status s = impl_->cache.UpdateNode(node); !s.ok()) return s;
  std::shared_ptr<const api::v1::Node> old;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    auto& slot = impl_->nodes[node->metadata().name()];
    old = std::move(slot);
    slot = node;
  }
  const framework::ActionType actions = old ? NodeUpdateActions(*old, *node) : framework::kActionAdd;
  if (actions != 0) {
    impl_->queue->OnClusterEventShared(
        ClusterEvent{EventResource::kNode, actions, "NodeUpdate"},
        SharedEventObjects{.old_node = std::move(old), .new_node = std::move(node)});
  }
  return absl::OkStatus();
}

absl::Status Scheduler::DeleteNode(std::string_view name) {
  if (absl::Status s = impl_->cache.RemoveNode(name); !s.ok()) return s;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    impl_->nodes.erase(std::string(name));
  }
  impl_->queue->OnClusterEvent(ClusterEvent{EventResource::kNode, framework::kActionDelete, "NodeDelete"}, {});
  return absl::OkStatus();
}

absl::Status Scheduler::AddPod(std::shared_ptr<const api::v1::Pod> pod) {
  auto info = framework::PodInfo::Create(std::move(pod));
  if (!info.ok()) return info.status();
  PodInfoPtr p = *std::move(info);
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    if (impl_->pods.contains(p->key())) {
      return absl::AlreadyExistsError(schedkit::StrCat("pod ", p->key(), " already exists"));
    }
    impl_->pods[p->key()] = p;
  }
  if (!p->node_name().empty()) {
    if (absl::Status s = impl_->cache.AddPod(p); !s.ok()) return s;
    impl_->queue->OnClusterEventShared(
        ClusterEvent{EventResource::kAssignedPod, framework::kActionAdd, "AssignedPodAdd"},
        SharedEventObjects{.new_pod = p->pod_ptr()});
    return absl::OkStatus();
  }
  if (impl_->FrameworkForPod(*p) == nullptr) return absl::OkStatus();  // another scheduler's pod
  impl_->queue->Add(std::move(p));
  return absl::OkStatus();
}

absl::Status Scheduler::UpdatePod(std::shared_ptr<const api::v1::Pod> pod) {
  auto info = framework::PodInfo::Create(std::move(pod));
  if (!info.ok()) return info.status();
  PodInfoPtr p = *std::move(info);
  PodInfoPtr old;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    auto it = impl_->pods.find(p->key());
    if (it == impl_->pods.end()) return absl::NotFoundError(schedkit::StrCat("pod ", p->key(), " not found"));
    old = it->second;
    it->second = p;
  }
  const bool was_bound = !old->node_name().empty() && !impl_->cache.IsAssumed(old->uid());
  if (!p->node_name().empty()) {
    if (was_bound) {
      if (absl::Status s = impl_->cache.UpdatePod(p); !s.ok()) return s;
      impl_->queue->OnClusterEventShared(
          ClusterEvent{EventResource::kAssignedPod, PodUpdateActions(*old, *p), "AssignedPodUpdate"},
          SharedEventObjects{.old_pod = old->pod_ptr(), .new_pod = p->pod_ptr()});
    } else {
      // Bound by the host (or confirming our own bind).
      impl_->queue->Delete(*old);
      if (absl::Status s = impl_->cache.AddPod(p); !s.ok() && !absl::IsAlreadyExists(s)) return s;
      impl_->queue->OnClusterEventShared(
          ClusterEvent{EventResource::kAssignedPod, framework::kActionAdd, "AssignedPodAdd"},
          SharedEventObjects{.new_pod = p->pod_ptr()});
    }
    return absl::OkStatus();
  }
  if (impl_->FrameworkForPod(*p) != nullptr) impl_->queue->Update(old, p);
  return absl::OkStatus();
}

absl::Status Scheduler::DeletePod(std::string_view namespace_name, std::string_view name) {
  PodInfoPtr old;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    auto it = impl_->pods.find(PodKey(namespace_name, name));
    if (it == impl_->pods.end()) {
      return absl::NotFoundError(schedkit::StrCat("pod ", namespace_name, "/", name, " not found"));
    }
    old = it->second;
    impl_->pods.erase(it);
  }
  impl_->queue->DeleteNominatedPodIfExists(*old);
  PodInfoPtr cached = impl_->cache.GetPod(old->uid());
  if (cached != nullptr) {
    // A waiting pod is rejected; an assumed one is forgotten by its binding cycle.
    for (auto& fw : impl_->frameworks) fw->RejectWaitingPod(old->uid(), "pod deleted");
    if (!impl_->cache.IsAssumed(old->uid())) {
      if (absl::Status s = impl_->cache.RemovePod(*cached); !s.ok()) return s;
    }
    impl_->queue->OnClusterEventShared(
        ClusterEvent{EventResource::kAssignedPod, framework::kActionDelete, "AssignedPodDelete"},
        SharedEventObjects{.old_pod = cached->pod_ptr()});
    return absl::OkStatus();
  }
  impl_->queue->Delete(*old);
  return absl::OkStatus();
}

absl::Status Scheduler::AddPodDisruptionBudget(std::shared_ptr<const api::v1::PodDisruptionBudget> pdb) {
  std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
  impl_->pdbs[PodKey(pdb->metadata().namespace_(), pdb->metadata().name())] = std::move(pdb);
  return absl::OkStatus();
}

absl::Status Scheduler::DeletePodDisruptionBudget(std::string_view namespace_name, std::string_view name) {
  std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
  if (impl_->pdbs.erase(PodKey(namespace_name, name)) == 0) {
    return absl::NotFoundError(schedkit::StrCat("PodDisruptionBudget ", namespace_name, "/", name, " not found"));
  }
  return absl::OkStatus();
}

void Scheduler::SetNamespace(const api::v1::Namespace& ns) { impl_->cache.SetNamespace(ns); }

bool Scheduler::ScheduleOne() { return impl_->ScheduleOne(); }

int Scheduler::RunUntilIdle() {
  // Pop also takes from backoffQ when activeQ is empty (v1.35), so "nothing
  // to pop after every binding finished" is the idle condition.
  int cycles = 0;
  for (;;) {
    while (impl_->ScheduleOne()) ++cycles;
    impl_->WaitForBindings();
    if (!impl_->ScheduleOne()) return cycles;
    ++cycles;
  }
}

void Scheduler::Run() {
  if (impl_->loop.joinable()) return;
  impl_->stopping = false;
  impl_->loop = std::thread([this] {
    while (!impl_->stopping.load()) {
      if (!impl_->ScheduleOne()) {
          if (auto next = impl_->queue->PopWait(absl::Now() + absl::Milliseconds(100))) {
          impl_->ScheduleQueued(std::move(*next));
        }
      }
    }
  });
}

void Scheduler::Stop() {
  impl_->stopping = true;
  impl_->queue->Close();
  if (impl_->loop.joinable()) impl_->loop.join();
  impl_->StopTimers();
  impl_->WaitForBindings();
}

void Scheduler::WaitForBindings() { impl_->WaitForBindings(); }

void Scheduler::SetCycleObserver(std::function<void(const CycleReport&)> observer) {
  std::lock_guard<std::mutex> lock(impl_->observer_mu);
  impl_->observer = std::move(observer);
}

SchedulingQueue& Scheduler::queue() { return *impl_->queue; }
const Cache& Scheduler::cache() const { return impl_->cache; }

framework::Framework* Scheduler::FrameworkFor(std::string_view scheduler_name) const {
  auto it = impl_->by_profile.find(std::string(scheduler_name));
  return it == impl_->by_profile.end() ? nullptr : it->second;
}

}  // namespace schedkit::scheduler
