// Internal: a profile's framework::EventRecorder over Host::OnEvent, with
// the profile's schedulerName as reportingController and the note cut to
// upstream's limit. The Scheduler records its own events (Scheduled,
// FailedScheduling) through the same recorder as the plugins do theirs.
#ifndef SCHEDKIT_LIB_SCHEDULER_HOST_EVENTS_H_
#define SCHEDKIT_LIB_SCHEDULER_HOST_EVENTS_H_

#include <string>
#include <string_view>

#include "schedkit/framework/handle.h"
#include "schedkit/scheduler/host.h"

namespace schedkit::scheduler {

// Upstream's truncateMessage: a note over 1024 bytes (events' NoteLengthLimit)
// keeps its first 1020 bytes and ends with " ...".
std::string_view TruncateEventNote(std::string_view note, std::string& buffer);

class HostEvents : public framework::EventRecorder {
 public:
  HostEvents(Host& host, std::string reporting_controller)
      : host_(host), reporting_controller_(std::move(reporting_controller)) {}

  // Any thread; a host that throws is ignored, as for every host callback.
  void Event(const framework::PodInfo& regarding, const framework::PodInfo* related, std::string_view type,
             std::string_view reason, std::string_view action, std::string_view note) override;

 private:
  Host& host_;
  const std::string reporting_controller_;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_HOST_EVENTS_H_
