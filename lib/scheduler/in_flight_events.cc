#include "scheduler/in_flight_events.h"

#include <utility>

namespace schedkit::scheduler {
namespace {

// A copy of an event's object that the recorded event owns.
api::AnyObject CopyOf(const google::protobuf::Message* object) {
  if (object == nullptr) return nullptr;
  std::unique_ptr<google::protobuf::Message> copy(object->New());
  copy->CopyFrom(*object);
  return api::AnyObject(std::move(copy));
}

}  // namespace
std::shared_ptr<const RecordedEvent> RecordedEvent::Copy(const framework::ClusterEvent& event,
                                                         const framework::EventObjects& objects) {
  auto ev = std::make_shared<RecordedEvent>();
  ev->event = event;
  SharedEventObjects& o = ev->owned;
  o.kind = objects.kind();
  o.old_object = CopyOf(objects.old_object());
  o.new_object = CopyOf(objects.new_object());
  return ev;
}

void InFlightEvents::Begin(framework::PodInfoPtr pod) {
  const std::string& uid = pod->uid();
  items_.push_back(Item{uid, nullptr});
  pods_.emplace(uid, InFlightPod{std::move(pod), std::prev(items_.end())});
}

void InFlightEvents::Record(std::shared_ptr<const RecordedEvent> event) {
  items_.push_back(Item{std::string(), std::move(event)});
  ++num_events_;
}

void InFlightEvents::Done(const std::string& uid) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  items_.erase(it->second.marker);
  pods_.erase(it);
  // Events before the oldest remaining marker concern no in-flight pod.
  while (!items_.empty() && items_.front().event != nullptr) {
    items_.pop_front();
    --num_events_;
  }
}

void InFlightEvents::Clear() {
  pods_.clear();
  items_.clear();
  num_events_ = 0;
}

framework::PodInfoPtr InFlightEvents::Pod(const std::string& uid) const {
  auto it = pods_.find(uid);
  return it == pods_.end() ? nullptr : it->second.pod;
}

std::vector<framework::PodInfoPtr> InFlightEvents::PodsInOrder() const {
  std::vector<framework::PodInfoPtr> out;
  for (const Item& item : items_) {
    if (item.event == nullptr) out.push_back(pods_.at(item.pod_uid).pod);
  }
  return out;
}

}  // namespace schedkit::scheduler
