// Tests for schedkit::api decoding: the cluster fixtures (JSON and YAML must
// decode to identical messages), every schema field spot-checked against the
// fixture text, decoding from strings, error messages for bad inputs, and a
// mutation fuzz loop that must never crash or hang.
#include "schedkit/api/decode.h"
#include "schedkit/api/v1/kinds.h"
#include "testing/object_set_differences.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "google/protobuf/util/message_differencer.h"
#include "nlohmann/json.hpp"

namespace {

namespace api = schedkit::api;
namespace v1 = schedkit::api::v1;
using Catch::Contains;
using google::protobuf::util::MessageDifferencer;

std::string TestData(std::string_view relative) {
  return std::string(SCHEDKIT_TESTS_DIR) + "/api/testdata/" + std::string(relative);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

api::DecodedCluster MustLoad(const std::string& path) {
  absl::StatusOr<api::DecodedCluster> loaded = api::LoadPaths({path});
  INFO("LoadPaths(" << path << "): " << loaded.status().ToString());
  REQUIRE(loaded.ok());
  return *std::move(loaded);
}

api::DecodedCluster MustDecode(std::string_view text, std::string_view source = "<test>") {
  absl::StatusOr<api::DecodedCluster> decoded = api::Decode(text, source);
  INFO("Decode(" << source << "): " << decoded.status().ToString());
  REQUIRE(decoded.ok());
  return *std::move(decoded);
}

// Loads a bad fixture and returns the error message; fails if it loaded.
std::string LoadError(std::string_view file) {
  absl::StatusOr<api::DecodedCluster> loaded = api::LoadPaths({TestData(file)});
  INFO("bad input " << file << " must not load");
  REQUIRE_FALSE(loaded.ok());
  INFO("status: " << loaded.status().ToString());
  CHECK(loaded.status().code() != absl::StatusCode::kOk);
  return std::string(loaded.status().message());
}

std::vector<std::string> Keys(const google::protobuf::Map<std::string, std::string>& m) {
  std::vector<std::string> keys;
  for (const auto& kv : m) keys.push_back(kv.first);
  std::sort(keys.begin(), keys.end());
  return keys;
}

using Strings = std::vector<std::string>;

Strings ToVector(const google::protobuf::RepeatedPtrField<std::string>& r) {
  return Strings(r.begin(), r.end());
}

}  // namespace

// ---------------------------------------------------------------------------
// JSON and YAML fixtures describe the same cluster.

TEST_CASE("cluster.json and cluster.yaml decode to identical objects", "[decode][fixture]") {
  const api::DecodedCluster from_json = MustLoad(TestData("cluster.json"));
  const api::DecodedCluster from_yaml = MustLoad(TestData("cluster.yaml"));

  CHECK(from_json.objects.Of<api::v1::Node>().size() == 3);
  CHECK(from_json.objects.Of<api::v1::Pod>().size() == 10);
  CHECK(from_json.objects.Of<api::v1::PodDisruptionBudget>().size() == 2);
  CHECK(from_json.objects.Of<api::v1::PriorityClass>().size() == 1);
  CHECK(from_json.objects.Of<api::v1::Namespace>().size() == 2);

  CHECK(schedkit::testing::ObjectSetDifferences(from_json.objects, from_yaml.objects).empty());
  CHECK(from_json.skipped_kinds == from_yaml.skipped_kinds);

  SECTION("Decode on the file text gives what LoadPaths gives") {
    const api::DecodedCluster json_text = MustDecode(ReadFile(TestData("cluster.json")), "cluster.json");
    const api::DecodedCluster yaml_text = MustDecode(ReadFile(TestData("cluster.yaml")), "cluster.yaml");
    CHECK(schedkit::testing::ObjectSetDifferences(from_json.objects, json_text.objects).empty());
    CHECK(schedkit::testing::ObjectSetDifferences(from_yaml.objects, yaml_text.objects).empty());
    CHECK(json_text.skipped_kinds == from_json.skipped_kinds);
    CHECK(yaml_text.skipped_kinds == from_yaml.skipped_kinds);
  }

  SECTION("the fixtures pass the cluster-level checks") {
    CHECK(api::ValidateCluster(from_json.objects).ok());
    CHECK(api::ValidateCluster(from_yaml.objects).ok());
  }
}

// ---------------------------------------------------------------------------
// Every field of the schema, spot-checked against the fixture text. Runs once
// for the JSON fixture and once for the YAML one.

TEST_CASE("cluster fixture fields decode to the exact fixture values", "[decode][fixture][fields]") {
  const std::string file = GENERATE(as<std::string>{}, "cluster.json", "cluster.yaml");
  INFO("fixture " << file);
  const api::DecodedCluster decoded = MustLoad(TestData(file));
  const api::ObjectSet& c = decoded.objects;
  REQUIRE(c.Of<api::v1::Node>().size() == 3);
  REQUIRE(c.Of<api::v1::Pod>().size() == 10);
  REQUIRE(c.Of<api::v1::PodDisruptionBudget>().size() == 2);
  REQUIRE(c.Of<api::v1::PriorityClass>().size() == 1);
  REQUIRE(c.Of<api::v1::Namespace>().size() == 2);

  SECTION("object order and skipped kinds") {
    Strings nodes, pods, pdbs, pcs, nss;
    for (const auto& n : c.Of<api::v1::Node>()) nodes.push_back(n.metadata().name());
    for (const auto& p : c.Of<api::v1::Pod>()) pods.push_back(p.metadata().namespace_() + "/" + p.metadata().name());
    for (const auto& p : c.Of<api::v1::PodDisruptionBudget>()) pdbs.push_back(p.metadata().namespace_() + "/" + p.metadata().name());
    for (const auto& p : c.Of<api::v1::PriorityClass>()) pcs.push_back(p.metadata().name());
    for (const auto& n : c.Of<api::v1::Namespace>()) nss.push_back(n.metadata().name());
    CHECK(nodes == Strings{"cp-1", "worker-1", "worker-2"});
    CHECK(pods == Strings{"kube-system/etcd-cp-1", "kube-system/coredns-5d78c9869d-7xk2p",
                          "default/web-6f7b9d4c8-abcde", "default/web-6f7b9d4c8-fghij",
                          "default/report-28574310-q8k2m", "ml/trainer-0", "ml/trainer-1",
                          "default/cache-0", "default/legacy-etl-5kq9z", "default/scratch"});
    CHECK(pdbs == Strings{"default/web-pdb", "ml/trainer-pdb"});
    CHECK(pcs == Strings{"batch-nonpreempting"});
    CHECK(nss == Strings{"default", "ml"});
    // The kubernetes Service selects no pod (no spec.selector).
    REQUIRE(c.Of<api::v1::Service>().size() == 1);
    CHECK(c.Of<api::v1::Service>()[0].metadata().name() == "kubernetes");
    CHECK(c.Of<api::v1::Service>()[0].spec().selector().empty());
    CHECK(decoded.skipped_kinds.empty());
  }

  SECTION("Node") {
    // cp-1: control plane, dual-stack, NoSchedule taint without value.
    const v1::Node& cp = c.Of<api::v1::Node>()[0];
    CHECK(cp.api_version() == "v1");
    CHECK(cp.kind() == "Node");
    const v1::ObjectMeta& m = cp.metadata();
    CHECK(m.name() == "cp-1");
    CHECK(m.namespace_().empty());
    CHECK(m.uid() == "0b8d3c52-6a1f-4c1e-9d47-2f0f5e6a7b11");
    CHECK(m.resource_version() == "48211907");
    CHECK(m.creation_timestamp() == "2024-03-11T09:12:44Z");
    CHECK(m.deletion_timestamp().empty());
    CHECK(m.generate_name().empty());
    CHECK(m.owner_references_size() == 0);
    CHECK(m.labels_size() == 10);
    CHECK(m.labels().at("kubernetes.io/hostname") == "cp-1");
    CHECK(m.labels().at("topology.kubernetes.io/zone") == "eu-west-1a");
    REQUIRE(m.labels().count("node-role.kubernetes.io/control-plane") == 1);
    CHECK(m.labels().at("node-role.kubernetes.io/control-plane").empty());
    CHECK(Keys(m.annotations()) == Strings{"kubeadm.alpha.kubernetes.io/cri-socket", "node.alpha.kubernetes.io/ttl",
                                           "volumes.kubernetes.io/controller-managed-attach-detach"});
    CHECK(m.annotations().at("kubeadm.alpha.kubernetes.io/cri-socket") == "unix:///run/containerd/containerd.sock");
    CHECK(m.annotations().at("node.alpha.kubernetes.io/ttl") == "0");
    CHECK(m.annotations().at("volumes.kubernetes.io/controller-managed-attach-detach") == "true");

    CHECK_FALSE(cp.spec().unschedulable());
    CHECK(cp.spec().pod_cidr() == "10.244.0.0/24");
    CHECK(ToVector(cp.spec().pod_cidrs()) == Strings{"10.244.0.0/24", "fd00:10:244::/64"});
    CHECK(cp.spec().provider_id() == "aws:///eu-west-1a/i-0a1b2c3d4e5f60718");
    REQUIRE(cp.spec().taints_size() == 1);
    CHECK(cp.spec().taints(0).key() == "node-role.kubernetes.io/control-plane");
    CHECK(cp.spec().taints(0).value().empty());
    CHECK(cp.spec().taints(0).effect() == "NoSchedule");
    CHECK(cp.spec().taints(0).time_added().empty());

    const v1::NodeStatus& s = cp.status();
    CHECK(Keys(s.capacity()) == Strings{"cpu", "ephemeral-storage", "hugepages-1Gi", "hugepages-2Mi", "memory", "pods"});
    CHECK(s.capacity().at("cpu") == "4");
    CHECK(s.capacity().at("memory") == "16393288Ki");
    CHECK(s.capacity().at("ephemeral-storage") == "101430960Ki");
    CHECK(s.capacity().at("pods") == "110");
    CHECK(Keys(s.allocatable()) == Strings{"cpu", "ephemeral-storage", "hugepages-1Gi", "hugepages-2Mi", "memory", "pods"});
    CHECK(s.allocatable().at("cpu") == "3920m");
    CHECK(s.allocatable().at("memory") == "15991288Ki");
    CHECK(s.allocatable().at("ephemeral-storage") == "93478772582");
    CHECK(s.allocatable().at("pods") == "110");
    CHECK(s.allocatable().at("hugepages-2Mi") == "0");
    CHECK(s.allocatable().at("hugepages-1Gi") == "0");
    REQUIRE(s.images_size() == 2);
    CHECK(ToVector(s.images(0).names()) ==
          Strings{"registry.k8s.io/etcd@sha256:44a8e24dcbba3470ee1fee21d5e88d128c936e9b55d4bc51fbef8086f8ed123b",
                  "registry.k8s.io/etcd:3.5.12-0"});
    CHECK(s.images(0).size_bytes() == 57236178);
    CHECK(s.images(1).names(1) == "registry.k8s.io/pause:3.9");
    CHECK(s.images(1).size_bytes() == 321520);
    REQUIRE(s.conditions_size() == 2);
    CHECK(s.conditions(0).type() == "MemoryPressure");
    CHECK(s.conditions(0).status() == "False");
    CHECK(s.conditions(0).reason() == "KubeletHasSufficientMemory");
    CHECK(s.conditions(0).message() == "kubelet has sufficient memory available");
    CHECK(s.conditions(0).last_heartbeat_time() == "2024-05-02T11:58:12Z");
    CHECK(s.conditions(0).last_transition_time() == "2024-03-11T09:12:40Z");
    CHECK(s.conditions(1).type() == "Ready");
    CHECK(s.conditions(1).status() == "True");
    CHECK(s.conditions(1).reason() == "KubeletReady");
    CHECK(s.conditions(1).last_transition_time() == "2024-03-11T09:13:05Z");

    // worker-1: label values that look like a number and a boolean stay text.
    const v1::Node& w1 = c.Of<api::v1::Node>()[1];
    CHECK(w1.metadata().name() == "worker-1");
    CHECK(w1.metadata().uid() == "7c2e9f04-1b3d-4a5e-8f6a-3d2c1b0a9e88");
    CHECK(w1.metadata().labels().at("example.com/rack") == "12");
    CHECK(w1.metadata().labels().at("example.com/ssd") == "true");
    CHECK_FALSE(w1.spec().unschedulable());
    CHECK(ToVector(w1.spec().pod_cidrs()) == Strings{"10.244.1.0/24"});
    REQUIRE(w1.spec().taints_size() == 1);
    CHECK(w1.spec().taints(0).key() == "dedicated");
    CHECK(w1.spec().taints(0).value() == "batch");
    CHECK(w1.spec().taints(0).effect() == "PreferNoSchedule");
    CHECK(w1.status().capacity().at("cpu") == "8");
    CHECK(w1.status().capacity().at("hugepages-1Gi") == "0");
    CHECK(w1.status().capacity().at("hugepages-2Mi") == "1Gi");
    CHECK(w1.status().allocatable().at("cpu") == "7910m");
    CHECK(w1.status().allocatable().at("hugepages-2Mi") == "1Gi");
    CHECK(w1.status().allocatable().at("pods") == "110");
    CHECK(w1.status().allocatable().at("ephemeral-storage") == "186916316946");
    CHECK(w1.status().allocatable().count("nvidia.com/gpu") == 0);
    REQUIRE(w1.status().images_size() == 1);
    CHECK(w1.status().images(0).size_bytes() == 148213556);

    // worker-2: cordoned GPU node with all three taint effects.
    const v1::Node& w2 = c.Of<api::v1::Node>()[2];
    CHECK(w2.metadata().name() == "worker-2");
    CHECK(w2.metadata().creation_timestamp() == "2024-04-20T16:03:19Z");
    CHECK(w2.metadata().labels().at("nvidia.com/gpu.count") == "4");
    CHECK(w2.spec().unschedulable());
    CHECK(w2.spec().pod_cidr() == "10.244.2.0/24");
    CHECK(ToVector(w2.spec().pod_cidrs()) == Strings{"10.244.2.0/24", "fd00:10:244:2::/64"});
    CHECK(w2.spec().provider_id() == "aws:///eu-west-1c/i-03c4d5e6f7a8b9c0d");
    REQUIRE(w2.spec().taints_size() == 3);
    CHECK(w2.spec().taints(0).key() == "nvidia.com/gpu");
    CHECK(w2.spec().taints(0).value() == "present");
    CHECK(w2.spec().taints(0).effect() == "NoSchedule");
    CHECK(w2.spec().taints(0).time_added().empty());
    CHECK(w2.spec().taints(1).key() == "node.kubernetes.io/unschedulable");
    CHECK(w2.spec().taints(1).value().empty());
    CHECK(w2.spec().taints(1).effect() == "NoSchedule");
    CHECK(w2.spec().taints(1).time_added() == "2024-05-02T11:40:00Z");
    CHECK(w2.spec().taints(2).key() == "example.com/maintenance");
    CHECK(w2.spec().taints(2).value() == "planned");
    CHECK(w2.spec().taints(2).effect() == "NoExecute");
    CHECK(w2.spec().taints(2).time_added() == "2024-05-02T11:41:30Z");
    CHECK(w2.status().capacity().at("nvidia.com/gpu") == "4");
    CHECK(w2.status().capacity().at("cpu") == "16");
    CHECK(w2.status().capacity().at("pods") == "58");
    CHECK(w2.status().allocatable().at("nvidia.com/gpu") == "4");
    CHECK(w2.status().allocatable().at("cpu") == "15890m");
    CHECK(w2.status().allocatable().at("memory") == "64123456Ki");
    CHECK(w2.status().allocatable().at("ephemeral-storage") == "232040940Ki");
    CHECK(w2.status().allocatable().at("pods") == "58");
    REQUIRE(w2.status().images_size() == 1);
    CHECK(w2.status().images(0).size_bytes() == 9876543210LL);  // beyond 32 bits
    CHECK(w2.status().images(0).names(1) == "nvcr.io/nvidia/pytorch:24.03-py3");
    REQUIRE(w2.status().conditions_size() == 2);
    CHECK(w2.status().conditions(1).type() == "DiskPressure");
    CHECK(w2.status().conditions(1).message() == "kubelet has no disk pressure");
    CHECK(w2.status().conditions(1).last_heartbeat_time() == "2024-05-02T11:57:55Z");
  }

  SECTION("Pod: static control-plane pod (etcd-cp-1)") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[0];
    CHECK(p.api_version() == "v1");
    CHECK(p.kind() == "Pod");
    const v1::ObjectMeta& m = p.metadata();
    CHECK(m.name() == "etcd-cp-1");
    CHECK(m.namespace_() == "kube-system");
    CHECK(m.uid() == "a3b4c5d6-e7f8-4a9b-8c0d-1e2f3a4b5c6d");
    CHECK(m.resource_version() == "48100312");
    CHECK(m.creation_timestamp() == "2024-03-11T09:12:50Z");
    CHECK(m.generate_name().empty());
    CHECK(m.labels().at("component") == "etcd");
    CHECK(m.labels().at("tier") == "control-plane");
    CHECK(m.annotations_size() == 5);
    CHECK(m.annotations().at("kubernetes.io/config.seen") == "2024-03-11T09:12:31.123456789Z");
    CHECK(m.annotations().at("kubeadm.kubernetes.io/etcd.advertise-client-urls") == "https://10.0.1.10:2379");
    REQUIRE(m.owner_references_size() == 1);
    const v1::OwnerReference& owner = m.owner_references(0);
    CHECK(owner.api_version() == "v1");
    CHECK(owner.kind() == "Node");
    CHECK(owner.name() == "cp-1");
    CHECK(owner.uid() == "0b8d3c52-6a1f-4c1e-9d47-2f0f5e6a7b11");
    REQUIRE(owner.has_controller());
    CHECK(owner.controller());
    CHECK_FALSE(owner.has_block_owner_deletion());

    const v1::PodSpec& s = p.spec();
    CHECK(s.node_name() == "cp-1");
    CHECK(s.host_network());
    REQUIRE(s.has_priority());
    CHECK(s.priority() == 2000001000);
    CHECK(s.priority_class_name() == "system-node-critical");
    REQUIRE(s.has_preemption_policy());
    CHECK(s.preemption_policy() == "PreemptLowerPriority");
    CHECK(s.scheduler_name() == "default-scheduler");
    CHECK_FALSE(s.has_affinity());
    CHECK(s.node_selector_size() == 0);
    REQUIRE(s.containers_size() == 1);
    CHECK(s.containers(0).name() == "etcd");
    CHECK(s.containers(0).image() == "registry.k8s.io/etcd:3.5.12-0");
    CHECK(Keys(s.containers(0).resources().requests()) == Strings{"cpu", "memory"});
    CHECK(s.containers(0).resources().requests().at("cpu") == "100m");
    CHECK(s.containers(0).resources().requests().at("memory") == "100Mi");
    CHECK(s.containers(0).resources().limits_size() == 0);
    CHECK(s.containers(0).ports_size() == 0);
    CHECK(s.init_containers_size() == 0);
    // Exists with an empty key: tolerates every NoExecute taint.
    REQUIRE(s.tolerations_size() == 1);
    CHECK(s.tolerations(0).key().empty());
    CHECK(s.tolerations(0).operator_() == "Exists");
    CHECK(s.tolerations(0).value().empty());
    CHECK(s.tolerations(0).effect() == "NoExecute");
    CHECK_FALSE(s.tolerations(0).has_toleration_seconds());

    const v1::PodStatus& st = p.status();
    CHECK(st.phase() == "Running");
    CHECK(st.host_ip() == "10.0.1.10");
    CHECK(st.pod_ip() == "10.0.1.10");
    CHECK(st.qos_class() == "Burstable");
    CHECK(st.start_time() == "2024-03-11T09:12:40Z");
    CHECK(st.nominated_node_name().empty());
    REQUIRE(st.conditions_size() == 1);
    CHECK(st.conditions(0).type() == "Ready");
    CHECK(st.conditions(0).status() == "True");
    CHECK(st.conditions(0).last_transition_time() == "2024-03-11T09:12:52Z");
    CHECK(st.conditions(0).reason().empty());
  }

  SECTION("Pod: coredns (ReplicaSet owner, anti-affinity preferred, ports, tolerations)") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[1];
    const v1::ObjectMeta& m = p.metadata();
    CHECK(m.name() == "coredns-5d78c9869d-7xk2p");
    CHECK(m.generate_name() == "coredns-5d78c9869d-");
    CHECK(m.labels().at("pod-template-hash") == "5d78c9869d");
    CHECK(m.annotations_size() == 0);
    REQUIRE(m.owner_references_size() == 1);
    CHECK(m.owner_references(0).api_version() == "apps/v1");
    CHECK(m.owner_references(0).kind() == "ReplicaSet");
    CHECK(m.owner_references(0).name() == "coredns-5d78c9869d");
    CHECK(m.owner_references(0).uid() == "4f5e6d7c-8b9a-4c0d-9e1f-2a3b4c5d6e7f");
    REQUIRE(m.owner_references(0).has_controller());
    CHECK(m.owner_references(0).controller());
    REQUIRE(m.owner_references(0).has_block_owner_deletion());
    CHECK(m.owner_references(0).block_owner_deletion());

    const v1::PodSpec& s = p.spec();
    CHECK(s.node_name() == "worker-1");
    CHECK_FALSE(s.host_network());
    CHECK(s.node_selector_size() == 1);
    CHECK(s.node_selector().at("kubernetes.io/os") == "linux");
    CHECK(s.priority() == 2000000000);
    CHECK(s.priority_class_name() == "system-cluster-critical");

    REQUIRE(s.has_affinity());
    CHECK_FALSE(s.affinity().has_node_affinity());
    CHECK_FALSE(s.affinity().has_pod_affinity());
    REQUIRE(s.affinity().has_pod_anti_affinity());
    const v1::PodAntiAffinity& anti = s.affinity().pod_anti_affinity();
    CHECK(anti.required_during_scheduling_ignored_during_execution_size() == 0);
    REQUIRE(anti.preferred_during_scheduling_ignored_during_execution_size() == 1);
    const v1::WeightedPodAffinityTerm& w = anti.preferred_during_scheduling_ignored_during_execution(0);
    CHECK(w.weight() == 100);
    const v1::PodAffinityTerm& t = w.pod_affinity_term();
    CHECK(t.topology_key() == "kubernetes.io/hostname");
    CHECK_FALSE(t.has_namespace_selector());
    CHECK(t.namespaces_size() == 0);
    REQUIRE(t.has_label_selector());
    CHECK(t.label_selector().match_labels_size() == 0);
    REQUIRE(t.label_selector().match_expressions_size() == 1);
    CHECK(t.label_selector().match_expressions(0).key() == "k8s-app");
    CHECK(t.label_selector().match_expressions(0).operator_() == "In");
    CHECK(ToVector(t.label_selector().match_expressions(0).values()) == Strings{"kube-dns"});

    REQUIRE(s.containers_size() == 1);
    const v1::Container& ctr = s.containers(0);
    CHECK(ctr.image() == "registry.k8s.io/coredns/coredns:v1.11.1");
    CHECK(ctr.resources().requests().at("cpu") == "100m");
    CHECK(ctr.resources().requests().at("memory") == "70Mi");
    CHECK(Keys(ctr.resources().limits()) == Strings{"memory"});
    CHECK(ctr.resources().limits().at("memory") == "170Mi");
    REQUIRE(ctr.ports_size() == 3);
    CHECK(ctr.ports(0).name() == "dns");
    CHECK(ctr.ports(0).container_port() == 53);
    CHECK(ctr.ports(0).protocol() == "UDP");
    CHECK(ctr.ports(0).host_port() == 0);
    CHECK(ctr.ports(0).host_ip().empty());
    CHECK(ctr.ports(1).name() == "dns-tcp");
    CHECK(ctr.ports(1).protocol() == "TCP");
    CHECK(ctr.ports(2).container_port() == 9153);

    REQUIRE(s.tolerations_size() == 4);
    CHECK(s.tolerations(0).key() == "CriticalAddonsOnly");
    CHECK(s.tolerations(0).operator_() == "Exists");
    CHECK(s.tolerations(0).effect().empty());
    CHECK(s.tolerations(1).key() == "node-role.kubernetes.io/control-plane");
    CHECK(s.tolerations(1).operator_().empty());  // unset means Equal
    CHECK(s.tolerations(1).effect() == "NoSchedule");
    CHECK(s.tolerations(2).key() == "node.kubernetes.io/not-ready");
    CHECK(s.tolerations(2).effect() == "NoExecute");
    REQUIRE(s.tolerations(2).has_toleration_seconds());
    CHECK(s.tolerations(2).toleration_seconds() == 300);
    REQUIRE(s.tolerations(3).has_toleration_seconds());
    CHECK(s.tolerations(3).toleration_seconds() == 300);

    CHECK(p.status().pod_ip() == "10.244.1.3");
    CHECK(p.status().host_ip() == "10.0.1.11");
  }

  SECTION("Pod: web (anti-affinity required, init sidecar, host port, spread, PVC)") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[2];
    CHECK(p.metadata().name() == "web-6f7b9d4c8-abcde");
    CHECK(p.metadata().namespace_() == "default");
    CHECK(p.metadata().annotations().at("kubectl.kubernetes.io/restartedAt") == "2024-04-30T08:00:00Z");
    CHECK(Keys(p.metadata().labels()) == Strings{"app", "pod-template-hash", "tier"});
    const v1::PodSpec& s = p.spec();
    CHECK(s.node_name() == "worker-1");
    REQUIRE(s.has_priority());  // present although zero
    CHECK(s.priority() == 0);
    CHECK(s.priority_class_name().empty());

    REQUIRE(s.affinity().has_pod_anti_affinity());
    const v1::PodAntiAffinity& anti = s.affinity().pod_anti_affinity();
    CHECK(anti.preferred_during_scheduling_ignored_during_execution_size() == 0);
    REQUIRE(anti.required_during_scheduling_ignored_during_execution_size() == 1);
    const v1::PodAffinityTerm& t = anti.required_during_scheduling_ignored_during_execution(0);
    REQUIRE(t.has_label_selector());
    CHECK(t.label_selector().match_labels_size() == 1);
    CHECK(t.label_selector().match_labels().at("app") == "web");
    CHECK(t.label_selector().match_expressions_size() == 0);
    CHECK(ToVector(t.match_label_keys()) == Strings{"pod-template-hash"});
    CHECK(t.mismatch_label_keys_size() == 0);
    CHECK(t.topology_key() == "kubernetes.io/hostname");
    CHECK_FALSE(t.has_namespace_selector());

    REQUIRE(s.containers_size() == 1);
    const v1::Container& web = s.containers(0);
    CHECK(web.name() == "web");
    CHECK(web.image() == "ghcr.io/example/web:2.14.1");
    CHECK(web.restart_policy().empty());
    REQUIRE(web.ports_size() == 1);
    CHECK(web.ports(0).name() == "http");
    CHECK(web.ports(0).container_port() == 8080);
    CHECK(web.ports(0).host_port() == 8080);
    CHECK(web.ports(0).host_ip() == "10.0.1.11");
    CHECK(web.ports(0).protocol() == "TCP");
    CHECK(Keys(web.resources().requests()) == Strings{"cpu", "ephemeral-storage", "memory"});
    CHECK(web.resources().requests().at("cpu") == "500m");
    CHECK(web.resources().requests().at("memory") == "512Mi");
    CHECK(web.resources().requests().at("ephemeral-storage") == "2Gi");
    CHECK(web.resources().limits().at("cpu") == "1");
    CHECK(web.resources().limits().at("memory") == "1Gi");

    REQUIRE(s.init_containers_size() == 2);
    CHECK(s.init_containers(0).name() == "migrate");
    CHECK(s.init_containers(0).image() == "ghcr.io/example/web-migrate:2.14.1");
    CHECK(s.init_containers(0).restart_policy().empty());
    CHECK(s.init_containers(0).resources().requests().at("cpu") == "200m");
    CHECK(s.init_containers(0).resources().requests().at("memory") == "256Mi");
    CHECK(s.init_containers(1).name() == "log-shipper");
    CHECK(s.init_containers(1).image() == "fluent/fluent-bit:3.0");
    CHECK(s.init_containers(1).restart_policy() == "Always");
    CHECK(s.init_containers(1).resources().requests().at("cpu") == "50m");
    CHECK(s.init_containers(1).resources().limits().at("memory") == "128Mi");

    REQUIRE(s.topology_spread_constraints_size() == 2);
    const v1::TopologySpreadConstraint& zone = s.topology_spread_constraints(0);
    CHECK(zone.max_skew() == 1);
    CHECK(zone.topology_key() == "topology.kubernetes.io/zone");
    CHECK(zone.when_unsatisfiable() == "DoNotSchedule");
    REQUIRE(zone.has_label_selector());
    CHECK(zone.label_selector().match_labels().at("app") == "web");
    REQUIRE(zone.has_min_domains());
    CHECK(zone.min_domains() == 2);
    REQUIRE(zone.has_node_affinity_policy());
    CHECK(zone.node_affinity_policy() == "Honor");
    REQUIRE(zone.has_node_taints_policy());
    CHECK(zone.node_taints_policy() == "Ignore");
    CHECK(ToVector(zone.match_label_keys()) == Strings{"pod-template-hash"});
    const v1::TopologySpreadConstraint& host = s.topology_spread_constraints(1);
    CHECK(host.max_skew() == 3);
    CHECK(host.topology_key() == "kubernetes.io/hostname");
    CHECK(host.when_unsatisfiable() == "ScheduleAnyway");
    CHECK_FALSE(host.has_min_domains());
    CHECK_FALSE(host.has_node_affinity_policy());
    CHECK_FALSE(host.has_node_taints_policy());
    CHECK(host.match_label_keys_size() == 0);
    REQUIRE(host.has_label_selector());
    CHECK(host.label_selector().match_labels_size() == 0);
    REQUIRE(host.label_selector().match_expressions_size() == 1);
    CHECK(host.label_selector().match_expressions(0).key() == "tier");
    CHECK(host.label_selector().match_expressions(0).operator_() == "Exists");
    CHECK(host.label_selector().match_expressions(0).values_size() == 0);

    REQUIRE(s.volumes_size() == 2);
    CHECK(s.volumes(0).name() == "data");
    REQUIRE(s.volumes(0).has_persistent_volume_claim());
    CHECK(s.volumes(0).persistent_volume_claim().claim_name() == "web-data");
    CHECK(s.volumes(0).persistent_volume_claim().read_only());
    CHECK(s.volumes(1).name() == "kube-api-access-x7k2q");
    CHECK_FALSE(s.volumes(1).has_persistent_volume_claim());

    REQUIRE(s.tolerations_size() == 2);
    CHECK(s.tolerations(1).key() == "node.kubernetes.io/unreachable");

    REQUIRE(p.status().conditions_size() == 2);
    CHECK(p.status().conditions(0).type() == "PodScheduled");
    CHECK(p.status().conditions(1).type() == "Ready");
    CHECK(p.status().conditions(1).last_transition_time() == "2024-04-30T08:00:31Z");
    CHECK(p.status().pod_ip() == "10.244.1.17");
  }

  SECTION("Pod: pending web replica with a nominated node") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[3];
    CHECK(p.metadata().name() == "web-6f7b9d4c8-fghij");
    CHECK(p.spec().node_name().empty());
    CHECK_FALSE(p.spec().has_affinity());
    CHECK(p.spec().containers(0).resources().limits().at("cpu") == "1");
    REQUIRE(p.spec().topology_spread_constraints_size() == 1);
    CHECK(p.spec().topology_spread_constraints(0).when_unsatisfiable() == "ScheduleAnyway");
    CHECK_FALSE(p.spec().topology_spread_constraints(0).has_min_domains());
    const v1::PodStatus& st = p.status();
    CHECK(st.phase() == "Pending");
    CHECK(st.nominated_node_name() == "worker-1");
    CHECK(st.host_ip().empty());
    CHECK(st.pod_ip().empty());
    CHECK(st.start_time().empty());
    CHECK(st.qos_class() == "Burstable");
    REQUIRE(st.conditions_size() == 1);
    CHECK(st.conditions(0).type() == "PodScheduled");
    CHECK(st.conditions(0).status() == "False");
    CHECK(st.conditions(0).reason() == "Unschedulable");
    CHECK(st.conditions(0).last_transition_time() == "2024-05-02T11:50:41Z");
    CHECK(st.conditions(0).message() ==
          "0/3 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) had untolerated "
          "taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable. preemption: 0/3 nodes "
          "are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for "
          "scheduling.");
  }

  SECTION("Pod: Job pod that never preempts") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[4];
    CHECK(p.metadata().name() == "report-28574310-q8k2m");
    CHECK(p.metadata().generate_name() == "report-28574310-");
    CHECK(p.metadata().labels().at("batch.kubernetes.io/job-name") == "report-28574310");
    REQUIRE(p.metadata().owner_references_size() == 1);
    CHECK(p.metadata().owner_references(0).kind() == "Job");
    CHECK(p.metadata().owner_references(0).api_version() == "batch/v1");
    CHECK(p.metadata().owner_references(0).controller());
    const v1::PodSpec& s = p.spec();
    REQUIRE(s.has_preemption_policy());
    CHECK(s.preemption_policy() == "Never");
    REQUIRE(s.has_priority());
    CHECK(s.priority() == 1000);
    CHECK(s.priority_class_name() == "batch-nonpreempting");
    CHECK(s.node_name() == "worker-1");
    REQUIRE(s.containers_size() == 1);
    CHECK(s.containers(0).resources().requests_size() == 0);
    CHECK(s.containers(0).resources().limits_size() == 0);
    REQUIRE(s.tolerations_size() == 1);
    CHECK(s.tolerations(0).key() == "dedicated");
    CHECK(s.tolerations(0).operator_() == "Equal");
    CHECK(s.tolerations(0).value() == "batch");
    CHECK(s.tolerations(0).effect() == "PreferNoSchedule");
    CHECK_FALSE(s.tolerations(0).has_toleration_seconds());
    CHECK(p.status().qos_class() == "BestEffort");
  }

  SECTION("Pod: trainer-0 (node affinity with every operator, GPUs, overhead, runtime class)") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[5];
    CHECK(p.metadata().name() == "trainer-0");
    CHECK(p.metadata().namespace_() == "ml");
    CHECK(p.metadata().labels().at("apps.kubernetes.io/pod-index") == "0");
    CHECK(p.metadata().owner_references(0).kind() == "StatefulSet");
    const v1::PodSpec& s = p.spec();
    CHECK(s.node_name() == "worker-2");
    CHECK(s.runtime_class_name() == "nvidia");
    CHECK(Keys(s.overhead()) == Strings{"cpu", "memory"});
    CHECK(s.overhead().at("cpu") == "250m");
    CHECK(s.overhead().at("memory") == "120Mi");

    REQUIRE(s.has_affinity());
    CHECK_FALSE(s.affinity().has_pod_affinity());
    CHECK_FALSE(s.affinity().has_pod_anti_affinity());
    REQUIRE(s.affinity().has_node_affinity());
    const v1::NodeAffinity& na = s.affinity().node_affinity();
    REQUIRE(na.has_required_during_scheduling_ignored_during_execution());
    const v1::NodeSelector& req = na.required_during_scheduling_ignored_during_execution();
    REQUIRE(req.node_selector_terms_size() == 2);
    const v1::NodeSelectorTerm& t0 = req.node_selector_terms(0);
    CHECK(t0.match_fields_size() == 0);
    REQUIRE(t0.match_expressions_size() == 6);
    CHECK(t0.match_expressions(0).key() == "node.kubernetes.io/instance-type");
    CHECK(t0.match_expressions(0).operator_() == "In");
    CHECK(ToVector(t0.match_expressions(0).values()) == Strings{"g5.4xlarge", "g5.8xlarge"});
    CHECK(t0.match_expressions(1).key() == "topology.kubernetes.io/zone");
    CHECK(t0.match_expressions(1).operator_() == "NotIn");
    CHECK(ToVector(t0.match_expressions(1).values()) == Strings{"eu-west-1d"});
    CHECK(t0.match_expressions(2).key() == "nvidia.com/gpu.product");
    CHECK(t0.match_expressions(2).operator_() == "Exists");
    CHECK(t0.match_expressions(2).values_size() == 0);
    CHECK(t0.match_expressions(3).key() == "example.com/no-gpu");
    CHECK(t0.match_expressions(3).operator_() == "DoesNotExist");
    CHECK(t0.match_expressions(3).values_size() == 0);
    CHECK(t0.match_expressions(4).key() == "nvidia.com/gpu.count");
    CHECK(t0.match_expressions(4).operator_() == "Gt");
    CHECK(ToVector(t0.match_expressions(4).values()) == Strings{"1"});
    CHECK(t0.match_expressions(5).operator_() == "Lt");
    CHECK(ToVector(t0.match_expressions(5).values()) == Strings{"9"});
    const v1::NodeSelectorTerm& t1 = req.node_selector_terms(1);
    CHECK(t1.match_expressions_size() == 0);
    REQUIRE(t1.match_fields_size() == 1);
    CHECK(t1.match_fields(0).key() == "metadata.name");
    CHECK(t1.match_fields(0).operator_() == "In");
    CHECK(ToVector(t1.match_fields(0).values()) == Strings{"worker-2"});
    REQUIRE(na.preferred_during_scheduling_ignored_during_execution_size() == 2);
    const v1::PreferredSchedulingTerm& pref0 = na.preferred_during_scheduling_ignored_during_execution(0);
    CHECK(pref0.weight() == 80);
    REQUIRE(pref0.preference().match_expressions_size() == 1);
    CHECK(pref0.preference().match_expressions(0).key() == "nvidia.com/gpu.product");
    CHECK(pref0.preference().match_expressions(0).operator_() == "In");
    CHECK(ToVector(pref0.preference().match_expressions(0).values()) == Strings{"NVIDIA-A10G"});
    const v1::PreferredSchedulingTerm& pref1 = na.preferred_during_scheduling_ignored_during_execution(1);
    CHECK(pref1.weight() == 20);
    CHECK(pref1.preference().match_expressions(0).operator_() == "NotIn");
    CHECK(ToVector(pref1.preference().match_expressions(0).values()) == Strings{"eu-west-1a"});

    REQUIRE(s.containers_size() == 1);
    const v1::ResourceRequirements& r = s.containers(0).resources();
    CHECK(Keys(r.requests()) == Strings{"cpu", "memory", "nvidia.com/gpu"});
    CHECK(r.requests().at("cpu") == "6");
    CHECK(r.requests().at("memory") == "40Gi");
    CHECK(r.requests().at("nvidia.com/gpu") == "2");
    CHECK(Keys(r.limits()) == Strings{"memory", "nvidia.com/gpu"});
    CHECK(r.limits().at("memory") == "48Gi");
    CHECK(r.limits().at("nvidia.com/gpu") == "2");

    REQUIRE(s.tolerations_size() == 2);
    CHECK(s.tolerations(0).key() == "nvidia.com/gpu");
    CHECK(s.tolerations(0).operator_() == "Equal");
    CHECK(s.tolerations(0).value() == "present");
    CHECK(s.tolerations(0).effect() == "NoSchedule");
    CHECK(s.tolerations(1).key() == "example.com/maintenance");
    CHECK(s.tolerations(1).operator_() == "Exists");
    CHECK(s.tolerations(1).effect() == "NoExecute");
    REQUIRE(s.tolerations(1).has_toleration_seconds());
    CHECK(s.tolerations(1).toleration_seconds() == 3600);

    REQUIRE(s.volumes_size() == 1);
    CHECK(s.volumes(0).name() == "checkpoints");
    REQUIRE(s.volumes(0).has_persistent_volume_claim());
    CHECK(s.volumes(0).persistent_volume_claim().claim_name() == "checkpoints-trainer-0");
    CHECK_FALSE(s.volumes(0).persistent_volume_claim().read_only());

    CHECK(p.status().host_ip() == "10.0.3.21");
    CHECK(p.status().pod_ip() == "10.244.2.9");
    CHECK(p.status().start_time() == "2024-04-21T07:00:02Z");
  }

  SECTION("Pod: trainer-1 (gated, pod affinity with namespaces and namespace selectors)") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[6];
    CHECK(p.metadata().name() == "trainer-1");
    const v1::PodSpec& s = p.spec();
    CHECK(s.node_name().empty());
    REQUIRE(s.scheduling_gates_size() == 1);
    CHECK(s.scheduling_gates(0).name() == "example.com/quota-check");
    CHECK(s.runtime_class_name() == "nvidia");
    CHECK(s.overhead_size() == 0);

    REQUIRE(s.has_affinity());
    CHECK_FALSE(s.affinity().has_node_affinity());
    REQUIRE(s.affinity().has_pod_affinity());
    const v1::PodAffinity& aff = s.affinity().pod_affinity();
    REQUIRE(aff.required_during_scheduling_ignored_during_execution_size() == 1);
    const v1::PodAffinityTerm& req = aff.required_during_scheduling_ignored_during_execution(0);
    REQUIRE(req.has_label_selector());
    REQUIRE(req.label_selector().match_expressions_size() == 1);
    CHECK(req.label_selector().match_expressions(0).key() == "app");
    CHECK(req.label_selector().match_expressions(0).operator_() == "In");
    CHECK(ToVector(req.label_selector().match_expressions(0).values()) == Strings{"trainer"});
    CHECK(ToVector(req.namespaces()) == Strings{"ml", "ml-staging"});
    // namespaceSelector: {} is present and empty (all namespaces), unlike unset.
    REQUIRE(req.has_namespace_selector());
    CHECK(req.namespace_selector().match_labels_size() == 0);
    CHECK(req.namespace_selector().match_expressions_size() == 0);
    CHECK(ToVector(req.mismatch_label_keys()) == Strings{"tenant"});
    CHECK(req.match_label_keys_size() == 0);
    CHECK(req.topology_key() == "topology.kubernetes.io/zone");

    REQUIRE(aff.preferred_during_scheduling_ignored_during_execution_size() == 1);
    const v1::WeightedPodAffinityTerm& pref = aff.preferred_during_scheduling_ignored_during_execution(0);
    CHECK(pref.weight() == 50);
    CHECK(pref.pod_affinity_term().label_selector().match_labels().at("app") == "dataset-cache");
    REQUIRE(pref.pod_affinity_term().has_namespace_selector());
    CHECK(pref.pod_affinity_term().namespace_selector().match_labels_size() == 1);
    CHECK(pref.pod_affinity_term().namespace_selector().match_labels().at("team") == "research");
    CHECK(pref.pod_affinity_term().namespaces_size() == 0);
    CHECK(pref.pod_affinity_term().topology_key() == "topology.kubernetes.io/zone");

    REQUIRE(s.affinity().has_pod_anti_affinity());
    const v1::PodAntiAffinity& anti = s.affinity().pod_anti_affinity();
    CHECK(anti.preferred_during_scheduling_ignored_during_execution_size() == 0);
    REQUIRE(anti.required_during_scheduling_ignored_during_execution_size() == 1);
    const v1::LabelSelector& sel = anti.required_during_scheduling_ignored_during_execution(0).label_selector();
    CHECK(sel.match_labels_size() == 1);
    CHECK(sel.match_labels().at("app") == "trainer");
    REQUIRE(sel.match_expressions_size() == 2);
    CHECK(sel.match_expressions(1).key() == "canary");
    CHECK(sel.match_expressions(1).operator_() == "DoesNotExist");
    CHECK(sel.match_expressions(1).values_size() == 0);
    CHECK_FALSE(anti.required_during_scheduling_ignored_during_execution(0).has_namespace_selector());

    CHECK(p.status().phase() == "Pending");
    CHECK(p.status().nominated_node_name().empty());
    REQUIRE(p.status().conditions_size() == 1);
    CHECK(p.status().conditions(0).reason() == "SchedulingGated");
    CHECK(p.status().conditions(0).message() == "Scheduling is blocked due to non-empty scheduling gates");
  }

  SECTION("Pod: cache-0 (pod-level resources, SCTP host port, no owner)") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[7];
    CHECK(p.metadata().name() == "cache-0");
    CHECK(p.metadata().owner_references_size() == 0);
    CHECK(p.metadata().generate_name().empty());
    const v1::PodSpec& s = p.spec();
    CHECK(s.node_name() == "worker-1");
    CHECK(Keys(s.resources().requests()) == Strings{"cpu", "hugepages-2Mi", "memory"});
    CHECK(s.resources().requests().at("cpu") == "2");
    CHECK(s.resources().requests().at("memory") == "4Gi");
    CHECK(s.resources().requests().at("hugepages-2Mi") == "256Mi");
    CHECK(Keys(s.resources().limits()) == Strings{"cpu", "hugepages-2Mi", "memory"});
    CHECK(s.resources().limits().at("cpu") == "2");
    CHECK(s.resources().limits().at("hugepages-2Mi") == "256Mi");
    REQUIRE(s.containers_size() == 2);
    CHECK(s.containers(0).name() == "redis");
    CHECK(s.containers(0).resources().requests_size() == 0);
    REQUIRE(s.containers(0).ports_size() == 1);
    CHECK(s.containers(0).ports(0).container_port() == 6379);
    CHECK(s.containers(0).ports(0).host_port() == 0);
    CHECK(s.containers(0).ports(0).name().empty());
    CHECK(s.containers(1).name() == "exporter");
    REQUIRE(s.containers(1).ports_size() == 1);
    CHECK(s.containers(1).ports(0).container_port() == 9121);
    CHECK(s.containers(1).ports(0).host_port() == 9121);
    CHECK(s.containers(1).ports(0).host_ip().empty());
    CHECK(s.containers(1).ports(0).protocol() == "SCTP");
    CHECK(p.status().qos_class() == "Guaranteed");
    CHECK(p.status().conditions_size() == 0);
    CHECK(p.status().start_time() == "2024-04-28T14:20:03Z");
  }

  SECTION("Pod: terminating pod with a catch-all toleration") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[8];
    CHECK(p.metadata().name() == "legacy-etl-5kq9z");
    CHECK(p.metadata().deletion_timestamp() == "2024-05-02T11:42:10Z");
    CHECK(p.metadata().creation_timestamp() == "2024-04-25T09:00:00Z");
    CHECK(p.metadata().generate_name() == "legacy-etl-");
    CHECK(p.spec().node_name() == "worker-2");
    REQUIRE(p.spec().tolerations_size() == 1);
    CHECK(p.spec().tolerations(0).key().empty());
    CHECK(p.spec().tolerations(0).operator_() == "Exists");
    CHECK(p.spec().tolerations(0).effect().empty());
    CHECK(p.status().phase() == "Running");
  }

  SECTION("Pod: hand-written pod without admission defaults") {
    const v1::Pod& p = c.Of<api::v1::Pod>()[9];
    CHECK(p.metadata().name() == "scratch");
    CHECK(p.metadata().deletion_timestamp().empty());
    const v1::PodSpec& s = p.spec();
    CHECK_FALSE(s.has_priority());
    CHECK_FALSE(s.has_preemption_policy());
    CHECK(s.priority_class_name().empty());
    CHECK(s.scheduler_name() == "my-scheduler");
    CHECK(s.node_name().empty());
    CHECK_FALSE(s.has_affinity());
    CHECK(s.tolerations_size() == 0);
    CHECK(s.containers(0).resources().requests().at("cpu") == "1.5");  // YAML float text kept
    CHECK(s.containers(0).resources().requests().at("memory") == "64Mi");
    CHECK(p.status().phase() == "Pending");
    CHECK(p.status().nominated_node_name().empty());
  }

  SECTION("PodDisruptionBudget") {
    const v1::PodDisruptionBudget& web = c.Of<api::v1::PodDisruptionBudget>()[0];
    CHECK(web.api_version() == "policy/v1");
    CHECK(web.kind() == "PodDisruptionBudget");
    CHECK(web.metadata().name() == "web-pdb");
    CHECK(web.metadata().namespace_() == "default");
    CHECK(web.metadata().uid() == "91a2b3c4-d5e6-47f8-8091-a2b3c4d5e6f7");
    CHECK(web.metadata().resource_version() == "48211305");
    CHECK(web.metadata().annotations().at("kubectl.kubernetes.io/last-applied-configuration") ==
          "{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"annotations\":{},"
          "\"name\":\"web-pdb\",\"namespace\":\"default\"},\"spec\":{\"minAvailable\":2,\"selector\":"
          "{\"matchLabels\":{\"app\":\"web\"}}}}\n");
    REQUIRE(web.spec().has_min_available());
    CHECK(web.spec().min_available() == "2");  // a JSON/YAML number keeps its text
    CHECK_FALSE(web.spec().has_max_unavailable());
    CHECK(web.spec().unhealthy_pod_eviction_policy().empty());
    REQUIRE(web.spec().has_selector());
    CHECK(web.spec().selector().match_labels().at("app") == "web");
    CHECK(web.spec().selector().match_expressions_size() == 0);
    CHECK(web.status().disruptions_allowed() == 0);
    CHECK(web.status().current_healthy() == 1);
    CHECK(web.status().desired_healthy() == 2);
    CHECK(web.status().expected_pods() == 2);
    CHECK(web.status().observed_generation() == 1);
    CHECK(web.status().disrupted_pods_size() == 0);

    const v1::PodDisruptionBudget& tr = c.Of<api::v1::PodDisruptionBudget>()[1];
    CHECK(tr.metadata().name() == "trainer-pdb");
    CHECK(tr.metadata().namespace_() == "ml");
    CHECK_FALSE(tr.spec().has_min_available());
    REQUIRE(tr.spec().has_max_unavailable());
    CHECK(tr.spec().max_unavailable() == "50%");
    CHECK(tr.spec().unhealthy_pod_eviction_policy() == "AlwaysAllow");
    REQUIRE(tr.spec().selector().match_expressions_size() == 1);
    CHECK(tr.spec().selector().match_expressions(0).key() == "app");
    CHECK(tr.spec().selector().match_expressions(0).operator_() == "In");
    CHECK(ToVector(tr.spec().selector().match_expressions(0).values()) == Strings{"trainer"});
    CHECK(tr.status().disruptions_allowed() == 0);
    CHECK(tr.status().current_healthy() == 1);
    CHECK(tr.status().desired_healthy() == 1);
    CHECK(tr.status().expected_pods() == 2);
    CHECK(tr.status().observed_generation() == 3);
    CHECK(tr.status().disrupted_pods_size() == 1);
    CHECK(tr.status().disrupted_pods().at("trainer-0") == "2024-05-02T11:59:00Z");
  }

  SECTION("PriorityClass") {
    const v1::PriorityClass& pc = c.Of<api::v1::PriorityClass>()[0];
    CHECK(pc.api_version() == "scheduling.k8s.io/v1");
    CHECK(pc.kind() == "PriorityClass");
    CHECK(pc.metadata().name() == "batch-nonpreempting");
    CHECK(pc.metadata().namespace_().empty());
    CHECK(pc.metadata().uid() == "b3c4d5e6-f708-491a-a2b3-c4d5e6f70819");
    CHECK(pc.metadata().creation_timestamp() == "2024-03-12T12:00:00Z");
    CHECK(pc.value() == 1000);
    CHECK(pc.global_default());
    REQUIRE(pc.has_preemption_policy());
    CHECK(pc.preemption_policy() == "Never");
    CHECK(pc.description() == "Default priority for batch workloads; they never preempt others.");
  }

  SECTION("Namespace") {
    const v1::Namespace& def = c.Of<api::v1::Namespace>()[0];
    CHECK(def.api_version() == "v1");
    CHECK(def.kind() == "Namespace");
    CHECK(def.metadata().name() == "default");
    CHECK(def.metadata().uid() == "c4d5e6f7-0819-4a2b-b3c4-d5e6f708192a");
    CHECK(def.metadata().resource_version() == "201");
    CHECK(def.metadata().labels().at("kubernetes.io/metadata.name") == "default");
    CHECK(def.metadata().annotations_size() == 0);
    const v1::Namespace& ml = c.Of<api::v1::Namespace>()[1];
    CHECK(ml.metadata().name() == "ml");
    CHECK(ml.metadata().creation_timestamp() == "2024-04-20T15:00:00Z");
    CHECK(Keys(ml.metadata().labels()) == Strings{"kubernetes.io/metadata.name", "team"});
    CHECK(ml.metadata().labels().at("team") == "research");
    CHECK(ml.metadata().annotations().at("example.com/cost-center") == "4711");
  }
}

// ---------------------------------------------------------------------------
// Decoding from strings.

TEST_CASE("Decode accepts a single JSON object", "[decode][string]") {
  const api::DecodedCluster d = MustDecode(
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"zone":"a"}},)"
      R"("status":{"allocatable":{"cpu":"2","memory":"4Gi","pods":"110"}}})",
      "node.json");
  REQUIRE(d.objects.Of<api::v1::Node>().size() == 1);
  CHECK(d.objects.Of<api::v1::Node>()[0].metadata().name() == "n1");
  CHECK(d.objects.Of<api::v1::Node>()[0].metadata().labels().at("zone") == "a");
  CHECK(d.objects.Of<api::v1::Node>()[0].status().allocatable().at("memory") == "4Gi");
  CHECK(d.objects.Of<api::v1::Pod>().size() == 0);
  CHECK(d.skipped_kinds.empty());
}

TEST_CASE("Decode accepts a NodeList", "[decode][string]") {
  const api::DecodedCluster d = MustDecode(R"({
    "apiVersion": "v1",
    "kind": "NodeList",
    "metadata": {"resourceVersion": "4711"},
    "items": [
      {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}},
      {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n2"}, "spec": {"unschedulable": true}}
    ]})");
  REQUIRE(d.objects.Of<api::v1::Node>().size() == 2);
  CHECK(d.objects.Of<api::v1::Node>()[0].metadata().name() == "n1");
  CHECK(d.objects.Of<api::v1::Node>()[1].metadata().name() == "n2");
  CHECK(d.objects.Of<api::v1::Node>()[1].spec().unschedulable());
  CHECK(d.skipped_kinds.empty());
}

// What the API server itself returns (GET /api/v1/nodes, kubectl get --raw):
// the items of a typed list carry no apiVersion/kind of their own.
TEST_CASE("Decode accepts a NodeList whose items omit kind, as the API server sends it", "[decode][string]") {
  const api::DecodedCluster d = MustDecode(R"({
    "kind": "NodeList",
    "apiVersion": "v1",
    "metadata": {"resourceVersion": "4711"},
    "items": [
      {"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "2"}}},
      {"metadata": {"name": "n2"}, "status": {"allocatable": {"cpu": "4"}}}
    ]})");
  REQUIRE(d.objects.Of<api::v1::Node>().size() == 2);
  CHECK(d.objects.Of<api::v1::Node>()[0].metadata().name() == "n1");
  CHECK(d.objects.Of<api::v1::Node>()[1].status().allocatable().at("cpu") == "4");
}

TEST_CASE("Decode accepts multi-document YAML with empty documents", "[decode][string]") {
  const std::string text =
      "# namespaces first\n"
      "apiVersion: v1\n"
      "kind: Namespace\n"
      "metadata:\n"
      "  name: a\n"
      "---\n"
      "---\n"
      "# only a comment in this one\n"
      "---\n"
      "apiVersion: v1\n"
      "kind: Namespace\n"
      "metadata:\n"
      "  name: b\n"
      "---\n";
  const api::DecodedCluster d = MustDecode(text, "multi.yaml");
  REQUIRE(d.objects.Of<api::v1::Namespace>().size() == 2);
  CHECK(d.objects.Of<api::v1::Namespace>()[0].metadata().name() == "a");
  CHECK(d.objects.Of<api::v1::Namespace>()[1].metadata().name() == "b");
  CHECK(d.skipped_kinds.empty());
}

TEST_CASE("Document numbers in errors count empty YAML documents", "[decode][string][errors]") {
  // Documents: 1 = Namespace, 2 = empty, 3 = the bad pod.
  const std::string text =
      "apiVersion: v1\n"
      "kind: Namespace\n"
      "metadata:\n"
      "  name: shop\n"
      "---\n"
      "---\n"
      "apiVersion: v1\n"
      "kind: Pod\n"
      "metadata:\n"
      "  name: bad\n"
      "  namespace: shop\n"
      "spec:\n"
      "  containers:\n"
      "  - name: c\n"
      "    resources:\n"
      "      limits:\n"
      "        memory: 12XB\n";
  absl::StatusOr<api::DecodedCluster> d = api::Decode(text, "inline.yaml");
  REQUIRE_FALSE(d.ok());
  const std::string msg(d.status().message());
  CHECK_THAT(msg, Contains("inline.yaml: document 3 (Pod shop/bad): spec.containers[0].resources.limits.memory"));
  CHECK_THAT(msg, Contains("12XB"));
}

TEST_CASE("A pod's resize status decodes, and its quantities are checked", "[decode][string][errors]") {
  // The fields a kubelet writes after an in-place resize, as the API server
  // serves them (with fields schedkit does not read beside them).
  const std::string pod =
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "r", "namespace": "default"},
          "spec": {"nodeName": "n1", "containers": [{"name": "app", "resources": {"requests": {"cpu": "1"}}}]},
          "status": {"phase": "Running",
                     "conditions": [{"type": "PodResizePending", "status": "True", "reason": "Infeasible"}],
                     "containerStatuses": [{"name": "app", "ready": true, "restartCount": 0, "image": "x",
                                            "imageID": "", "allocatedResources": {"cpu": "2"},
                                            "resources": {"requests": {"cpu": "1500m"}}}],
                     "allocatedResources": {"cpu": "2"},
                     "resources": {"requests": {"cpu": "1500m"}, "limits": {"cpu": "3"}}}})";
  absl::StatusOr<api::DecodedCluster> d = api::Decode(pod, "resized.json");
  REQUIRE(d.ok());
  const api::v1::PodStatus& st = d->objects.Of<api::v1::Pod>()[0].status();
  REQUIRE(st.container_statuses_size() == 1);
  CHECK(st.container_statuses(0).name() == "app");
  CHECK(st.container_statuses(0).allocated_resources().at("cpu") == "2");
  CHECK(st.container_statuses(0).resources().requests().at("cpu") == "1500m");
  CHECK(st.allocated_resources().at("cpu") == "2");
  CHECK(st.resources().limits().at("cpu") == "3");

  std::string bad = pod;
  const std::string allocated = R"("allocatedResources": {"cpu": "2"})";
  bad.replace(bad.find(allocated), allocated.size(), R"("allocatedResources": {"cpu": "2x"})");
  absl::StatusOr<api::DecodedCluster> e = api::Decode(bad, "resized.json");
  REQUIRE_FALSE(e.ok());
  const std::string msg(e.status().message());
  CHECK_THAT(msg, Contains("resized.json"));
  CHECK_THAT(msg, Contains("status.containerStatuses[0].allocatedResources.cpu"));
}

TEST_CASE("Decode accepts a YAML document that is a List", "[decode][string]") {
  const std::string text =
      "apiVersion: v1\n"
      "kind: List\n"
      "metadata:\n"
      "  resourceVersion: \"\"\n"
      "items:\n"
      "- apiVersion: v1\n"
      "  kind: Node\n"
      "  metadata:\n"
      "    name: n1\n"
      "  status:\n"
      "    allocatable:\n"
      "      cpu: 2\n"
      "- apiVersion: v1\n"
      "  kind: ConfigMap\n"
      "  metadata:\n"
      "    name: settings\n"
      "    namespace: default\n"
      "  data:\n"
      "    key: value\n"
      "- apiVersion: v1\n"
      "  kind: Pod\n"
      "  metadata:\n"
      "    name: p1\n"
      "    namespace: default\n"
      "  spec:\n"
      "    nodeName: n1\n"
      "    containers:\n"
      "    - name: c\n"
      "      image: busybox\n"
      "---\n"
      "apiVersion: v1\n"
      "kind: Pod\n"
      "metadata:\n"
      "  name: p2\n"
      "  namespace: default\n"
      "spec:\n"
      "  containers:\n"
      "  - name: c\n"
      "    image: busybox\n";
  const api::DecodedCluster d = MustDecode(text, "list.yaml");
  REQUIRE(d.objects.Of<api::v1::Node>().size() == 1);
  CHECK(d.objects.Of<api::v1::Node>()[0].status().allocatable().at("cpu") == "2");
  REQUIRE(d.objects.Of<api::v1::Pod>().size() == 2);
  CHECK(d.objects.Of<api::v1::Pod>()[0].metadata().name() == "p1");
  CHECK(d.objects.Of<api::v1::Pod>()[0].spec().node_name() == "n1");
  CHECK(d.objects.Of<api::v1::Pod>()[1].metadata().name() == "p2");
  CHECK(d.skipped_kinds == std::map<std::string, int>{{"ConfigMap", 1}});
  CHECK(api::ValidateCluster(d.objects).ok());
}

TEST_CASE("DecodeInto appends to what is already decoded", "[decode][string]") {
  api::DecodedCluster out;
  REQUIRE(api::DecodeInto("kind: Node\napiVersion: v1\nmetadata:\n  name: n1\n", "a.yaml", out).ok());
  REQUIRE(api::DecodeInto(R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"s","namespace":"x"}})",
                          "b.json", out)
              .ok());
  REQUIRE(api::DecodeInto("kind: Node\napiVersion: v1\nmetadata:\n  name: n2\n---\n"
                          "kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: t\n  namespace: x\n",
                          "c.yaml", out)
              .ok());
  REQUIRE(out.objects.Of<api::v1::Node>().size() == 2);
  CHECK(out.objects.Of<api::v1::Node>()[0].metadata().name() == "n1");
  CHECK(out.objects.Of<api::v1::Node>()[1].metadata().name() == "n2");
  CHECK(out.skipped_kinds == std::map<std::string, int>{{"ConfigMap", 2}});
}

// ---------------------------------------------------------------------------
// LoadPaths on directories and several paths.

TEST_CASE("LoadPaths reads a directory's json/yaml/yml files recursively, in walk order", "[decode][load]") {
  const api::DecodedCluster d = MustLoad(TestData("dir"));
  Strings nodes, pods, nss;
  for (const auto& n : d.objects.Of<api::v1::Node>()) nodes.push_back(n.metadata().name());
  for (const auto& p : d.objects.Of<api::v1::Pod>()) pods.push_back(p.metadata().name());
  for (const auto& n : d.objects.Of<api::v1::Namespace>()) nss.push_back(n.metadata().name());
  CHECK(nss == Strings{"shop"});  // 05-namespaces.yml
  // 10-nodes.yaml in document order, then nested/40-node-c.yaml.
  CHECK(nodes == Strings{"node-b", "node-a", "node-c"});
  CHECK(d.objects.Of<api::v1::StorageClass>().size() == 1);  // nested/deeper/10-storage.yaml
  CHECK(pods == Strings{"cart-0", "cart-1"});   // 20-pods.json, then 30-more-pods.yaml
  CHECK(d.objects.Of<api::v1::Service>().size() == 1);       // in 20-pods.json's List
  CHECK(d.skipped_kinds.empty());
}

// Archives nobody here wrote keep one object per file in a folder named as
// its kind, without apiVersion or kind: must-gather (nodes/, pods/) and
// insights (config/node/, config/pod/<namespace>/). An object that names its
// kind keeps it.
TEST_CASE("LoadPaths reads objects without kind from per-kind folders", "[decode][load]") {
  const api::DecodedCluster gather = MustLoad(TestData("per-kind"));
  REQUIRE(gather.objects.Of<api::v1::Node>().size() == 1);
  CHECK(gather.objects.Of<api::v1::Node>()[0].metadata().name() == "node-a");
  REQUIRE(gather.objects.Of<api::v1::Pod>().size() == 1);
  CHECK(gather.objects.Of<api::v1::Pod>()[0].spec().node_name() == "node-a");

  const api::DecodedCluster insights = MustLoad(TestData("insights"));
  CHECK(insights.objects.Of<api::v1::Node>().size() == 1);
  REQUIRE(insights.objects.Of<api::v1::Pod>().size() == 1);
  CHECK(insights.objects.Of<api::v1::Pod>()[0].metadata().namespace_() == "shop");
  CHECK(insights.objects.Of<api::v1::Namespace>().size() == 1);

  // Outside such a folder, a missing kind is still an error naming the file.
  absl::StatusOr<api::DecodedCluster> plain = api::Decode("metadata: {name: x}\n", "x.yaml");
  REQUIRE_FALSE(plain.ok());
  CHECK_THAT(std::string(plain.status().message()), Catch::Contains("x.yaml") && Catch::Contains("kind: required"));
}

TEST_CASE("LoadPaths checks the cluster formed by all paths together", "[decode][load][errors]") {
  SECTION("the same cluster twice has duplicate nodes") {
    absl::StatusOr<api::DecodedCluster> d = api::LoadPaths({TestData("cluster.json"), TestData("cluster.yaml")});
    REQUIRE_FALSE(d.ok());
    const std::string msg(d.status().message());
    CHECK_THAT(msg, Contains("cp-1"));
    CHECK_THAT(msg, Contains("duplicate", Catch::CaseSensitive::No));
  }
  SECTION("pods in one file may run on nodes from another") {
    absl::StatusOr<api::DecodedCluster> d =
        api::LoadPaths({TestData("dir/10-nodes.yaml"), TestData("dir/30-more-pods.yaml")});
    INFO(d.status().ToString());
    REQUIRE(d.ok());
    CHECK(d->objects.Of<api::v1::Node>().size() == 2);
    CHECK(d->objects.Of<api::v1::Pod>().size() == 1);
  }
  SECTION("a missing path is an error naming it") {
    absl::StatusOr<api::DecodedCluster> d = api::LoadPaths({TestData("no-such-file.yaml")});
    REQUIRE_FALSE(d.ok());
    CHECK_THAT(std::string(d.status().message()), Contains("no-such-file.yaml"));
  }
}

// ---------------------------------------------------------------------------
// Bad inputs: every error names the file, the document/item, the object and
// the field path. Format: <source>: document <N>[, items[<i>]] (<Kind> <ns>/<name>): <field.path>: <problem>

TEST_CASE("Bad inputs are rejected with messages that locate the problem", "[decode][errors]") {
  SECTION("truncated JSON") {
    const std::string msg = LoadError("bad/truncated.json");
    CHECK_THAT(msg, Contains("truncated.json"));
    CHECK_THAT(msg, Contains("line"));
  }
  SECTION("wrong type: containers is a string") {
    const std::string msg = LoadError("bad/wrong_type_containers.json");
    CHECK_THAT(msg, Contains("wrong_type_containers.json: document 1 (Pod default/web-0): spec.containers"));
  }
  SECTION("wrong type: priority is not a number") {
    const std::string msg = LoadError("bad/wrong_type_priority.yaml");
    CHECK_THAT(msg, Contains("wrong_type_priority.yaml"));
    CHECK_THAT(msg, Contains("document 1"));
    CHECK_THAT(msg, Contains("Pod shop/api-0"));
    CHECK_THAT(msg, Contains("spec.priority"));
    CHECK_THAT(msg, !Contains("spec.priorityClassName"));
  }
  SECTION("invalid quantity in the third YAML document") {
    const std::string msg = LoadError("bad/invalid_quantity.yaml");
    CHECK_THAT(msg, Contains("invalid_quantity.yaml: document 3 (Pod default/web-1): "
                             "spec.containers[0].resources.requests.cpu"));
    CHECK_THAT(msg, Contains("\"1.5.5\""));
  }
  SECTION("invalid quantity in an item of a List") {
    const std::string msg = LoadError("bad/invalid_quantity_list.json");
    CHECK_THAT(msg, Contains("invalid_quantity_list.json: document 1, items[2] (Node worker-3): "
                             "status.allocatable.memory"));
    CHECK_THAT(msg, Contains("16Gx"));
  }
  SECTION("taint with an invalid effect") {
    const std::string msg = LoadError("bad/invalid_taint_effect.json");
    CHECK_THAT(msg, Contains("invalid_taint_effect.json: document 1 (Node worker-7): spec.taints[1].effect"));
    CHECK_THAT(msg, Contains("NoExecution"));
  }
  SECTION("node selector with an unknown operator") {
    const std::string msg = LoadError("bad/unknown_operator.yaml");
    CHECK_THAT(msg, Contains("unknown_operator.yaml: document 1 (Pod ml/trainer-2): "
                             "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                             ".nodeSelectorTerms[0].matchExpressions[1].operator"));
    CHECK_THAT(msg, Contains("Contains"));
  }
  SECTION("label selector with an unknown operator") {
    const std::string msg = LoadError("bad/unknown_selector_operator.json");
    CHECK_THAT(msg, Contains("unknown_selector_operator.json: document 1 (PodDisruptionBudget ml/trainer-pdb): "
                             "spec.selector.matchExpressions[0].operator"));
    CHECK_THAT(msg, Contains("Equals"));
  }
  SECTION("duplicate node names") {
    const std::string msg = LoadError("bad/duplicate_nodes.json");
    CHECK_THAT(msg, Contains("Node"));
    CHECK_THAT(msg, Contains("worker-1"));
    CHECK_THAT(msg, Contains("duplicate", Catch::CaseSensitive::No));
  }
  SECTION("duplicate pods (same namespace and name)") {
    const std::string msg = LoadError("bad/duplicate_pods.yaml");
    CHECK_THAT(msg, Contains("Pod"));
    CHECK_THAT(msg, Contains("shop/web-0"));
    CHECK_THAT(msg, Contains("duplicate", Catch::CaseSensitive::No));
  }
  SECTION("malformed YAML: bad indentation") {
    const std::string msg = LoadError("bad/bad_indent.yaml");
    CHECK_THAT(msg, Contains("bad_indent.yaml"));
    CHECK_THAT(msg, Contains("line 10"));
  }
  SECTION("malformed YAML: unclosed quote that runs into the next document marker") {
    const std::string msg = LoadError("bad/unclosed_quote_multidoc.yaml");
    CHECK_THAT(msg, Contains("unclosed_quote_multidoc.yaml"));
    CHECK_THAT(msg, Contains("line"));
  }
  SECTION("malformed YAML: unclosed quote that runs to the end of the file") {
    // yaml-cpp 0.7 accepts a quoted scalar left open at end of input; the
    // decoder must not turn the rest of the file into a pod name.
    const std::string msg = LoadError("bad/unclosed_quote.yaml");
    CHECK_THAT(msg, Contains("unclosed_quote.yaml"));
  }
  SECTION("YAML that is not UTF-8 (found by resource_decode_fuzz: such text decoded, then crashed the encoder)") {
    const std::string msg = LoadError("bad/invalid_utf8.yaml");
    CHECK_THAT(msg, Contains("invalid_utf8.yaml: line 122 column 14: invalid UTF-8"));
  }
  SECTION("a node starting with ',' (found by resource_decode_fuzz: yaml-cpp 0.7 loops forever on it)") {
    const std::string msg = LoadError("bad/leading_comma.yaml");
    CHECK_THAT(msg, Contains("leading_comma.yaml: line 2: malformed YAML: ',' cannot start a node"));
    for (const char* text : {",", "- a\n,", "---\n, x", "# c\n  ,", "a: 1\n---\n, x"}) {
      absl::StatusOr<api::DecodedCluster> d = api::Decode(text, "comma.yaml");
      INFO(text);
      REQUIRE_FALSE(d.ok());
      CHECK_THAT(std::string(d.status().message()), Contains("',' cannot start a node"));
    }
    // Where ',' is fine: inside flow collections and block scalars.
    CHECK(api::Decode("apiVersion: v1\nkind: Namespace\nmetadata: {name: a,\n  labels: {x: y}\n  , annotations: {}}\n",
                      "ok.yaml")
              .ok());
    CHECK(api::Decode("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  annotations:\n    note: |\n      , not a node\n",
                      "ok.yaml")
              .ok());
  }
  SECTION("top-level JSON array of numbers") {
    const std::string msg = LoadError("bad/top_level_numbers.json");
    CHECK_THAT(msg, Contains("top_level_numbers.json"));
    CHECK_THAT(msg, Contains("document 1"));
  }
}

// yaml-cpp 0.7 accepts a quoted scalar that is still open at the end of the
// input and returns the rest of the text as its value. In a free-text field
// nothing else would notice, so the decoder itself must reject it.
TEST_CASE("A quote left open at the end of YAML input is an error", "[decode][errors]") {
  const std::string text =
      "apiVersion: scheduling.k8s.io/v1\n"
      "kind: PriorityClass\n"
      "metadata:\n"
      "  name: checkout-critical\n"
      "value: 100000\n"
      "description: \"Pods on the checkout path\n";
  absl::StatusOr<api::DecodedCluster> d = api::Decode(text, "pc.yaml");
  if (d.ok()) {
    UNSCOPED_INFO("decoded description: [" << d->objects.Of<api::v1::PriorityClass>()[0].description() << "]");
  }
  REQUIRE_FALSE(d.ok());
  CHECK_THAT(std::string(d.status().message()), Contains("pc.yaml"));
}

TEST_CASE("An unknown kind alone is valid: skipped and counted", "[decode][errors]") {
  const api::DecodedCluster d = MustLoad(TestData("bad/unknown_kind.yaml"));
  CHECK(d.skipped_kinds == std::map<std::string, int>{{"ConfigMap", 1}});
  CHECK(d.objects.Of<api::v1::Node>().size() == 0);
  CHECK(d.objects.Of<api::v1::Pod>().size() == 0);
  CHECK(d.objects.Of<api::v1::PodDisruptionBudget>().size() == 0);
  CHECK(d.objects.Of<api::v1::PriorityClass>().size() == 0);
  CHECK(d.objects.Of<api::v1::Namespace>().size() == 0);
}

TEST_CASE("Errors from Decode name the given source", "[decode][errors]") {
  absl::StatusOr<api::DecodedCluster> d =
      api::Decode(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},)"
                  R"("spec":{"overhead":{"cpu":"lots"}}})",
                  "stdin");
  REQUIRE_FALSE(d.ok());
  const std::string msg(d.status().message());
  CHECK_THAT(msg, Contains("stdin: document 1 (Pod ns/p): spec.overhead.cpu"));
  CHECK_THAT(msg, Contains("lots"));
}

// ---------------------------------------------------------------------------
// Mutation fuzzing: Decode must return (ok or not) on arbitrarily damaged
// input, never crash, hang or trip a sanitizer. Most mutations hit single
// objects (each YAML document and each JSON item of the cluster fixtures, plus
// a small List and a small multi-document file) so that 10,000 decodes stay
// fast under ASan; every 200th mutates a whole fixture file.

namespace {

std::vector<std::string> FuzzSeeds(std::vector<std::string>& whole_files) {
  const std::string yaml = ReadFile(TestData("cluster.yaml"));
  const std::string json = ReadFile(TestData("cluster.json"));
  whole_files = {json, yaml};
  std::vector<std::string> seeds;
  for (size_t begin = 0;;) {
    const size_t end = yaml.find("\n---\n", begin);
    if (end == std::string::npos) {
      seeds.push_back(yaml.substr(begin));
      break;
    }
    seeds.push_back(yaml.substr(begin, end + 1 - begin));
    begin = end + 5;
  }
  const nlohmann::json list = nlohmann::json::parse(json);
  for (const nlohmann::json& item : list.at("items")) seeds.push_back(item.dump(4));
  seeds.push_back(ReadFile(TestData("dir/20-pods.json")));   // a List
  seeds.push_back(ReadFile(TestData("dir/10-nodes.yaml")));  // two YAML documents
  return seeds;
}

}  // namespace

// Decode never crashes on a mutated input, and every input it rejects gets
// an InvalidArgument that names the input and the place in it: a line (and
// column) of the text, or a document (and list item, and object) of it.
TEST_CASE("Decode survives 10,000 random mutations of the fixtures", "[decode][fuzz]") {
  std::vector<std::string> whole_files;
  const std::vector<std::string> seeds = FuzzSeeds(whole_files);
  REQUIRE(seeds.size() == 19 + 19 + 2);
  for (const std::string& seed : seeds) {
    INFO("unmutated seed:\n" << seed);
    REQUIRE(api::Decode(seed, "seed").ok());
  }

  constexpr int kMutations = 10000;
  static constexpr char kSpecial[] = "{}[]:,\"-\n ";
  std::mt19937 rng(20240502);
  auto uniform = [&rng](size_t lo, size_t hi) {  // inclusive
    return std::uniform_int_distribution<size_t>(lo, hi)(rng);
  };

  static const std::regex kNamesPlace(
      R"(^fuzz: (line [0-9]+( column [0-9]+)?|document [0-9]+(, items\[[0-9]+\])?( \(.*\))?): .+)");
  int still_ok = 0;
  int rejected = 0;
  for (int i = 0; i < kMutations; ++i) {
    std::string text = i % 200 == 0 ? whole_files[static_cast<size_t>(i / 200) % whole_files.size()]
                                     : seeds[uniform(0, seeds.size() - 1)];
    const size_t pos = uniform(0, text.size() - 1);
    const size_t len = std::min(uniform(1, 64), text.size() - pos);
    switch (uniform(0, 3)) {
      case 0:  // delete a byte range
        text.erase(pos, len);
        break;
      case 1: {  // duplicate a byte range somewhere
        const std::string piece = text.substr(pos, len);
        text.insert(uniform(0, text.size()), piece);
        break;
      }
      case 2:  // flip a byte to a printable or a structural character
        if (uniform(0, 1) == 0) {
          text[pos] = static_cast<char>(uniform(0x20, 0x7e));
        } else {
          text[pos] = kSpecial[uniform(0, sizeof(kSpecial) - 2)];
        }
        break;
      default:  // truncate
        text.resize(pos);
        break;
    }
    absl::StatusOr<api::DecodedCluster> d = api::Decode(text, "fuzz");
    if (d.ok()) {
      ++still_ok;
      continue;
    }
    ++rejected;
    const std::string message(d.status().message());
    INFO("mutation " << i << ": " << message);
    CHECK(d.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::regex_search(message, kNamesPlace));
  }
  // Both kinds occur, so both halves of the check ran.
  INFO(still_ok << " mutated inputs still decoded, " << rejected << " were rejected");
  CHECK(still_ok > 0);
  CHECK(rejected > kMutations / 2);
}
