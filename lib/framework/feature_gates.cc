#include "schedkit/framework/feature_gates.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <set>
#include <string_view>
#include <vector>

#include "schedkit/base/str_cat.h"
#include "schedkit/base/upstream_version.h"

namespace schedkit::framework {
namespace {

#include "framework/feature_gate_table.inc"

// The gates schedkit decides both values of as upstream does. Every other
// gate upstream's scheduler reads must stay at its default (CheckModeled).
constexpr std::array<std::string_view, 4> kModeled{
    "MatchLabelKeysInPodTopologySpread",  // PodTopologySpread's selectors
    "OpportunisticBatching",   // the framework's reuse of rankings
    "StorageCapacityScoring",  // VolumeBinding's shape and scorer
    "VolumeLimitScaling",      // NodeVolumeLimits' installed-driver check
};

bool IsModeled(std::string_view name) { return std::find(kModeled.begin(), kModeled.end(), name) != kModeled.end(); }

std::string_view BoolText(bool b) { return b ? "true" : "false"; }

// Go's strings.Split, for the flag's pairs and a table row's dependencies.
std::vector<std::string_view> Split(std::string_view s, char by) {
  std::vector<std::string_view> out;
  for (size_t start = 0;;) {
    const size_t at = s.find(by, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// Go's strings.TrimSpace, for ASCII.
std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Go's strconv.ParseBool.
bool ParseGoBool(std::string_view s, bool& out) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (s == t) return out = true, true;
  }
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (s == f) return out = false, true;
  }
  return false;
}

// Go's %q of an ASCII string: quotes, with \ and " escaped and other
// non-printable bytes as \xNN.
std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (std::isprint(c)) {
      out += static_cast<char>(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
  }
  return out + "\"";
}

// apimachinery's aggregate: one error as itself, several as "[a, b]", each
// message once.
absl::Status Aggregate(const std::vector<std::string>& errors) {
  if (errors.empty()) return absl::OkStatus();
  if (errors.size() == 1) return absl::InvalidArgumentError(errors[0]);
  std::string out = "[";
  std::set<std::string_view> seen;
  for (const std::string& e : errors) {
    if (!seen.insert(e).second) continue;
    if (out.size() > 1) out += ", ";
    out += e;
  }
  return absl::InvalidArgumentError(out + "]");
}

}  // namespace

std::span<const FeatureGateSpec> KnownFeatureGates() { return kGates; }

const FeatureGateSpec* FindFeatureGate(std::string_view name) {
  auto it = std::lower_bound(std::begin(kGates), std::end(kGates), name,
                             [](const FeatureGateSpec& g, std::string_view n) { return g.name < n; });
  return it != std::end(kGates) && it->name == name ? &*it : nullptr;
}

const FeatureGates& FeatureGates::Default() {
  static const FeatureGates* gates = new FeatureGates;
  return *gates;
}

absl::Status FeatureGates::Set(std::string_view flag) {
  // The flag's pairs, as upstream's Set reads them.
  std::map<std::string, bool, std::less<>> pairs;
  for (std::string_view item : Split(flag, ',')) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key(Trim(item.substr(0, eq)));
    if (eq == std::string_view::npos) return absl::InvalidArgumentError(schedkit::StrCat("missing bool value for ", key));
    const std::string_view value = Trim(item.substr(eq + 1));
    bool b = false;
    if (!ParseGoBool(value, b)) {
      return absl::InvalidArgumentError(schedkit::StrCat("invalid value of ", key, "=", value,
                                                         ", err: strconv.ParseBool: parsing ", GoQuote(value),
                                                         ": invalid syntax"));
    }
    pairs[key] = b;
  }
  // Every value given so far, applied onto what the earlier flags decided
  // (upstream's SetFromMap: an "All" gate fills only gates not yet set).
  std::map<std::string, bool, std::less<>> raw = raw_;
  for (const auto& [k, v] : pairs) raw[k] = v;
  std::map<std::string, bool, std::less<>> enabled = enabled_;
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  for (const auto& [k, v] : raw) {
    const FeatureGateSpec* spec = FindFeatureGate(k);
    if (spec == nullptr) {
      errors.push_back(schedkit::StrCat("unrecognized feature gate: ", k));
      return Aggregate(errors);
    }
    if (spec->locked && spec->default_value != v) {
      errors.push_back(schedkit::StrCat("cannot set feature gate ", k, " to ", BoolText(v), ", feature is locked to ",
                                        BoolText(spec->default_value)));
      continue;
    }
    if (k == "AllAlpha" || k == "AllBeta") {
      const GateStage stage = k == "AllAlpha" ? GateStage::kAlpha : GateStage::kBeta;
      for (const FeatureGateSpec& g : kGates) {
        if (g.name == "AllAlpha" || g.name == "AllBeta" || g.stage != stage) continue;
        enabled.try_emplace(std::string(g.name), v);
      }
      enabled[k] = v;
      continue;
    }
    if (spec->stage == GateStage::kPreAlpha) {
      errors.push_back(schedkit::StrCat("cannot set feature gate ", k, " to ", BoolText(v),
                                        ", feature is PreAlpha at emulated version ", kEmulationVersion,
                                        ", min compatibility version ", kMinCompatibilityVersion));
      continue;
    }
    enabled[k] = v;
    if (pairs.contains(k) && (spec->stage == GateStage::kGA || spec->stage == GateStage::kDeprecated)) {
      // component-base's structured log line (klog's text form).
      warnings.push_back(schedkit::StrCat("\"Warning: setting ", spec->stage == GateStage::kGA ? "GA" : "deprecated",
                                          " feature gate. It will be removed in a future release.\" featureGate=\"",
                                          k, "\" value=", BoolText(v)));
    }
  }
  if (errors.empty()) {
    const auto on = [&](std::string_view name) {
      auto it = enabled.find(name);
      if (it != enabled.end()) return it->second;
      const FeatureGateSpec* g = FindFeatureGate(name);
      return g != nullptr && g->default_value;
    };
    for (const FeatureGateSpec& g : kGates) {
      if (g.depends_on.empty() || !on(g.name)) continue;
      std::string off;
      for (std::string_view dep : Split(g.depends_on, ',')) {
        if (!on(dep)) schedkit::StrAppend(&off, off.empty() ? "" : " ", dep);
      }
      if (!off.empty()) {
        errors.push_back(
            schedkit::StrCat(g.name, " is enabled, but depends on features that are disabled: [", off, "]"));
      }
    }
  }
  if (!errors.empty()) return Aggregate(errors);
  raw_ = std::move(raw);
  enabled_ = std::move(enabled);
  warnings_.insert(warnings_.end(), warnings.begin(), warnings.end());
  return absl::OkStatus();
}

bool FeatureGates::Enabled(std::string_view name) const {
  if (auto it = enabled_.find(name); it != enabled_.end()) return it->second;
  const FeatureGateSpec* g = FindFeatureGate(name);
  return g != nullptr && g->default_value;
}

std::vector<std::string> FeatureGates::Changed() const {
  std::vector<std::string> out;
  for (const FeatureGateSpec& g : kGates) {
    if (Enabled(g.name) != g.default_value) out.push_back(schedkit::StrCat(g.name, "=", BoolText(!g.default_value)));
  }
  return out;
}

absl::Status CheckModeled(const FeatureGates& gates) {
  for (const FeatureGateSpec& g : kGates) {
    if (!g.scheduler || IsModeled(g.name)) continue;
    const bool on = gates.Enabled(g.name);
    if (on == g.default_value) continue;
    return absl::FailedPreconditionError(schedkit::StrCat(
        "feature gate ", g.name, "=", BoolText(on), ": schedkit does not model it (kube-scheduler ", kUpstreamVersion,
        " defaults it to ", BoolText(g.default_value), "); leave it at its default"));
  }
  return absl::OkStatus();
}

}  // namespace schedkit::framework
