#include "scheduler/in_flight_events.h"

#include <utility>

namespace schedkit::scheduler {

std::shared_ptr<const RecordedEvent> RecordedEvent::Copy(const framework::ClusterEvent& event,
                                                         const framework::EventObjects& objects) {
  auto ev = std::make_shared<RecordedEvent>();
  ev->event = event;
  SharedEventObjects& o = ev->owned;
  if (objects.old_node != nullptr) o.old_node = std::make_shared<const api::v1::Node>(*objects.old_node);
  if (objects.new_node != nullptr) o.new_node = std::make_shared<const api::v1::Node>(*objects.new_node);
  if (objects.old_pod != nullptr) o.old_pod = std::make_shared<const api::v1::Pod>(*objects.old_pod);
  if (objects.new_pod != nullptr) o.new_pod = std::make_shared<const api::v1::Pod>(*objects.new_pod);
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
