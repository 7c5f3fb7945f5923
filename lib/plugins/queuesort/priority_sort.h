// PrioritySort: the default QueueSort plugin — higher spec.priority first,
// then the pod that entered the queue earlier (upstream
// pkg/scheduler/framework/plugins/queuesort, v1.37).
//
//   auto plugin = NewPrioritySort(framework::PluginArgs(), handle);
//   queue_sort->Less(a, b);   // true: `a` is popped before `b`
//
// Stateless; Less is called under the queue lock and allocates nothing.
#ifndef SCHEDKIT_LIB_PLUGINS_QUEUESORT_PRIORITY_SORT_H_
#define SCHEDKIT_LIB_PLUGINS_QUEUESORT_PRIORITY_SORT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class PrioritySort final : public framework::QueueSortPlugin {
 public:
  std::string_view Name() const override;
  // Priority descending; equal priorities by QueuedPodInfo::timestamp,
  // strictly earlier first (upstream's Timestamp.Before, no further tie-break).
  bool Less(const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) const override;
  // Minus the priority: Less is "lower rank, then earlier timestamp".
  std::optional<int64_t> Rank(const framework::PodInfo& pod) const override;
};

// PrioritySort has no args type upstream; pluginConfig args are ignored.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewPrioritySort(const framework::PluginArgs& args,
                                                                   framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_QUEUESORT_PRIORITY_SORT_H_
