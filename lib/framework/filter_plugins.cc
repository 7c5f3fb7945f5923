// The filter chain of one cycle outside the filter pass: deriving it once
// PreFilter has run (skipped plugins removed), running it on one node, the
// PreFilter extensions that simulate adding or removing a pod, and the
// nominated-pods pass (upstream's RunFilterPluginsWithNominatedPods). The
// filter pass over many nodes is in filter_pass.cc.
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "framework/framework_impl.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "framework/cycle_bookkeeping.h"
#include "framework/node_info_internals.h"

namespace schedkit::framework {

std::shared_ptr<const ActiveFilterChain> Framework::Impl::DeriveFilterChain(const CycleState& state) const {
  const Impl& im = *this;
  auto chain = std::make_shared<ActiveFilterChain>();
  chain->owner = self;
  chain->skips = CycleBookkeeping::SkipFilter(state);
  chain->all_per_node = true;
  for (size_t i = 0; i < im.filter.size(); ++i) {
    if (chain->skips.contains(im.filter.names[i])) continue;
    chain->plugins.push_back(im.filter.plugins[i]);
    chain->names.push_back(im.filter.names[i]);
    const bool per_node = im.memoizes && im.filter_per_node[i];
    chain->per_node.push_back(per_node);
    if (per_node) {
      chain->per_node_mask |= uint64_t{1} << i;
      chain->last_per_node = static_cast<int>(chain->plugins.size()) - 1;
    }
    chain->all_per_node &= per_node;
  }
  chain->pre_filter_extensions = ScanPreFilterExtensions(state);
  return chain;
}

const ActiveFilterChain* Framework::Impl::KeptFilterChain(const CycleState& state) const {
  const ActiveFilterChain* chain = framework::CycleBookkeeping::FilterChain(state).get();
  if (chain == nullptr || chain->owner != self || !(chain->skips == CycleBookkeeping::SkipFilter(state))) return nullptr;
  return chain;
}

const ActiveFilterChain& Framework::Impl::FilterChainFor(const CycleState& state,
                                                   std::shared_ptr<const ActiveFilterChain>& derived) const {
  if (const ActiveFilterChain* chain = KeptFilterChain(state)) return *chain;
  derived = DeriveFilterChain(state);
  return *derived;
}

Status Framework::RunFilterPlugins(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const Impl& im = *impl_;
  const auto& skip = CycleBookkeeping::SkipFilter(state);
  if (skip.empty()) return impl_->RunActiveFilters(im.filter.plugins, im.filter.names, state, pod, node);
  std::shared_ptr<const ActiveFilterChain> derived;
  const ActiveFilterChain& chain = impl_->FilterChainFor(state, derived);
  return impl_->RunActiveFilters(chain.plugins, chain.names, state, pod, node);
}

// The filter chain over plugins already cleared of this cycle's skips.
Status Framework::Impl::RunActiveFilters(std::span<FilterPlugin* const> plugins, std::span<const Symbol> names,
                                   const CycleState& state, const PodInfo& pod, const NodeInfo& node) {
  for (size_t i = 0; i < plugins.size(); ++i) {
    Status s = plugins[i]->Filter(state, pod, node);
    if (s.IsSuccess()) continue;
    if (!s.IsRejected()) {
      s = Status::Error(schedkit::StrCat("running \"", names[i].str(), "\" filter plugin: ", s.Message()));
    }
    s.WithPlugin(names[i]);
    return s;
  }
  return Status();
}

namespace {

// `call(extensions)` on each active PreFilter extension in order (AddPod or
// RemovePod, named `verb` in errors); the first failure is an error.
template <typename Call>
Status RunPreFilterExtensions(const PluginList<PreFilterPlugin>& pre_filter, const CycleState& state,
                              std::string_view verb, Call&& call) {
  for (size_t i = 0; i < pre_filter.size(); ++i) {
    const PreFilterExtensions* ext = pre_filter.plugins[i]->GetPreFilterExtensions();
    if (ext == nullptr || CycleBookkeeping::SkipFilter(state).contains(pre_filter.names[i])) continue;
    Status s = call(*ext);
    if (!s.IsSuccess()) {
      return Status::Error(schedkit::StrCat("running ", verb, " on PreFilter plugin \"", pre_filter.names[i].str(),
                                            "\": ", s.Message()));
    }
  }
  return Status();
}

}  // namespace

Status Framework::RunPreFilterExtensionAddPod(CycleState& state, const PodInfo& pod, const PodInfo& to_add,
                                              const NodeInfo& node) const {
  return RunPreFilterExtensions(impl_->pre_filter, state, "AddPod", [&](const PreFilterExtensions& ext) {
    return ext.AddPod(state, pod, to_add, node);
  });
}

Status Framework::RunPreFilterExtensionRemovePod(CycleState& state, const PodInfo& pod, const PodInfo& to_remove,
                                                 const NodeInfo& node) const {
  return RunPreFilterExtensions(impl_->pre_filter, state, "RemovePod", [&](const PreFilterExtensions& ext) {
    return ext.RemovePod(state, pod, to_remove, node);
  });
}

bool Framework::HasActivePreFilterExtensions(const CycleState& state) const {
  if (const ActiveFilterChain* chain = impl_->KeptFilterChain(state)) return chain->pre_filter_extensions;
  return impl_->ScanPreFilterExtensions(state);
}

std::optional<uint64_t> Framework::PerNodeFilterChain(const CycleState& state) const {
  if (!impl_->memoizes) return std::nullopt;
  std::shared_ptr<const ActiveFilterChain> derived;
  const ActiveFilterChain& chain = impl_->FilterChainFor(state, derived);
  if (!chain.all_per_node || chain.pre_filter_extensions) return std::nullopt;
  return chain.per_node_mask;
}

bool Framework::Impl::ScanPreFilterExtensions(const CycleState& state) const {
  for (Symbol name : pre_filter_extension_names) {
    if (!CycleBookkeeping::SkipFilter(state).contains(name)) return true;
  }
  return false;
}

Status Framework::RunFilterPluginsWithNominatedPods(const CycleState& state, const PodInfo& pod,
                                                    const NodeInfo& node) const {
  // Pass 1 with the nominated pods of equal or higher priority added; pass 2
  // without them, because those pods may never land (e.g. pod affinity could
  // pass only because of them).
  std::span<const PodInfoPtr> nominated;
  std::vector<PodInfoPtr> asked;  // when the cycle has no snapshot
  if (const NominatedPodsSnapshot* snapshot = framework::CycleBookkeeping::NominatedPods(state)) {
    nominated = snapshot->ForNode(node.name());
  } else if (impl_->options.nominator != nullptr) {
    asked = impl_->options.nominator->NominatedPodsForNode(node.name());
    nominated = asked;
  }
  if (nominated.empty()) return RunFilterPlugins(state, pod, node);

  // The state is copied only when an extension will change it.
  std::unique_ptr<CycleState> state_copy;
  std::optional<ScratchSimulation> sim;
  for (const PodInfoPtr& p : nominated) {
    if (p->priority() < pod.priority() || p->SameUid(pod)) continue;
    if (!sim) {
      sim.emplace(node);
      if (HasActivePreFilterExtensions(state)) state_copy = state.Clone();
    }
    sim->node().AddPod(ScratchSimulation::Borrow(p));  // the list outlives the copy
    if (state_copy) {
      Status s = RunPreFilterExtensionAddPod(*state_copy, pod, *p, sim->node());
      if (!s.IsSuccess()) return s;
    }
  }
  if (!sim) return RunFilterPlugins(state, pod, node);
  Status first = RunFilterPlugins(state_copy ? *state_copy : state, pod, sim->node());
  if (!first.IsSuccess()) return first;
  return RunFilterPlugins(state, pod, node);
}

}  // namespace schedkit::framework
