#include "kube/informers.h"

#include <functional>
#include <utility>

#include "api/object_json.h"
#include "kube/log.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;
namespace v1 = api::v1;

std::string MetaField(const json& object, const char* field) {
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  return meta->value(field, "");
}

// A delete of something the scheduler never held is no news.
absl::Status IgnoreNotFound(absl::Status s) { return absl::IsNotFound(s) ? absl::OkStatus() : s; }

}  // namespace

// One kind's events into the scheduler; an object that does not decode is
// logged and counted, never fatal.
class SchedulerInformers::KindHandler : public ReflectorHandler {
 public:
  using Apply = std::function<absl::Status(const json&)>;
  KindHandler(std::string kind, Apply put, Apply remove, std::atomic<int64_t>& rejected)
      : kind_(std::move(kind)), put_(std::move(put)), remove_(std::move(remove)), rejected_(rejected) {}

  void OnAdd(const json& object) override { Report(object, put_(object)); }
  void OnUpdate(const json& /*old_object*/, const json& object) override { Report(object, put_(object)); }
  void OnDelete(const json& object) override { Report(object, remove_(object)); }

 private:
  void Report(const json& object, const absl::Status& s) {
    if (s.ok()) return;
    ++rejected_;
    const std::string ns = MetaField(object, "namespace");
    const std::string key = ns.empty() ? MetaField(object, "name") : ns + "/" + MetaField(object, "name");
    Log(Severity::kWarning, "informers", schedkit::StrCat(kind_, " ", key, ": ", s.message()));
  }

  const std::string kind_;
  const Apply put_, remove_;
  std::atomic<int64_t>& rejected_;
};

SchedulerInformers::SchedulerInformers(const ApiClient& client, scheduler::Scheduler& s,
                                       std::set<std::string> profiles, ReflectorOptions options)
    : client_(client) {
  auto add = [&](std::string kind, std::string path, std::string field_selector,
                 std::pair<KindHandler::Apply, KindHandler::Apply> apply) {
    handlers_.push_back(std::make_unique<KindHandler>(std::move(kind), std::move(apply.first),
                                                      std::move(apply.second), rejected_));
    reflectors_.push_back(std::make_unique<Reflector>(
        client_, ResourceSpec{std::move(path), std::move(field_selector)}, *handlers_.back(), options));
  };

  // Pods: assigned ones for the cache, unassigned ones this scheduler is
  // responsible for; finished pods leave through the field selector.
  auto pod_put = [&s, profiles = std::move(profiles)](const json& o) -> absl::Status {
    SCHEDKIT_ASSIGN_OR_RETURN(api::AnyObject decoded, api::internal::DecodeObjectJson(api::KindOf<v1::Pod>(), o));
    auto pod = std::static_pointer_cast<const v1::Pod>(std::move(decoded));
    if (pod->spec().node_name().empty() && !profiles.contains(pod->spec().scheduler_name())) {
      return absl::OkStatus();
    }
    absl::Status updated = s.UpdatePod(pod);
    if (absl::IsNotFound(updated)) return s.AddPod(std::move(pod));
    return updated;
  };
  auto pod_remove = [&s](const json& o) {
    return IgnoreNotFound(s.DeletePod(MetaField(o, "namespace"), MetaField(o, "name")));
  };
  add("Pod", api::KindOf<v1::Pod>().collection_path(), "status.phase!=Succeeded,status.phase!=Failed",
      {pod_put, pod_remove});

  // Nodes: UpdateNode adds one it does not know.
  add("Node", api::KindOf<v1::Node>().collection_path(), "",
      {[&s](const json& o) -> absl::Status {
         SCHEDKIT_ASSIGN_OR_RETURN(api::AnyObject node, api::internal::DecodeObjectJson(api::KindOf<v1::Node>(), o));
         return s.UpdateNode(std::static_pointer_cast<const v1::Node>(std::move(node)));
       },
       [&s](const json& o) { return IgnoreNotFound(s.DeleteNode(MetaField(o, "name"))); }});

  // Every other kind the scheduler holds, built-in or a plugin's, one way.
  // A deleted namespace's labels stay in the snapshot, where no pod can use
  // them.
  for (const api::Kind* kind : s.kinds()) {
    add(std::string(kind->kind()), kind->collection_path(), "",
        {[&s, kind](const json& o) -> absl::Status {
           SCHEDKIT_ASSIGN_OR_RETURN(api::AnyObject object, api::internal::DecodeObjectJson(*kind, o));
           return s.Upsert(*kind, std::move(object));
         },
         [&s, kind](const json& o) {
           return IgnoreNotFound(s.Delete(*kind, MetaField(o, "namespace"), MetaField(o, "name")));
         }});
  }
}

SchedulerInformers::~SchedulerInformers() { Stop(); }

void SchedulerInformers::Start() {
  for (auto& reflector : reflectors_) {
    Reflector* r = reflector.get();
    threads_.emplace_back([this, r] { r->Run(stop_); });
  }
}

bool SchedulerInformers::WaitForCacheSync(absl::Duration timeout) const {
  const absl::Time deadline = absl::Now() + timeout;
  for (;;) {
    bool all = true;
    for (const auto& r : reflectors_) all = all && r->HasSynced();
    if (all) return true;
    if (absl::Now() >= deadline) return false;
    absl::SleepFor(absl::Milliseconds(50));
  }
}

void SchedulerInformers::Stop() {
  stop_ = true;
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

}  // namespace schedkit::kube::internal
