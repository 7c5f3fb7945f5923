// schedkit-kube, the binary, against the real API server: it refuses bad
// input with one line and a non-zero exit before writing anything; run
// properly it becomes ready once its caches synced, schedules and preempts
// through the API, and what it did can be read back from the API server
// (bindings, PodScheduled=False, events) and from its /metrics.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include "e2e/child_process.h"
#include "e2e/kube_fixtures.h"
#include "e2e/shared_apiserver.h"
#include "httplib.h"
#include "kube/self_signed.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"
#include "schedkit/base/upstream_version.h"
#include "schedkit/kube/api_client.h"

namespace schedkit::e2e {
namespace {

using nlohmann::json;

struct Run {
  int code;
  std::string output;
};

Run RunKube(const std::vector<std::string>& flags, const std::string& log_name) {
  std::vector<std::string> argv = {SchedkitKubeBinary()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  auto child = ChildProcess::Start(argv, schedkit::StrCat(Server().dir(), "/", log_name));
  REQUIRE(child.ok());
  const std::optional<int> code = (*child)->Wait(absl::Seconds(60));
  REQUIRE(code.has_value());
  return {*code, (*child)->Output()};
}

int CountLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST_CASE("schedkit-kube --version names the release the side-by-side kube-scheduler is", "[e2e][kube-main]") {
  const Run ours = RunKube({"--version"}, "version.log");
  CHECK(ours.code == 0);
  auto upstream = ChildProcess::Start({KubeSchedulerBinary(), "--version"}, Server().dir() + "/kube-version.log");
  REQUIRE(upstream.ok());
  REQUIRE((*upstream)->Wait(absl::Seconds(60)) == std::optional<int>(0));
  // Upstream prints "Kubernetes v1.37.2"; ours adds schedkit's own version.
  const std::string theirs = (*upstream)->Output();
  REQUIRE(theirs == schedkit::StrCat("Kubernetes ", schedkit::kUpstreamVersion, "\n"));
  CHECK(ours.output.starts_with(theirs.substr(0, theirs.size() - 1) + " (schedkit "));
}

TEST_CASE("schedkit-kube refuses bad --feature-gates in kube-scheduler's words", "[e2e][kube-main]") {
  int n = 0;
  for (const std::string gates : {"Foo=true", "SchedulerQueueingHints=false", "NodeDeclaredFeatures=false",
                                  "DRAAdminAccess=maybe", "DRADeviceTaints=false"}) {
    INFO(gates);
    const std::vector<std::string> flags = {"--feature-gates=" + gates, "--secure-port=0", "--kubeconfig",
                                            Server().scheduler_kubeconfig()};
    const Run ours = RunKube(flags, schedkit::StrCat("gates-", n, ".log"));
    std::vector<std::string> argv = {KubeSchedulerBinary()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto upstream = ChildProcess::Start(argv, schedkit::StrCat(Server().dir(), "/kube-gates-", n++, ".log"));
    REQUIRE(upstream.ok());
    REQUIRE((*upstream)->Wait(absl::Seconds(60)) == std::optional<int>(1));
    // Upstream logs `"command failed" err="<message>"`.
    const std::string theirs = (*upstream)->Output();
    const size_t at = theirs.find("err=\"");
    REQUIRE(at != std::string::npos);
    std::string message = theirs.substr(at + 5, theirs.find('\n', at) - at - 6);
    for (size_t q; (q = message.find("\\\"")) != std::string::npos;) message.replace(q, 2, "\"");
    CHECK(ours.code == 1);
    CHECK(ours.output == schedkit::StrCat("schedkit-kube: ", message, "\n"));
  }
  // A gate upstream's scheduler reads, which schedkit does not model yet.
  const Run unmodeled =
      RunKube({"--feature-gates=SchedulerPopFromBackoffQ=false", "--secure-port=0"}, "gates-unmodeled.log");
  CHECK(unmodeled.code == 1);
  CHECK(unmodeled.output == schedkit::StrCat("schedkit-kube: feature gate SchedulerPopFromBackoffQ=false: schedkit does "
                                             "not model it (kube-scheduler ",
                                             schedkit::kUpstreamVersion, " defaults it to true); leave it at its "
                                             "default\n"));
}

TEST_CASE("schedkit-kube refuses bad input with one line, exit 1 and nothing written", "[e2e][kube-main]") {
  REQUIRE_FALSE(SchedkitKubeBinary().empty());
  auto admin = Admin();
  const std::string ns = "e2e-bad-input";
  CreateNamespace(*admin, ns);
  Create(*admin, schedkit::StrCat("/api/v1/namespaces/", ns, "/pods"), PodJson(ns, "waiting", "100m", 0, "kube-main"));
  const std::string token_user = schedkit::StrCat("    token: ", SchedulerToken());
  const std::vector<std::string> common = {"--leader-elect=false", "--secure-port=0"};
  auto with = [&](std::vector<std::string> flags) {
    flags.insert(flags.end(), common.begin(), common.end());
    return flags;
  };

  SECTION("a kubeconfig whose CA did not sign the server's certificate") {
    auto other = kube::internal::SelfSignedCertificate::Create();
    REQUIRE(other.ok());
    const std::string wrong_ca = Server().dir() + "/wrong-ca.crt";
    WriteFile(wrong_ca, (*other)->CertificatePem());
    const Run run =
        RunKube(with({"--kubeconfig", WriteKubeconfig("wrong-ca.kubeconfig", Server().url(), wrong_ca, token_user)}),
                "wrong-ca.log");
    INFO(run.output);
    CHECK(run.code == 1);
    CHECK(CountLines(run.output) == 1);
    CHECK_THAT(run.output, Catch::StartsWith("schedkit-kube: "));
    CHECK_THAT(run.output, Catch::Contains(Server().url()) && Catch::Contains("TLS"));
  }
  SECTION("a token file that does not exist") {
    const Run run = RunKube(with({"--kubeconfig", WriteKubeconfig("no-token.kubeconfig", Server().url(),
                                                                  Server().ca_file(),
                                                                  "    tokenFile: /nonexistent/token")}),
                            "no-token.log");
    INFO(run.output);
    CHECK(run.code == 1);
    CHECK(CountLines(run.output) == 1);
    CHECK_THAT(run.output, Catch::Contains("/nonexistent/token"));
  }
  SECTION("an API server nobody listens for") {
    const std::string nowhere = schedkit::StrCat("https://127.0.0.1:", FreeLoopbackPort());
    const Run run = RunKube(
        with({"--kubeconfig", WriteKubeconfig("nowhere.kubeconfig", nowhere, Server().ca_file(), token_user)}),
        "nowhere.log");
    INFO(run.output);
    CHECK(run.code == 1);
    CHECK(CountLines(run.output) == 1);
    CHECK_THAT(run.output, Catch::Contains(nowhere));
  }
  SECTION("a configuration file that does not parse") {
    const std::string config = Server().dir() + "/bad-config.yaml";
    WriteFile(config, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles: {\n");
    const Run run = RunKube(with({"--config", config, "--kubeconfig", Server().scheduler_kubeconfig()}),
                            "bad-config.log");
    INFO(run.output);
    CHECK(run.code == 1);
    CHECK(CountLines(run.output) == 1);
    CHECK_THAT(run.output, Catch::Contains(config));
  }
  SECTION("bad plugin args, reported before any request to an API server") {
    // No server listens: were the profiles built after connecting, this
    // would end in "cannot reach the API server".
    const std::string nowhere = schedkit::StrCat("https://127.0.0.1:", FreeLoopbackPort());
    const std::string config = Server().dir() + "/bad-args.yaml";
    WriteFile(config,
              "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
              "- pluginConfig:\n  - name: InterPodAffinity\n    args: {hardPodAffinityWeight: 101}\n");
    const Run run = RunKube(
        {"--config", config, "--secure-port=0", "--kubeconfig",
         WriteKubeconfig("args-nowhere.kubeconfig", nowhere, Server().ca_file(), token_user)},
        "bad-args.log");
    CHECK(run.code == 1);
    CHECK(run.output == schedkit::StrCat("schedkit-kube: ", config,
                                         ": profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: "
                                         "101: not in valid range [0, 100] (plugin \"InterPodAffinity\", profile "
                                         "\"default-scheduler\")\n"));
  }
  SECTION("a leader election whose renew deadline is not shorter than its lease") {
    const Run run = RunKube({"--kubeconfig", Server().scheduler_kubeconfig(), "--secure-port=0", "--leader-elect",
                             "--leader-elect-renew-deadline=20s"},
                            "bad-election.log");
    CHECK(run.code == 1);
    CHECK(run.output ==
          "schedkit-kube: leaderElection.leaseDuration: Invalid value: 15s: LeaseDuration must be greater than "
          "RenewDeadline\n");
  }
  SECTION("an unknown flag") {
    const Run run = RunKube({"--kubeconfg", "x"}, "bad-flag.log");
    CHECK(run.code == 1);
    CHECK(run.output == "schedkit-kube: unknown flag: --kubeconfg\n");
  }

  // Nothing reached the cluster: the pod is unbound, without status or events.
  const json pod = Get(*admin, schedkit::StrCat("/api/v1/namespaces/", ns, "/pods/waiting"));
  CHECK_FALSE(pod["spec"].contains("nodeName"));
  CHECK_FALSE(pod["status"].contains("conditions"));
  CHECK(Get(*admin, schedkit::StrCat("/apis/events.k8s.io/v1/namespaces/", ns, "/events"))["items"].empty());
  // Out of the way of the schedulers of later cases.
  CHECK(admin->Do("DELETE", schedkit::StrCat("/api/v1/namespaces/", ns, "/pods/waiting")).ok());
}

TEST_CASE("schedkit-kube schedules and preempts through the API, with events and metrics", "[e2e][kube-main]") {
  REQUIRE_FALSE(SchedkitKubeBinary().empty());
  auto admin = Admin();
  const std::string ns = "e2e-kube-main";
  CreateNamespace(*admin, ns);
  // One node of 2 cpu (labelled so that only this test's pods go there).
  REQUIRE(admin->Do("POST", "/api/v1/nodes", NodeJson("kube-main-1", "2", "kube-main").dump()).ok());
  const std::string pods = schedkit::StrCat("/api/v1/namespaces/", ns, "/pods");
  REQUIRE(admin->Do("POST", pods, PodJson(ns, "low", "1500m", 0, "kube-main").dump()).ok());

  const int http_port = FreeLoopbackPort();
  auto child = ChildProcess::Start({SchedkitKubeBinary(), "--kubeconfig", Server().scheduler_kubeconfig(),
                                    "--leader-elect=false", "--bind-address=127.0.0.1", "--secure-port=0",
                                    schedkit::StrCat("--http-port=", http_port), "-v=4"},
                                   Server().dir() + "-kube-main.log");
  REQUIRE(child.ok());
  httplib::Client health("127.0.0.1", http_port);
  REQUIRE(Eventually(absl::Seconds(30), [&] {
    auto r = health.Get("/readyz");
    return r && r->status == 200;
  }));
  CHECK(health.Get("/livez")->body == "ok");

  auto node_of = [&](const std::string& name) {
    const json pod = Get(*admin, schedkit::StrCat(pods, "/", name));
    return pod["spec"].value("nodeName", "");
  };
  REQUIRE(Eventually(absl::Seconds(30), [&] { return node_of("low") == "kube-main-1"; }));

  // A pod that fits nowhere: PodScheduled=False, reason Unschedulable.
  REQUIRE(admin->Do("POST", pods, PodJson(ns, "huge", "64", 0, "kube-main").dump()).ok());
  // A higher-priority pod that needs low's room: low is preempted.
  REQUIRE(admin->Do("POST", pods, PodJson(ns, "high", "1", 1000, "kube-main").dump()).ok());
  REQUIRE(Eventually(absl::Seconds(60), [&] { return node_of("high") == "kube-main-1"; }));
  auto low = admin->Do("GET", schedkit::StrCat(pods, "/low"));
  CHECK(absl::IsNotFound(low.status()));

  json condition;
  REQUIRE(Eventually(absl::Seconds(30), [&] {
    const json huge = Get(*admin, schedkit::StrCat(pods, "/huge"));
    const json conditions = huge["status"].value("conditions", json::array());
    for (const json& c : conditions) {
      if (c["type"] == "PodScheduled") condition = c;
    }
    return !condition.is_null();
  }));
  CHECK(condition["status"] == "False");
  CHECK(condition["reason"] == "Unschedulable");
  CHECK_THAT(condition["message"].get<std::string>(), Catch::StartsWith("0/"));

  // The events, as the API server holds them.
  std::map<std::string, json> by_reason;  // reason/pod → event
  INFO((*child)->Output());
  const bool all_events = Eventually(absl::Seconds(30), [&] {
    by_reason.clear();
    const json events = Get(*admin, schedkit::StrCat("/apis/events.k8s.io/v1/namespaces/", ns, "/events"));
    for (const json& e : events["items"]) {
      by_reason[schedkit::StrCat(e["reason"].get<std::string>(), "/", e["regarding"]["name"].get<std::string>())] = e;
    }
    return by_reason.contains("Scheduled/high") && by_reason.contains("Preempted/low") &&
           by_reason.contains("FailedScheduling/huge");
  });
  std::string seen;
  for (const auto& [key, event] : by_reason) seen += key + " ";
  INFO("events: " << seen);
  REQUIRE(all_events);
  const json& scheduled = by_reason["Scheduled/high"];
  CHECK(scheduled["note"] == schedkit::StrCat("Successfully assigned ", ns, "/high to kube-main-1"));
  CHECK(scheduled["reportingController"] == "default-scheduler");
  CHECK_THAT(scheduled["reportingInstance"].get<std::string>(), Catch::StartsWith("default-scheduler-"));
  CHECK(scheduled["action"] == "Binding");
  const json& preempted = by_reason["Preempted/low"];
  CHECK(preempted["related"]["name"] == "high");
  CHECK_THAT(preempted["note"].get<std::string>(), Catch::StartsWith("Preempted by pod ") &&
                                                       Catch::EndsWith(" on node kube-main-1"));
  CHECK(by_reason["FailedScheduling/huge"]["type"] == "Warning");

  const auto metrics = health.Get("/metrics");
  REQUIRE(metrics);
  CHECK_THAT(metrics->body,
             Catch::Contains("scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"}"));
  CHECK_THAT(metrics->body, Catch::Contains("scheduler_pod_scheduling_sli_duration_seconds_bucket{attempts="));
  CHECK_THAT(metrics->body, Catch::Contains("scheduler_preemption_attempts_total"));

  // /configz: the effective configuration under "componentconfig", as
  // --write-config-to writes it (write_config_e2e_test.cc compares that
  // with kube-scheduler's).
  const auto configz = health.Get("/configz");
  REQUIRE(configz);
  const json served = json::parse(configz->body, nullptr, /*allow_exceptions=*/false);
  REQUIRE(served.contains("componentconfig"));
  const json& component = served["componentconfig"];
  CHECK(component["kind"] == "KubeSchedulerConfiguration");
  CHECK(component["profiles"][0]["schedulerName"] == "default-scheduler");
  CHECK(component["profiles"][0]["pluginConfig"][5]["args"]["kind"] == "NodeResourcesFitArgs");

  (*child)->Signal(SIGTERM);
  const auto code = (*child)->Wait(absl::Seconds(30));
  INFO((*child)->Output());
  REQUIRE(code.has_value());
  CHECK(*code == 0);
}

TEST_CASE("schedkit-kube allocates a pod's ResourceClaim through the API", "[e2e][kube-main][dra]") {
  REQUIRE_FALSE(SchedkitKubeBinary().empty());
  auto admin = Admin();
  const std::string ns = "e2e-kube-dra";
  CreateNamespace(*admin, ns);
  // The test API server runs no DRA driver or claim controller: the test
  // publishes the devices and creates the claim itself.
  Create(*admin, "/api/v1/nodes", NodeJson("kube-dra-1", "4", "kube-dra"));
  Create(*admin, "/apis/resource.k8s.io/v1/deviceclasses", json::parse(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "e2e-dra.example.com"},
    "spec": {"selectors": [{"cel": {"expression": "device.driver == 'dra.e2e.example.com'"}}]}})"));
  Create(*admin, "/apis/resource.k8s.io/v1/resourceslices", json::parse(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "kube-dra-1-gpus"},
    "spec": {"driver": "dra.e2e.example.com", "nodeName": "kube-dra-1",
             "pool": {"name": "kube-dra-1", "generation": 1, "resourceSliceCount": 1},
             "devices": [{"name": "gpu-0", "attributes": {"pcieRoot": {"string": "pci0"}}},
                         {"name": "gpu-1", "attributes": {"pcieRoot": {"string": "pci1"}}},
                         {"name": "gpu-2", "attributes": {"pcieRoot": {"string": "pci1"}}}]}})"));
  const std::string claims = schedkit::StrCat("/apis/resource.k8s.io/v1/namespaces/", ns, "/resourceclaims");
  Create(*admin, claims, json::parse(schedkit::StrCat(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "two-gpus", "namespace": ")", ns,
                                                     R"("},
    "spec": {"devices": {"requests": [{"name": "gpus", "exactly": {"deviceClassName": "e2e-dra.example.com", "count": 2}}],
                         "constraints": [{"requests": ["gpus"], "matchAttribute": "dra.e2e.example.com/pcieRoot"}]}}})")));
  json pod = PodJson(ns, "trainer", "100m", 0, "kube-dra");
  pod["spec"]["resourceClaims"] = json::array({{{"name", "gpus"}, {"resourceClaimName", "two-gpus"}}});
  pod["spec"]["containers"][0]["resources"]["claims"] = json::array({{{"name", "gpus"}}});
  const std::string pods = schedkit::StrCat("/api/v1/namespaces/", ns, "/pods");
  Create(*admin, pods, pod);
  // DRAExtendedResource: a class standing for an extended resource no
  // node offers in its allocatable, and a pod asking for one of it.
  Create(*admin, "/apis/resource.k8s.io/v1/deviceclasses", json::parse(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "e2e-extended-gpu.example.com"},
    "spec": {"extendedResourceName": "example.com/e2e-gpu",
             "selectors": [{"cel": {"expression": "device.driver == 'dra.e2e.example.com'"}}]}})"));
  json worker = PodJson(ns, "worker", "100m", 0, "kube-dra");
  worker["spec"]["containers"][0]["resources"]["requests"]["example.com/e2e-gpu"] = "1";
  worker["spec"]["containers"][0]["resources"]["limits"]["example.com/e2e-gpu"] = "1";
  Create(*admin, pods, worker);

  auto child = ChildProcess::Start({SchedkitKubeBinary(), "--kubeconfig", Server().scheduler_kubeconfig(),
                                    "--leader-elect=false", "--secure-port=0", "-v=4"},
                                   Server().dir() + "-kube-dra.log");
  REQUIRE(child.ok());
  INFO((*child)->Output());
  REQUIRE(Eventually(absl::Seconds(60),
                     [&] { return Get(*admin, pods + "/trainer")["spec"].value("nodeName", "") == "kube-dra-1"; }));
  // The claim as the API server holds it: allocated to the two devices of
  // one PCIe root, reserved for the pod, protected by the finalizer.
  const json claim = Get(*admin, claims + "/two-gpus");
  const json& results = claim["status"]["allocation"]["devices"]["results"];
  REQUIRE(results.size() == 2);
  CHECK(results[0]["device"] == "gpu-1");
  CHECK(results[1]["device"] == "gpu-2");
  CHECK(results[0]["driver"] == "dra.e2e.example.com");
  CHECK(results[0]["pool"] == "kube-dra-1");
  CHECK(claim["status"]["allocation"]["nodeSelector"]["nodeSelectorTerms"][0]["matchFields"][0]["values"][0] ==
        "kube-dra-1");
  REQUIRE(claim["status"]["reservedFor"].size() == 1);
  CHECK(claim["status"]["reservedFor"][0]["resource"] == "pods");
  CHECK(claim["status"]["reservedFor"][0]["name"] == "trainer");
  CHECK(claim["status"]["reservedFor"][0]["uid"] == Get(*admin, pods + "/trainer")["metadata"]["uid"]);
  CHECK(claim["metadata"]["finalizers"] == json::array({"resource.kubernetes.io/delete-protection"}));

  // The extended-resource pod: bound, its claim created by the scheduler
  // (named from "<pod>-extended-resources-"), allocated the remaining
  // device and named in the pod's status.
  REQUIRE(Eventually(absl::Seconds(60),
                     [&] { return Get(*admin, pods + "/worker")["spec"].value("nodeName", "") == "kube-dra-1"; }));
  const json bound = Get(*admin, pods + "/worker");
  const json& ext = bound["status"]["extendedResourceClaimStatus"];
  const std::string ext_name = ext.value("resourceClaimName", "");
  CHECK(ext_name.starts_with("worker-extended-resources-"));
  REQUIRE(ext["requestMappings"].size() == 1);
  CHECK(ext["requestMappings"][0]["containerName"] == bound["spec"]["containers"][0]["name"]);
  CHECK(ext["requestMappings"][0]["resourceName"] == "example.com/e2e-gpu");
  const std::string request = ext["requestMappings"][0].value("requestName", "");
  CHECK(request.starts_with("container-0-request-"));
  const json ext_claim = Get(*admin, claims + "/" + ext_name);
  CHECK(ext_claim["metadata"]["annotations"]["resource.kubernetes.io/extended-resource-claim"] == "true");
  CHECK(ext_claim["metadata"]["ownerReferences"][0]["uid"] == bound["metadata"]["uid"]);
  const json& ext_results = ext_claim["status"]["allocation"]["devices"]["results"];
  REQUIRE(ext_results.size() == 1);
  CHECK(ext_results[0]["device"] == "gpu-0");
  CHECK(ext_results[0]["request"] == request);
  REQUIRE(ext_claim["status"]["reservedFor"].size() == 1);
  CHECK(ext_claim["status"]["reservedFor"][0]["name"] == "worker");

  (*child)->Signal(SIGTERM);
  REQUIRE((*child)->Wait(absl::Seconds(30)).has_value());
  // Out of the way of later cases: the pods, then the claims (their
  // finalizers are a kubelet's to remove once the pod is gone; no kubelet
  // runs here).
  CHECK(admin->Do("DELETE", pods + "/trainer").ok());
  CHECK(admin->Do("DELETE", pods + "/worker").ok());
}

}  // namespace
}  // namespace schedkit::e2e
