#include "plugins/queuesort/priority_sort.h"

#include "schedkit/plugins/names.h"

namespace schedkit::plugins {

std::string_view PrioritySort::Name() const { return names::kPrioritySort; }

bool PrioritySort::Less(const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) const {
  // PodInfo::priority() is spec.priority, 0 when unset (corev1helpers.PodPriority).
  const int32_t p1 = a.pod->priority();
  const int32_t p2 = b.pod->priority();
  return p1 > p2 || (p1 == p2 && a.timestamp < b.timestamp);
}

std::optional<int64_t> PrioritySort::Rank(const framework::PodInfo& pod) const {
  return -static_cast<int64_t>(pod.priority());
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewPrioritySort(const framework::PluginArgs& /*args*/,
                                                                   framework::Handle& /*handle*/) {
  return std::make_unique<PrioritySort>();
}

}  // namespace schedkit::plugins
