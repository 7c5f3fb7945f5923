#include "scheduler/fenced_host.h"

namespace schedkit::scheduler {

absl::Status FencedHost::NotLeader() const {
  return absl::FailedPreconditionError("this scheduler is not the leader (its leadership was lost or given up)");
}

absl::Status FencedHost::Bind(const api::v1::Pod& pod, std::string_view node) {
  if (!leader_.IsLeader()) return NotLeader();
  return host_.Bind(pod, node);
}

absl::Status FencedHost::Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor, std::string_view node) {
  if (!leader_.IsLeader()) return NotLeader();
  return host_.Evict(victim, preemptor, node);
}

absl::StatusOr<api::AnyObject> FencedHost::UpdateObject(const api::Kind& kind,
                                                        const google::protobuf::Message& object) {
  if (!leader_.IsLeader()) return NotLeader();
  return host_.UpdateObject(kind, object);
}

absl::StatusOr<api::AnyObject> FencedHost::UpdateObjectStatus(const api::Kind& kind,
                                                              const google::protobuf::Message& object) {
  if (!leader_.IsLeader()) return NotLeader();
  return host_.UpdateObjectStatus(kind, object);
}

absl::StatusOr<api::AnyObject> FencedHost::CreateObject(const api::Kind& kind,
                                                        const google::protobuf::Message& object) {
  if (!leader_.IsLeader()) return NotLeader();
  return host_.CreateObject(kind, object);
}

absl::Status FencedHost::DeleteObject(const api::Kind& kind, std::string_view namespace_name,
                                      std::string_view name) {
  if (!leader_.IsLeader()) return NotLeader();
  return host_.DeleteObject(kind, namespace_name, name);
}

void FencedHost::OnFailedScheduling(const api::v1::Pod& pod, const SchedulingFailure& failure) {
  if (leader_.IsLeader()) host_.OnFailedScheduling(pod, failure);
}

void FencedHost::OnNominatedNodeChanged(const api::v1::Pod& pod, std::string_view node) {
  if (leader_.IsLeader()) host_.OnNominatedNodeChanged(pod, node);
}

void FencedHost::OnEvent(const PodEvent& event) {
  if (leader_.IsLeader()) host_.OnEvent(event);
}

void FencedHost::OnScheduled(const api::v1::Pod& pod, std::string_view node) { host_.OnScheduled(pod, node); }

}  // namespace schedkit::scheduler
