// The selector of a pod's default spreading constraints (upstream's
// helper.DefaultSelector, helper/spread_test.go's TestGetPodServices ported
// as facts, and the controller cases of DefaultSelector) over an object
// store holding the workloads.
#include "plugins/internal/default_selector.h"

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "schedkit/base/str_cat.h"
#include "schedkit/testing/builders.h"
#include "schedkit/api/builtin_kinds.h"
#include "schedkit/api/object_store.h"
#include "schedkit/api/v1/kinds.h"
#include "testing/must.h"

namespace schedkit::plugins {
namespace {

using testing::MakePod;

// The workloads, held as the scheduler holds them.
class WorkloadClient {
 public:
  operator const api::ObjectLister&() const { return store_; }

  void Service(const std::string& ns, const std::string& name, std::map<std::string, std::string> selector) {
    auto s = std::make_shared<api::v1::Service>();
    s->mutable_metadata()->set_namespace_(ns);
    s->mutable_metadata()->set_name(name);
    for (const auto& [k, v] : selector) (*s->mutable_spec()->mutable_selector())[k] = v;
    Add(std::shared_ptr<const api::v1::Service>(std::move(s)));
  }
  void ReplicationController(const std::string& ns, const std::string& name,
                             std::map<std::string, std::string> selector) {
    auto rc = std::make_shared<api::v1::ReplicationController>();
    rc->mutable_metadata()->set_namespace_(ns);
    rc->mutable_metadata()->set_name(name);
    for (const auto& [k, v] : selector) (*rc->mutable_spec()->mutable_selector())[k] = v;
    Add(std::shared_ptr<const api::v1::ReplicationController>(std::move(rc)));
  }
  // `selector` null: the selector field unset.
  template <typename T>
  static std::shared_ptr<const T> Workload(const std::string& ns, const std::string& name,
                                           const std::map<std::string, std::string>* match_labels) {
    auto w = std::make_shared<T>();
    w->mutable_metadata()->set_namespace_(ns);
    w->mutable_metadata()->set_name(name);
    if (match_labels != nullptr) {
      auto* sel = w->mutable_spec()->mutable_selector();
      for (const auto& [k, v] : *match_labels) (*sel->mutable_match_labels())[k] = v;
    }
    return w;
  }
  template <typename T>
  void Add(std::shared_ptr<const T> object) {
    REQUIRE(store_.Upsert(std::move(object)).ok());
  }

 private:
  api::ObjectStore store_{api::BuiltinKinds()};
};

api::v1::OwnerReference Controller(const std::string& api_version, const std::string& kind, const std::string& name) {
  api::v1::OwnerReference ref;
  ref.set_api_version(api_version);
  ref.set_kind(kind);
  ref.set_name(name);
  ref.set_controller(true);
  return ref;
}

// The selector as "k=v,k2 In (a)" in requirement order, for comparison.
std::string Describe(const api::LabelSelector& s) {
  if (s.MatchesNothing()) return "<nothing>";
  std::string out;
  for (const api::LabelRequirement& r : s.requirements()) {
    schedkit::StrAppend(&out, out.empty() ? "" : ",", r.key.str(), "=");
    for (size_t i = 0; i < r.values.size(); ++i) schedkit::StrAppend(&out, i ? "|" : "", r.values[i].str());
  }
  return out;
}

TEST_CASE("TestGetPodServices: a pod takes the labels of the Services that select it", "[default_selector]") {
  WorkloadClient client;
  for (int i = 0; i < 3; ++i) {
    client.Service("test", schedkit::StrCat("service-", i), {{"app", schedkit::StrCat("test-", i)}});
  }
  for (int i = 0; i < 5; ++i) {
    auto pod = testing::Info(MakePod()
                                 .Namespace("test")
                                 .Name(schedkit::StrCat("test-pod-", i))
                                 .Label("app", schedkit::StrCat("test-", i))
                                 .Label("label", schedkit::StrCat("label-", i))
                                 .Obj());
    CAPTURE(i);
    // pods 0..2 each have their service; 3 and 4 none (Everything: no default constraints).
    CHECK(Describe(internal::DefaultSelector(*pod, client)) == (i < 3 ? schedkit::StrCat("app=test-", i) : ""));
  }
}

TEST_CASE("DefaultSelector merges Services, then the controller's selector", "[default_selector]") {
  WorkloadClient client;
  client.Service("ns", "front", {{"app", "web"}});
  client.Service("ns", "all-web", {{"tier", "front"}});
  client.Service("ns", "other-app", {{"app", "db"}});
  client.Service("other-ns", "front", {{"zone", "x"}});
  client.Service("ns", "no-selector", {});
  client.ReplicationController("ns", "rc", {{"rc", "1"}, {"app", "web"}});
  const std::map<std::string, std::string> rs_labels{{"pod-template-hash", "abc"}};
  client.Add(WorkloadClient::Workload<api::v1::ReplicaSet>("ns", "rs", &rs_labels));
  client.Add(WorkloadClient::Workload<api::v1::ReplicaSet>("ns", "rs-nil", nullptr));
  const std::map<std::string, std::string> ss_labels{{"ss", "db"}};
  client.Add(WorkloadClient::Workload<api::v1::StatefulSet>("ns", "ss", &ss_labels));

  auto pod_owned_by = [](std::vector<api::v1::OwnerReference> owners) {
    api::v1::Pod pod = MakePod().Namespace("ns").Name("p").Label("app", "web").Label("tier", "front").Obj();
    for (auto& o : owners) *pod.mutable_metadata()->add_owner_references() = std::move(o);
    return testing::Info(pod);
  };
  struct Case {
    std::string name;
    std::vector<api::v1::OwnerReference> owners;
    std::string want;
  };
  api::v1::OwnerReference not_controller = Controller("apps/v1", "ReplicaSet", "rs");
  not_controller.set_controller(false);
  for (const Case& c : std::vector<Case>{
           {"services only", {}, "app=web,tier=front"},
           {"ReplicationController (v1): its labels merged in", {Controller("v1", "ReplicationController", "rc")},
            "app=web,rc=1,tier=front"},
           {"ReplicaSet (apps/v1): its requirements added", {Controller("apps/v1", "ReplicaSet", "rs")},
            "app=web,tier=front,pod-template-hash=abc"},
           {"StatefulSet (apps/v1)", {Controller("apps/v1", "StatefulSet", "ss")}, "app=web,tier=front,ss=db"},
           {"a ReplicaSet without a selector adds nothing", {Controller("apps/v1", "ReplicaSet", "rs-nil")},
            "app=web,tier=front"},
           {"an unknown ReplicaSet adds nothing", {Controller("apps/v1", "ReplicaSet", "gone")},
            "app=web,tier=front"},
           {"the wrong group: extensions/v1beta1", {Controller("extensions/v1beta1", "ReplicaSet", "rs")},
            "app=web,tier=front"},
           {"the wrong group: a ReplicationController under apps/v1",
            {Controller("apps/v1", "ReplicationController", "rc")}, "app=web,tier=front"},
           {"an apiVersion that does not parse", {Controller("a/b/c", "ReplicaSet", "rs")}, "app=web,tier=front"},
           {"an owner that is not the controller", {not_controller}, "app=web,tier=front"},
           {"the first controller counts",
            {not_controller, Controller("apps/v1", "StatefulSet", "ss"), Controller("apps/v1", "ReplicaSet", "rs")},
            "app=web,tier=front,ss=db"},
       }) {
    INFO(c.name);
    CHECK(Describe(internal::DefaultSelector(*pod_owned_by(c.owners), client)) == c.want);
  }
}

}  // namespace
}  // namespace schedkit::plugins
