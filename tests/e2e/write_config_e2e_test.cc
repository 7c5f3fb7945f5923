// --write-config-to against kube-scheduler's own (the reference release):
// the same configuration file and flags given to both, the two documents
// read back and compared field by field. kube-scheduler writes the file
// only after it has built its client, so both get a kubeconfig naming a
// server nobody listens on, and --secure-port=0; neither contacts it.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "api/json_documents.h"
#include "config/typed_yaml.h"
#include "e2e/child_process.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::e2e {
namespace {

using nlohmann::json;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string TempDir() {
  char tmpl[] = "/tmp/schedkit-write-config-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

// The first path where the documents differ, "" when they are the same.
std::string FirstDifference(const json& a, const json& b, const std::string& path) {
  if (a.type() != b.type()) return schedkit::StrCat(path, ": ", a.dump(), " vs ", b.dump());
  if (a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key())) return schedkit::StrCat(path, ".", it.key(), ": only in schedkit's");
      if (std::string d = FirstDifference(*it, b[it.key()], schedkit::StrCat(path, ".", it.key())); !d.empty()) {
        return d;
      }
    }
    for (auto it = b.begin(); it != b.end(); ++it) {
      if (!a.contains(it.key())) return schedkit::StrCat(path, ".", it.key(), ": only in kube-scheduler's");
    }
    return "";
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return schedkit::StrCat(path, ": ", a.size(), " items vs ", b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::string d = FirstDifference(a[i], b[i], schedkit::StrCat(path, "[", i, "]")); !d.empty()) return d;
    }
    return "";
  }
  return a == b ? "" : schedkit::StrCat(path, ": ", a.dump(), " vs ", b.dump());
}

json ReadConfig(const std::string& path) {
  auto docs = api::internal::ParseDocuments(ReadFile(path), path, {config::internal::ResolvePlainScalar, true});
  INFO(docs.status().message());
  REQUIRE(docs.ok());
  REQUIRE(docs->size() == 1);
  return (*docs)[0];
}

// Runs `binary` with `flags` plus --write-config-to; the document it wrote.
json WrittenBy(const std::string& binary, const std::string& dir, const std::string& name,
               std::vector<std::string> flags) {
  const std::string out = schedkit::StrCat(dir, "/", name, ".yaml");
  std::vector<std::string> argv = {binary};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("--write-config-to=" + out);
  auto child = ChildProcess::Start(argv, schedkit::StrCat(dir, "/", name, ".log"));
  REQUIRE(child.ok());
  const std::optional<int> code = (*child)->Wait(absl::Seconds(60));
  INFO((*child)->Output());
  REQUIRE(code == 0);
  return ReadConfig(out);
}

constexpr char kKubeconfig[] = R"(apiVersion: v1
kind: Config
clusters:
- cluster: {server: "https://127.0.0.1:1"}
  name: nowhere
contexts:
- context: {cluster: nowhere, user: nobody}
  name: nowhere
current-context: nowhere
users:
- name: nobody
  user: {token: never-sent}
)";

// Two profiles: point-level overrides of multiPoint, "*" at a point, a
// score weight, a multiPoint plugin disabled (its args then left out).
constexpr char kTwoProfiles[] = R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: KUBECONFIG
percentageOfNodesToScore: 30
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: ImageLocality
      enabled:
      - name: NodeResourcesFit
        weight: 5
    filter:
      disabled:
      - name: "*"
      enabled:
      - name: NodeResourcesFit
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
- schedulerName: other
  plugins:
    multiPoint:
      disabled:
      - name: PodTopologySpread
)";

// Every top-level section, and args of every kind with their own defaults
// partly given.
constexpr char kEverySection[] = R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 4
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
enableProfiling: false
clientConnection:
  kubeconfig: KUBECONFIG
  qps: 12.5
  burst: 30
  contentType: application/json
leaderElection:
  leaderElect: true
  leaseDuration: 30s
  renewDeadline: 20s
  retryPeriod: 3s
  resourceName: my-scheduler
  resourceNamespace: sched
profiles:
- schedulerName: spread
  percentageOfNodesToScore: 50
  pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - maxSkew: 2
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 10
  - name: VolumeBinding
    args:
      bindTimeoutSeconds: 300
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: 20
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - key: pool
              operator: In
              values: [batch]
)";

// Scoring by a shape, resources of its own, durations given.
constexpr char kShapes[] = R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: packer
  plugins:
    multiPoint:
      enabled:
      - name: NodeResourcesBalancedAllocation
        weight: 3
    preScore:
      disabled:
      - name: InterPodAffinity
  pluginConfig:
  - name: NodeResourcesFit
    args:
      ignoredResources: [example.com/foo]
      scoringStrategy:
        type: RequestedToCapacityRatio
        resources:
        - name: cpu
          weight: 2
        - name: nvidia.com/gpu
        requestedToCapacityRatio:
          shape:
          - utilization: 0
            score: 0
          - utilization: 100
            score: 10
  - name: NodeResourcesBalancedAllocation
    args:
      resources:
      - name: cpu
        weight: 1
      - name: nvidia.com/gpu
  - name: DynamicResources
    args:
      filterTimeout: 30s
  - name: VolumeBinding
    args:
      shape:
      - utilization: 0
        score: 0
      - utilization: 80
        score: 7
)";

}  // namespace

TEST_CASE("--write-config-to writes what kube-scheduler writes, field by field", "[e2e][write-config]") {
  const std::string dir = TempDir();
  const std::string kubeconfig = dir + "/kubeconfig";
  WriteFile(kubeconfig, kKubeconfig);
  struct Case {
    const char* name;
    const char* config;  // nullptr: no --config
    std::vector<std::string> flags;
  };
  const std::vector<Case> cases = {
      {"default", nullptr, {"--kubeconfig=" + kubeconfig}},
      {"two-profiles", kTwoProfiles, {}},
      // With --config the file wins, but for the --leader-elect* flags.
      {"every-section", kEverySection, {"--leader-elect-retry-period=4s"}},
      {"shapes", kShapes, {"--leader-elect=false"}},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      std::vector<std::string> flags = {"--secure-port=0"};
      if (c.config != nullptr) {
        std::string text = c.config;
        if (const size_t at = text.find("KUBECONFIG"); at != std::string::npos) {
          text.replace(at, std::string_view("KUBECONFIG").size(), kubeconfig);
        } else {
          text += "clientConnection:\n  kubeconfig: " + kubeconfig + "\n";
        }
        const std::string path = schedkit::StrCat(dir, "/", c.name, "-config.yaml");
        WriteFile(path, text);
        flags.push_back("--config=" + path);
      }
      flags.insert(flags.end(), c.flags.begin(), c.flags.end());
      const json ours = WrittenBy(SchedkitKubeBinary(), dir, schedkit::StrCat(c.name, "-schedkit"), flags);
      const json theirs = WrittenBy(KubeSchedulerBinary(), dir, schedkit::StrCat(c.name, "-upstream"), flags);
      const std::string difference = FirstDifference(ours, theirs, "");
      INFO("first difference at " << difference << "\nschedkit-kube's:\n" << ours.dump(2));
      CHECK(difference.empty());
    }
  }
}

}  // namespace schedkit::e2e
