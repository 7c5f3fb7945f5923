#include "upstream.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::perf {
namespace {

// Single-quoted for /bin/sh.
std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace

ScratchDir::ScratchDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "schedkit-perf-XXXXXX").string();
  if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

absl::StatusOr<UpstreamResult> RunUpstream(const UpstreamOptions& options) {
  std::string config = options.config;
  if (config.empty()) {
    config = options.scratch_dir + "/config.yaml";
    std::ofstream out(config);
    out << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: "
        << options.parallelism << "\n";
    if (!out) return absl::UnavailableError(schedkit::StrCat(config, ": cannot write"));
  }
  const std::string command =
      schedkit::StrCat(ShellQuote(options.oracle), " --throughput --cluster ", ShellQuote(options.cluster),
                       " --config ", ShellQuote(config),
                       options.timeline.empty() ? "" : " --timeline " + ShellQuote(options.timeline));
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return absl::UnavailableError(schedkit::StrCat("cannot run ", command));
  std::string text;
  char buf[1 << 16];
  for (size_t n; (n = fread(buf, 1, sizeof(buf), pipe)) > 0;) text.append(buf, n);
  const int status = pclose(pipe);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(schedkit::StrCat(command, ": failed (exit status ",
                                                WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                                                "); its stderr is above"));
  }
  const nlohmann::json out = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!out.is_object() || !out.contains("summary") || !out["summary"].is_object()) {
    return absl::InternalError(schedkit::StrCat(command, ": printed no JSON summary"));
  }
  const nlohmann::json& s = out["summary"];
  UpstreamResult r;
  r.pods = s.value("pendingPods", 0);
  r.scheduled = options.timeline.empty() ? s.value("scheduled", 0) : s.value("binds", 0);
  r.attempts = s.value("attempts", 0);
  r.seconds = s.value("seconds", 0.0);
  return r;
}

}  // namespace schedkit::perf
