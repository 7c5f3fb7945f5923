// Test world for DefaultPreemption and the preemption evaluator: a real
// framework::Framework (so dry runs go through RunFilterPluginsWithNominatedPods
// and the PreFilter extensions) built from small test plugins that re-create
// what upstream's tests borrow from in-tree plugins, plus fakes for the
// cluster client, the nominator and the event recorder.
//
//   World w;
//   w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
//   w.AddNode(MakeNode().Name("node1").Capacity(Cap({{"cpu", "500m"}})).Obj());
//   w.Build();
//   auto pl = NewPlugin(w);      // DefaultPreemption on the world's framework
//
// Test plugins (upstream counterpart in brackets):
//   NodeResourcesFit  pod count, cpu and memory fit with upstream's reasons
//                     [noderesources.Fit; no PreFilter extensions either]
//   PodTopologySpread DoNotSchedule constraints, counts kept in CycleState and
//                     updated by AddPod/RemovePod [podtopologyspread]
//   InterPodAffinity  existing pods' required anti-affinity, same node only
//                     (topology keys in these tests are per-node hostnames)
//   FakeFilter, FalseFilter, TrueFilter, MatchFilter [testing/framework fakes]
//   test-plugin       PreFilter whose AddPod/RemovePod fail on nodes labelled
//                     error=true [TestPlugin in default_preemption_test.go]
//   WaitPermit        parks every pod in Permit (for waiting victims)
#ifndef SCHEDKIT_TESTS_PLUGINS_DEFAULTPREEMPTION_PREEMPTION_TESTING_H_
#define SCHEDKIT_TESTS_PLUGINS_DEFAULTPREEMPTION_PREEMPTION_TESTING_H_

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "plugins/defaultpreemption/default_preemption.h"
#include "schedkit/api/object_store.h"
#include "schedkit/api/v1/pod_disruption_budget.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/minimal_plugins.h"
#include "testing/must.h"

namespace schedkit::plugins::preemption_testing {

using framework::Code;
using framework::CycleState;
using framework::NodeInfo;
using framework::PodInfo;
using framework::PodInfoPtr;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;
using testing::ResourceMap;

inline Symbol S(std::string_view s) { return Symbol::Intern(s); }

// Priorities and resources of upstream's tests.
inline constexpr int32_t kNegPriority = -100, kLowPriority = 0, kMidPriority = 100, kHighPriority = 1000,
                         kVeryHighPriority = 10000;
inline const ResourceMap kSmallRes = {{"cpu", "100m"}, {"memory", "100"}};
inline const ResourceMap kMediumRes = {{"cpu", "200m"}, {"memory", "200"}};
inline const ResourceMap kLargeRes = {{"cpu", "300m"}, {"memory", "300"}};
inline const ResourceMap kVeryLargeRes = {{"cpu", "500m"}, {"memory", "500"}};

// st.MakeNode().Capacity(r): 32 pods unless `r` says otherwise.
inline ResourceMap Cap(ResourceMap r) {
  bool has_pods = false;
  for (const auto& [k, v] : r) has_pods = has_pods || k == "pods";
  if (!has_pods) r.insert(r.begin(), {"pods", "32"});
  return r;
}

// metav1.NewTime(time.Unix(0, nanos)) as RFC 3339.
inline std::string Epoch(int nanos) { return schedkit::StrCat("1970-01-01T00:00:00.", absl::Dec(nanos, absl::kZeroPad9), "Z"); }

// A node named after the part of `spec` before the first '/', labelled
// hostname/zone/region with the parts of "name/zone/region", as upstream's
// dry-run tests build them.
inline api::v1::Node TopologyNode(const std::string& spec, const ResourceMap& capacity) {
  static const char* const kKeys[] = {"hostname", "zone", "region"};
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t slash = spec.find('/', start);
    parts.push_back(spec.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  testing::NodeBuilder b = MakeNode().Name(parts[0]).Capacity(Cap(capacity));
  for (size_t i = 0; i < parts.size() && i < 3; ++i) b.Label(kKeys[i], parts[i]);
  return b.Obj();
}

// policy/v1 PodDisruptionBudget.
inline std::shared_ptr<const api::v1::PodDisruptionBudget> Pdb(const std::string& name,
                                                               const std::map<std::string, std::string>& match_labels,
                                                               int32_t disruptions_allowed,
                                                               const std::vector<std::string>& disrupted = {}) {
  auto pdb = std::make_shared<api::v1::PodDisruptionBudget>();
  pdb->mutable_metadata()->set_name(name);
  pdb->mutable_metadata()->set_namespace_("default");
  for (const auto& [k, v] : match_labels) (*pdb->mutable_spec()->mutable_selector()->mutable_match_labels())[k] = v;
  pdb->mutable_status()->set_disruptions_allowed(disruptions_allowed);
  for (const std::string& p : disrupted) (*pdb->mutable_status()->mutable_disrupted_pods())[p] = "2024-01-01T00:00:00Z";
  return pdb;
}

// Filter statuses by node name, without reasons; other nodes are absent
// (UnschedulableAndUnresolvable), as upstream's NewNodeToStatus.
inline framework::NodeToStatus Statuses(const std::map<std::string, Code>& codes) {
  framework::NodeToStatus m;
  for (const auto& [node, code] : codes) m.Set(S(node), Status(code, std::initializer_list<Symbol>{}));
  return m;
}

// ------------------------------------------------------------------ fakes

// The writes preemption makes, recorded; and the PodDisruptionBudgets it
// reads, as given (a list: two budgets may share a name here).
class FakeClient : public framework::ClusterClient, public api::EmptyObjectLister {
 public:
  api::AnyObjectList ListObjects(const api::Kind& kind) const override {
    if (&kind != &api::KindOf<api::v1::PodDisruptionBudget>()) return {};
    return api::AnyObjectList(pdbs.begin(), pdbs.end());
  }
  absl::Status Bind(const PodInfo&, Symbol) override { return absl::OkStatus(); }
  absl::Status Evict(const PodInfo& victim, const PodInfo& preemptor, Symbol node) override {
    if (on_evict) on_evict(victim);
    absl::MutexLock lock(&mu);
    evict_calls.push_back(std::string(victim.name().str()));
    auto it = evict_errors.find(std::string(victim.name().str()));
    if (it != evict_errors.end()) return it->second;
    evicted.push_back(std::string(victim.name().str()));
    evicted_for.push_back({std::string(preemptor.name().str()), std::string(node.str())});
    return absl::OkStatus();
  }
  absl::Status ClearNominatedNodeName(const PodInfo& pod) override {
    absl::MutexLock lock(&mu);
    cleared.push_back(std::string(pod.name().str()));
    return absl::OkStatus();
  }
  std::set<std::string> EvictedSet() {
    absl::MutexLock lock(&mu);
    return {evicted.begin(), evicted.end()};
  }

  absl::Mutex mu;
  std::vector<std::string> evict_calls;  // every call, in order
  std::vector<std::string> evicted;      // successful ones
  std::vector<std::pair<std::string, std::string>> evicted_for;  // (preemptor, node)
  std::vector<std::string> cleared;
  std::map<std::string, absl::Status> evict_errors;  // by victim name
  std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>> pdbs;
  std::function<void(const PodInfo&)> on_evict;
};

class FakeNominator : public framework::PodNominator {
 public:
  std::vector<PodInfoPtr> NominatedPodsForNode(Symbol node) const override {
    absl::MutexLock lock(&mu_);
    auto it = by_node_.find(node);
    return it == by_node_.end() ? std::vector<PodInfoPtr>{} : it->second;
  }
  void AddNominatedPod(PodInfoPtr pod, Symbol node) override {
    absl::MutexLock lock(&mu_);
    by_node_[node].push_back(std::move(pod));
  }
  void DeleteNominatedPodIfExists(const PodInfo& pod) override {
    absl::MutexLock lock(&mu_);
    for (auto& [node, pods] : by_node_) {
      pods.erase(std::remove_if(pods.begin(), pods.end(), [&](const PodInfoPtr& p) { return p->uid() == pod.uid(); }),
                 pods.end());
    }
  }

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<Symbol, std::vector<PodInfoPtr>> by_node_;
};

class FakeEvents : public framework::EventRecorder {
 public:
  void Event(const PodInfo& regarding, const PodInfo* related, std::string_view type, std::string_view reason,
             std::string_view action, std::string_view message) override {
    absl::MutexLock lock(&mu);
    events.push_back(schedkit::StrCat(regarding.name().str(), " ", type, " ", reason, " ", action, ": ", message,
                                      related != nullptr ? schedkit::StrCat(" (related ", related->name().str(), ")")
                                                         : std::string()));
  }
  absl::Mutex mu;
  std::vector<std::string> events;
};

// ------------------------------------------------------------------ test plugins

// noderesources.Fit reduced to pods, cpu and memory.
class FitPlugin : public framework::PreFilterPlugin, public framework::FilterPlugin {
 public:
  std::string_view Name() const override { return "NodeResourcesFit"; }
  PreFilterPlugin::Result PreFilter(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override {
    return {};
  }
  Status Filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const override {
    static const Symbol kTooManyPods = S("Too many pods");
    static const Symbol kCpu = S("Insufficient cpu");
    static const Symbol kMemory = S("Insufficient memory");
    Status s(Code::kUnschedulable, std::initializer_list<Symbol>{});
    if (node.num_pods() + 1 > node.allocatable().allowed_pod_number) s.AppendReason(kTooManyPods);
    const framework::Resource& req = pod.requests();
    if (req.milli_cpu > 0 && req.milli_cpu > node.allocatable().milli_cpu - node.requested().milli_cpu) {
      s.AppendReason(kCpu);
    }
    if (req.memory > 0 && req.memory > node.allocatable().memory - node.requested().memory) s.AppendReason(kMemory);
    return s.num_reasons() == 0 ? Status() : s;
  }
};

// tf.FakeFilterPlugin: counts calls; the code for a node comes from a table.
class FakeFilterPlugin : public framework::FilterPlugin {
 public:
  FakeFilterPlugin(std::atomic<int>* calls, const std::map<std::string, Code>* codes) : calls_(calls), codes_(codes) {}
  std::string_view Name() const override { return "FakeFilter"; }
  Status Filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const override {
    calls_->fetch_add(1);
    auto it = codes_->find(std::string(node.name().str()));
    if (it == codes_->end() || it->second == Code::kSuccess) return Status();
    return Status::WithText(it->second, schedkit::StrCat("injecting failure for pod ", pod.name().str()));
  }

 private:
  std::atomic<int>* calls_;
  const std::map<std::string, Code>* codes_;
};

inline constexpr std::string_view kErrReasonFake = "Nodes failed the fake plugin";

class ConstFilterPlugin : public framework::FilterPlugin {
 public:
  ConstFilterPlugin(std::string name, bool pass) : name_(std::move(name)), pass_(pass) {}
  std::string_view Name() const override { return name_; }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo&) const override {
    return pass_ ? Status() : Status(Code::kUnschedulable, S(kErrReasonFake));
  }

 private:
  std::string name_;
  bool pass_;
};

// tf.MatchFilterPlugin: passes when the pod and the node have the same name.
class MatchFilterPlugin : public framework::FilterPlugin {
 public:
  std::string_view Name() const override { return "MatchFilter"; }
  Status Filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const override {
    return pod.name() == node.name() ? Status() : Status(Code::kUnschedulable, S(kErrReasonFake));
  }
};

// TestPlugin of default_preemption_test.go.
class ErrorExtensionPlugin : public framework::PreFilterPlugin, public framework::PreFilterExtensions {
 public:
  std::string_view Name() const override { return "test-plugin"; }
  PreFilterPlugin::Result PreFilter(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override {
    return {};
  }
  const PreFilterExtensions* GetPreFilterExtensions() const override { return this; }
  Status AddPod(CycleState&, const PodInfo& pod, const PodInfo&, const NodeInfo& node) const override {
    if (Failing(node)) return Status::Error(schedkit::StrCat("failed to add pod: ", pod.name().str()));
    return Status();
  }
  Status RemovePod(CycleState&, const PodInfo& pod, const PodInfo&, const NodeInfo& node) const override {
    if (Failing(node)) return Status::Error(schedkit::StrCat("failed to remove pod: ", pod.name().str()));
    return Status();
  }

 private:
  static bool Failing(const NodeInfo& node) {
    std::optional<Symbol> v = node.labels().Get(S("error"));
    return v.has_value() && *v == S("true");
  }
};

// PodTopologySpread's DoNotSchedule filter: per constraint, the number of
// matching pods per topology value (every node with the key counts as a
// domain, with zero if empty), kept in CycleState and updated by the
// PreFilter extensions.
class SpreadPlugin : public framework::PreFilterPlugin,
                     public framework::PreFilterExtensions,
                     public framework::FilterPlugin {
 public:
  explicit SpreadPlugin(framework::Handle& h) : handle_(h) {}
  std::string_view Name() const override { return "PodTopologySpread"; }

  struct State : framework::StateData {
    std::vector<framework::SpreadConstraint> constraints;
    std::vector<std::map<uint32_t, int>> counts;  // per constraint: value id → matching pods
    std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<State>(*this); }
  };

  PreFilterPlugin::Result PreFilter(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const>) override {
    auto s = std::make_unique<State>();
    for (const framework::SpreadConstraint& c : pod.spread_constraints()) {
      if (c.do_not_schedule) s->constraints.push_back(c);
    }
    if (s->constraints.empty()) {
      PreFilterPlugin::Result r;
      r.status = Status::Skip();
      return r;
    }
    s->counts.resize(s->constraints.size());
    for (const NodeInfo* n : handle_.snapshot().nodes()) {
      for (size_t i = 0; i < s->constraints.size(); ++i) {
        std::optional<Symbol> v = n->labels().Get(s->constraints[i].topology_key);
        if (!v) continue;
        int& count = s->counts[i][v->id()];
        for (const PodInfoPtr& p : n->pods()) count += Matches(s->constraints[i], pod, *p) ? 1 : 0;
      }
    }
    state.Write(Key(), std::move(s));
    return {};
  }
  const PreFilterExtensions* GetPreFilterExtensions() const override { return this; }
  Status AddPod(CycleState& state, const PodInfo& pod, const PodInfo& other, const NodeInfo& node) const override {
    Update(state, pod, other, node, +1);
    return Status();
  }
  Status RemovePod(CycleState& state, const PodInfo& pod, const PodInfo& other, const NodeInfo& node) const override {
    Update(state, pod, other, node, -1);
    return Status();
  }
  Status Filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override {
    const State* s = state.Read<State>(Key());
    if (s == nullptr) return Status::Error("no spread state");
    for (size_t i = 0; i < s->constraints.size(); ++i) {
      const framework::SpreadConstraint& c = s->constraints[i];
      std::optional<Symbol> v = node.labels().Get(c.topology_key);
      if (!v) {
        return Status(Code::kUnschedulableAndUnresolvable,
                      S("node(s) didn't match pod topology spread constraints (missing required label)"));
      }
      int min = std::numeric_limits<int>::max();
      for (const auto& [value, count] : s->counts[i]) min = std::min(min, count);
      auto it = s->counts[i].find(v->id());
      const int match = (it == s->counts[i].end() ? 0 : it->second) + (c.selector.Matches(pod.labels()) ? 1 : 0);
      if (match - min > c.max_skew) {
        return Status(Code::kUnschedulable, S("node(s) didn't match pod topology spread constraints"));
      }
    }
    return Status();
  }

 private:
  static Symbol Key() { return S("PreFilterPodTopologySpread"); }
  static bool Matches(const framework::SpreadConstraint& c, const PodInfo& pod, const PodInfo& other) {
    return other.namespace_() == pod.namespace_() && c.selector.Matches(other.labels());
  }
  void Update(CycleState& state, const PodInfo& pod, const PodInfo& other, const NodeInfo& node, int delta) const {
    State* s = state.Mutable<State>(Key());
    if (s == nullptr) return;
    for (size_t i = 0; i < s->constraints.size(); ++i) {
      std::optional<Symbol> v = node.labels().Get(s->constraints[i].topology_key);
      if (v && Matches(s->constraints[i], pod, other)) s->counts[i][v->id()] += delta;
    }
  }
  framework::Handle& handle_;
};

// InterPodAffinity's check of existing pods' required anti-affinity terms,
// for terms whose topology key the node has, on the node itself.
class AntiAffinityPlugin : public framework::FilterPlugin {
 public:
  std::string_view Name() const override { return "InterPodAffinity"; }
  Status Filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const override {
    static const api::LabelSet kNoNamespaceLabels;
    for (const PodInfoPtr& existing : node.pods_with_required_anti_affinity()) {
      for (const framework::AffinityTerm& term : existing->required_anti_affinity_terms()) {
        if (node.labels().Has(term.topology_key) && term.Matches(pod, kNoNamespaceLabels)) {
          return Status(Code::kUnschedulable, S("node(s) didn't satisfy existing pods anti-affinity rules"));
        }
      }
    }
    return Status();
  }
};

// Parks every pod in Permit (Wait, 10 minutes).
class WaitPermitPlugin : public framework::PermitPlugin {
 public:
  std::string_view Name() const override { return "WaitPermit"; }
  framework::PermitPlugin::Result Permit(CycleState&, const PodInfo&, Symbol) override {
    return {Status::Wait(), absl::Minutes(10)};
  }
};

// ------------------------------------------------------------------ world

// A cluster, a framework over it with the chosen test plugins, and fakes.
class World {
 public:
  World() {
    Add("PrioritySort", [](framework::Handle&) { return std::make_unique<testing::ArrivalOrderSort>("PrioritySort"); });
    Add("DefaultBinder", [](framework::Handle&) { return std::make_unique<testing::AcceptingBinder>("DefaultBinder"); });
    Add("NodeResourcesFit", [](framework::Handle&) { return std::make_unique<FitPlugin>(); });
    Add("FakeFilter", [this](framework::Handle&) {
      return std::make_unique<FakeFilterPlugin>(&fake_filter_calls, &fake_filter_codes);
    });
    Add("FalseFilter", [](framework::Handle&) { return std::make_unique<ConstFilterPlugin>("FalseFilter", false); });
    Add("TrueFilter", [](framework::Handle&) { return std::make_unique<ConstFilterPlugin>("TrueFilter", true); });
    Add("MatchFilter", [](framework::Handle&) { return std::make_unique<MatchFilterPlugin>(); });
    Add("test-plugin", [](framework::Handle&) { return std::make_unique<ErrorExtensionPlugin>(); });
    Add("PodTopologySpread", [](framework::Handle& h) { return std::make_unique<SpreadPlugin>(h); });
    Add("InterPodAffinity", [](framework::Handle&) { return std::make_unique<AntiAffinityPlugin>(); });
    Add("WaitPermit", [](framework::Handle&) { return std::make_unique<WaitPermitPlugin>(); });
    profile.plugins.queue_sort.enabled = {{"PrioritySort"}};
    profile.plugins.bind.enabled = {{"DefaultBinder"}};
  }

  void Enable(const std::vector<std::string>& pre_filter, const std::vector<std::string>& filter) {
    for (const std::string& n : pre_filter) profile.plugins.pre_filter.enabled.push_back({n});
    for (const std::string& n : filter) profile.plugins.filter.enabled.push_back({n});
  }

  void AddNode(const api::v1::Node& node) { REQUIRE(state.AddNode(std::make_shared<api::v1::Node>(node)).ok()); }
  void AddNodes(const std::vector<api::v1::Node>& nodes) {
    for (const auto& n : nodes) AddNode(n);
  }
  PodInfoPtr AddPod(const api::v1::Pod& pod) {
    absl::StatusOr<PodInfoPtr> info = PodInfo::Create(pod);
    REQUIRE(info.ok());
    REQUIRE(state.AddPod(*info).ok());
    return *info;
  }
  void AddPods(const std::vector<api::v1::Pod>& pods) {
    for (const auto& p : pods) AddPod(p);
  }
  void Refresh() {
    state.UpdateSnapshot(snapshot);
    if (fw) fw->SetSnapshot(&snapshot);
  }

  void Build(int parallelism = 1) {
    framework::FrameworkOptions o;
    o.parallelism = parallelism;
    o.client = &client;
    o.objects = &client;
    o.nominator = &nominator;
    o.events = &events;
    absl::StatusOr<std::unique_ptr<framework::Framework>> f = framework::Framework::Create(registry, profile, o);
    INFO(f.status().ToString());
    REQUIRE(f.ok());
    fw = *std::move(f);
    Refresh();
  }

  // Runs the framework's PreFilter plugins for `pod` into `state`.
  void PreFilter(CycleState& state, const PodInfo& pod) {
    framework::PreFilterPlugin::Result r = fw->RunPreFilterPlugins(state, pod);
    INFO(r.status.ToString());
    CHECK((r.status.IsSuccess() || r.status.IsSkip()));
  }

  // The nodes of the snapshot sorted by name, as upstream's dry-run tests.
  std::vector<const NodeInfo*> SortedNodes() const {
    std::vector<const NodeInfo*> out(snapshot.nodes().begin(), snapshot.nodes().end());
    std::sort(out.begin(), out.end(), [](const NodeInfo* a, const NodeInfo* b) { return a->name().str() < b->name().str(); });
    return out;
  }

  framework::Registry registry;
  framework::Profile profile;
  framework::ClusterState state;
  framework::Snapshot snapshot;
  FakeClient client;
  FakeNominator nominator;
  FakeEvents events;
  std::atomic<int> fake_filter_calls{0};
  std::map<std::string, Code> fake_filter_codes;
  std::unique_ptr<framework::Framework> fw;

 private:
  template <typename F>
  void Add(const std::string& name, F make) {
    REQUIRE(registry
                .Add(name,
                     [make](const framework::PluginArgs&,
                            framework::Handle& h) -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
                       return std::unique_ptr<framework::Plugin>(make(h));
                     })
                .ok());
  }
};

// DefaultPreemption built on the world's framework, with the given args JSON.
inline std::unique_ptr<DefaultPreemption> NewPlugin(World& w, std::string args = "") {
  absl::StatusOr<std::unique_ptr<framework::Plugin>> p = NewDefaultPreemption(framework::PluginArgs(std::move(args)), *w.fw);
  INFO(p.status().ToString());
  REQUIRE(p.ok());
  auto* pl = dynamic_cast<DefaultPreemption*>(p->get());
  REQUIRE(pl != nullptr);
  (void)p->release();
  return std::unique_ptr<DefaultPreemption>(pl);
}

using testing::Info;

// A candidate as the tests compare it: node, victim names, PDB violations.
struct CandidateView {
  std::string node;
  std::vector<std::string> victims;
  int64_t violations = 0;
  friend bool operator==(const CandidateView&, const CandidateView&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const CandidateView& c) {
  os << "{" << c.node << ": [";
  for (size_t i = 0; i < c.victims.size(); ++i) os << (i ? ", " : "") << c.victims[i];
  return os << "], violations " << c.violations << "}";
}

// Candidates sorted by node name, victims sorted by name (upstream's
// comparison in the dry-run tests).
inline std::vector<CandidateView> SortedView(const std::vector<preemption::Candidate>& cs) {
  std::vector<CandidateView> out;
  for (const preemption::Candidate& c : cs) {
    CandidateView v{std::string(c.node.str()), {}, c.victims.num_pdb_violations};
    for (const PodInfoPtr& p : c.victims.pods) v.victims.push_back(std::string(p->name().str()));
    std::sort(v.victims.begin(), v.victims.end());
    out.push_back(std::move(v));
  }
  std::sort(out.begin(), out.end(), [](const CandidateView& a, const CandidateView& b) { return a.node < b.node; });
  return out;
}

// Victim names in the candidate's order.
inline std::vector<std::string> VictimNames(const preemption::Candidate& c) {
  std::vector<std::string> out;
  for (const PodInfoPtr& p : c.victims.pods) out.push_back(std::string(p->name().str()));
  return out;
}

}  // namespace schedkit::plugins::preemption_testing

#endif  // SCHEDKIT_TESTS_PLUGINS_DEFAULTPREEMPTION_PREEMPTION_TESTING_H_
