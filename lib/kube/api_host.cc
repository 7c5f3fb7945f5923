#include "kube/api_host.h"

#include "absl/time/clock.h"
#include "api/proto_json.h"
#include "api/object_json.h"
#include "kube/log.h"
#include "kube/status_patch.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/resource_claim.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;

constexpr std::string_view kStrategicMergePatch = "application/strategic-merge-patch+json";
constexpr std::string_view kMergePatch = "application/merge-patch+json";

std::string PodPath(const api::v1::Pod& pod) {
  const api::v1::ObjectMeta& m = pod.metadata();
  return schedkit::StrCat("/api/v1/namespaces/", m.namespace_(), "/pods/", m.name());
}

// Upstream's retry.OnError(retry.DefaultBackoff, Retriable, ...): internal
// errors, unavailable servers, conflicts and refused connections.
bool Retriable(const absl::Status& s) { return absl::IsUnavailable(s) || absl::IsAborted(s); }

// The stored object of a write's reply.
absl::StatusOr<api::AnyObject> StoredObject(const api::Kind& kind, const absl::StatusOr<std::string>& reply) {
  if (!reply.ok()) return reply.status();
  json object = json::parse(*reply, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded()) return absl::InternalError("the API's reply to a write is not JSON");
  return api::internal::DecodeObjectJson(kind, object);
}

json MetadataPatch(const api::v1::ObjectMeta& meta) {
  json annotations = json::object();
  for (const auto& [k, v] : meta.annotations()) annotations[k] = v;
  // The resourceVersion makes the patch conditional, as upstream's PUT is.
  return {{"resourceVersion", meta.resource_version()}, {"annotations", std::move(annotations)}};
}

}  // namespace

absl::Status ApiHost::Bind(const api::v1::Pod& pod, std::string_view node) {
  const api::v1::ObjectMeta& meta = pod.metadata();
  const json binding = {
      {"apiVersion", "v1"},
      {"kind", "Binding"},
      {"metadata", {{"namespace", meta.namespace_()}, {"name", meta.name()}, {"uid", meta.uid()}}},
      {"target", {{"kind", "Node"}, {"name", node}}},
  };
  ++binds_;
  auto reply = client_.Do("POST", schedkit::StrCat(PodPath(pod), "/binding"), binding.dump());
  return reply.ok() ? absl::OkStatus() : reply.status();
}

absl::Status ApiHost::PatchStatus(const api::v1::Pod& pod, const std::string& body) {
  const std::string path = schedkit::StrCat(PodPath(pod), "/status");
  absl::Duration wait = absl::Milliseconds(10);
  absl::Status last;
  for (int attempt = 0; attempt < 4; ++attempt) {
    if (attempt > 0) {
      absl::SleepFor(wait);
      wait *= 5;
    }
    ++status_patches_;
    auto reply = client_.Do("PATCH", path, body, kStrategicMergePatch);
    if (reply.ok()) return absl::OkStatus();
    last = reply.status();
    if (!Retriable(last)) break;
  }
  return last;
}

void ApiHost::OnFailedScheduling(const api::v1::Pod& pod, const scheduler::SchedulingFailure& failure) {
  const ConditionUpdate condition{
      .type = "PodScheduled", .status = "False", .reason = failure.reason, .message = failure.message};
  const std::optional<std::string> patch =
      PodStatusPatch(pod, &condition, failure.nominated_node, absl::Now());
  if (!patch) return;
  if (absl::Status s = PatchStatus(pod, *patch); !s.ok() && !absl::IsNotFound(s)) {
    Log(Severity::kError, "scheduler",
        schedkit::StrCat("Error updating pod ", pod.metadata().namespace_(), "/", pod.metadata().name(), ": ",
                         s.message()));
  }
}

void ApiHost::OnNominatedNodeChanged(const api::v1::Pod& pod, std::string_view node) {
  const std::optional<std::string> patch = PodStatusPatch(pod, nullptr, node, absl::Now());
  if (!patch) return;
  // Not critical, as upstream: a failure leaves the old nomination.
  if (absl::Status s = PatchStatus(pod, *patch); !s.ok() && !absl::IsNotFound(s)) {
    Log(Severity::kWarning, "scheduler",
        schedkit::StrCat("Failed to update the nominated node name of ", pod.metadata().namespace_(), "/",
                         pod.metadata().name(), ": ", s.message()));
  }
}

absl::Status ApiHost::Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor,
                            std::string_view node) {
  (void)node;
  const std::string message =
      schedkit::StrCat(preemptor.spec().scheduler_name(),
                       ": preempting to accommodate a higher priority pod");
  const ConditionUpdate condition{
      .type = "DisruptionTarget", .status = "True", .reason = "PreemptionByScheduler", .message = message};
  if (const auto patch = PodStatusPatch(victim, &condition, std::nullopt, absl::Now())) {
    SCHEDKIT_RETURN_IF_ERROR(PatchStatus(victim, *patch));
  }
  const json options = {
      {"kind", "DeleteOptions"}, {"apiVersion", "v1"}, {"preconditions", {{"uid", victim.metadata().uid()}}}};
  ++deletes_;
  auto reply = client_.Do("DELETE", PodPath(victim), options.dump());
  if (reply.ok()) return absl::OkStatus();
  // A UID precondition that fails means the victim is gone and a namesake
  // took its place: for preemption, the victim is gone.
  if (HttpStatusOf(reply.status()) == 409) {
    return absl::NotFoundError(schedkit::StrCat("pod ", victim.metadata().namespace_(), "/",
                                                victim.metadata().name(), " was re-created"));
  }
  return reply.status();
}

void ApiHost::OnEvent(const scheduler::PodEvent& event) {
  if (events_ != nullptr) events_->Record(event);
}

absl::StatusOr<api::AnyObject> ApiHost::UpdateObject(const api::Kind& kind,
                                                     const google::protobuf::Message& object) {
  // A merge patch of what plugins change: the annotations, and a volume's
  // claimRef (VolumeBinding's static binding), conditional on the version
  // they read, as upstream's PUT is.
  const api::v1::ObjectMeta& meta = kind.Meta(object);
  json patch = {{"metadata", MetadataPatch(meta)}};
  if (&kind == &api::KindOf<api::v1::PersistentVolume>()) {
    const auto& pv = static_cast<const api::v1::PersistentVolume&>(object);
    patch["spec"]["claimRef"] =
        pv.spec().has_claim_ref() ? api::internal::MessageToJson(pv.spec().claim_ref()) : json(nullptr);
  }
  // DynamicResources adds its finalizer to a ResourceClaim so.
  if (&kind == &api::KindOf<api::v1::ResourceClaim>()) {
    patch["metadata"]["finalizers"] = std::vector<std::string>(meta.finalizers().begin(), meta.finalizers().end());
  }
  auto reply = client_.Do("PATCH", kind.ObjectPath(meta.namespace_(), meta.name()), patch.dump(), kMergePatch);
  return StoredObject(kind, reply);
}

absl::StatusOr<api::AnyObject> ApiHost::CreateObject(const api::Kind& kind, const google::protobuf::Message& object) {
  // DynamicResources' claim for a pod's extended resources: POSTed as it
  // is; the API server gives the name (generateName), uid and version.
  const api::v1::ObjectMeta& meta = kind.Meta(object);
  std::string collection = kind.ObjectPath(meta.namespace_(), "");
  collection.pop_back();  // the object path of no name ends in '/'
  auto reply = client_.Do("POST", collection, api::internal::EncodeObjectJson(kind, object).dump());
  return StoredObject(kind, reply);
}

absl::Status ApiHost::DeleteObject(const api::Kind& kind, std::string_view namespace_name, std::string_view name) {
  return client_.Do("DELETE", kind.ObjectPath(namespace_name, name), "").status();
}

absl::StatusOr<api::AnyObject> ApiHost::UpdateObjectStatus(const api::Kind& kind,
                                                           const google::protobuf::Message& object) {
  if (&kind == &api::KindOf<api::v1::Pod>()) {
    // DynamicResources names the claim of the pod's extended resources:
    // that field alone, as upstream's PatchPodStatus sends the difference.
    const auto& pod = static_cast<const api::v1::Pod&>(object);
    const json patch = {
        {"status",
         {{"extendedResourceClaimStatus",
           api::internal::MessageToJson(pod.status().extended_resource_claim_status())}}}};
    SCHEDKIT_RETURN_IF_ERROR(PatchStatus(pod, patch.dump()));
    return api::AnyObject(std::make_shared<const api::v1::Pod>(pod));
  }
  if (&kind != &api::KindOf<api::v1::ResourceClaim>()) return scheduler::Host::UpdateObjectStatus(kind, object);
  // A merge patch of the whole status the plugin wrote, conditional on the
  // version it read (as upstream's UpdateStatus PUT is): every field is
  // named, null when cleared, since a merge patch leaves out what it omits.
  const auto& claim = static_cast<const api::v1::ResourceClaim&>(object);
  const api::v1::ObjectMeta& meta = claim.metadata();
  const api::v1::ResourceClaimStatus& status = claim.status();
  json body = json::object();
  body["allocation"] = status.has_allocation() ? api::internal::MessageToJson(status.allocation()) : json(nullptr);
  body["reservedFor"] = json::array();
  for (const auto& ref : status.reserved_for()) body["reservedFor"].push_back(api::internal::MessageToJson(ref));
  body["devices"] = json::array();
  for (const auto& d : status.devices()) body["devices"].push_back(api::internal::MessageToJson(d));
  json patch = {{"metadata", {{"resourceVersion", meta.resource_version()}}}, {"status", std::move(body)}};
  if (meta.resource_version().empty()) patch.erase("metadata");
  auto reply = client_.Do("PATCH", schedkit::StrCat(kind.ObjectPath(meta.namespace_(), meta.name()), "/status"),
                          patch.dump(), kMergePatch);
  return StoredObject(kind, reply);
}

}  // namespace schedkit::kube::internal
