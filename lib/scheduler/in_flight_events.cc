#include "scheduler/in_flight_events.h"

#include <utility>

namespace schedkit::scheduler {
namespace {

// Copies a storage event's object into `owner` and points `view` at it (an
// event carries one storage kind, so one owner per side suffices).
template <typename T>
void Keep(const T* from, const T*& view, std::shared_ptr<const void>& owner) {
  if (from == nullptr) return;
  auto copy = std::make_shared<const T>(*from);
  view = copy.get();
  owner = std::move(copy);
}

void KeepStorage(const framework::EventObjects& from, SharedEventObjects& o) {
  framework::EventObjects& v = o.storage;
  Keep(from.old_pv, v.old_pv, o.storage_old_owner);
  Keep(from.new_pv, v.new_pv, o.storage_new_owner);
  Keep(from.old_pvc, v.old_pvc, o.storage_old_owner);
  Keep(from.new_pvc, v.new_pvc, o.storage_new_owner);
  Keep(from.old_storage_class, v.old_storage_class, o.storage_old_owner);
  Keep(from.new_storage_class, v.new_storage_class, o.storage_new_owner);
  Keep(from.old_csi_node, v.old_csi_node, o.storage_old_owner);
  Keep(from.new_csi_node, v.new_csi_node, o.storage_new_owner);
  Keep(from.old_csi_driver, v.old_csi_driver, o.storage_old_owner);
  Keep(from.new_csi_driver, v.new_csi_driver, o.storage_new_owner);
  Keep(from.old_capacity, v.old_capacity, o.storage_old_owner);
  Keep(from.new_capacity, v.new_capacity, o.storage_new_owner);
  Keep(from.old_attachment, v.old_attachment, o.storage_old_owner);
  Keep(from.new_attachment, v.new_attachment, o.storage_new_owner);
}

}  // namespace

std::shared_ptr<const RecordedEvent> RecordedEvent::Copy(const framework::ClusterEvent& event,
                                                         const framework::EventObjects& objects) {
  auto ev = std::make_shared<RecordedEvent>();
  ev->event = event;
  SharedEventObjects& o = ev->owned;
  if (objects.old_node != nullptr) o.old_node = std::make_shared<const api::v1::Node>(*objects.old_node);
  if (objects.new_node != nullptr) o.new_node = std::make_shared<const api::v1::Node>(*objects.new_node);
  if (objects.old_pod != nullptr) o.old_pod = std::make_shared<const api::v1::Pod>(*objects.old_pod);
  if (objects.new_pod != nullptr) o.new_pod = std::make_shared<const api::v1::Pod>(*objects.new_pod);
  KeepStorage(objects, o);
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
