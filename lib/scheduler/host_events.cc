#include "scheduler/host_events.h"

#include "schedkit/framework/pod_info.h"

namespace schedkit::scheduler {

namespace {
constexpr size_t kNoteLengthLimit = 1024;
constexpr std::string_view kTruncatedSuffix = " ...";
}  // namespace

std::string_view TruncateEventNote(std::string_view note, std::string& buffer) {
  if (note.size() <= kNoteLengthLimit) return note;
  buffer.assign(note.substr(0, kNoteLengthLimit - kTruncatedSuffix.size()));
  buffer.append(kTruncatedSuffix);
  return buffer;
}

void HostEvents::Event(const framework::PodInfo& regarding, const framework::PodInfo* related,
                       std::string_view type, std::string_view reason, std::string_view action,
                       std::string_view note) {
  std::string buffer;
  // The objects as the host delivered them: an event names its pods by
  // metadata alone, and a bound pod's copy with spec.nodeName would otherwise
  // be made for it and kept as long as the pod.
  const PodEvent event{
      .regarding = regarding.received_pod(),
      .related = related != nullptr ? &related->received_pod() : nullptr,
      .reporting_controller = reporting_controller_,
      .type = type,
      .reason = reason,
      .action = action,
      .note = TruncateEventNote(note, buffer),
  };
  try {
    host_.OnEvent(event);
  } catch (...) {
    // An event is informational: a host that fails to record one must not
    // fail the cycle that produced it.
  }
}

}  // namespace schedkit::scheduler
