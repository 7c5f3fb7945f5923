// Running the extension points of one profile, each with upstream's
// handling of its plugins' return codes: PreEnqueue, PreFilter, PostFilter,
// PreScore, Reserve/Unreserve, Permit, PreBind, Bind and PostBind. The filter
// chain and its PreFilter extensions are in filter_plugins.cc, the Score and
// NormalizeScore pass in score_pass.cc.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/go_format.h"
#include "framework/framework_impl.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "framework/cycle_bookkeeping.h"

namespace schedkit::framework {
namespace {

// Upstream's maxTimeout: no Permit plugin makes a pod wait longer.
constexpr absl::Duration kMaxPermitTimeout = absl::Minutes(15);

// The points whose plugins run in order until one fails (PreEnqueue,
// Reserve, PreBind): `call(plugin)` on each; Success (and Skip, where
// `skip_passes`) lets the next one run. A rejection comes back as it is, any
// other code as an Error "running <point> plugin "<name>": <message>"; either
// names the plugin.
template <typename T, typename Call>
Status RunUntilFailure(const PluginList<T>& list, std::string_view point, bool skip_passes, Call&& call) {
  for (size_t i = 0; i < list.size(); ++i) {
    Status s = call(*list.plugins[i]);
    if (s.IsSuccess() || (skip_passes && s.IsSkip())) continue;
    if (!s.IsRejected()) {
      s = Status::Error(schedkit::StrCat("running ", point, " plugin \"", list.names[i].str(), "\": ", s.Message()));
    }
    s.WithPlugin(list.names[i]);
    return s;
  }
  return Status();
}

}  // namespace

Status Framework::RunPreEnqueuePlugins(const PodInfo& pod) {
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kPreEnqueue, impl_->profile_name);
  const Status result = RunUntilFailure(impl_->pre_enqueue, "PreEnqueue", /*skip_passes=*/false,
                                        [&](PreEnqueuePlugin& p) { return p.PreEnqueue(pod); });
  timer.Done(result.code());
  return result;
}

PreFilterPlugin::Result Framework::RunPreFilterPlugins(CycleState& state, const PodInfo& pod,
                                                       absl::flat_hash_set<Symbol>* plugins_with_nodes) {
  const Impl& im = *impl_;
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kPreFilter, impl_->profile_name);
  std::span<const NodeInfo* const> nodes = snapshot().nodes();
  auto& skip = CycleBookkeeping::SkipFilter(state);
  skip.clear();
  PreFilterPlugin::Result out;
  std::optional<Status> rejection;
  std::vector<Symbol> narrowing;  // plugins whose result restricted the nodes
  for (size_t i = 0; i < im.pre_filter.size(); ++i) {
    const Symbol name = im.pre_filter.names[i];
    PreFilterPlugin::Result r = im.pre_filter.plugins[i]->PreFilter(state, pod, nodes);
    if (r.status.IsSkip()) {
      skip.insert(name);
      continue;
    }
    if (!r.status.IsSuccess()) {
      r.status.WithPlugin(name);
      if (r.status.code() == Code::kUnschedulableAndUnresolvable) {
        out.status = std::move(r.status);
        out.result = PreFilterResult();
        rejection.reset();
        narrowing.clear();
        break;
      }
      if (r.status.code() == Code::kUnschedulable) {
        // Later PreFilters still run: preemption needs their state.
        if (!rejection) rejection = std::move(r.status);
        continue;
      }
      out.status = Status::Error(
          schedkit::StrCat("running PreFilter plugin \"", name.str(), "\": ", r.status.Message()));
      out.status.WithPlugin(name);
      out.result = PreFilterResult();
      rejection.reset();
      narrowing.clear();
      break;
    }
    if (!r.result.AllNodes()) narrowing.push_back(name);
    out.result = out.result.Merge(r.result);
    if (!out.result.AllNodes() && out.result.node_names->empty()) {
      const std::vector<std::string> sorted = SortedDistinctNames(narrowing);
      out.status = Status::WithText(
          Code::kUnschedulableAndUnresolvable,
          sorted.size() == 1
              ? schedkit::StrCat("node(s) didn't satisfy plugin ", sorted[0])
              : schedkit::StrCat("node(s) didn't satisfy plugin(s) ", GoStringList(sorted), " simultaneously"));
      break;
    }
  }
  if (out.status.IsSuccess() && rejection) out.status = std::move(*rejection);
  framework::CycleBookkeeping::SetFilterChain(state, impl_->DeriveFilterChain(state));
  if (plugins_with_nodes != nullptr) {
    plugins_with_nodes->clear();
    plugins_with_nodes->insert(narrowing.begin(), narrowing.end());
  }
  timer.Done(out.status.code());
  return out;
}

PostFilterPlugin::Result Framework::RunPostFilterPlugins(CycleState& state, const PodInfo& pod,
                                                         const NodeToStatus& statuses) {
  const Impl& im = *impl_;
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kPostFilter, impl_->profile_name);
  PostFilterPlugin::Result out;
  std::vector<Symbol> reason_syms;
  std::vector<std::string> reasons;
  Symbol rejector;
  bool done = false;
  for (size_t i = 0; i < im.post_filter.size() && !done; ++i) {
    const Symbol name = im.post_filter.names[i];
    PostFilterPlugin::Result r = im.post_filter.plugins[i]->PostFilter(state, pod, statuses);
    if (r.status.IsSuccess()) {
      out = std::move(r);
      done = true;
    } else if (r.status.code() == Code::kUnschedulableAndUnresolvable) {
      r.status.WithPlugin(name);
      out = std::move(r);
      done = true;
    } else if (!r.status.IsRejected()) {
      out.nominating_info = NominatingInfo();
      out.status = Status::WithText(Code::kError, r.status.Message());
      out.status.WithPlugin(name);
      done = true;
    } else {
      if (r.nominating_info.mode != NominatingInfo::Mode::kNoop) out.nominating_info = r.nominating_info;
      for (std::string& reason : r.status.Reasons()) reasons.push_back(std::move(reason));
      if (rejector.empty()) rejector = name;
    }
  }
  if (!done) {
    // Every plugin declined: Unschedulable with all their reasons.
    std::string joined;
    for (size_t k = 0; k < reasons.size(); ++k) schedkit::StrAppend(&joined, k ? ", " : "", reasons[k]);
    out.status = reasons.empty() ? Status::WithReasons(Code::kUnschedulable, {})
                                 : Status::WithText(Code::kUnschedulable, std::move(joined));
    out.status.WithPlugin(rejector);
  }
  timer.Done(out.status.code());
  return out;
}

Status Framework::RunPreScorePlugins(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes) {
  const Impl& im = *impl_;
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kPreScore, impl_->profile_name);
  auto& skip = framework::CycleBookkeeping::SkipScore(state);
  skip.clear();
  Status result;
  for (size_t i = 0; i < im.pre_score.size(); ++i) {
    Status s = im.pre_score.plugins[i]->PreScore(state, pod, nodes);
    if (s.IsSkip()) {
      skip.insert(im.pre_score.names[i]);
      continue;
    }
    if (!s.IsSuccess()) {
      result = Status::Error(
          schedkit::StrCat("running PreScore plugin \"", im.pre_score.names[i].str(), "\": ", s.Message()));
      break;
    }
  }
  timer.Done(result.code());
  return result;
}

Status Framework::RunReservePluginsReserve(CycleState& state, const PodInfo& pod, Symbol node) {
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kReserve, impl_->profile_name);
  const Status result = RunUntilFailure(impl_->reserve, "Reserve", /*skip_passes=*/false,
                                        [&](ReservePlugin& p) { return p.Reserve(state, pod, node); });
  timer.Done(result.code());
  return result;
}

void Framework::RunReservePluginsUnreserve(CycleState& state, const PodInfo& pod, Symbol node) {
  const Impl& im = *impl_;
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kUnreserve, impl_->profile_name);
  for (size_t i = im.reserve.size(); i-- > 0;) im.reserve.plugins[i]->Unreserve(state, pod, node);
  timer.Done(Code::kSuccess);
}

Status Framework::RunPermitPlugins(CycleState& state, const PodInfoPtr& pod_ptr, Symbol node) {
  const Impl& im = *impl_;
  const PodInfo& pod = *pod_ptr;
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kPermit, impl_->profile_name);
  std::vector<std::pair<Symbol, absl::Duration>> waits;
  Status result;
  for (size_t i = 0; i < im.permit.size(); ++i) {
    const Symbol name = im.permit.names[i];
    PermitPlugin::Result r = im.permit.plugins[i]->Permit(state, pod, node);
    if (r.status.IsSuccess()) continue;
    if (r.status.IsRejected()) {
      result = std::move(r.status);
      result.WithPlugin(name);
      waits.clear();
      break;
    }
    if (r.status.IsWait()) {
      waits.emplace_back(name, std::min(r.timeout, kMaxPermitTimeout));
      continue;
    }
    result = Status::Error(schedkit::StrCat("running Permit plugin \"", name.str(), "\": ", r.status.Message()));
    result.WithPlugin(name);
    waits.clear();
    break;
  }
  if (result.IsSuccess() && !waits.empty()) {
    // Park the pod: one timer per waiting plugin rejects it on expiry.
    impl_->waiting.Park(pod_ptr, node, waits, *impl_->options.clock);
    result = Status::WithText(Code::kWait, schedkit::StrCat("one or more plugins asked to wait and no plugin "
                                                            "rejected pod \"", pod.name().str(), "\""));
  }
  timer.Done(result.code());
  return result;
}

Status Framework::RunPreBindPreFlights(const CycleState& state, const PodInfo& pod, Symbol node) const {
  const Impl& im = *impl_;
  Status result = Status::Skip();
  for (size_t i = 0; i < im.pre_bind.size(); ++i) {
    const Status s = im.pre_bind.plugins[i]->PreBindPreFlight(state, pod, node);
    if (s.IsSkip()) continue;
    if (s.IsSuccess()) {
      result = Status();
      continue;
    }
    // Only Success, Skip and errors are meaningful here; anything else is
    // the plugin's bug and fails the cycle as an error, as upstream.
    Status err = s.code() == Code::kError
                     ? Status::Error(schedkit::StrCat("running PreBindPreFlight \"", im.pre_bind.names[i].str(),
                                                      "\": ", s.Message()))
                     : Status::Error(schedkit::StrCat("PreBindPreFlight ", im.pre_bind.names[i].str(),
                                                      " returned \"", CodeName(s.code()),
                                                      "\", which is unsupported. It is supposed to return Success, "
                                                      "Skip, or Error status"));
    err.WithPlugin(im.pre_bind.names[i]);
    return err;
  }
  return result;
}

Status Framework::RunPreBindPlugins(CycleState& state, const PodInfo& pod, Symbol node) {
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kPreBind, impl_->profile_name);
  const Status result = RunUntilFailure(impl_->pre_bind, "PreBind", /*skip_passes=*/true,
                                        [&](PreBindPlugin& p) { return p.PreBind(state, pod, node); });
  timer.Done(result.code());
  return result;
}

Status Framework::RunBindPlugins(CycleState& state, const PodInfo& pod, Symbol node) {
  const Impl& im = *impl_;
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kBind, impl_->profile_name);
  Status result = Status::Skip();
  for (size_t i = 0; i < im.bind.size(); ++i) {
    Status s = im.bind.plugins[i]->Bind(state, pod, node);
    if (s.IsSkip()) continue;
    if (s.IsSuccess()) {
      result = Status();
    } else if (s.IsRejected()) {
      result = std::move(s);
      result.WithPlugin(im.bind.names[i]);
    } else {
      result = Status::Error(
          schedkit::StrCat("running Bind plugin \"", im.bind.names[i].str(), "\": ", s.Message()));
      result.WithPlugin(im.bind.names[i]);
    }
    break;
  }
  timer.Done(result.code());
  return result;
}

void Framework::RunPostBindPlugins(CycleState& state, const PodInfo& pod, Symbol node) {
  const Impl& im = *impl_;
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kPostBind, impl_->profile_name);
  for (PostBindPlugin* p : im.post_bind.plugins) p->PostBind(state, pod, node);
  timer.Done(Code::kSuccess);
}

}  // namespace schedkit::framework
