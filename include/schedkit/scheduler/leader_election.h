// Which of several replicas of a scheduler may write. Every replica keeps its
// caches warm; the one an election chose runs the scheduling loop. The host
// runs the election (schedkit::kube's Lease elector, or its own over etcd or
// any store with compare-and-swap) and starts Scheduler::Run once it leads;
// given as SchedulerOptions::leader, the elector is also the scheduler's
// write fence: no Bind, eviction, status write or event leaves a replica
// that cannot be sure it still leads.
#ifndef SCHEDKIT_SCHEDULER_LEADER_ELECTION_H_
#define SCHEDKIT_SCHEDULER_LEADER_ELECTION_H_

#include <functional>

#include "absl/status/status.h"

namespace schedkit::scheduler {

class LeaderElector {
 public:
  virtual ~LeaderElector() = default;

  // Campaigns until this replica leads, then keeps its leadership, on the
  // calling thread, until leadership is lost or Stop() is called.
  // `on_started_leading` runs on this thread once, as soon as the replica
  // leads, and must return promptly (start the scheduling thread there).
  // Returns OK after Stop() (the leadership given up, as upstream's
  // ReleaseOnCancel); otherwise an error saying why leadership was lost,
  // after which the host should stop at once and exit non-zero: a replica
  // that lost has stale state and is not the one to write.
  virtual absl::Status Run(const std::function<void()>& on_started_leading) = 0;

  // Any thread, at most once: ends Run, giving leadership up if held. From
  // its start IsLeader() is false.
  virtual void Stop() = 0;

  // Any thread, before every write; cheap and lock-free. True only while
  // this replica leads and no other can have been elected meanwhile (for a
  // lease: its last renewal began within the renew deadline, which is
  // shorter than the lease). A replica that was paused, or cut off from the
  // store, reads false before it learns that it lost.
  virtual bool IsLeader() const = 0;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_SCHEDULER_LEADER_ELECTION_H_
