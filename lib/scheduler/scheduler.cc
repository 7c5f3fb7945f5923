// Building a Scheduler from its configuration (one framework per profile,
// one queue for all, the initial state from the host's lister), running and
// stopping it, and the ClusterClient that its plugins reach the host through.
#include "schedkit/scheduler/scheduler.h"

#include <memory>
#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "framework/records_nothing.h"
#include "schedkit/base/status_macros.h"
#include "scheduler/scheduler_impl.h"
#include "scheduler/thread_pool_executor.h"

namespace schedkit::scheduler {

using framework::PodInfo;
using framework::PodInfoPtr;

// ---- ClusterClient

absl::Status Scheduler::Impl::Bind(const PodInfo& pod, Symbol node) {
  return CallHost([&] { return host->Bind(pod.received_pod(), node.str()); });
}

absl::Status Scheduler::Impl::Evict(const PodInfo& victim, const PodInfo& preemptor, Symbol node) {
  return CallHost([&] { return host->Evict(victim.pod(), preemptor.pod(), node.str()); });
}

absl::Status Scheduler::Impl::ClearNominatedNodeName(const PodInfo& pod) {
  queue->DeleteNominatedPodIfExists(pod);
  const PodInfoPtr current = CurrentPod(pod);
  CallHostVoid([&] { host->OnNominatedNodeChanged(pod.pod(), ""); });
  if (current != nullptr && !current->nominated_node_name().empty()) {
    ApplyPendingPodUpdate(current, current->WithNominatedNodeName(""));
  }
  return absl::OkStatus();
}

// ---- the Scheduler

Scheduler::Scheduler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Scheduler::~Scheduler() { Stop(); }

absl::StatusOr<std::unique_ptr<Scheduler>> Scheduler::Create(const config::SchedulerConfiguration& config,
                                                             const framework::Registry& registry, Host& host,
                                                             const api::ClusterLister& lister,
                                                             SchedulerOptions options) {
  if (absl::Status s = config::ValidateConfiguration(config); !s.ok()) return s;
  if (absl::Status s = framework::CheckModeled(options.feature_gates); !s.ok()) return s;
  auto impl = std::make_unique<Impl>(options.clock != nullptr ? *options.clock : framework::Clock::Real());
  Impl& im = *impl;
  im.host = &host;
  if (options.leader != nullptr) {
    im.fenced_host = std::make_unique<FencedHost>(host, *options.leader);
    im.host = im.fenced_host.get();
  }
  im.options = options;
  im.config = config;
  if (options.executor != nullptr) {
    im.executor = options.executor;
  } else {
    im.owned_executor = std::make_unique<ThreadPoolExecutor>(std::max(1, options.binding_threads));
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

  // Every kind the registry knows that kube-scheduler reads; nodes and pods
  // have tables of their own.
  api::KindSet held;
  for (const api::Kind* kind : registry.kinds()) {
    if (kind->scheduler_reads() && kind != &api::KindOf<api::v1::Node>() && kind != &api::KindOf<api::v1::Pod>()) {
      held.Add(*kind);
    }
  }
  im.objects = std::make_unique<api::ObjectStore>(held);

  QueueOptions qo;
  qo.clock = im.clock;
  qo.metrics = im.metrics;
  qo.pod_initial_backoff = absl::Seconds(config.pod_initial_backoff_seconds);
  qo.pod_max_backoff = absl::Seconds(config.pod_max_backoff_seconds);
  qo.framework_for_pod = [p = &im](const PodInfo& pod) { return p->FrameworkForPod(pod); };
  // One for all profiles, as upstream builds its DRA manager once.
  auto shared_state = std::make_shared<framework::SharedState>();
  for (const framework::Profile& profile : config.profiles) {
    framework::FrameworkOptions fo;
    fo.shared_state = shared_state;
    fo.parallelizer = im.parallelizer;
    fo.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score;
    fo.clock = im.clock;
    fo.batch_clock = options.batch_clock;
    fo.metrics = im.metrics;
    fo.client = &im;
    fo.objects = im.objects.get();
    im.event_recorders.push_back(std::make_unique<HostEvents>(*im.host, profile.scheduler_name));
    fo.events = im.event_recorders.back().get();
    fo.memoize_per_node_outcomes = options.memoize_per_node_outcomes;
    fo.check_per_node_outcomes = options.check_per_node_outcomes;
    fo.feature_gates = &im.options.feature_gates;
    auto fw = framework::Framework::Create(registry, profile, fo);
    if (!fw.ok()) return fw.status();
    im.by_profile[profile.scheduler_name] = fw->get();
    im.frameworks.push_back(*std::move(fw));
  }
  // One queue for all profiles (they share the QueueSort plugin); it is
  // also the nominator every framework's two-pass filter consults.
  qo.less = &im.frameworks.front()->queue_sort();
  im.queue = std::make_unique<SchedulingQueue>(qo);
  for (auto& fw : im.frameworks) {
    fw->SetPodNominator(im.queue.get());
    fw->SetPodActivator(im.queue.get());
    // As upstream's informer handlers: a kind's changes reach the queue
    // only when some plugin registered for its events.
    for (const framework::Framework::PluginEvents& registered : fw->enqueue_events()) {
      for (const framework::ClusterEventWithHint& e : registered.events) {
        for (const api::Kind* kind : held) {
          if (e.event.resource == framework::EventResource::Of(*kind)) {
            im.raised_events.emplace(kind, e.event.resource);
          }
        }
      }
    }
  }

  std::unique_ptr<Scheduler> sched(new Scheduler(std::move(impl)));
  // Initial state: nodes, the other kinds, then pods (bound ones first so
  // pending pods see them).
  auto nodes = lister.List<api::v1::Node>();
  if (!nodes.ok()) return nodes.status();
  for (auto& n : *nodes) {
    if (absl::Status s = sched->impl_->cache.AddNode(n); !s.ok()) return s;
  }
  // Every other kind before pods, so that the first cycles see what pods
  // refer to (claims, namespaces, workloads).
  for (const api::Kind* kind : held) {
    absl::StatusOr<api::AnyObjectList> listed = lister.List(*kind);
    if (!listed.ok()) return listed.status();
    for (api::AnyObject& object : *listed) SCHEDKIT_RETURN_IF_ERROR(sched->Upsert(*kind, std::move(object)));
  }
  auto pods = lister.List<api::v1::Pod>();
  if (!pods.ok()) return pods.status();
  for (int pass = 0; pass < 2; ++pass) {
    for (auto& p : *pods) {
      const bool bound = !p->spec().node_name().empty();
      if ((pass == 0) != bound) continue;
      if (absl::Status s = sched->AddPod(p); !s.ok()) return s;
    }
  }
  sched->impl_->timers.Every(absl::Seconds(1), [q = im.queue.get()] { q->FlushBackoffQCompleted(); });
  sched->impl_->timers.Every(absl::Seconds(30), [q = im.queue.get()] { q->FlushUnschedulablePodsLeftover(); });
  return sched;
}

bool Scheduler::ScheduleOne() { return impl_->ScheduleOne(); }

int Scheduler::RunUntilIdle() {
  // Pop also takes from backoffQ when activeQ is empty (v1.37), so "nothing
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
  impl_->timers.Stop();
  impl_->queue->Close();
  impl_->objects->CancelWaits();
  if (impl_->loop.joinable()) impl_->loop.join();
  impl_->WaitForBindings();
}

void Scheduler::WaitForBindings() { impl_->WaitForBindings(); }

void Scheduler::SetCycleObserver(std::function<void(const CycleReport&)> observer) {
  std::lock_guard<std::mutex> lock(impl_->observer_mu);
  impl_->observer = std::move(observer);
}

SchedulingQueue& Scheduler::queue() { return *impl_->queue; }
const Cache& Scheduler::cache() const { return impl_->cache; }
const api::ObjectLister& Scheduler::objects() const { return *impl_->objects; }
const api::KindSet& Scheduler::kinds() const { return impl_->objects->kinds(); }

framework::Framework* Scheduler::FrameworkFor(std::string_view scheduler_name) const {
  auto it = impl_->by_profile.find(std::string(scheduler_name));
  return it == impl_->by_profile.end() ? nullptr : it->second;
}

}  // namespace schedkit::scheduler
