// RecordingHost: a scheduler Host for tests of plugins inside the whole
// scheduler (scheduler::Scheduler::Create with it): it binds every pod at
// once, accepts every eviction, and records what the scheduler asked of it.
// An evicted pod stays in the scheduler until the test reports its deletion
// (Scheduler::DeletePod), as a real host reports it when the API server has
// deleted the pod.
//
//   testing::RecordingHost host;
//   auto sched = testing::Must(scheduler::Scheduler::Create(config, registry, host, lister));
//   (*sched)->AddPod(pod);
//   (*sched)->RunUntilIdle();
//   CHECK(host.NodeOf("default/p") == "node-a");
//
// Thread-safe: the scheduler calls it from its scheduling and binding
// threads; the readers return copies.
#ifndef SCHEDKIT_TESTING_RECORDING_HOST_H_
#define SCHEDKIT_TESTING_RECORDING_HOST_H_

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/scheduler/host.h"

namespace schedkit::testing {

class RecordingHost : public scheduler::Host {
 public:
  struct Binding {
    std::string pod;  // "namespace/name"
    std::string node;
  };
  struct Eviction {
    std::string victim;     // "namespace/name"
    std::string preemptor;  // "namespace/name"
    std::string node;
  };

  // Binds fail for `pod` ("namespace/name") with `status` from now on
  // (OK: they succeed again).
  void FailBinds(std::string pod, absl::Status status);

  // Every successful binding, in order.
  std::vector<Binding> bindings() const;
  // The node `pod` was bound to, if it was.
  std::optional<std::string> NodeOf(std::string_view pod) const;
  // Each pending pod's last failure message (the PodScheduled condition's).
  std::map<std::string, std::string> failures() const;
  std::vector<Eviction> evictions() const;
  // Each event as "<reason>: <note>", in order.
  std::vector<std::string> events() const;

  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override;
  void OnFailedScheduling(const api::v1::Pod& pod, const scheduler::SchedulingFailure& failure) override;
  absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor, std::string_view node) override;
  void OnEvent(const scheduler::PodEvent& event) override;

 private:
  mutable std::mutex mu_;
  std::map<std::string, absl::Status> failing_binds_;
  std::vector<Binding> bindings_;
  std::map<std::string, std::string> failures_;
  std::vector<Eviction> evictions_;
  std::vector<std::string> events_;
};

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_RECORDING_HOST_H_
