// Every kind but nodes and pods as the host sees it change (upstream's
// informer handlers for the kinds its plugins read): held in the object
// store, then told to the queue as the kind's cluster event when some
// plugin registered for the kind. And the plugins' object writes, which go
// to the host.
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "schedkit/api/v1/namespace.h"
#include "schedkit/base/status_macros.h"
#include "scheduler/scheduler_impl.h"

namespace schedkit::scheduler {
namespace {

using framework::ClusterEvent;

void TellQueue(SchedulingQueue& queue, const api::Kind& kind, framework::EventResource resource,
               framework::ActionType action, std::string_view verb, api::AnyObject old_object,
               api::AnyObject new_object) {
  queue.OnClusterEventShared(ClusterEvent{resource, action, schedkit::StrCat(kind.kind(), verb)},
                             SharedEventObjects{.kind = &kind,
                                                .old_object = std::move(old_object),
                                                .new_object = std::move(new_object)});
}

}  // namespace

absl::Status Scheduler::Upsert(const api::Kind& kind, api::AnyObject object) {
  Impl& im = *impl_;
  if (object == nullptr || !kind.Holds(*object)) {
    return absl::InvalidArgumentError(schedkit::StrCat("Upsert: not a ", kind.kind(), " object"));
  }
  if (&kind == &api::KindOf<api::v1::Node>() || &kind == &api::KindOf<api::v1::Pod>()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("Upsert: ", kind.kind(), " objects take their own calls (AddNode, AddPod, ...)"));
  }
  SCHEDKIT_ASSIGN_OR_RETURN(api::AnyObject old, im.objects->Upsert(kind, object));
  // Namespace selectors read namespaces' labels from the snapshot.
  if (&kind == &api::KindOf<api::v1::Namespace>()) {
    im.cache.SetNamespace(static_cast<const api::v1::Namespace&>(*object));
  }
  if (auto raised = im.raised_events.find(&kind); raised != im.raised_events.end()) {
    if (old == nullptr) {
      TellQueue(*im.queue, kind, raised->second, framework::kActionAdd, "Add", nullptr, std::move(object));
    } else {
      TellQueue(*im.queue, kind, raised->second, framework::kActionUpdate, "Update", std::move(old),
                std::move(object));
    }
  }
  return absl::OkStatus();
}

absl::Status Scheduler::Delete(const api::Kind& kind, std::string_view namespace_name, std::string_view name) {
  Impl& im = *impl_;
  SCHEDKIT_ASSIGN_OR_RETURN(api::AnyObject old, im.objects->Delete(kind, namespace_name, name));
  if (auto raised = im.raised_events.find(&kind); raised != im.raised_events.end()) {
    TellQueue(*im.queue, kind, raised->second, framework::kActionDelete, "Delete", std::move(old), nullptr);
  }
  return absl::OkStatus();
}

namespace {

// What a host's write returned, checked: an object of `kind`.
absl::StatusOr<api::AnyObject> StoredOfKind(const api::Kind& kind, absl::StatusOr<api::AnyObject> stored,
                                            std::string_view call) {
  if (!stored.ok()) return stored.status();
  if (*stored == nullptr || !kind.Holds(**stored)) {
    return absl::InternalError(schedkit::StrCat("the host's ", call, " returned no ", kind.kind(), " object"));
  }
  return stored;
}

}  // namespace

absl::StatusOr<api::AnyObject> Scheduler::Impl::UpdateObject(const api::Kind& kind,
                                                             const google::protobuf::Message& object) {
  return StoredOfKind(kind, CallHostOr<api::AnyObject>([&] { return host->UpdateObject(kind, object); }),
                      "UpdateObject");
}

absl::StatusOr<api::AnyObject> Scheduler::Impl::UpdateObjectStatus(const api::Kind& kind,
                                                                   const google::protobuf::Message& object) {
  return StoredOfKind(kind, CallHostOr<api::AnyObject>([&] { return host->UpdateObjectStatus(kind, object); }),
                      "UpdateObjectStatus");
}

absl::StatusOr<api::AnyObject> Scheduler::Impl::CreateObject(const api::Kind& kind,
                                                             const google::protobuf::Message& object) {
  return StoredOfKind(kind, CallHostOr<api::AnyObject>([&] { return host->CreateObject(kind, object); }),
                      "CreateObject");
}

absl::Status Scheduler::Impl::DeleteObject(const api::Kind& kind, std::string_view namespace_name,
                                           std::string_view name) {
  return CallHost([&] { return host->DeleteObject(kind, namespace_name, name); });
}

}  // namespace schedkit::scheduler
