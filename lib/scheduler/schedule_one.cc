// The scheduling and binding cycles (upstream's schedule_one.go): pop a pod,
// run its profile's algorithm on a fresh snapshot, and on success assume it,
// Reserve and Permit on the scheduling thread, then wait for Permit, PreBind,
// Bind and PostBind in the binding cycle. Any failure after the assume
// unreserves and forgets the pod; every failure reports to the host and
// requeues the pod as the queue decides.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "scheduler/scheduler_impl.h"
#include "framework/cycle_bookkeeping.h"

namespace schedkit::scheduler {

using framework::ClusterEvent;
using framework::CycleState;
using framework::EventResource;
using framework::PodInfo;
using framework::PodInfoPtr;
using framework::QueuedPodInfo;
using framework::Status;

void Scheduler::Impl::ReportFailure(const QueuedPodInfo& qpi, const Status& status, const std::string& message,
                                    const framework::Diagnosis* diagnosis,
                                    const framework::NominatingInfo& nominating, CycleReport& report) {
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

  // The pod may have been deleted, re-created or bound meanwhile; then it is
  // not requeued. A re-created pod is another pod: nothing is said of it.
  PodInfoPtr current;
  bool recreated = false;
  {
    std::lock_guard<SpinningMutex> lock(pods_mu);
    if (const PodInfoPtr* in = pods.Find(qpi.pod->key()); in != nullptr) {
      if ((*in)->uid() == qpi.pod->uid()) {
        current = *in;
      } else {
        recreated = true;
      }
    }
  }
  if (recreated) {
    queue->Done(qpi.pod->uid());
    return;
  }
  if (framework::Framework* fw = FrameworkForPod(*qpi.pod)) {
    fw->events()->Event(*qpi.pod, nullptr, "Warning", "FailedScheduling", "Scheduling", message);
  }
  if (current == nullptr || !current->node_name().empty()) {
    queue->Done(qpi.pod->uid());
    return;
  }
  back.pod = current;
  queue->AddUnschedulableIfNotPresent(std::move(back));
  std::optional<std::string_view> nominated_node;
  if (nominating.mode == framework::NominatingInfo::Mode::kOverride) {
    nominated_node = nominating.node_name.str();
  }
  const SchedulingFailure failure{
      .scheduler_name = current->scheduler_name().str(),
      .reason = status.IsRejected() ? "Unschedulable" : "SchedulerError",
      .message = message,
      .unschedulable_plugins = plugins,
      .nominated_node = nominated_node,
  };
  CallHostVoid([&] { host->OnFailedScheduling(current->pod(), failure); });
  if (nominating.mode == framework::NominatingInfo::Mode::kOverride) {
    const std::string node(nominating.node_name.str());
    PodInfoPtr nominated = current->WithNominatedNodeName(node);
    if (!node.empty()) {
      queue->AddNominatedPod(nominated, nominating.node_name);
      report.nominated_node = node;
    } else {
      queue->DeleteNominatedPodIfExists(*current);
    }
    // The status update comes back as a pod update, as from an informer.
    ApplyPendingPodUpdate(current, std::move(nominated));
  } else if (!current->nominated_node_name().empty()) {
    // Upstream's ModeNoop: the pod keeps the nomination its status holds
    // (e.g. the node a failed binding cycle had written there).
    queue->AddNominatedPod(current, Symbol());
  }
}

void Scheduler::Impl::ReportFailureOnNode(const QueuedPodInfo& qpi, Symbol node, const Status& status,
                                          CycleReport& report) {
  // Upstream's clearNominatedNode, as for a failure before the assume: the
  // nomination the popped pod had goes (one the binding cycle wrote itself
  // is newer than that pod, and upstream's status patch leaves it).
  framework::NominatingInfo clear;
  if (!qpi.pod->nominated_node_name().empty()) clear.mode = framework::NominatingInfo::Mode::kOverride;
  if (!status.IsRejected()) {
    ReportFailure(qpi, status, status.Message(), nullptr, clear, report);
    return;
  }
  framework::FitError fe;
  fe.pod = qpi.pod;
  fe.num_all_nodes = 1;
  fe.diagnosis.node_to_status.Set(node, status);
  fe.diagnosis.unschedulable_plugins.insert(status.plugin());
  ReportFailure(qpi, status, fe.Message(), &fe.diagnosis, clear, report);
}

void Scheduler::Impl::NominateForBinding(const PodInfo& assumed, Symbol node) {
  const PodInfoPtr current = CurrentPod(assumed);
  if (current == nullptr || current->nominated_node_name() == node) return;
  CallHostVoid([&] { host->OnNominatedNodeChanged(current->pod(), node.str()); });
  // As the informer would echo the status update.
  ApplyPendingPodUpdate(current, current->WithNominatedNodeName(std::string(node.str())));
}

void Scheduler::Impl::ApplyPendingPodUpdate(const PodInfoPtr& old_pod, PodInfoPtr new_pod) {
  {
    std::lock_guard<SpinningMutex> lock(pods_mu);
    PodInfoPtr* in = pods.Find(old_pod->key());
    if (in == nullptr || (*in)->uid() != old_pod->uid()) return;
    *in = new_pod;
  }
  if (cache.IsAssumed(old_pod->uid())) return;
  queue->Update(old_pod, new_pod);
  const Symbol old_nnn = old_pod->nominated_node_name();
  if (!old_nnn.empty() && old_nnn != new_pod->nominated_node_name()) {
    // Treat it like a pod leaving its nominated node: lower- or equal-priority
    // pods may fit there now.
    const int32_t priority = old_pod->priority();
    queue->OnClusterEventShared(
        ClusterEvent{EventResource::AssignedPod(), framework::kActionDelete, "AssignedPodDelete"},
        SharedEventObjects::Of<api::v1::Pod>(old_pod->pod_ptr(), nullptr),
        [priority](const PodInfo& p) { return p.priority() <= priority; });
  }
}

void Scheduler::Impl::BindingCycle(framework::Framework* fw, std::shared_ptr<CycleState> state, QueuedPodInfo qpi,
                                   PodInfoPtr assumed, absl::Time start) {
  const Symbol node = assumed->node_name();
  // Upstream's NominatedNodeNameForExpectation (on in v1.37): when PreBind
  // has work or Permit makes the pod wait, binding may take a while, so the
  // pod's status names the node first, for other components to see.
  Status s = fw->RunPreBindPreFlights(*state, *assumed, node);
  if (s.IsSuccess() || (s.IsSkip() && fw->HasWaitingPod(assumed->uid()))) {
    NominateForBinding(*assumed, node);
  }
  if (s.IsSuccess() || s.IsSkip()) {
    s = fw->WaitOnPermit(*assumed);
  } else if (fw->RejectWaitingPod(assumed->uid(), s.Message())) {
    (void)fw->WaitOnPermit(*assumed);  // takes it out of the waiting pods
  }
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
      PodInfoPtr* in = pods.Find(assumed->key());
      if (in != nullptr && (*in)->uid() == assumed->uid()) {
        *in = assumed;
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
          ClusterEvent{EventResource::AssignedPod(), framework::kActionAdd, "AssignedPodAdd"},
          SharedEventObjects::OfPodInfos(nullptr, assumed));
    }
    CallHostVoid([&] { host->OnScheduled(assumed->received_pod(), node.str()); });
    fw->events()->Event(*assumed, nullptr, "Normal", "Scheduled", "Binding",
                        schedkit::StrCat("Successfully assigned ", assumed->namespace_().str(), "/",
                                         assumed->name().str(), " to ", node.str()));
    fw->RunPostBindPlugins(*state, *assumed, node);
    if (metrics != noop_metrics.get()) {
      const absl::Time now = absl::Now();
      metrics->ObserveScheduleAttempt("scheduled", fw->profile_name(), now - start);
      if (qpi.initial_attempt_timestamp != absl::InfinitePast()) {
        metrics->ObservePodScheduled(qpi.attempts, clock->Now() - qpi.initial_attempt_timestamp);
      }
    }
  } else {
    // Undo: resources come back, which may help other pods.
    fw->RunReservePluginsUnreserve(*state, *assumed, node);
    (void)cache.ForgetPod(*assumed);
    queue->OnClusterEventShared(
        ClusterEvent{EventResource::AssignedPod(), framework::kActionDelete, "AssignedPodDelete"},
        SharedEventObjects::OfPodInfos(assumed, nullptr));
    CycleReport report;
    report.pod = qpi.pod;
    report.profile = std::string(fw->profile_name());
    ReportFailureOnNode(qpi, node, s, report);
    metrics->ObserveScheduleAttempt(s.IsRejected() ? "unschedulable" : "error", fw->profile_name(),
                                    metrics != noop_metrics.get() ? absl::Now() - start : absl::ZeroDuration());
  }
  // Notify under the lock: once the count reaches zero, Stop() may destroy
  // this object, so nothing here may touch it after the lock is released.
  std::lock_guard<std::mutex> lock(bind_mu);
  --bindings_in_flight;
  bind_cv.notify_all();
}

bool Scheduler::Impl::ScheduleOne() {
  std::optional<QueuedPodInfo> popped = queue->Pop();
  if (!popped) return false;
  ScheduleQueued(std::move(*popped));
  return true;
}

void Scheduler::Impl::ScheduleQueued(QueuedPodInfo qpi) {
  ++selection.scheduling_cycle;  // every pop is a cycle, skipped pods' too
  const PodInfoPtr pod = qpi.pod;
  // The clock is read only for a host's recorder, as the framework does.
  const absl::Time start = metrics != noop_metrics.get() ? absl::Now() : absl::Time();
  framework::Framework* fw = FrameworkForPod(*pod);
  if (fw != nullptr && pod->terminating()) {
    fw->events()->Event(*pod, nullptr, "Warning", "FailedScheduling", "Scheduling",
                        schedkit::StrCat("skip schedule deleting pod: ", pod->namespace_().str(), "/",
                                         pod->name().str()));
  }
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
      // Upstream's clearNominatedNode: an error drops the pod's nomination.
      framework::NominatingInfo clear;
      if (!pod->nominated_node_name().empty()) clear.mode = framework::NominatingInfo::Mode::kOverride;
      ReportFailure(qpi, out.status, out.status.Message(), nullptr, clear, report);
      metrics->ObserveScheduleAttempt("error", fw->profile_name(), absl::Now() - start);
    }
    Notify(report);
    return;
  }

  // Assume, Reserve, Permit on this thread; binding continues on the executor.
  const Symbol host_node = out.result.suggested_host;
  PodInfoPtr assumed = pod->WithNodeName(host_node);
  if (absl::Status s = cache.AssumePod(assumed); !s.ok()) {
    ReportFailure(qpi, Status::Error(std::string(s.message())), std::string(s.message()), nullptr, {}, report);
    Notify(report);
    return;
  }
  queue->DeleteNominatedPodIfExists(*pod);
  auto fail_after_assume = [&](const Status& s) {
    fw->RunReservePluginsUnreserve(*state, *assumed, host_node);
    (void)cache.ForgetPod(*assumed);
    ReportFailureOnNode(qpi, host_node, s, report);
    Notify(report);
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
  Notify(report);
  framework::CycleBookkeeping::DeleteSchedulingCycleOnly(*state);
  {
    std::lock_guard<std::mutex> lock(bind_mu);
    ++bindings_in_flight;
  }
  if (options.bind_on_scheduling_thread && permit.IsSuccess()) {
    BindingCycle(fw, std::move(state), std::move(qpi), std::move(assumed), start);
    return;
  }
  executor->Submit([this, fw, state, qpi = std::move(qpi), assumed, start]() mutable {
    BindingCycle(fw, std::move(state), std::move(qpi), std::move(assumed), start);
  });
}

void Scheduler::Impl::WaitForBindings() {
  std::unique_lock<std::mutex> lock(bind_mu);
  bind_cv.wait(lock, [this] { return bindings_in_flight == 0; });
}

}  // namespace schedkit::scheduler
