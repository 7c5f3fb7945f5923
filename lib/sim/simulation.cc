#include "sim/simulation.h"

#include "schedkit/api/v1/resource_claim.h"
#include "sim/claim_controller.h"
#include "sim/pv_controller.h"
#include "sim/workload_pods.h"

#include <algorithm>
#include <chrono>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "schedkit/api/lister.h"
#include "schedkit/api/v1/priority_class.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/clock.h"
#include "sim/claim_store.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/scheduler/scheduler.h"

namespace schedkit::sim {
namespace {

std::string Key(const api::v1::Pod& p) { return schedkit::StrCat(p.metadata().namespace_(), "/", p.metadata().name()); }

// What the Priority admission plugin would have written into the pod.
void AdmitPriorities(api::ObjectSet& cluster) {
  absl::flat_hash_map<std::string, const api::v1::PriorityClass*> classes;
  const api::v1::PriorityClass* global_default = nullptr;
  for (const auto& pc : cluster.Of<api::v1::PriorityClass>()) {
    classes[pc.metadata().name()] = &pc;
    if (pc.global_default()) global_default = &pc;
  }
  for (api::v1::Pod* pod : cluster.MutableAll<api::v1::Pod>()) {
    auto* spec = pod->mutable_spec();
    const api::v1::PriorityClass* pc = nullptr;
    if (auto it = classes.find(spec->priority_class_name()); it != classes.end()) {
      pc = it->second;
    } else if (spec->priority_class_name().empty()) {
      pc = global_default;
    }
    if (!spec->has_priority()) spec->set_priority(pc != nullptr ? pc->value() : 0);
    if (!spec->has_preemption_policy() && pc != nullptr && pc->has_preemption_policy()) {
      spec->set_preemption_policy(pc->preemption_policy());
    }
  }
}

// The in-memory host: binds always succeed, evictions delete the victim.
class SimHost : public scheduler::Host {
 public:
  scheduler::Scheduler* sched = nullptr;
  PvController* volumes = nullptr;
  ClaimStore* claims = nullptr;
  const framework::Clock* clock = nullptr;
  // The wall time of the run as upstream would spend it (batch ages).
  framework::FakeClock* wall_clock = nullptr;
  static constexpr absl::Duration kVolumeBindingPoll = absl::Seconds(1);

  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override {
    std::lock_guard<std::mutex> lock(mu_);
    bound_[Key(pod)] = std::string(node);
    return absl::OkStatus();
  }
  void OnFailedScheduling(const api::v1::Pod& pod, const scheduler::SchedulingFailure& failure) override {
    std::lock_guard<std::mutex> lock(mu_);
    messages_[Key(pod)] = std::string(failure.message);
    if (failure.nominated_node) nominated_[Key(pod)] = std::string(*failure.nominated_node);
  }
  absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor, std::string_view) override {
    const std::string vkey = Key(victim);
    {
      std::lock_guard<std::mutex> lock(mu_);
      victims_[Key(preemptor)].push_back(vkey);
      evicted_.insert(vkey);
      bound_.erase(vkey);
      // The DisruptionTarget condition message upstream's preemption writes.
      messages_[vkey] = schedkit::StrCat(preemptor.spec().scheduler_name(),
                                         ": preempting to accommodate a higher priority pod");
    }
    return sched->DeletePod(victim.metadata().namespace_(), victim.metadata().name());
  }
  // VolumeBinding's writes: the stand-in PV controller completes them at
  // once, and every write is reported back as a watch would. Upstream's
  // PreBind first looks at its writes a second later (BindPodVolumes polls
  // every second, not at once): the binding cycle that wrote takes that
  // long, which outlives an OpportunisticBatching ranking.
  absl::StatusOr<api::AnyObject> UpdateObject(const api::Kind& kind, const google::protobuf::Message& object) override {
    const bool volume_write =
        &kind == &api::KindOf<api::v1::PersistentVolume>() || &kind == &api::KindOf<api::v1::PersistentVolumeClaim>();
    if (volume_write && wall_clock != nullptr) wall_clock->Advance(kVolumeBindingPoll);
    if (&kind == &api::KindOf<api::v1::PersistentVolume>()) {
      const auto& pv = static_cast<const api::v1::PersistentVolume&>(object);
      return Report(volumes->VolumeWritten(pv), pv);
    }
    if (&kind == &api::KindOf<api::v1::PersistentVolumeClaim>()) {
      const auto& claim = static_cast<const api::v1::PersistentVolumeClaim&>(object);
      return Report(volumes->ClaimWritten(claim), claim);
    }
    if (&kind == &api::KindOf<api::v1::ResourceClaim>()) {
      return ReportClaim(claims->Update(static_cast<const api::v1::ResourceClaim&>(object)));
    }
    return scheduler::Host::UpdateObject(kind, object);
  }
  // DynamicResources' status writes: stored, then reported as a watch would.
  absl::StatusOr<api::AnyObject> UpdateObjectStatus(const api::Kind& kind,
                                                    const google::protobuf::Message& object) override {
    if (&kind == &api::KindOf<api::v1::ResourceClaim>()) {
      return ReportClaim(claims->UpdateStatus(static_cast<const api::v1::ResourceClaim&>(object)));
    }
    if (&kind == &api::KindOf<api::v1::Pod>()) {
      // DynamicResources names the claim of the pod's extended resources.
      const auto& pod = static_cast<const api::v1::Pod&>(object);
      std::lock_guard<std::mutex> lock(mu_);
      extended_claims_[Key(pod)] = pod.status().extended_resource_claim_status();
      return api::AnyObject(std::make_shared<const api::v1::Pod>(pod));
    }
    return scheduler::Host::UpdateObjectStatus(kind, object);
  }
  // DynamicResources' claims for pods' extended resources.
  absl::StatusOr<api::AnyObject> CreateObject(const api::Kind& kind, const google::protobuf::Message& object) override {
    if (&kind == &api::KindOf<api::v1::ResourceClaim>()) {
      return ReportClaim(claims->Create(static_cast<const api::v1::ResourceClaim&>(object)));
    }
    return scheduler::Host::CreateObject(kind, object);
  }
  absl::Status DeleteObject(const api::Kind& kind, std::string_view namespace_name, std::string_view name) override {
    if (&kind != &api::KindOf<api::v1::ResourceClaim>()) return scheduler::Host::DeleteObject(kind, namespace_name, name);
    absl::StatusOr<ClaimStore::Deleted> deleted = claims->Delete(namespace_name, name, DeletionTime());
    if (!deleted.ok()) return deleted.status();
    if (deleted->marked != nullptr) return sched->Upsert(deleted->marked);
    return sched->Delete<api::v1::ResourceClaim>(namespace_name, name);
  }
  std::string DeletionTime() const {
    return absl::FormatTime(absl::RFC3339_sec, clock->Now(), absl::UTCTimeZone());
  }
  std::optional<api::v1::PodExtendedResourceClaimStatus> ExtendedClaimOf(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = extended_claims_.find(key);
    if (it == extended_claims_.end()) return std::nullopt;
    return it->second;
  }

  void OnNominatedNodeChanged(const api::v1::Pod& pod, std::string_view node) override {
    std::lock_guard<std::mutex> lock(mu_);
    nominated_[Key(pod)] = std::string(node);
  }

  std::optional<std::string> BoundTo(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = bound_.find(key);
    return it == bound_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  std::string Message(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = messages_.find(key);
    return it == messages_.end() ? "" : it->second;
  }
  bool Evicted(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    return evicted_.contains(key);
  }
  std::vector<std::string> Victims(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = victims_.find(key);
    return it == victims_.end() ? std::vector<std::string>{} : it->second;
  }
  std::optional<std::string> Nominated(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = nominated_.find(key);
    if (it == nominated_.end() || it->second.empty()) return std::nullopt;
    return it->second;
  }

 private:
  absl::StatusOr<api::AnyObject> ReportClaim(absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> stored) {
    if (!stored.ok()) return stored.status();
    const api::v1::ObjectMeta& meta = (*stored)->metadata();
    if (!meta.deletion_timestamp().empty() && meta.finalizers().empty()) {
      if (absl::Status s = sched->Delete<api::v1::ResourceClaim>(meta.namespace_(), meta.name()); !s.ok()) return s;
      return api::AnyObject(*std::move(stored));
    }
    if (absl::Status s = sched->Upsert(*stored); !s.ok()) return s;
    return api::AnyObject(*std::move(stored));
  }
  template <typename T>
  absl::StatusOr<api::AnyObject> Report(const std::vector<PvController::Write>& writes, const T& written) {
    for (const PvController::Write& w : writes) {
      absl::Status s = w.pv != nullptr ? sched->Upsert(w.pv) : sched->Upsert(w.claim);
      if (!s.ok()) return s;
    }
    return api::AnyObject(std::make_shared<const T>(written));
  }

  mutable std::mutex mu_;
  absl::flat_hash_map<std::string, std::string> bound_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::string> messages_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_set<std::string> evicted_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::vector<std::string>> victims_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::string> nominated_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, api::v1::PodExtendedResourceClaimStatus> extended_claims_ ABSL_GUARDED_BY(mu_);
};

std::vector<NodeUsage> Usage(const scheduler::Scheduler& sched) {
  framework::Snapshot snap;
  sched.cache().UpdateSnapshot(snap);
  std::vector<NodeUsage> out;
  for (const framework::NodeInfo* n : snap.nodes()) {
    NodeUsage u;
    u.name = std::string(n->name().str());
    u.cpu_milli_allocatable = n->allocatable().milli_cpu;
    u.memory_allocatable = n->allocatable().memory;
    u.cpu_milli_after = n->requested().milli_cpu;
    u.memory_after = n->requested().memory;
    u.pods_after = n->num_pods();
    out.push_back(std::move(u));
  }
  return out;
}

}  // namespace

absl::StatusOr<Result> Simulate(const api::ObjectSet& input, const config::SchedulerConfiguration& config,
                                const framework::Registry& plugins, const Options& options) {
  api::ObjectSet cluster = input;
  const std::vector<std::string> new_claims = AddWorkloadPods(cluster);
  AdmitPriorities(cluster);
  // Every pod needs a uid for the cache; kubectl output has one, hand-written files may not.
  for (api::v1::Pod* pod : cluster.MutableAll<api::v1::Pod>()) {
    if (pod->metadata().uid().empty()) pod->mutable_metadata()->set_uid(schedkit::StrCat("uid-", Key(*pod)));
  }
  // Claims too: a volume is bound to a claim's uid.
  for (api::v1::PersistentVolumeClaim* claim : cluster.MutableAll<api::v1::PersistentVolumeClaim>()) {
    if (claim->metadata().uid().empty()) {
      claim->mutable_metadata()->set_uid(
          schedkit::StrCat("uid-", claim->metadata().namespace_(), "-", claim->metadata().name()));
    }
  }
  // Resource claims: those the claim controller makes from templates, and a
  // uid for each (the scheduler tracks allocations in flight by claim uid).
  CreateClaimsFromTemplates(cluster);
  for (api::v1::ResourceClaim* claim : cluster.MutableAll<api::v1::ResourceClaim>()) {
    if (claim->metadata().uid().empty()) {
      claim->mutable_metadata()->set_uid(
          schedkit::StrCat("uid-", claim->metadata().namespace_(), "-", claim->metadata().name()));
    }
  }

  framework::FakeClock clock;
  framework::FakeClock wall_clock;
  scheduler::InlineExecutor executor;
  PvController::BindNewClaims(cluster, new_claims);
  SimHost host;
  PvController volumes(cluster, new_claims);
  host.volumes = &volumes;
  ClaimStore claims(cluster);
  host.claims = &claims;
  host.clock = &clock;
  host.wall_clock = &wall_clock;
  scheduler::SchedulerOptions so;
  so.clock = &clock;
  so.batch_clock = &wall_clock;
  so.executor = &executor;
  so.tie_break = options.tie_break;
  so.seed = options.seed;
  so.trace_cycles = options.explain;
  so.feature_gates = options.feature_gates;
  std::string mismatch;
  if (options.check_per_node_outcomes) {
    so.check_per_node_outcomes = [&mismatch](std::string_view m) {
      if (mismatch.empty()) mismatch = m;
    };
  }
  // One at a time: the scheduler starts with the running pods only.
  api::ObjectSet initial = cluster;
  if (options.one_at_a_time) {
    initial.RemoveIf<api::v1::Pod>([](const api::v1::Pod& p) { return p.spec().node_name().empty(); });
  }
  api::StaticClusterLister lister(initial);
  framework::Registry registry = plugins;
  for (const api::Kind* kind : input.kinds()) registry.AddKind(*kind);
  auto sched = scheduler::Scheduler::Create(config, registry, host, lister, so);
  if (!sched.ok()) return sched.status();
  host.sched = sched->get();

  Result result;
  std::vector<NodeUsage> before = Usage(**sched);

  absl::flat_hash_map<std::string, framework::CycleTrace> traces;
  absl::flat_hash_map<std::string, int> attempts;
  int total_attempts = 0;
  int pending = 0;
  for (const auto& p : cluster.Of<api::v1::Pod>()) pending += p.spec().node_name().empty() ? 1 : 0;
  auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  (*sched)->SetCycleObserver([&](const scheduler::CycleReport& r) {
    ++attempts[r.pod->key()];
    ++total_attempts;
    if (options.explain) traces[r.pod->key()] = r.trace;
    if (options.progress) {
      auto now = std::chrono::steady_clock::now();
      if (now - last_progress > std::chrono::seconds(1)) {
        last_progress = now;
        options.progress(total_attempts, pending);
      }
    }
  });
  if (!options.one_at_a_time) {
    (*sched)->RunUntilIdle();
  } else {
    for (const auto& p : cluster.Of<api::v1::Pod>()) {
      if (!p.spec().node_name().empty()) continue;
      if (absl::Status s = (*sched)->AddPod(std::make_shared<const api::v1::Pod>(p)); !s.ok()) return s;
      (*sched)->RunUntilIdle();
      const std::string key = Key(p);
      // A preemptor waits for its victims: past the longest backoff it is
      // retried, as the victims' deletion would move it (bounded).
      for (int round = 0; round < 5 && !host.BoundTo(key) && host.Nominated(key); ++round) {
        clock.Advance(absl::Seconds(config.pod_max_backoff_seconds + 1));
        (*sched)->RunUntilIdle();
      }
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  result.nodes = Usage(**sched);
  for (size_t i = 0; i < result.nodes.size() && i < before.size(); ++i) {
    result.nodes[i].cpu_milli_before = before[i].cpu_milli_after;
    result.nodes[i].memory_before = before[i].memory_after;
    result.nodes[i].pods_before = before[i].pods_after;
  }
  result.num_nodes = static_cast<int>(result.nodes.size());

  for (const auto& p : cluster.Of<api::v1::Pod>()) {
    if (!p.spec().node_name().empty()) continue;
    const std::string key = Key(p);
    PodResult r;
    r.namespace_name = p.metadata().namespace_();
    r.name = p.metadata().name();
    r.attempts = attempts[key];
    if (host.Evicted(key)) {
      r.status = "Preempted";
      r.message = host.Message(key);
    } else if (auto node = host.BoundTo(key)) {
      r.status = "Scheduled";
      r.node = *node;
    } else {
      r.status = "Unschedulable";
      r.message = host.Message(key);
      r.nominated_node = host.Nominated(key);
      // The scheduler leaves pods of other schedulers alone, as upstream's
      // informer filter does; say why the pod stays pending.
      const bool known = std::any_of(config.profiles.begin(), config.profiles.end(), [&](const auto& profile) {
        return profile.scheduler_name == p.spec().scheduler_name();
      });
      if (!known) {
        r.message = schedkit::StrCat("profile not found for scheduler name \"", p.spec().scheduler_name(), "\"");
      }
    }
    if (r.status != "Unschedulable") r.nominated_node = std::nullopt;
    r.victims = host.Victims(key);
    if (std::optional<api::v1::PodExtendedResourceClaimStatus> ext = host.ExtendedClaimOf(key)) {
      PodResult::ExtendedResourceClaim& out = r.extended_resource_claim.emplace();
      out.name = ext->resource_claim_name();
      for (const auto& m : ext->request_mappings()) {
        out.request_mappings.push_back({m.container_name(), m.resource_name(), m.request_name()});
      }
    }
    if (options.explain) {
      auto it = traces.find(key);
      if (it != traces.end()) r.trace = it->second;
    }
    result.pods.push_back(std::move(r));
  }
  (*sched)->Stop();
  result.claims = volumes.Bindings();
  for (const auto& [key, claim] : claims.All()) {
    ResourceClaimResult& c = result.resource_claims.emplace_back();
    c.namespace_name = claim->metadata().namespace_();
    c.name = claim->metadata().name();
    if (claim->status().has_allocation()) {
      c.allocation.emplace();
      for (const auto& d : claim->status().allocation().devices().results()) {
        c.allocation->push_back({d.request(), d.driver(), d.pool(), d.device()});
      }
    }
    for (const auto& ref : claim->status().reserved_for()) c.reserved_for.push_back(ref.name());
  }
  std::sort(result.resource_claims.begin(), result.resource_claims.end(), [](const auto& a, const auto& b) {
    return std::tie(a.namespace_name, a.name) < std::tie(b.namespace_name, b.name);
  });
  result.per_node_outcome_mismatch = std::move(mismatch);
  return result;
}

}  // namespace schedkit::sim
