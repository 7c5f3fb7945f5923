// Helpers for the PodTopologySpread tests: a label-selector builder shaped
// after upstream's st.MakeLabelSelector(), the objects upstream's informers
// hold in some cases (Services, ReplicaSets) turned into the default selector
// upstream would derive, and expected-state types with upstream's
// comparison rules (critical paths compared without regard to the order of
// equal counts).
#ifndef SCHEDKIT_TESTS_PLUGINS_PODTOPOLOGYSPREAD_TEST_UTIL_H_
#define SCHEDKIT_TESTS_PLUGINS_PODTOPOLOGYSPREAD_TEST_UTIL_H_

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "plugins/podtopologyspread/pod_topology_spread.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins::pts_test {

using framework::Code;
using testing::MakeNode;
using testing::MakePod;

inline constexpr char kHostname[] = "kubernetes.io/hostname";
inline constexpr char kZone[] = "topology.kubernetes.io/zone";
inline constexpr char kUnschedulableTaint[] = "node.kubernetes.io/unschedulable";
inline constexpr char kDoNotSchedule[] = "DoNotSchedule";
inline constexpr char kScheduleAnyway[] = "ScheduleAnyway";
inline constexpr char kHonor[] = "Honor";
inline constexpr char kIgnore[] = "Ignore";
inline constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();
// An unset optional argument of PodBuilder::SpreadConstraint (Go's nil).
inline constexpr std::nullopt_t kNil = std::nullopt;

class LabelSelectorBuilder {
 public:
  LabelSelectorBuilder& Label(std::string key, std::string value) {
    (*s_.mutable_match_labels())[std::move(key)] = std::move(value);
    return *this;
  }
  LabelSelectorBuilder& Exists(std::string key) { return Expr(std::move(key), "Exists", {}); }
  LabelSelectorBuilder& NotExist(std::string key) { return Expr(std::move(key), "DoesNotExist", {}); }
  LabelSelectorBuilder& In(std::string key, std::vector<std::string> values) {
    return Expr(std::move(key), "In", std::move(values));
  }
  LabelSelectorBuilder& NotIn(std::string key, std::vector<std::string> values) {
    return Expr(std::move(key), "NotIn", std::move(values));
  }
  const api::v1::LabelSelector& Obj() const { return s_; }

 private:
  LabelSelectorBuilder& Expr(std::string key, std::string op, std::vector<std::string> values) {
    auto* r = s_.add_match_expressions();
    r->set_key(std::move(key));
    r->set_operator_(std::move(op));
    for (auto& v : values) r->add_values(std::move(v));
    return *this;
  }
  api::v1::LabelSelector s_;
};
inline LabelSelectorBuilder MakeLabelSelector() { return {}; }

inline const api::v1::LabelSelector fooSelector = MakeLabelSelector().Exists("foo").Obj();
inline const api::v1::LabelSelector barSelector = MakeLabelSelector().Exists("bar").Obj();

// --- objects behind upstream's DefaultSelector ---------------------------

struct Service {
  std::string ns;
  std::map<std::string, std::string> selector;  // empty: nil, selects nothing
};
struct ReplicaSet {
  std::string ns;
  std::string name;
  api::v1::LabelSelector selector;
};
struct Objects {
  std::vector<Service> services;
  std::vector<ReplicaSet> replica_sets;
};

// helper.DefaultSelector over `objs`: the labels of every Service in the
// pod's namespace whose selector matches the pod, ANDed with the selector of
// the ReplicaSet controlling the pod.
inline std::function<api::LabelSelector(const framework::PodInfo&)> DefaultSelectorFrom(Objects objs) {
  return [objs = std::move(objs)](const framework::PodInfo& pod) {
    std::map<std::string, std::string> merged;
    for (const Service& s : objs.services) {
      if (s.ns != pod.namespace_().str() || s.selector.empty()) continue;
      bool matches = true;
      for (const auto& [k, v] : s.selector) {
        auto it = pod.pod().metadata().labels().find(k);
        matches = matches && it != pod.pod().metadata().labels().end() && it->second == v;
      }
      if (matches) merged.insert(s.selector.begin(), s.selector.end());
    }
    api::LabelSelector selector = api::LabelSelector::Everything();
    for (const auto& [k, v] : merged) {
      selector.AddRequirement({Symbol::Intern(k), api::SelectorOp::kIn, {Symbol::Intern(v)}, 0});
    }
    for (const auto& owner : pod.pod().metadata().owner_references()) {
      if (!owner.controller() || owner.kind() != "ReplicaSet") continue;
      for (const ReplicaSet& rs : objs.replica_sets) {
        if (rs.ns != pod.namespace_().str() || rs.name != owner.name()) continue;
        auto compiled = api::LabelSelector::Compile(rs.selector);
        REQUIRE(compiled.ok());
        for (const auto& r : compiled->requirements()) selector.AddRequirement(r);
      }
    }
    return selector;
  };
}

// --- plugin construction --------------------------------------------------

struct Features {
  bool node_inclusion_policy = false;
  bool match_label_keys = false;
};

// The feature sets a case runs with: upstream's, then v1.35's defaults
// (unless the case is about a gate being disabled).
inline std::vector<std::pair<Features, std::string>> FeatureRuns(const std::string& name, Features upstream) {
  std::vector<std::pair<Features, std::string>> runs = {{upstream, ""}};
  if (name.find("disabled") == std::string::npos) runs.push_back({Features{true, true}, " [v1.35 defaults]"});
  return runs;
}

// Upstream's tests build the plugin with feature.Features{} (every gate off)
// unless a case sets one; `features` mirrors that.
inline std::unique_ptr<PodTopologySpread> NewPlugin(testing::FakeHandle& h, const std::string& args_json,
                                                    Features features, Objects objs = {}) {
  PodTopologySpreadOptions options;
  options.enable_node_inclusion_policy = features.node_inclusion_policy;
  options.enable_match_label_keys = features.match_label_keys;
  options.default_selector = DefaultSelectorFrom(std::move(objs));
  auto plugin = NewPodTopologySpreadWithOptions(framework::PluginArgs(args_json), h, std::move(options));
  REQUIRE(plugin.ok());
  auto* typed = dynamic_cast<PodTopologySpread*>(plugin->get());
  REQUIRE(typed != nullptr);
  plugin->release();
  return std::unique_ptr<PodTopologySpread>(typed);
}

inline const char* kListDefaulting = R"({"defaultingType":"List"})";
inline const char* kSystemDefaulting = R"({"defaultingType":"System"})";

// --- expected state -------------------------------------------------------

struct WantConstraint {
  int32_t max_skew = 1;
  std::string topology_key;
  std::optional<api::v1::LabelSelector> selector;  // nullopt: labels.Nothing()
  int32_t min_domains = 1;
  bool honor_node_affinity = true;
  bool honor_node_taints = false;
};

inline std::string DescribeSelector(const api::LabelSelector& s) {
  if (s.MatchesNothing()) return "<nothing>";
  std::vector<std::string> parts;
  for (const auto& r : s.requirements()) {
    std::ostringstream os;
    os << r.key.str() << " op" << static_cast<int>(r.op) << " [";
    std::vector<std::string> values;
    for (Symbol v : r.values) values.emplace_back(v.str());
    std::sort(values.begin(), values.end());
    for (const auto& v : values) os << v << ",";
    os << "]";
    parts.push_back(os.str());
  }
  std::sort(parts.begin(), parts.end());
  std::string out = "{";
  for (const auto& p : parts) out += p + "; ";
  return out + "}";
}

// Constraints compare as upstream's cmp.Diff does, selectors by meaning
// (requirements as a set).
inline void CheckConstraints(const std::vector<PodTopologySpread::Constraint>& got,
                             const std::vector<WantConstraint>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("constraint " << i);
    CHECK(got[i].max_skew == want[i].max_skew);
    CHECK(got[i].topology_key.str() == want[i].topology_key);
    api::LabelSelector want_selector;
    if (want[i].selector) {
      auto compiled = api::LabelSelector::Compile(*want[i].selector);
      REQUIRE(compiled.ok());
      want_selector = *compiled;
    }
    CHECK(DescribeSelector(got[i].selector) == DescribeSelector(want_selector));
    CHECK(got[i].min_domains == want[i].min_domains);
    CHECK(got[i].honor_node_affinity == want[i].honor_node_affinity);
    CHECK(got[i].honor_node_taints == want[i].honor_node_taints);
  }
}

struct WantPath {
  std::string value;
  int64_t num = 0;
};
struct WantPaths {
  WantPath first, second;
};
inline WantPaths NewCriticalPaths() { return {{"", kMaxInt32}, {"", kMaxInt32}}; }

struct WantPreFilterState {
  std::vector<WantConstraint> constraints;
  std::vector<WantPaths> critical_paths;
  std::vector<std::map<std::string, int64_t>> tp_value_to_match_num;
};

// Upstream's comparer: equal counts compare regardless of which value holds them.
inline std::string DescribePaths(std::string v0, int64_t n0, std::string v1, int64_t n1) {
  if (n0 == n1 && v0 > v1) std::swap(v0, v1);
  std::ostringstream os;
  os << "{" << v0 << ":" << n0 << ", " << v1 << ":" << n1 << "}";
  return os.str();
}

template <typename Map>
std::map<std::string, int64_t> ToStringMap(const Map& m) {
  std::map<std::string, int64_t> out;
  for (const auto& [k, v] : m) out[std::string(k.str())] = v;
  return out;
}

inline void CheckPreFilterState(const PodTopologySpread::PreFilterState& got,
                                const WantPreFilterState& want) {
  CheckConstraints(*got.constraints, want.constraints);
  REQUIRE(got.critical_paths.size() == want.critical_paths.size());
  for (size_t i = 0; i < want.critical_paths.size(); ++i) {
    const auto& p = got.critical_paths[i].paths;
    const auto& w = want.critical_paths[i];
    CHECK(DescribePaths(std::string(p[0].topology_value.str()), p[0].match_num,
                        std::string(p[1].topology_value.str()), p[1].match_num) ==
          DescribePaths(w.first.value, w.first.num, w.second.value, w.second.num));
  }
  REQUIRE(got.tp_value_to_match_num.size() == want.tp_value_to_match_num.size());
  for (size_t i = 0; i < want.tp_value_to_match_num.size(); ++i) {
    CHECK(ToStringMap(got.tp_value_to_match_num[i]) == want.tp_value_to_match_num[i]);
  }
}

struct WantPreScoreState {
  std::vector<WantConstraint> constraints;
  std::set<std::string> ignored_nodes;
  std::vector<std::map<std::string, int64_t>> topology_value_to_pod_counts;
  std::vector<double> topology_normalizing_weight;
};

inline void CheckPreScoreState(const PodTopologySpread::PreScoreState::Data& got,
                               const WantPreScoreState& want) {
  CheckConstraints(got.constraints, want.constraints);
  std::set<std::string> ignored;
  for (Symbol n : got.ignored_nodes) ignored.emplace(n.str());
  CHECK(ignored == want.ignored_nodes);
  REQUIRE(got.topology_value_to_pod_counts.size() == want.topology_value_to_pod_counts.size());
  for (size_t i = 0; i < want.topology_value_to_pod_counts.size(); ++i) {
    CHECK(ToStringMap(got.topology_value_to_pod_counts[i]) == want.topology_value_to_pod_counts[i]);
  }
  CHECK(got.topology_normalizing_weight == want.topology_normalizing_weight);
}

inline double W(int64_t size) { return podtopologyspread_internal::TopologyNormalizingWeight(size); }

// --- misc -----------------------------------------------------------------

inline std::vector<const framework::NodeInfo*> NodeInfosOf(const testing::FakeHandle& h,
                                                           const std::vector<api::v1::Node>& nodes) {
  std::vector<const framework::NodeInfo*> out;
  for (const auto& n : nodes) {
    const framework::NodeInfo* info = h.snapshot().Get(n.metadata().name());
    REQUIRE(info != nullptr);
    out.push_back(info);
  }
  return out;
}

inline std::string CodeText(Code c) { return std::string(framework::CodeName(c)); }

// Upstream's tables key zones as "zone". Nodes keep the well-known zone
// label (kZone) apart from their other labels, so the filter and score
// tables run again with "zone" renamed to kZone. False when nothing was
// renamed (the case uses no "zone" key).
inline bool RenameZoneKey(api::v1::Node& node) {
  auto& labels = *node.mutable_metadata()->mutable_labels();
  auto it = labels.find("zone");
  if (it == labels.end()) return false;
  labels[kZone] = it->second;
  labels.erase("zone");
  return true;
}
inline bool RenameZoneKey(api::v1::Pod& pod) {
  bool renamed = false;
  for (auto& c : *pod.mutable_spec()->mutable_topology_spread_constraints()) {
    if (c.topology_key() == "zone") {
      c.set_topology_key(kZone);
      renamed = true;
    }
  }
  auto& selector = *pod.mutable_spec()->mutable_node_selector();
  if (auto it = selector.find("zone"); it != selector.end()) {
    selector[kZone] = it->second;
    selector.erase("zone");
    renamed = true;
  }
  // Only where set: an empty required affinity would match no node.
  const auto& spec = pod.spec();
  if (!spec.has_affinity() || !spec.affinity().has_node_affinity() ||
      !spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution()) {
    return renamed;
  }
  auto* required =
      pod.mutable_spec()->mutable_affinity()->mutable_node_affinity()->mutable_required_during_scheduling_ignored_during_execution();
  for (auto& term : *required->mutable_node_selector_terms()) {
    for (auto& e : *term.mutable_match_expressions()) {
      if (e.key() == "zone") {
        e.set_key(kZone);
        renamed = true;
      }
    }
  }
  return renamed;
}
// Renames in every object of a table case; false when nothing was renamed.
template <typename Case>
bool RenameZoneKeys(Case& c) {
  bool renamed = RenameZoneKey(c.pod);
  for (api::v1::Node& n : c.nodes) renamed |= RenameZoneKey(n);
  if constexpr (requires { c.failed_nodes; }) {
    for (api::v1::Node& n : c.failed_nodes) renamed |= RenameZoneKey(n);
  }
  return renamed;
}

}  // namespace schedkit::plugins::pts_test

#endif  // SCHEDKIT_TESTS_PLUGINS_PODTOPOLOGYSPREAD_TEST_UTIL_H_
