// Internal: the what-if simulation behind SimulatorMain (schedkit-sim): schedules a cluster's pending
// pods with the real scheduler (queue, cache, plugins, preemption) through an
// in-memory host, and reports each pod's outcome.
//
// Semantics (kept identical in the conformance oracle):
//  - Priority as the Priority admission plugin sets it: spec.priority, else
//    the named PriorityClass, else the globalDefault class, else 0.
//  - Workloads' missing replicas are added first (workload_pods.h).
//  - Pods with spec.nodeName are running; the others are added to the queue
//    in input order at one instant of a fake clock that never advances
//    (unless one_at_a_time).
//  - The scheduler runs until idle: activeQ and backoffQ drained (v1.37 pops
//    from backoffQ when activeQ is empty), no binding in flight. Pods left in
//    the unschedulable pool keep their last failure.
//  - Preemption victims are deleted at once, as the API server would.
//  - A pod naming no profile's schedulerName stays pending with "profile
//    not found for scheduler name ..." (the oracle's words).
//  - VolumeBinding's writes are completed at once by a stand-in PV
//    controller (pv_controller.h); claims without a uid get "uid-<ns>-<name>".
#ifndef SCHEDKIT_LIB_SIM_SIMULATION_H_
#define SCHEDKIT_LIB_SIM_SIMULATION_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/api/object_set.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/feature_gates.h"
#include "sim/pv_controller.h"
#include "schedkit/framework/framework.h"
#include "schedkit/framework/registry.h"

namespace schedkit::sim {

struct Options {
  bool explain = false;
  framework::TieBreak tie_break = framework::TieBreak::kRandom;
  uint64_t seed = 0;
  // The pending pods arrive one at a time, in input order: each runs until
  // idle, and while it is nominated by its own preemption the clock moves
  // past its backoff so that it binds once its victims are gone, before the
  // next arrives. What a live scheduler does when pods are created one by
  // one, each awaited (the end-to-end tests compare schedkit-kube with it).
  bool one_at_a_time = false;
  // Called about once a second with (attempts so far, pending pods).
  std::function<void(int, int)> progress;
  // Recompute every outcome the memo reuses and keep the first that differs
  // (FrameworkOptions::check_per_node_outcomes) in Result.
  bool check_per_node_outcomes = false;
  // kube-scheduler's --feature-gates (SchedulerOptions::feature_gates).
  framework::FeatureGates feature_gates;
};

struct NodeUsage {
  std::string name;
  int64_t cpu_milli_allocatable = 0;
  int64_t memory_allocatable = 0;
  int64_t cpu_milli_before = 0, cpu_milli_after = 0;
  int64_t memory_before = 0, memory_after = 0;
  int pods_before = 0, pods_after = 0;
};

struct PodResult {
  std::string namespace_name;
  std::string name;
  std::optional<std::string> node;
  std::string status;  // Scheduled, Unschedulable, Preempted
  std::string message;
  std::optional<std::string> nominated_node;
  std::vector<std::string> victims;  // "ns/name"
  int attempts = 0;
  std::optional<framework::CycleTrace> trace;  // last cycle, with --explain
  // The claim DynamicResources made for the pod's extended resources backed
  // by DRA (its status.extendedResourceClaimStatus), when there is one.
  struct ExtendedResourceClaim {
    struct Mapping {
      std::string container;
      std::string resource;
      std::string request;
    };
    std::string name;
    std::vector<Mapping> request_mappings;
  };
  std::optional<ExtendedResourceClaim> extended_resource_claim;
};

// A ResourceClaim at the end of the run: the devices it got, and the pods
// it is reserved for.
struct ResourceClaimResult {
  struct Device {
    std::string request;  // "<request>" or "<request>/<subrequest>"
    std::string driver;
    std::string pool;
    std::string device;
  };
  std::string namespace_name;
  std::string name;
  std::optional<std::vector<Device>> allocation;  // unset: not allocated
  std::vector<std::string> reserved_for;          // pod names, in reservedFor order
};

struct Result {
  std::vector<PodResult> pods;  // pending pods, input order
  std::vector<ClaimBinding> claims;  // claims the run bound, by namespace and name
  // Every ResourceClaim (those in the input and those made from templates),
  // by namespace and name.
  std::vector<ResourceClaimResult> resource_claims;
  std::vector<NodeUsage> nodes;
  int num_nodes = 0;
  double seconds = 0;
  // With Options::check_per_node_outcomes: the first reused outcome that a
  // plugin, asked again, answered differently; empty when none did.
  std::string per_node_outcome_mismatch;
};

// `registry` holds the plugins the configuration may name.
absl::StatusOr<Result> Simulate(const api::ObjectSet& cluster, const config::SchedulerConfiguration& config,
                                const framework::Registry& registry, const Options& options);

}  // namespace schedkit::sim

#endif  // SCHEDKIT_LIB_SIM_SIMULATION_H_
