// Feature gates as kube-scheduler has them: every gate its --feature-gates
// accepts at the reference release (upstream_version.h), with that release's
// defaults, stages, locks and dependencies, set by upstream's rules
// (component-base's featuregate) and refused in upstream's words.
//
//   framework::FeatureGates gates;
//   SCHEDKIT_RETURN_IF_ERROR(gates.Set("SchedulerAsyncPreemption=false"));
//   SCHEDKIT_RETURN_IF_ERROR(framework::CheckModeled(gates));
//
// schedkit decides as upstream does with its default gates. A gate that
// upstream's scheduler reads, set away from its default, is refused by
// CheckModeled until schedkit models the gate's other value: schedkit never
// silently decides differently from what the gate would make upstream do.
// Gates the scheduler does not read (the API server's, the kubelet's) are
// accepted and change nothing, as in kube-scheduler.
//
// The table is generated from upstream's (tests/conformance/upstream-gates.sh).
// Thread: a FeatureGates is a value; const methods may run on any thread.
#ifndef SCHEDKIT_FRAMEWORK_FEATURE_GATES_H_
#define SCHEDKIT_FRAMEWORK_FEATURE_GATES_H_

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace schedkit::framework {

enum class GateStage : uint8_t { kPreAlpha, kAlpha, kBeta, kGA, kDeprecated };

struct FeatureGateSpec {
  std::string_view name;
  bool default_value = false;
  GateStage stage = GateStage::kAlpha;
  // Locked to its default: setting the other value is an error.
  bool locked = false;
  // Read by upstream's scheduler code (pkg/scheduler); other gates change
  // nothing a scheduler decides.
  bool scheduler = false;
  // The gates it needs enabled when it is, comma-separated; empty for none.
  std::string_view depends_on;
};

// Every gate kube-scheduler knows at the reference release, by name.
std::span<const FeatureGateSpec> KnownFeatureGates();
// The gate named `name`, or nullptr.
const FeatureGateSpec* FindFeatureGate(std::string_view name);

class FeatureGates {
 public:
  // Every gate at the reference release's default.
  FeatureGates() = default;
  // A shared instance of the defaults.
  static const FeatureGates& Default();

  // Adds "Name=bool,Name=bool" as one --feature-gates flag does (each flag
  // adds to those before it; a later value for a gate wins). On error,
  // InvalidArgument in upstream's words, e.g. "unrecognized feature gate:
  // X", "cannot set feature gate X to false, feature is locked to true",
  // "missing bool value for X", "X is enabled, but depends on features that
  // are disabled: [Y]" (several as "[a, b]"), and the gates keep their
  // values. Setting a GA or deprecated gate adds a warning (warnings()).
  absl::Status Set(std::string_view flag);

  // Whether `name` is enabled; false for a gate kube-scheduler does not know.
  bool Enabled(std::string_view name) const;
  // The gates whose value differs from their default, "Name=bool" by name.
  std::vector<std::string> Changed() const;
  // Upstream's warnings for the gates set so far, one line each:
  // "Setting GA feature gate X=true. It will be removed in a future release."
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::map<std::string, bool, std::less<>> raw_;      // as the flags gave them
  std::map<std::string, bool, std::less<>> enabled_;  // what they decided
  std::vector<std::string> warnings_;
};

// OK when schedkit decides as upstream with `gates`: no gate that upstream's
// scheduler reads is away from its default unless schedkit models its other
// value. Otherwise FailedPrecondition, one line naming the first such gate:
//   feature gate VolumeLimitScaling=false: schedkit does not model it
//   (kube-scheduler v1.37.2 defaults it to true); leave it at its default
absl::Status CheckModeled(const FeatureGates& gates);

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_FEATURE_GATES_H_
