#include "scheduler/queueing_hints.h"

#include <utility>

namespace schedkit::scheduler {
namespace {

using framework::ClusterEvent;
using framework::ClusterEventWithHint;
using framework::QueuedPodInfo;
using framework::QueueingHint;

bool IsRejector(const QueuedPodInfo& info, Symbol plugin) {
  return info.unschedulable_plugins.contains(plugin) || info.pending_plugins.contains(plugin);
}

}  // namespace

bool HasRejectors(const QueuedPodInfo& info) {
  return !info.unschedulable_plugins.empty() || !info.pending_plugins.empty();
}

QueueingHints::ProfileHints QueueingHints::Build(const framework::Framework& fw) {
  ProfileHints out;
  for (const framework::Framework::PluginEvents& pe : fw.enqueue_events()) {
    // A plugin that registered nothing is requeued only by its own pod updates
    // through other plugins, or by wildcard events.
    if (pe.events.empty()) continue;
    // (Up to v1.36 upstream also gave every plugin interested in Node/Add a
    // Node/UpdateNodeTaint that always queued, kubernetes#109437; v1.37
    // registers exactly what the plugins ask for.)
    PluginHints ph{pe.plugin, pe.events};
    out.push_back(std::move(ph));
  }
  return out;
}

void QueueingHints::AddProfile(const framework::Framework* fw) { For(fw); }

const QueueingHints::ProfileHints* QueueingHints::For(const framework::Framework* fw) {
  if (fw == nullptr) return nullptr;
  auto it = profiles_.find(fw);
  if (it == profiles_.end()) it = profiles_.emplace(fw, std::make_unique<ProfileHints>(Build(*fw))).first;
  return it->second.get();
}

bool QueueingHints::IsEventOfInterest(const ClusterEvent& event) const {
  if (event.IsWildcard()) return true;
  for (const auto& [fw, plugins] : profiles_) {
    for (const PluginHints& p : *plugins) {
      for (const ClusterEventWithHint& e : p.events) {
        if (e.event.Matches(event)) return true;
      }
    }
  }
  return false;
}

bool QueueingHints::GatingPluginInterested(const framework::Framework* fw, const QueuedPodInfo& info,
                                           const ClusterEvent& event) {
  const ProfileHints* plugins = For(fw);
  if (plugins == nullptr) return false;
  for (const PluginHints& p : *plugins) {
    if (p.plugin != info.gating_plugin) continue;
    for (const ClusterEventWithHint& r : p.events) {
      if (r.event.Matches(event)) return true;
    }
  }
  return false;
}

Strategy QueueingHints::IsPodWorthRequeuing(const framework::Framework* fw, const QueuedPodInfo& info,
                                            const ClusterEvent& event, const framework::EventObjects& objects) {
  // A pod that failed with an error has no rejector to ask.
  if (!HasRejectors(info)) return Strategy::kAfterBackoff;
  if (event.IsWildcard()) {
    // A wildcard event that carries an object targets that pod only
    // (ForceActivate of an in-flight pod).
    if (const api::v1::Pod* pod = objects.New<api::v1::Pod>(); pod != nullptr) {
      return pod->metadata().uid() == info.pod->uid() ? Strategy::kAfterBackoff : Strategy::kSkip;
    }
    if (objects.New<api::v1::Node>() != nullptr) return Strategy::kSkip;
    return Strategy::kAfterBackoff;
  }
  const ProfileHints* plugins = For(fw);
  if (plugins == nullptr) return Strategy::kAfterBackoff;  // no profile serves it

  Strategy strategy = Strategy::kSkip;
  for (const PluginHints& p : *plugins) {
    if (!IsRejector(info, p.plugin)) continue;
    for (const ClusterEventWithHint& r : p.events) {
      if (!r.event.Matches(event)) continue;
      QueueingHint hint = QueueingHint::kQueue;
      if (r.hint) {
        absl::StatusOr<QueueingHint> h = r.hint(*info.pod, objects);
        // An error must not strand the pod in the pool: treat it as Queue.
        hint = h.ok() ? *h : QueueingHint::kQueue;
      }
      if (hint == QueueingHint::kSkip) continue;
      if (info.pending_plugins.contains(p.plugin)) return Strategy::kImmediately;
      // Only a Pending plugin can do better than AfterBackoff.
      if (info.pending_plugins.empty()) return Strategy::kAfterBackoff;
      strategy = Strategy::kAfterBackoff;
    }
  }
  return strategy;
}

}  // namespace schedkit::scheduler
