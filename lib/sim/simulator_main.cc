// SimulatorMain: schedkit-sim's program around any registry — flags, loading
// the cluster and configuration, the simulation, and its table or JSON.
#include "schedkit/sim/simulator_main.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "command_line/command_line.h"
#include "sim/demo_cluster.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/decode.h"
#include "schedkit/api/missing_objects.h"
#include "schedkit/base/log.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/feature_gates.h"
#include "sim/simulation.h"

namespace schedkit::sim {

// --tie-break's values.
enum class TieBreakFlag { kRandom, kName };

bool AbslParseFlag(absl::string_view text, TieBreakFlag* out, std::string* error) {
  if (text == "random" || text == "name") {
    *out = text == "random" ? TieBreakFlag::kRandom : TieBreakFlag::kName;
    return true;
  }
  *error = "must be random or name";
  return false;
}
std::string AbslUnparseFlag(TieBreakFlag t) { return t == TieBreakFlag::kRandom ? "random" : "name"; }

}  // namespace schedkit::sim

ABSL_FLAG(std::vector<std::string>, cluster, {},
          "a file or directory (read recursively) of what `kubectl get ... -o json` or `-o yaml` prints; "
          "repeatable; none: the bundled demo cluster");
ABSL_FLAG(std::string, config, "", "a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), JSON or YAML");
ABSL_FLAG(std::optional<schedkit::command_line::Output>, output, std::nullopt,
          "table or json (default: table on a terminal, else json)");
ABSL_FLAG(bool, explain, false, "with --output json: every node's filter verdict and every plugin's scores");
ABSL_FLAG(schedkit::sim::TieBreakFlag, tie_break, schedkit::sim::TieBreakFlag::kRandom,
          "how ties between top-scoring nodes break: random (as upstream) or name (the lowest node name)");
ABSL_FLAG(uint64_t, seed, 1,
          "seeds random tie-breaking and preemption, so that a run repeats; 0 picks a random seed (printed)");
ABSL_FLAG(int, v, 0, "log verbosity: plugins' info lines of this level and below go to stderr (as kube-scheduler's -v)");
ABSL_FLAG(bool, one_at_a_time, false,
          "pending pods arrive one at a time, in input order, each settled (a preemptor bound once its "
          "victims are gone) before the next, as a scheduler sees pods created one by one");
ABSL_FLAG(std::string, feature_gates, "",
          "as kube-scheduler's: Name=true|false pairs, comma-separated; a gate the scheduler reads must stay at "
          "its default unless schedkit models it");
ABSL_FLAG(bool, check_per_node_outcomes, false,
          "recompute every Filter and Score outcome reused for a pod of the same signature, and fail (exit 1) "
          "naming the first a plugin answers differently: checks plugins' OutcomesArePerNode promise");

namespace {

using schedkit::sim::PodResult;
using schedkit::sim::Result;
using schedkit::sim::ResourceClaimResult;

// Set once, by SimulatorMain, before anything reads it.
schedkit::command_line::Program& Program() {
  static schedkit::command_line::Program* program =
      new schedkit::command_line::Program{"schedkit-sim", "", {&FLAGS_cluster}};
  return *program;
}

std::string Usage(const std::string& name) {
  const std::string pad(name.size(), ' ');
  return schedkit::StrCat("usage: ", name,
                          " [--cluster PATH]... [--config PATH] [--output table|json] [--explain]\n       ", pad,
                          " [--tie-break random|name] [--seed N] [--one-at-a-time]\n       ", pad,
                          " [--feature-gates Name=bool,...] [--check-per-node-outcomes]\n");
}

[[noreturn]] void Fail(int code, const std::string& message) {
  schedkit::command_line::Fail(Program(), code, message);
}

nlohmann::ordered_json PodJson(const PodResult& p, bool explain) {
  nlohmann::ordered_json j;
  j["namespace"] = p.namespace_name;
  j["name"] = p.name;
  j["node"] = p.node ? nlohmann::ordered_json(*p.node) : nlohmann::ordered_json(nullptr);
  j["status"] = p.status;
  if (p.status != "Scheduled") j["message"] = p.message;
  j["nominatedNode"] = p.nominated_node ? nlohmann::ordered_json(*p.nominated_node) : nlohmann::ordered_json(nullptr);
  j["victims"] = p.victims;
  if (p.extended_resource_claim) {
    nlohmann::ordered_json mappings = nlohmann::ordered_json::array();
    for (const auto& m : p.extended_resource_claim->request_mappings) {
      mappings.push_back({{"container", m.container}, {"resource", m.resource}, {"request", m.request}});
    }
    j["extendedResourceClaim"] = {{"name", p.extended_resource_claim->name}, {"requestMappings", std::move(mappings)}};
  }
  if (explain) {
    nlohmann::ordered_json filter = nlohmann::ordered_json::object();
    nlohmann::ordered_json scores = nlohmann::ordered_json::object();
    if (p.trace) {
      for (const auto& e : p.trace->filter) {
        nlohmann::ordered_json f;
        f["code"] = std::string(schedkit::framework::CodeName(e.status.code()));
        f["plugin"] = std::string(e.status.plugin().str());
        f["reasons"] = e.status.Reasons();
        filter[std::string(e.node.str())] = std::move(f);
      }
      for (const auto& ns : p.trace->scores) {
        nlohmann::ordered_json plugins = nlohmann::ordered_json::object();
        for (const auto& ps : ns.plugins) {
          plugins[std::string(ps.plugin.str())] = {{"score", ps.raw}, {"normalized", ps.normalized}, {"weight", ps.weight}};
        }
        scores[std::string(ns.node.str())] = {{"plugins", std::move(plugins)}, {"total", ns.total}};
      }
    }
    j["filter"] = std::move(filter);
    j["scores"] = std::move(scores);
  }
  return j;
}

struct Summary {
  int scheduled = 0, unschedulable = 0, preempted = 0;
};

Summary Summarize(const Result& r) {
  Summary s;
  for (const auto& p : r.pods) {
    if (p.status == "Scheduled") ++s.scheduled;
    if (p.status == "Unschedulable") ++s.unschedulable;
    // Victims, pending or bound before: a pending pod bound and then
    // preempted is in its preemptor's victims.
    s.preempted += static_cast<int>(p.victims.size());
  }
  return s;
}

double PodsPerSecond(const Result& r) { return r.seconds > 0 ? static_cast<double>(r.pods.size()) / r.seconds : 0; }

// `skipped`: the objects of kinds schedkit does not model, by kind.
void PrintJson(const Result& r, bool explain, const std::map<std::string, int>& skipped, uint64_t seed) {
  nlohmann::ordered_json out;
  out["pods"] = nlohmann::ordered_json::array();
  for (const auto& p : r.pods) out["pods"].push_back(PodJson(p, explain));
  out["claims"] = nlohmann::ordered_json::array();
  for (const auto& c : r.claims) {
    nlohmann::ordered_json j = {{"namespace", c.namespace_name}, {"name", c.name}, {"volume", c.volume}};
    if (c.node) j["node"] = *c.node;
    out["claims"].push_back(std::move(j));
  }
  out["resourceClaims"] = nlohmann::ordered_json::array();
  for (const ResourceClaimResult& c : r.resource_claims) {
    nlohmann::ordered_json j = {{"namespace", c.namespace_name}, {"name", c.name}, {"allocation", nullptr}};
    if (c.allocation) {
      j["allocation"] = nlohmann::ordered_json::array();
      for (const auto& d : *c.allocation) {
        j["allocation"].push_back({{"request", d.request}, {"driver", d.driver}, {"pool", d.pool}, {"device", d.device}});
      }
    }
    j["reservedFor"] = c.reserved_for;
    out["resourceClaims"].push_back(std::move(j));
  }
  const Summary s = Summarize(r);
  out["summary"] = {{"nodes", r.num_nodes},          {"pendingPods", r.pods.size()}, {"scheduled", s.scheduled},
                    {"unschedulable", s.unschedulable}, {"preempted", s.preempted},   {"seconds", r.seconds},
                    {"podsPerSecond", PodsPerSecond(r)}, {"seed", seed}};
  out["summary"]["skippedKinds"] = nlohmann::ordered_json::object();
  for (const auto& [kind, count] : skipped) out["summary"]["skippedKinds"][kind] = count;
  std::cout << out.dump(2) << "\n";
}

// One line on stderr naming the kinds left out and how many of each.
void WarnSkipped(const std::map<std::string, int>& skipped) {
  if (skipped.empty()) return;
  int total = 0;
  std::string kinds;
  for (const auto& [kind, count] : skipped) {
    total += count;
    schedkit::StrAppend(&kinds, kinds.empty() ? "" : ", ", kind, " (", count, ")");
  }
  std::fprintf(stderr, "%s: warning: left out %d object(s) of kinds it does not model: %s\n", Program().name.c_str(),
               total,
               kinds.c_str());
}

std::string Percent(int64_t used, int64_t total) {
  if (total <= 0) return "-";
  return schedkit::StrCat(used * 100 / total, "%");
}

// Claim → devices (driver/pool/device, one line each) → pods it is reserved for.
void PrintResourceClaims(const std::vector<ResourceClaimResult>& claims) {
  size_t width = 20;
  for (const auto& c : claims) width = std::max(width, c.namespace_name.size() + c.name.size() + 1);
  std::printf("\n%-*s  %-40s  %s\n", static_cast<int>(width), "RESOURCE CLAIM", "DEVICES", "RESERVED FOR");
  for (const auto& c : claims) {
    std::vector<std::string> devices;
    if (c.allocation) {
      for (const auto& d : *c.allocation) devices.push_back(schedkit::StrCat(d.driver, "/", d.pool, "/", d.device));
    }
    if (devices.empty()) devices.push_back(c.allocation ? "(allocated, no devices)" : "<not allocated>");
    std::string reserved;
    for (const auto& p : c.reserved_for) schedkit::StrAppend(&reserved, reserved.empty() ? "" : ", ", p);
    for (size_t i = 0; i < devices.size(); ++i) {
      std::printf("%-*s  %-40s  %s\n", static_cast<int>(width),
                  i == 0 ? (c.namespace_name + "/" + c.name).c_str() : "", devices[i].c_str(),
                  i == 0 ? reserved.c_str() : "");
    }
  }
}

void PrintTable(const Result& r, uint64_t seed) {
  size_t width = 20;
  for (const auto& p : r.pods) width = std::max(width, p.namespace_name.size() + p.name.size() + 1);
  std::printf("%-*s  %-16s  %s\n", static_cast<int>(width), "POD", "NODE", "REASON");
  for (const auto& p : r.pods) {
    std::string node = p.node ? *p.node : "<none>";
    std::string reason = p.status == "Scheduled" ? "" : p.message;
    if (p.status == "Preempted") reason = "preempted by a higher-priority pod";
    if (!p.victims.empty()) reason = schedkit::StrCat("preempted ", p.victims.size(), " pod(s)");
    if (p.nominated_node) reason = schedkit::StrCat("nominated to ", *p.nominated_node, "; ", reason);
    std::printf("%-*s  %-16s  %s\n", static_cast<int>(width), (p.namespace_name + "/" + p.name).c_str(), node.c_str(),
                reason.c_str());
  }
  if (!r.claims.empty()) {
    size_t cwidth = 20;
    for (const auto& c : r.claims) cwidth = std::max(cwidth, c.namespace_name.size() + c.name.size() + 1);
    std::printf("\n%-*s  %-24s  %s\n", static_cast<int>(cwidth), "CLAIM", "VOLUME", "PROVISIONED ON");
    for (const auto& c : r.claims) {
      std::printf("%-*s  %-24s  %s\n", static_cast<int>(cwidth), (c.namespace_name + "/" + c.name).c_str(),
                  c.volume.c_str(), c.node ? c.node->c_str() : "-");
    }
  }
  if (!r.resource_claims.empty()) PrintResourceClaims(r.resource_claims);
  const Summary s = Summarize(r);
  std::printf(
      "\n%zu pending pods on %d nodes: %d scheduled, %d unschedulable, %d preempted in %.3f s (%.0f pods/s, seed "
      "%llu)\n",
      r.pods.size(), r.num_nodes, s.scheduled, s.unschedulable, s.preempted, r.seconds, PodsPerSecond(r),
      static_cast<unsigned long long>(seed));
  std::printf("\n%-16s  %-15s  %-15s  %s\n", "NODE", "CPU BEFORE→AFTER", "MEM BEFORE→AFTER", "PODS");
  for (const auto& n : r.nodes) {
    std::printf("%-16s  %5s → %-7s  %5s → %-7s  %d → %d\n", n.name.c_str(),
                Percent(n.cpu_milli_before, n.cpu_milli_allocatable).c_str(),
                Percent(n.cpu_milli_after, n.cpu_milli_allocatable).c_str(),
                Percent(n.memory_before, n.memory_allocatable).c_str(),
                Percent(n.memory_after, n.memory_allocatable).c_str(), n.pods_before, n.pods_after);
  }
}

int Run(int argc, char** argv, const schedkit::framework::Registry& registry) {
  const std::vector<std::string> rest = schedkit::command_line::Parse(Program(), argc, argv);
  if (!rest.empty()) Fail(2, schedkit::StrCat("unexpected argument \"", rest[0], "\" (--cluster names files)"));
  schedkit::SetLogVerbosity(absl::GetFlag(FLAGS_v));
  const std::vector<std::string> clusters = absl::GetFlag(FLAGS_cluster);
  const std::string config_path = absl::GetFlag(FLAGS_config);
  const bool explain = absl::GetFlag(FLAGS_explain);
  const bool json = absl::GetFlag(FLAGS_output).value_or(isatty(STDOUT_FILENO) ? schedkit::command_line::Output::kTable
                                                                                : schedkit::command_line::Output::kJson) ==
                    schedkit::command_line::Output::kJson;
  schedkit::api::DecodedCluster cluster;
  if (clusters.empty()) {
    auto decoded = schedkit::api::Decode(schedkit::sim::kDemoCluster, "<demo cluster>");
    if (!decoded.ok()) Fail(1, std::string(decoded.status().message()));
    cluster = *std::move(decoded);
  } else {
    auto loaded = schedkit::api::LoadPaths(clusters);
    if (!loaded.ok()) Fail(2, std::string(loaded.status().message()));
    cluster = *std::move(loaded);
    // What the API server refuses that only a plugin can tell (CEL selectors).
    if (absl::Status s = registry.CheckObjects(cluster); !s.ok()) {
      Fail(2, std::string(s.message()));
    }
  }
  WarnSkipped(cluster.skipped_kinds);
  if (const std::string missing = schedkit::api::DescribeMissingObjects(cluster.objects); !missing.empty()) {
    std::fprintf(stderr, "%s: warning: %s\n", Program().name.c_str(), missing.c_str());
  }
  schedkit::config::SchedulerConfiguration config = schedkit::config::DefaultConfiguration();
  if (!config_path.empty()) {
    auto loaded = schedkit::config::LoadConfiguration(config_path);
    if (!loaded.ok()) Fail(2, std::string(loaded.status().message()));
    config = *std::move(loaded);
  }
  schedkit::sim::Options options;
  options.explain = explain;
  options.tie_break = absl::GetFlag(FLAGS_tie_break) == schedkit::sim::TieBreakFlag::kName
                          ? schedkit::framework::TieBreak::kLowestName
                          : schedkit::framework::TieBreak::kRandom;
  options.seed = absl::GetFlag(FLAGS_seed);
  // A random seed is printed, so that a surprising run can be repeated.
  while (options.seed == 0) options.seed = std::random_device{}();
  options.one_at_a_time = absl::GetFlag(FLAGS_one_at_a_time);
  options.check_per_node_outcomes = absl::GetFlag(FLAGS_check_per_node_outcomes);
  if (absl::Status s = options.feature_gates.Set(absl::GetFlag(FLAGS_feature_gates)); !s.ok()) {
    Fail(2, schedkit::StrCat("--feature-gates: ", s.message()));
  }
  if (absl::Status s = schedkit::framework::CheckModeled(options.feature_gates); !s.ok()) {
    Fail(2, schedkit::StrCat("--feature-gates: ", s.message()));
  }
  for (const std::string& w : options.feature_gates.warnings()) {
    std::fprintf(stderr, "%s: warning: %s\n", Program().name.c_str(), w.c_str());
  }
  if (isatty(STDERR_FILENO)) {
    options.progress = [](int attempts, int pending) {
      std::fprintf(stderr, "\r%s: %d scheduling attempts for %d pending pods...", Program().name.c_str(), attempts,
                   pending);
    };
  }
  auto result = schedkit::sim::Simulate(cluster.objects, config, registry, options);
  if (options.progress) std::fprintf(stderr, "\r\033[K");
  if (!result.ok()) {
    // Configuration problems found while building the plugins are bad input.
    const bool bad_input = result.status().code() == absl::StatusCode::kInvalidArgument ||
                           result.status().code() == absl::StatusCode::kNotFound;
    Fail(bad_input ? 2 : 1, std::string(result.status().message()));
  }
  if (json) {
    PrintJson(*result, explain, cluster.skipped_kinds, options.seed);
  } else {
    PrintTable(*result, options.seed);
  }
  if (!result->per_node_outcome_mismatch.empty()) {
    std::fprintf(stderr, "%s: %s\n", Program().name.c_str(), result->per_node_outcome_mismatch.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

namespace schedkit::sim {

int SimulatorMain(int argc, char** argv, const framework::Registry& registry) {
  command_line::Program& program = Program();
  program.name = command_line::ProgramName(argc, argv, "schedkit-sim");
  program.usage = Usage(program.name);
  try {
    return Run(argc, argv, registry);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", program.name.c_str(), e.what());
    return 1;
  } catch (...) {
    std::fprintf(stderr, "%s: internal error\n", program.name.c_str());
    return 1;
  }
}

}  // namespace schedkit::sim
