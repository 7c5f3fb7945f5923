// Kubeconfig and in-cluster loading: what clientcmd would select, and one
// clear error, naming file and field, for each way a config can be wrong.
#include "schedkit/kube/client_config.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"

namespace schedkit::kube {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system's temp dir, removed at the end.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("schedkit-kubeconfig-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string Write(const std::string& name, const std::string& text) const {
    const fs::path p = path_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

const char kCaPem[] = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

std::string Kubeconfig(const std::string& cluster, const std::string& user,
                       const std::string& current = "current-context: ctx\n") {
  return "apiVersion: v1\nkind: Config\n" + current +
         "contexts:\n- name: ctx\n  context: {cluster: c1, user: u1, namespace: ns}\n"
         "clusters:\n- name: c1\n  cluster:\n" +
         cluster + "users:\n- name: u1\n  user:\n" + user;
}

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST_CASE("a kubeconfig's current context gives server, CA data and token", "[kube]") {
  TempDir dir;
  const std::string path = dir.Write(
      "config", Kubeconfig("    server: https://10.1.2.3:6443/\n    certificate-authority-data: " +
                               absl::Base64Escape(kCaPem) + "\n    tls-server-name: api.example\n",
                           "    token: secret-token\n"));
  auto config = LoadKubeconfig({path});
  REQUIRE(config.ok());
  CHECK(config->server == "https://10.1.2.3:6443");
  CHECK(config->transport.ca_pem == kCaPem);
  CHECK(config->transport.tls_server_name == "api.example");
  CHECK(config->transport.bearer_token == "secret-token");
  CHECK_FALSE(config->transport.insecure_skip_tls_verify);
  CHECK(config->origin == "kubeconfig " + path + " (context ctx)");
}

TEST_CASE("a kubeconfig's relative file names are taken from its directory", "[kube]") {
  TempDir dir;
  dir.Write("certs/ca.crt", kCaPem);
  dir.Write("certs/client.crt", "CERT");
  dir.Write("certs/client.key", "KEY");
  dir.Write("token", "from-file\n");
  const std::string path = dir.Write(
      "config", Kubeconfig("    server: https://127.0.0.1:6443\n    certificate-authority: certs/ca.crt\n",
                           "    client-certificate: certs/client.crt\n    client-key: certs/client.key\n"
                           "    tokenFile: token\n"));
  auto config = LoadKubeconfig({path});
  REQUIRE(config.ok());
  CHECK(config->transport.ca_pem == kCaPem);
  CHECK(config->transport.client_cert_pem == "CERT");
  CHECK(config->transport.client_key_pem == "KEY");
  CHECK(config->transport.bearer_token_file == dir.path() + "/token");
}

TEST_CASE("kubeconfig files merge as clientcmd merges them: the first definition wins", "[kube]") {
  TempDir dir;
  const std::string first =
      dir.Write("a", "current-context: ctx\ncontexts:\n- name: ctx\n  context: {cluster: c1, user: u1}\n"
                     "clusters:\n- name: c1\n  cluster: {server: 'https://first:1'}\n");
  const std::string second =
      dir.Write("b",
                "current-context: other\nclusters:\n- name: c1\n  cluster: {server: 'https://second:2'}\n"
                "users:\n- name: u1\n  user: {token: t2}\n");
  auto config = LoadKubeconfig({first, dir.path() + "/absent", second});
  REQUIRE(config.ok());
  CHECK(config->server == "https://first:1");
  CHECK(config->transport.bearer_token == "t2");
}

TEST_CASE("the --context and --master flags override the kubeconfig", "[kube]") {
  TempDir dir;
  const std::string path = dir.Write(
      "config", Kubeconfig("    server: https://10.1.2.3:6443\n    insecure-skip-tls-verify: true\n",
                           "    username: admin\n    password: pw\n", ""));
  auto no_context = LoadKubeconfig({path});
  REQUIRE_FALSE(no_context.ok());
  CHECK(no_context.status().message() ==
        "kubeconfig " + path + ": no current-context set and no --context given");
  auto config = LoadKubeconfig({path}, "ctx", "https://override:443");
  REQUIRE(config.ok());
  CHECK(config->server == "https://override:443");
  CHECK(config->transport.insecure_skip_tls_verify);
  CHECK(config->transport.username == "admin");
  CHECK(config->transport.password == "pw");
}

TEST_CASE("a wrong kubeconfig is one error naming the file and the field", "[kube]") {
  TempDir dir;
  const std::string server = "    server: https://10.1.2.3:6443\n";
  struct Case {
    std::string name, text, want;
  };
  const std::vector<Case> cases = {
      {"exec credentials", Kubeconfig(server, "    exec: {command: aws}\n"),
       "users[name=u1].user.exec: credential plugins are not supported; use a token, a token file or a "
       "client certificate"},
      {"auth-provider", Kubeconfig(server, "    auth-provider: {name: gcp}\n"),
       "users[name=u1].user.auth-provider: credential plugins are not supported"},
      {"impersonation", Kubeconfig(server, "    as: someone\n"),
       "users[name=u1].user.as: impersonation is not supported"},
      {"missing token file", Kubeconfig(server, "    tokenFile: nowhere\n"),
       "users[name=u1].user.tokenFile: " + dir.path() + "/nowhere: cannot open file"},
      {"bad base64", Kubeconfig("    server: https://x\n    certificate-authority-data: '%%%'\n", ""),
       "clusters[name=c1].cluster.certificate-authority-data: not valid base64"},
      {"missing CA file", Kubeconfig("    server: https://x\n    certificate-authority: ca.pem\n", ""),
       "clusters[name=c1].cluster.certificate-authority: " + dir.path() + "/ca.pem: cannot open file"},
      {"insecure with a CA",
       Kubeconfig("    server: https://x\n    insecure-skip-tls-verify: true\n"
                  "    certificate-authority-data: " + absl::Base64Escape(kCaPem) + "\n",
                  ""),
       "clusters[name=c1].cluster.insecure-skip-tls-verify: cannot be set with certificate-authority"},
      {"insecure not a boolean",
       Kubeconfig("    server: https://x\n    insecure-skip-tls-verify: maybe\n", ""),
       "clusters[name=c1].cluster.insecure-skip-tls-verify: want true or false"},
      {"certificate without key", Kubeconfig(server, "    client-certificate-data: Q0VSVA==\n"),
       "users[name=u1].user.client-key: required with client-certificate"},
      {"token and password", Kubeconfig(server, "    token: t\n    username: u\n"),
       "users[name=u1].user: more than one authentication method"},
      {"no server", Kubeconfig("    tls-server-name: x\n", ""), ": the cluster has no server"},
      {"server not a URL", Kubeconfig("    server: 10.0.0.1:6443\n", ""),
       "server \"10.0.0.1:6443\" is not an http:// or https:// URL"},
      {"unknown context", "current-context: gone\ncontexts: []\n", ": context \"gone\" not found"},
      {"unknown cluster", "current-context: c\ncontexts:\n- name: c\n  context: {cluster: x}\n",
       "contexts[name=c].context.cluster: cluster \"x\" not found"},
      {"unknown user",
       "current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: nobody}\n"
       "clusters:\n- name: k\n  cluster: {server: 'https://k'}\n",
       "contexts[name=c].context.user: user \"nobody\" not found"},
      {"clusters not a list", "clusters: {a: b}\n", ": clusters: want a list, got an object"},
      {"entry without a name", "users:\n- user: {token: t}\n", ": users[0].name: required"},
      {"YAML that does not parse", "clusters: [\n", "kubeconfig " + dir.path() + "/"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string path = dir.Write(c.name, c.text);
    auto config = LoadKubeconfig({path});
    REQUIRE_FALSE(config.ok());
    CAPTURE(config.status().message());
    CHECK(absl::StrContains(config.status().message(), c.want));
    CHECK(absl::StrContains(config.status().message(), path));
  }
  auto missing = LoadKubeconfig({dir.path() + "/nothing-here"});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() == "kubeconfig " + dir.path() + "/nothing-here: cannot open file");
}

TEST_CASE("in the cluster: the service account's token file and CA, the service's address", "[kube]") {
  TempDir dir;
  dir.Write("token", "sa-token");
  dir.Write("ca.crt", kCaPem);
  const EnvLookup env = Env({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}});
  auto config = InClusterConfig(env, dir.path());
  REQUIRE(config.ok());
  CHECK(config->server == "https://10.96.0.1:443");
  CHECK(config->transport.bearer_token_file == dir.path() + "/token");
  CHECK(config->transport.ca_pem == kCaPem);
  CHECK(config->origin == "in-cluster service account");

  auto v6 = InClusterConfig(Env({{"KUBERNETES_SERVICE_HOST", "fd00::1"}, {"KUBERNETES_SERVICE_PORT", "443"}}),
                            dir.path());
  REQUIRE(v6.ok());
  CHECK(v6->server == "https://[fd00::1]:443");

  auto no_env = InClusterConfig(Env({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}}), dir.path());
  REQUIRE_FALSE(no_env.ok());
  CHECK(no_env.status().message() ==
        "in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined");

  TempDir empty;
  auto no_token = InClusterConfig(
      Env({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}}), empty.path());
  REQUIRE_FALSE(no_token.ok());
  CHECK(no_token.status().message() ==
        "in-cluster configuration: service account token " + empty.path() + "/token: cannot open file");
}

TEST_CASE("the server comes from --kubeconfig, --master, the pod's account, then KUBECONFIG", "[kube]") {
  TempDir dir;
  const std::string a = dir.Write("a", Kubeconfig("    server: https://from-flag:1\n", ""));
  const std::string b = dir.Write("b", Kubeconfig("    server: https://from-env:2\n", ""));
  const EnvLookup env = Env({{"KUBECONFIG", b}});

  auto flag = BuildClientConfig("", a, env);
  REQUIRE(flag.ok());
  CHECK(flag->server == "https://from-flag:1");
  auto both = BuildClientConfig("https://master:3", a, env);
  REQUIRE(both.ok());
  CHECK(both->server == "https://master:3");
  auto master = BuildClientConfig("http://127.0.0.1:8080/", "", env);
  REQUIRE(master.ok());
  CHECK(master->server == "http://127.0.0.1:8080");
  CHECK(master->transport.bearer_token.empty());
  auto from_env = BuildClientConfig("", "", env);
  REQUIRE(from_env.ok());
  CHECK(from_env->server == "https://from-env:2");
  TempDir no_account;
  auto in_cluster = BuildClientConfig(
      "", "",
      Env({{"KUBECONFIG", b}, {"KUBERNETES_SERVICE_HOST", "10.0.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}}),
      no_account.path());
  // In a pod without its token: the in-cluster attempt is the one reported.
  REQUIRE_FALSE(in_cluster.ok());
  CHECK(absl::StrContains(in_cluster.status().message(), "in-cluster configuration: service account token"));
  auto nothing = BuildClientConfig("", "", Env({}));
  REQUIRE_FALSE(nothing.ok());
  CHECK(nothing.status().message() ==
        "no API server configured: give --kubeconfig or --master, set KUBECONFIG, or run in a pod");
  auto bad_master = BuildClientConfig("localhost:8080", "", env);
  REQUIRE_FALSE(bad_master.ok());
  CHECK(bad_master.status().message() ==
        "--master: server \"localhost:8080\" is not an http:// or https:// URL");
}

}  // namespace
}  // namespace schedkit::kube
