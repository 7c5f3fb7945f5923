// Internal: the Host the scheduler writes through when it was given a
// LeaderElector. Each write asks the elector first, so a replica that may
// have been deposed (paused past its lease, cut off from the store) writes
// nothing, even before its election loop has noticed the loss.
#ifndef SCHEDKIT_LIB_SCHEDULER_FENCED_HOST_H_
#define SCHEDKIT_LIB_SCHEDULER_FENCED_HOST_H_

#include <string_view>

#include "schedkit/scheduler/host.h"
#include "schedkit/scheduler/leader_election.h"

namespace schedkit::scheduler {

class FencedHost : public Host {
 public:
  FencedHost(Host& host, const LeaderElector& leader) : host_(host), leader_(leader) {}

  // FailedPrecondition when this replica is not the leader.
  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override;
  absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor, std::string_view node) override;
  absl::StatusOr<api::AnyObject> UpdateObject(const api::Kind& kind,
                                              const google::protobuf::Message& object) override;
  absl::StatusOr<api::AnyObject> UpdateObjectStatus(const api::Kind& kind,
                                                    const google::protobuf::Message& object) override;
  absl::StatusOr<api::AnyObject> CreateObject(const api::Kind& kind, const google::protobuf::Message& object) override;
  absl::Status DeleteObject(const api::Kind& kind, std::string_view namespace_name, std::string_view name) override;
  // Dropped when this replica is not the leader.
  void OnFailedScheduling(const api::v1::Pod& pod, const SchedulingFailure& failure) override;
  void OnNominatedNodeChanged(const api::v1::Pod& pod, std::string_view node) override;
  void OnEvent(const PodEvent& event) override;
  // Passed on: it reports a bind that already happened.
  void OnScheduled(const api::v1::Pod& pod, std::string_view node) override;

 private:
  absl::Status NotLeader() const;

  Host& host_;
  const LeaderElector& leader_;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_FENCED_HOST_H_
