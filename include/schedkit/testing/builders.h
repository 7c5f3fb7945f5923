// Fluent builders for pods, nodes and clusters, shaped after upstream's
// pkg/scheduler/testing wrappers (st.MakePod(), st.MakeNode()) so upstream
// test tables port line by line. For tests, benchmarks and examples.
//
//   auto pod = MakePod().Name("p").Namespace("ns").Req({{"cpu", "500m"}})
//                  .NodeAffinityIn("zone", {"a"}).Obj();
//   auto node = MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"pods", "110"}})
//                   .Label("zone", "a").Obj();
//
// Builders never fail; turning their objects into PodInfo/NodeInfo can, and
// the Info() helpers abort on error because a test input must be valid.
#ifndef SCHEDKIT_TESTING_BUILDERS_H_
#define SCHEDKIT_TESTING_BUILDERS_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "schedkit/api/object_set.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::testing {

using ResourceMap = std::vector<std::pair<std::string, std::string>>;
using LabelMap = std::map<std::string, std::string>;

enum class AffinityKind { kRequired, kPreferred };

struct SelectorRequirement {
  std::string key;
  std::string op;  // In, NotIn, Exists, DoesNotExist
  std::vector<std::string> values;
};

// A label selector with matchLabels and matchExpressions.
api::v1::LabelSelector Selector(const LabelMap& match_labels,
                                const std::vector<SelectorRequirement>& expressions = {});

class PodBuilder {
 public:
  PodBuilder();

  PodBuilder& Name(std::string name);
  PodBuilder& Namespace(std::string ns);
  PodBuilder& UID(std::string uid);
  PodBuilder& SchedulerName(std::string name);
  PodBuilder& Priority(int32_t priority);
  PodBuilder& PriorityClassName(std::string name);
  PodBuilder& PreemptionPolicy(std::string policy);
  PodBuilder& CreationTimestamp(std::string rfc3339);
  PodBuilder& StartTime(std::string rfc3339);
  PodBuilder& Terminating();
  PodBuilder& Node(std::string node_name);
  PodBuilder& NominatedNodeName(std::string node_name);
  PodBuilder& Label(std::string key, std::string value);
  PodBuilder& Labels(const LabelMap& labels);
  PodBuilder& Annotation(std::string key, std::string value);
  PodBuilder& OwnerReference(std::string name, std::string kind);

  // Adds a container with these requests (upstream's Req); an empty map adds nothing.
  PodBuilder& Req(const ResourceMap& requests);
  PodBuilder& InitReq(const ResourceMap& requests);
  // An init container with restartPolicy Always.
  PodBuilder& SidecarReq(const ResourceMap& requests);
  PodBuilder& Overhead(const ResourceMap& overhead);
  PodBuilder& PodLevelReq(const ResourceMap& requests);
  // Adds a container running `image` (no requests).
  PodBuilder& Container(std::string image);
  PodBuilder& InitContainer(std::string image);
  PodBuilder& HostPort(int32_t port, std::string protocol = "TCP", std::string host_ip = "");

  PodBuilder& NodeSelector(const LabelMap& selector);
  PodBuilder& NodeAffinityIn(std::string key, std::vector<std::string> values);
  PodBuilder& NodeAffinityNotIn(std::string key, std::vector<std::string> values);
  // Appends a required node selector term.
  PodBuilder& NodeAffinityTerm(const api::v1::NodeSelectorTerm& term);
  PodBuilder& PreferredNodeAffinity(int32_t weight, const api::v1::NodeSelectorTerm& term);

  PodBuilder& Toleration(std::string key, std::string op = "Exists", std::string value = "",
                         std::string effect = "");
  PodBuilder& SchedulingGates(const std::vector<std::string>& gates);

  // Pod (anti-)affinity with an arbitrary term; preferred terms take `weight`.
  PodBuilder& PodAffinity(AffinityKind kind, const api::v1::PodAffinityTerm& term, int32_t weight = 1);
  PodBuilder& PodAntiAffinity(AffinityKind kind, const api::v1::PodAffinityTerm& term, int32_t weight = 1);
  // Shorthands as upstream: a selector `label_key Exists` / `label_key In values`.
  PodBuilder& PodAffinityExists(std::string label_key, std::string topology_key, AffinityKind kind);
  PodBuilder& PodAntiAffinityExists(std::string label_key, std::string topology_key, AffinityKind kind);
  PodBuilder& PodAffinityIn(std::string label_key, std::string topology_key, std::vector<std::string> values,
                            AffinityKind kind);
  PodBuilder& PodAntiAffinityIn(std::string label_key, std::string topology_key,
                                std::vector<std::string> values, AffinityKind kind);

  PodBuilder& SpreadConstraint(int32_t max_skew, std::string topology_key, std::string when_unsatisfiable,
                               std::optional<api::v1::LabelSelector> selector,
                               std::optional<int32_t> min_domains = std::nullopt,
                               std::optional<std::string> node_affinity_policy = std::nullopt,
                               std::optional<std::string> node_taints_policy = std::nullopt,
                               std::vector<std::string> match_label_keys = {});
  PodBuilder& PVC(std::string claim_name);
  // Appends a volume as given (an in-tree disk, an ephemeral claim, ...).
  PodBuilder& Volume(api::v1::Volume volume);

  const api::v1::Pod& Obj() const { return pod_; }
  std::shared_ptr<const api::v1::Pod> Ptr() const { return std::make_shared<const api::v1::Pod>(pod_); }
  framework::PodInfoPtr Info() const;

 private:
  api::v1::Pod pod_;
};

class NodeBuilder {
 public:
  NodeBuilder();
  NodeBuilder& Name(std::string name);
  NodeBuilder& UID(std::string uid);
  NodeBuilder& Label(std::string key, std::string value);
  NodeBuilder& Labels(const LabelMap& labels);
  // Sets capacity and allocatable to pods: 32 plus these (upstream's Capacity).
  NodeBuilder& Capacity(const ResourceMap& resources);
  NodeBuilder& Allocatable(const ResourceMap& resources);
  NodeBuilder& Taint(std::string key, std::string value, std::string effect);
  NodeBuilder& Unschedulable(bool unschedulable = true);
  NodeBuilder& Image(std::vector<std::string> names, int64_t size_bytes);

  const api::v1::Node& Obj() const { return node_; }
  std::shared_ptr<const api::v1::Node> Ptr() const { return std::make_shared<const api::v1::Node>(node_); }
  // A NodeInfo with `pods` added (each must be valid).
  framework::NodeInfo Info(const std::vector<api::v1::Pod>& pods = {}) const;

 private:
  api::v1::Node node_;
};

inline PodBuilder MakePod() { return PodBuilder(); }
inline NodeBuilder MakeNode() { return NodeBuilder(); }

// A cluster of nodes and pods (pods with a node name are bound).
api::ObjectSet MakeCluster(const std::vector<api::v1::Node>& nodes, const std::vector<api::v1::Pod>& pods);

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_BUILDERS_H_
