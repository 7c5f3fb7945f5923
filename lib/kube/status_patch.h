// Internal: the strategic merge patches upstream's scheduler sends to a
// pod's status subresource (util.PatchPodStatus): the two-way diff between
// the status it knows and the one it wants, built here for the only shapes
// the scheduler writes (one condition, merged by its type, so the kubelet's
// conditions stay; and status.nominatedNodeName). A JSON merge patch would
// replace the whole condition list, so it is never used.
#ifndef SCHEDKIT_LIB_KUBE_STATUS_PATCH_H_
#define SCHEDKIT_LIB_KUBE_STATUS_PATCH_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/time/time.h"
#include "schedkit/api/v1/pod.h"

namespace schedkit::kube::internal {

// A condition the scheduler sets (type, status, reason, message).
struct ConditionUpdate {
  std::string_view type;
  std::string_view status;
  std::string_view reason;
  std::string_view message;
};

// The patch that takes `pod`'s status to one with `condition` set as
// upstream's UpdatePodCondition does (lastTransitionTime `now` when the
// condition is new or its status flips, else kept) and, when
// `nominated_node` is set, status.nominatedNodeName equal to it ("" clears).
// nullopt when nothing would change: upstream then sends nothing.
std::optional<std::string> PodStatusPatch(const api::v1::Pod& pod, const ConditionUpdate* condition,
                                          std::optional<std::string_view> nominated_node, absl::Time now);

// RFC 3339 in UTC with seconds, as metav1.Time serializes.
std::string FormatApiTime(absl::Time t);
// With microseconds, as metav1.MicroTime serializes (events' eventTime).
std::string FormatApiMicroTime(absl::Time t);

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_STATUS_PATCH_H_
