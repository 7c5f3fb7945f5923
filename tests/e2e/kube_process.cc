#include "e2e/kube_process.h"

#include <signal.h>

#include <catch2/catch.hpp>
#include <utility>

#include "e2e/kube_fixtures.h"
#include "e2e/shared_apiserver.h"
#include "httplib.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::e2e {

KubeProcess::KubeProcess(std::string name, std::string config, std::string token)
    : name_(std::move(name)), config_(std::move(config)), token_(std::move(token)) {
  auto proxy = FaultProxy::Start(Server().url(), Server().ca_file());
  REQUIRE(proxy.ok());
  proxy_ = *std::move(proxy);
}

std::unique_ptr<KubeProcess> KubeProcess::Upstream(std::string name, std::string config) {
  auto process = std::make_unique<KubeProcess>(std::move(name), std::move(config));
  process->upstream_ = true;
  return process;
}

KubeProcess::~KubeProcess() {
  if (child_ == nullptr || exited_) return;
  child_->Signal(SIGCONT);
  child_->Signal(SIGTERM);
  const auto code = child_->Wait(absl::Seconds(30));
  // kube-scheduler without leader election ends "finished without leader
  // elect", exit 1, even on SIGTERM.
  CHECK(code == std::optional<int>(upstream_ ? 1 : 0));
}

void KubeProcess::Start(const std::vector<std::string>& extra_flags) {
  const std::string kubeconfig =
      WriteKubeconfig(name_ + ".kubeconfig", proxy_->url(), "",
                      schedkit::StrCat("    token: ", token_.empty() ? SchedulerToken() : token_));
  const std::string config = schedkit::StrCat(Server().dir(), "/", name_, ".config.yaml");
  const bool whole = config_.find("kind: KubeSchedulerConfiguration") != std::string::npos;
  WriteFile(config, schedkit::StrCat(whole ? "" : "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                                  "kind: KubeSchedulerConfiguration\n",
                                     config_.empty() ? "leaderElection:\n  leaderElect: false\n" : config_,
                                     "clientConnection:\n  kubeconfig: ", kubeconfig, "\n"));
  proxy_->SetToken(token_.empty() ? SchedulerToken() : token_);
  std::vector<std::string> argv;
  if (upstream_) {
    REQUIRE_FALSE(KubeSchedulerBinary().empty());
    argv = {KubeSchedulerBinary(), "--config", config, "--secure-port=0", "-v=2"};
  } else {
    port_ = FreeLoopbackPort();
    argv = {binary_.empty() ? SchedkitKubeBinary() : binary_, "--config", config, "--bind-address=127.0.0.1",
            "--secure-port=0",
            schedkit::StrCat("--http-port=", port_), "-v=2"};
  }
  argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
  auto child = ChildProcess::Start(argv, schedkit::StrCat(Server().dir(), "-", name_, ".log"));
  REQUIRE(child.ok());
  child_ = *std::move(child);
  if (upstream_) return;
  httplib::Client health("127.0.0.1", port_);
  REQUIRE(Eventually(absl::Seconds(30), [&] {
    auto r = health.Get("/readyz");
    return r && r->status == 200;
  }));
}

void KubeProcess::Signal(int sig) { child_->Signal(sig); }

std::optional<int> KubeProcess::Wait(absl::Duration limit) {
  auto code = child_->Wait(limit);
  exited_ = code.has_value();
  return code;
}

std::string KubeProcess::Output() const { return child_ != nullptr ? child_->Output() : ""; }

std::string KubeProcess::Http(const std::string& path) const {
  httplib::Client client("127.0.0.1", port_);
  auto r = client.Get(path);
  return r ? r->body : "";
}

}  // namespace schedkit::e2e
