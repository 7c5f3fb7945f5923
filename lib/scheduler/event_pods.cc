#include "scheduler/event_pods.h"

#include <memory>
#include <string>

namespace schedkit::scheduler {
namespace {

// The pod with spec.nodeName: the PodInfo's own object when it has it, else
// a copy made here.
std::shared_ptr<const api::v1::Pod> PodForEvent(const framework::PodInfo& info) {
  const api::v1::Pod& received = info.received_pod();
  if (received.spec().node_name() == info.node_name().str()) return info.pod_ptr();
  auto pod = std::make_shared<api::v1::Pod>(received);
  pod->mutable_spec()->set_node_name(std::string(info.node_name().str()));
  return pod;
}

}  // namespace

SharedEventObjects WithEventPods(const SharedEventObjects& objects) {
  SharedEventObjects out = objects;
  if (out.old_object == nullptr && out.old_pod_info != nullptr) out.old_object = PodForEvent(*out.old_pod_info);
  if (out.new_object == nullptr && out.new_pod_info != nullptr) out.new_object = PodForEvent(*out.new_pod_info);
  out.old_pod_info = nullptr;
  out.new_pod_info = nullptr;
  return out;
}

}  // namespace schedkit::scheduler
