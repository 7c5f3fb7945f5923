// Building a profile's Framework: instantiating the plugins it names once
// each, expanding multiPoint into the extension points in upstream's order,
// score weights, and what the plugins declare once (per-node outcomes,
// PreFilter and Score extensions, the events that requeue their pods).
#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "framework/args_error.h"
#include "framework/framework_impl.h"
#include "framework/records_nothing.h"
#include "framework/unknown_plugin.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"

namespace schedkit::framework {
namespace {

template <typename T>
bool Implements(Plugin* p) {
  return dynamic_cast<T*>(p) != nullptr;
}

// Upstream's orderedSet: insertion order, each name once. Profiles name a
// few plugins per point, so a linear search is enough.
class OrderedNames {
 public:
  bool Insert(const std::string& s) {
    if (Has(s)) return false;
    list_.push_back(s);
    return true;
  }
  bool Has(const std::string& s) const { return std::find(list_.begin(), list_.end(), s) != list_.end(); }
  void Erase(const std::string& s) { list_.erase(std::remove(list_.begin(), list_.end(), s), list_.end()); }
  const std::vector<std::string>& list() const { return list_; }

 private:
  std::vector<std::string> list_;
};

}  // namespace

Framework::Framework(FrameworkOptions options) : impl_(std::make_unique<Impl>(*this, std::move(options))) {
  Impl& im = *impl_;
  FrameworkOptions& o = im.options;
  im.parallelizer = o.parallelizer ? o.parallelizer : std::make_shared<Parallelizer>(o.parallelism);
  // A recorder that records nothing counts as none, so PointTimer skips the clock.
  if (RecordsNothing(o.metrics)) {
    im.noop_metrics = std::make_unique<NoopMetricsRecorder>();
    im.metrics = im.noop_metrics.get();
  } else {
    im.metrics = o.metrics;
  }
  if (o.clock == nullptr) o.clock = &Clock::Real();
  if (o.batch_clock == nullptr) o.batch_clock = o.clock;
  if (o.objects == nullptr) {
    static const api::EmptyObjectLister kNoObjects;
    o.objects = &kNoObjects;
  }
  if (o.shared_state == nullptr) o.shared_state = std::make_shared<SharedState>();
}

Framework::~Framework() = default;

absl::StatusOr<std::unique_ptr<Framework>> Framework::Create(const Registry& registry, const Profile& profile,
                                                             FrameworkOptions options) {
  std::unique_ptr<Framework> f(new Framework(std::move(options)));
  absl::Status s = f->impl_->Build(registry, profile);
  if (IsArgsError(s)) return s;  // already one line naming profile, plugin and field
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("profile \"", profile.scheduler_name, "\": ", s.message()));
  }
  return f;
}

absl::Status Framework::Impl::Build(const Registry& registry, const Profile& profile) {
  profile_name = profile.scheduler_name;
  percentage_of_nodes_to_score = profile.percentage_of_nodes_to_score;
  Impl& im = *this;
  const ProfilePlugins& pp = profile.plugins;

  // Instantiate every plugin the profile names, once, in order of first mention.
  std::vector<const PluginSet*> sets = {&pp.pre_enqueue, &pp.queue_sort, &pp.pre_filter, &pp.filter,
                                        &pp.post_filter, &pp.pre_score,  &pp.score,      &pp.reserve,
                                        &pp.permit,      &pp.pre_bind,   &pp.bind,       &pp.post_bind,
                                        &pp.multi_point};
  for (const PluginSet* set : sets) {
    for (const PluginRef& ref : set->enabled) {
      if (im.by_name.contains(ref.name)) continue;
      const PluginFactory* factory = registry.Find(ref.name);
      if (factory == nullptr) continue;  // reported below with the extension point
      auto args_it = profile.plugin_args.find(ref.name);
      PluginArgs args = args_it == profile.plugin_args.end() ? PluginArgs() : args_it->second;
      args.set_owner(profile.scheduler_name, ref.name);
      args.set_gates(options.feature_gates);
      auto plugin = (*factory)(args, *self);
      if (!plugin.ok() && IsArgsError(plugin.status())) return plugin.status();
      if (!plugin.ok()) {
        return absl::InvalidArgumentError(
            schedkit::StrCat("initializing plugin \"", ref.name, "\": ", plugin.status().message()));
      }
      if (*plugin == nullptr) {
        return absl::InvalidArgumentError(schedkit::StrCat("initializing plugin \"", ref.name, "\": factory returned null"));
      }
      im.by_name[ref.name] = plugin->get();
      im.owned.push_back(*std::move(plugin));
    }
  }

  // Per extension point: the explicitly configured plugins, then multiPoint
  // expansion (upstream updatePluginList + expandMultiPointPlugins).
  auto build_point = [&](auto& list, const PluginSet& set, const char* type_name) -> absl::Status {
    using T = std::remove_pointer_t<typename std::decay_t<decltype(list.plugins)>::value_type>;
    OrderedNames enabled;
    for (const PluginRef& ref : set.enabled) {
      auto it = im.by_name.find(ref.name);
      if (it == im.by_name.end()) {
        return UnknownPluginError(type_name, ref.name, registry);
      }
      if (!Implements<T>(it->second)) {
        return absl::InvalidArgumentError(
            schedkit::StrCat("plugin \"", ref.name, "\" does not extend ", type_name, " plugin"));
      }
      if (!enabled.Insert(ref.name)) {
        return absl::InvalidArgumentError(
            schedkit::StrCat("plugin \"", ref.name, "\" already registered as \"", type_name, "\""));
      }
    }
    const bool all_disabled =
        std::find(set.disabled.begin(), set.disabled.end(), "*") != set.disabled.end();
    OrderedNames multi, overrides;
    if (!all_disabled) {
      for (const PluginRef& ref : pp.multi_point.enabled) {
        auto it = im.by_name.find(ref.name);
        if (it == im.by_name.end()) {
          return UnknownPluginError(type_name, ref.name, registry);
        }
        if (!Implements<T>(it->second)) continue;
        if (std::find(set.disabled.begin(), set.disabled.end(), ref.name) != set.disabled.end()) continue;
        if (enabled.Has(ref.name)) {
          overrides.Insert(ref.name);
          continue;
        }
        if (!multi.Insert(ref.name)) {
          return absl::InvalidArgumentError(
              schedkit::StrCat("plugin \"", ref.name, "\" already registered as \"", type_name, "\""));
        }
      }
    }
    // Overrides keep their explicit order, then multiPoint, then the rest.
    std::vector<std::string> order;
    for (const std::string& n : enabled.list()) {
      if (overrides.Has(n)) order.push_back(n);
    }
    for (const std::string& n : multi.list()) order.push_back(n);
    for (const std::string& n : enabled.list()) {
      if (!overrides.Has(n)) order.push_back(n);
    }
    for (const std::string& n : order) list.Add(dynamic_cast<T*>(im.by_name[n]));
    return absl::OkStatus();
  };
  absl::Status s;
  if (!(s = build_point(im.pre_enqueue, pp.pre_enqueue, "PreEnqueuePlugin")).ok()) return s;
  if (!(s = build_point(im.queue_sort, pp.queue_sort, "QueueSortPlugin")).ok()) return s;
  if (!(s = build_point(im.pre_filter, pp.pre_filter, "PreFilterPlugin")).ok()) return s;
  for (size_t i = 0; i < im.pre_filter.size(); ++i) {
    if (im.pre_filter.plugins[i]->GetPreFilterExtensions() != nullptr) {
      im.pre_filter_extension_names.push_back(im.pre_filter.names[i]);
    }
  }
  if (!(s = build_point(im.filter, pp.filter, "FilterPlugin")).ok()) return s;
  if (!(s = build_point(im.post_filter, pp.post_filter, "PostFilterPlugin")).ok()) return s;
  if (!(s = build_point(im.pre_score, pp.pre_score, "PreScorePlugin")).ok()) return s;
  if (!(s = build_point(im.score, pp.score, "ScorePlugin")).ok()) return s;
  if (!(s = build_point(im.reserve, pp.reserve, "ReservePlugin")).ok()) return s;
  if (!(s = build_point(im.permit, pp.permit, "PermitPlugin")).ok()) return s;
  if (!(s = build_point(im.pre_bind, pp.pre_bind, "PreBindPlugin")).ok()) return s;
  if (!(s = build_point(im.bind, pp.bind, "BindPlugin")).ok()) return s;
  if (!(s = build_point(im.post_bind, pp.post_bind, "PostBindPlugin")).ok()) return s;

  if (im.queue_sort.size() != 1) {
    return absl::InvalidArgumentError(schedkit::StrCat(
        "only one queue sort plugin required for profile with scheduler name \"", profile_name, "\", but got ",
        im.queue_sort.size()));
  }
  if (im.bind.size() == 0) {
    return absl::InvalidArgumentError(schedkit::StrCat(
        "at least one bind plugin is needed for profile with scheduler name \"", profile_name, "\""));
  }

  // Score weights: the explicit Score entry wins over multiPoint; 0 means 1.
  int64_t total = 0;
  std::vector<PluginRef> weighted = pp.score.enabled;
  weighted.insert(weighted.end(), pp.multi_point.enabled.begin(), pp.multi_point.enabled.end());
  for (const PluginRef& ref : weighted) {
    auto it = im.by_name.find(ref.name);
    if (it == im.by_name.end() || !Implements<ScorePlugin>(it->second)) continue;
    if (im.weight_by_name.contains(ref.name)) continue;
    const int32_t w = ref.weight == 0 ? 1 : ref.weight;
    im.weight_by_name[ref.name] = w;
    if (static_cast<int64_t>(w) * kMaxNodeScore > std::numeric_limits<int64_t>::max() - total) {
      return absl::InvalidArgumentError("total score of Score plugins could overflow");
    }
    total += static_cast<int64_t>(w) * kMaxNodeScore;
  }
  for (ScorePlugin* p : im.score.plugins) {
    auto it = im.weight_by_name.find(std::string(p->Name()));
    if (it == im.weight_by_name.end() || it->second == 0) {
      return absl::InvalidArgumentError(
          schedkit::StrCat("score plugin \"", p->Name(), "\" is not configured with weight"));
    }
    im.score_weights.push_back(it->second);
  }

  for (FilterPlugin* p : im.filter.plugins) im.filter_per_node.push_back(p->OutcomesArePerNode());
  for (ScorePlugin* p : im.score.plugins) {
    im.score_per_node.push_back(p->OutcomesArePerNode());
    const ScoreExtensions* ext = p->GetScoreExtensions();
    im.score_normalizes.push_back(ext != nullptr);
    im.score_by_maximum.push_back(ext != nullptr ? ext->NormalizesByMaximum() : std::nullopt);
  }
  // Opportunistic batching: only when every plugin whose outcome depends on
  // the pod can sign it (upstream's computeBatchablePlugins).
  const FeatureGates& gates = options.feature_gates != nullptr ? *options.feature_gates : FeatureGates::Default();
  im.batching = gates.Enabled("OpportunisticBatching");
  std::vector<Plugin*> sign_candidates;
  sign_candidates.insert(sign_candidates.end(), im.pre_filter.plugins.begin(), im.pre_filter.plugins.end());
  sign_candidates.insert(sign_candidates.end(), im.filter.plugins.begin(), im.filter.plugins.end());
  sign_candidates.insert(sign_candidates.end(), im.pre_score.plugins.begin(), im.pre_score.plugins.end());
  sign_candidates.insert(sign_candidates.end(), im.score.plugins.begin(), im.score.plugins.end());
  for (Plugin* p : sign_candidates) {
    const auto* signer = dynamic_cast<const SignPlugin*>(p);
    if (signer == nullptr) im.batching = false;
    if (signer != nullptr && std::find(im.signers.begin(), im.signers.end(), signer) == im.signers.end()) {
      im.signers.push_back(signer);
    }
  }
  if (!im.batching) im.signers.clear();

  const auto any = [](const std::vector<uint8_t>& v) { return std::find(v.begin(), v.end(), 1) != v.end(); };
  im.memoizes = options.memoize_per_node_outcomes && im.filter.size() <= 64 && im.score.size() <= 64 &&
                (any(im.filter_per_node) || any(im.score_per_node));

  // Queueing registrations of the plugins that can reject a pod.
  for (const auto& owned : im.owned) {
    Plugin* p = owned.get();
    const bool can_reject = Implements<PreEnqueuePlugin>(p) || Implements<PreFilterPlugin>(p) ||
                            Implements<FilterPlugin>(p) || Implements<ReservePlugin>(p) ||
                            Implements<PermitPlugin>(p);
    if (!can_reject) continue;
    PluginEvents pe;
    pe.plugin = Symbol::Intern(p->Name());
    if (auto* ext = dynamic_cast<EnqueueExtensions*>(p)) {
      pe.events = ext->EventsToRegister();
    } else {
      pe.events.push_back(ClusterEventWithHint{ClusterEvent{EventResource::Wildcard(), kActionAll, "*"}, {}});
    }
    enqueue_events.push_back(std::move(pe));
  }
  return absl::OkStatus();
}

std::vector<std::string> Framework::PluginNames(ExtensionPoint point) const {
  const Impl& im = *impl_;
  auto names = [](const std::vector<Symbol>& syms) {
    std::vector<std::string> out;
    for (Symbol s : syms) out.emplace_back(s.str());
    return out;
  };
  switch (point) {
    case ExtensionPoint::kPreEnqueue: return names(im.pre_enqueue.names);
    case ExtensionPoint::kPreFilter:
    case ExtensionPoint::kPreFilterExtensionAddPod:
    case ExtensionPoint::kPreFilterExtensionRemovePod: return names(im.pre_filter.names);
    case ExtensionPoint::kFilter: return names(im.filter.names);
    case ExtensionPoint::kPostFilter: return names(im.post_filter.names);
    case ExtensionPoint::kPreScore: return names(im.pre_score.names);
    case ExtensionPoint::kScore:
    case ExtensionPoint::kScoreExtensionNormalize: return names(im.score.names);
    case ExtensionPoint::kReserve:
    case ExtensionPoint::kUnreserve: return names(im.reserve.names);
    case ExtensionPoint::kPermit: return names(im.permit.names);
    case ExtensionPoint::kPreBind: return names(im.pre_bind.names);
    case ExtensionPoint::kBind: return names(im.bind.names);
    case ExtensionPoint::kPostBind: return names(im.post_bind.names);
  }
  return {};
}

int32_t Framework::ScoreWeight(std::string_view plugin) const {
  for (size_t i = 0; i < impl_->score.size(); ++i) {
    if (impl_->score.names[i].str() == plugin) return impl_->score_weights[i];
  }
  return 0;
}

bool Framework::HasFilterPlugins() const { return impl_->filter.size() > 0; }
bool Framework::RunsFilter(std::string_view plugin) const {
  return std::ranges::find(impl_->filter.names, Symbol::Intern(plugin)) != impl_->filter.names.end();
}
bool Framework::HasScorePlugins() const { return impl_->score.size() > 0; }
bool Framework::HasPostFilterPlugins() const { return impl_->post_filter.size() > 0; }
bool Framework::Batches() const { return impl_->batching; }
int64_t Framework::batched_pods() const { return impl_->batch.batched_pods; }
std::optional<std::string> Framework::SignPod(const PodInfo& pod) {
  if (!impl_->batching) return std::nullopt;
  const std::string* signature = impl_->SignPod(pod);
  return signature != nullptr ? std::optional<std::string>(*signature) : std::nullopt;
}
const QueueSortPlugin& Framework::queue_sort() const { return *impl_->queue_sort.plugins[0]; }

Plugin* Framework::GetPlugin(std::string_view name) const {
  auto it = impl_->by_name.find(name);
  return it == impl_->by_name.end() ? nullptr : it->second;
}

const Snapshot& Framework::snapshot() const {
  static const Snapshot* empty = new Snapshot();
  return impl_->snapshot != nullptr ? *impl_->snapshot : *empty;
}

const std::vector<Framework::PluginEvents>& Framework::enqueue_events() const { return impl_->enqueue_events; }
void Framework::SetPodNominator(PodNominator* nominator) { impl_->options.nominator = nominator; }
void Framework::SetPodActivator(PodActivator* activator) { impl_->options.activator = activator; }
void Framework::SetSnapshot(const Snapshot* snapshot) { impl_->snapshot = snapshot; }
Parallelizer& Framework::parallelizer() const { return *impl_->parallelizer; }
std::string_view Framework::profile_name() const { return impl_->profile_name; }
MetricsRecorder& Framework::metrics() const { return *impl_->metrics; }
const api::ObjectLister& Framework::objects() const { return *impl_->options.objects; }
SharedState* Framework::shared_state() const { return impl_->options.shared_state.get(); }
PodNominator* Framework::nominator() const { return impl_->options.nominator; }
PodActivator* Framework::activator() const { return impl_->options.activator; }
ClusterClient* Framework::client() const { return impl_->options.client; }
EventRecorder* Framework::events() const { return impl_->options.events; }

}  // namespace schedkit::framework
