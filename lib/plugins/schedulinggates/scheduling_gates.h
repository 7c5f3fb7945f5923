// SchedulingGates: keeps a pod out of the active queue while its
// spec.schedulingGates is non-empty (upstream
// pkg/scheduler/framework/plugins/schedulinggates, v1.37).
//
//   auto plugin = NewSchedulingGates(framework::PluginArgs(), handle);
//   pre_enqueue->PreEnqueue(pod);   // "waiting for scheduling gates: [foo bar]"
//
// PreEnqueue only. Queueing hints are always on in v1.37 (the
// SchedulerQueueingHints gate is GA and locked), so the plugin registers the
// pod-update event that removes gates, with a hint that requeues only the
// updated pod itself. Stateless.
#ifndef SCHEDKIT_LIB_PLUGINS_SCHEDULINGGATES_SCHEDULING_GATES_H_
#define SCHEDKIT_LIB_PLUGINS_SCHEDULINGGATES_SCHEDULING_GATES_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class SchedulingGates final : public framework::PreEnqueuePlugin, public framework::EnqueueExtensions {
 public:
  std::string_view Name() const override;
  // Success without gates; otherwise UnschedulableAndUnresolvable with
  // "waiting for scheduling gates: [g1 g2]" (Go's %v of the names).
  framework::Status PreEnqueue(const framework::PodInfo& pod) override;
  // Pod/UpdatePodSchedulingGatesEliminated with
  // IsSchedulableAfterUpdatePodSchedulingGatesEliminated.
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // Queue when the updated pod (event.New<api::v1::Pod>()) is `pod` itself (same UID),
  // QueueSkip for any other pod; an error (counted as Queue) when the event
  // carries no new pod.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterUpdatePodSchedulingGatesEliminated(
      const framework::PodInfo& pod, const framework::EventObjects& event);
};

// SchedulingGates has no args type upstream; pluginConfig args are ignored.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewSchedulingGates(const framework::PluginArgs& args,
                                                                      framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_SCHEDULINGGATES_SCHEDULING_GATES_H_
