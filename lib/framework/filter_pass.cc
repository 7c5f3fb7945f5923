// The filter pass of one cycle (upstream's findNodesThatPassFilters): the
// active filter chain over the candidate nodes, starting at the rotating
// index and wrapping around, until enough feasible nodes are found.
//
// The nodes are filtered in rounds. A round evaluates a batch of positions in
// parallel, in runs of kNodesPerTask nodes that each task hands to one plugin
// after another (FilterPlugin::FilterNodes); results land by position. A
// sequential scan then reads them as upstream's scan with one worker reads
// the nodes: it keeps the first to_find feasible nodes but stops only at the
// next feasible one (the worker cancels when it finds one too many), so the
// nodes rejected in between count for the diagnosis and the next start
// index. The outcome is that scan's however the runs were scheduled.
//
// Inside a run, three things may spare a node its plugins: the outcome memo
// (a node that passed the per-node plugins unchanged passes them again), a
// whole stretch the memo passes (nothing to run at all), and the
// nominated-pods pass, which takes out the nodes where it adds a pod and
// decides them one by one.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "absl/base/attributes.h"
#include "framework/framework_impl.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "framework/cycle_bookkeeping.h"
#include "framework/node_info_internals.h"

namespace schedkit::framework {
namespace {

// Passing flags are bytes of 0 or 1, read and written eight at a time as one
// 64-bit word: most runs lose no node to a plugin, and one compare per eight
// nodes finds that where a compare per node would not pay for the plugin
// call it guards. Lost nodes are then found by bit scan: in a word of 0/1
// bytes, a set bit is the low bit of its byte, so countr_zero / 8 is the
// byte's index — in little-endian byte order, where byte k holds bits
// 8k..8k+7.
using FlagWord = uint64_t;
constexpr size_t kFlagsPerWord = sizeof(FlagWord);
static_assert(CHAR_BIT == 8 && kFlagsPerWord == 8, "a word holds eight one-byte flags");
static_assert(std::endian::native == std::endian::little, "byte k of a word is bits 8k..8k+7");
static_assert(static_cast<uint8_t>(true) == 1, "flags are 0 or 1, one bit per byte");
static_assert(kNodesPerTask % kFlagsPerWord == 0, "a run's flags fill whole words");

FlagWord LoadFlags(const uint8_t* flags) {
  FlagWord w = 0;
  std::memcpy(&w, flags, kFlagsPerWord);
  return w;
}

void StoreFlags(uint8_t* flags, FlagWord w) { std::memcpy(flags, &w, kFlagsPerWord); }

// The index within its word of the lowest set flag of `w` (w != 0).
size_t LowestFlag(FlagWord w) { return static_cast<size_t>(std::countr_zero(w)) / CHAR_BIT; }

// Whether the nominated-pods pass adds a pod of `nominated` (a node's list,
// null for none) to the node: one of equal or higher priority that is not
// `pod`. Where it does not, the pass equals the plain filter chain.
bool AddsNominatedPods(const NominatedPodsSnapshot::PodList& nominated, const PodInfo& pod) {
  if (nominated == nullptr) return false;
  for (const PodInfoPtr& p : *nominated) {
    if (p->priority() >= pod.priority() && !p->SameUid(pod)) return true;
  }
  return false;
}

// One task's scratch for one run, on its stack. Flag arrays are 8-aligned
// and read as words (see FlagWord).
struct RunScratch {
  // A run that wraps past the end of the node list, copied.
  std::array<const NodeInfo*, kNodesPerTask> wrapped;
  // Passing flags, zero past the run so that whole words compare.
  alignas(8) std::array<uint8_t, kNodesPerTask> passing;
  alignas(8) std::array<uint8_t, kNodesPerTask> before;
  // Nodes the nominated-pods pass decides one by one: those where it adds a
  // pod. Elsewhere it equals the plain chain, so they join the run.
  std::array<uint8_t, kNodesPerTask> one_by_one;
  // Each node's nominations list (null without a snapshot).
  std::array<const NominatedPodsSnapshot::PodList*, kNodesPerTask> lists;
  // Nodes the memo passes through the per-node plugins, and every node's
  // snapshot position. Past a short run it may still hold a longer run's
  // flags; they only ever meet passing flags of zero there.
  alignas(8) std::array<uint8_t, kNodesPerTask> hit{};
  std::array<int32_t, kNodesPerTask> position;
};

}  // namespace

// One call of FindNodesThatPassFilters: what stays fixed for the pass, and
// the steps of a round, each named for what it decides. The steps of a run
// are inlined into the task, as one function would have them: called per
// run and per rejected node, they cost about 4% of a TopologySpreading pod's
// instructions when they are not.
namespace {

class FilterPass {
 public:
  FilterPass(Framework::Impl& im, const CycleState& state, const PodInfo& pod,
             std::span<const NodeInfo* const> nodes, int start, const ActiveFilterChain& chain)
      : fw_(*im.self),
        im_(im),
        snap_(*im.snapshot),
        state_(state),
        pod_(pod),
        nodes_(nodes),
        n_(static_cast<int>(nodes.size())),
        start_(start),
        chain_(chain),
        generations_(snap_.node_generations()) {
    with_nominated_ = framework::CycleBookkeeping::NominatedPods(state) != nullptr
                          ? !framework::CycleBookkeeping::NominatedPods(state)->empty()
                          : im.options.nominator != nullptr && im.options.nominator->HasNominatedPods();
    // The memo answers for the per-node plugins on nodes that passed them
    // unchanged; the other plugins run everywhere.
    memo_ = chain.per_node_mask != 0 ? im_.cycle_memo : nullptr;
    if (memo_ != nullptr) memo_->BeginFilters(chain.per_node_mask);
    memo_decides_ = memo_ != nullptr && chain.all_per_node;
    // The snapshot's own node list (not one PreFilter narrowed): a node's
    // index in it is its snapshot position, so the memo is read by stretches.
    by_position_ = nodes.data() == snap_.nodes().data();
    // Where every active filter is per node and no PreFilter state takes the
    // added pods, the nominated-pods pass depends only on the node and its
    // nominations: the memo keeps its verdict for as long as both stay.
    nominations_ = framework::CycleBookkeeping::NominatedPods(state);
    memo_keeps_nominated_ =
        with_nominated_ && memo_decides_ && nominations_ != nullptr && !chain.pre_filter_extensions;
    if (memo_keeps_nominated_) memo_->PrepareNominatedVerdicts();
    pod_may_be_nominee_ = memo_keeps_nominated_ && nominations_->MayList(pod);
  }

  // Filters positions [done, end) of the rotated order into im_.node_passed,
  // im_.node_status and the runs' counts. Returns whether a plugin erred (a
  // task then stopped early and its runs have no counts).
  bool RunRound(int done, int end) {
    // A node a task did not reach (after an error) counts as not passing.
    std::fill(im_.node_passed.begin() + done, im_.node_passed.begin() + end, 0);
    errored_.store(false, std::memory_order_relaxed);
    const int grain = RoundGrain(done, end);
    // One task runs the round's runs as RoundGrain counted them.
    const bool misses_counted = memo_decides_ && by_position_ && grain == end - done;
    im_.parallelizer->ForRanges(end - done, grain,
                                 [&](int b, int e) { FilterPositions(done, b, e, misses_counted); });
    return errored_.load();
  }

 private:
  // How many of the round's positions a task takes. When the memo decides
  // nearly every node, handing the round to the other threads costs more
  // than the few nodes left to filter: one task takes it all. Where the memo
  // is read by position, the misses are counted per run into im_.run_misses.
  int RoundGrain(int done, int end) {
    if (!memo_decides_) return kNodesPerTask;
    int misses = 0;
    if (by_position_) {
      // Run by run, each at most two stretches of positions.
      for (int rb = done; rb < end; rb += kNodesPerTask) {
        const int count = std::min(kNodesPerTask, end - rb);
        const int first = (start_ + rb) % n_;
        const int before_wrap = std::min(count, n_ - first);
        im_.run_misses[rb] = memo_->UnpassedIn(first, first + before_wrap, generations_) +
                             memo_->UnpassedIn(0, count - before_wrap, generations_);
        misses += im_.run_misses[rb];
      }
    } else {
      for (int pos = done, at = (start_ + done) % n_; pos < end; ++pos, at = at + 1 == n_ ? 0 : at + 1) {
        misses += !memo_->Passed(snap_.PositionOf(*nodes_[at]), generations_);
      }
    }
    return misses <= kNodesPerTask ? end - done : kNodesPerTask;
  }

  // One task: positions done+b .. done+e of the rotated order, run by run.
  void FilterPositions(int done, int b, int e, bool misses_counted) {
    // Locals, not members: the flag stores in the loops below are byte
    // stores, which may alias any member and would force it to be reloaded.
    const int n = n_;
    const std::span<const NodeInfo* const> nodes = nodes_;
    int at = start_ + done + b;  // index into nodes, wrapped by hand: no division per node
    if (at >= n) at -= n;
    RunScratch scratch;
    for (int rb = b; rb < e; rb += kNodesPerTask) {
      if (errored_.load(std::memory_order_relaxed)) return;
      const int pos = done + rb;
      const int count = std::min(e, rb + kNodesPerTask) - rb;
      // A run is a stretch of `nodes`, unless it wraps past the end.
      std::span<const NodeInfo* const> run;
      if (at + count <= n) {
        run = nodes.subspan(static_cast<size_t>(at), static_cast<size_t>(count));
        const bool whole = MemoPassesStretch(pos, at, count, misses_counted);
        at += count;
        if (at == n) at = 0;
        if (whole) {
          MarkRunPassed(pos, count);
          continue;
        }
      } else {
        for (int k = 0; k < count; ++k, at = at + 1 == n ? 0 : at + 1) scratch.wrapped[k] = nodes[at];
        run = std::span<const NodeInfo* const>(scratch.wrapped.data(), static_cast<size_t>(count));
      }
      // The next run's nodes load while this one is filtered; where the
      // memo decides, few of them are read at all.
      const int next_count = memo_decides_ ? 0 : std::min(kNodesPerTask, e - rb - count);
      for (int k = 0, ahead = at; k < next_count; ++k, ahead = ahead + 1 == n ? 0 : ahead + 1) {
        PrefetchHotLines(*nodes[ahead]);
      }
      FilterRun(pos, run, scratch);
    }
  }

  // Whether the memo passes every node of the stretch nodes[at, at+count),
  // the run at `pos`, so that nothing is left to run there.
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool MemoPassesStretch(int pos, int at, int count, bool misses_counted) const {
    if (!memo_decides_ || !by_position_ || with_nominated_) return false;
    const int misses = misses_counted ? im_.run_misses[pos] : memo_->UnpassedIn(at, at + count, generations_);
    return misses == 0;
  }

  ABSL_ATTRIBUTE_ALWAYS_INLINE void MarkRunPassed(int pos, int count) {
    std::fill_n(im_.node_passed.begin() + pos, count, 1);
    im_.run_length[pos] = count;
    im_.run_passed[pos] = count;
  }

  // The run at `pos`: flags set, the nominated-pods pass's nodes taken out,
  // the memo's hits marked, the chain, then those nodes one by one.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void FilterRun(int pos, std::span<const NodeInfo* const> run,
                                              RunScratch& scratch) {
    const size_t count = run.size();
    const std::span<Status> statuses(im_.node_status.data() + pos, count);
    std::fill(scratch.passing.begin(), scratch.passing.begin() + count, 1);
    std::fill(scratch.passing.begin() + count, scratch.passing.end(), 0);
    size_t alive = count;
    const bool any_one_by_one = with_nominated_ && TakeOutNominatedNodes(run, scratch, alive);
    // Passing nodes the memo does not pass.
    const size_t alive_misses = memo_ != nullptr ? alive - MarkMemoHits(run, scratch) : alive;
    RunChain(run, statuses, scratch, alive, alive_misses);
    std::copy(scratch.passing.begin(), scratch.passing.begin() + count, im_.node_passed.begin() + pos);
    if (any_one_by_one) RunNominatedPass(pos, run, statuses, scratch);
    int32_t passed = 0;
    for (size_t k = 0; k < count; ++k) passed += im_.node_passed[pos + k];
    im_.run_length[pos] = static_cast<int32_t>(count);
    im_.run_passed[pos] = passed;
  }

  // Takes the nodes where the nominated-pods pass adds a pod out of the run
  // (their passing flags cleared; RunNominatedPass decides them). Returns
  // whether there was any.
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool TakeOutNominatedNodes(std::span<const NodeInfo* const> run,
                                                          RunScratch& scratch, size_t& alive) const {
    bool any = false;
    for (size_t k = 0; k < run.size(); ++k) {
      // Without a snapshot the nominator is asked per node, so every node counts.
      scratch.lists[k] = nominations_ != nullptr ? &nominations_->ListFor(run[k]->name()) : nullptr;
      scratch.one_by_one[k] = scratch.lists[k] == nullptr || AddsNominatedPods(*scratch.lists[k], pod_);
      if (!scratch.one_by_one[k]) continue;
      scratch.passing[k] = 0;
      --alive;
      any = true;
    }
    return any;
  }

  // Marks the passing nodes the memo passes through the per-node plugins
  // (scratch.hit) and every node's snapshot position. Returns how many it
  // marked.
  ABSL_ATTRIBUTE_ALWAYS_INLINE size_t MarkMemoHits(std::span<const NodeInfo* const> run,
                                                   RunScratch& scratch) const {
    const OutcomeMemo::Entry& memo = *memo_;
    const Snapshot& snap = snap_;
    const std::span<const int64_t> generations = generations_;
    size_t hits = 0;
    for (size_t k = 0; k < run.size(); ++k) {
      const int32_t position = snap.PositionOf(*run[k]);
      const uint8_t hit = scratch.passing[k] & static_cast<uint8_t>(memo.Passed(position, generations));
      scratch.position[k] = position;
      scratch.hit[k] = hit;
      hits += hit;
    }
    return hits;
  }

  // The active chain over the run: each plugin takes the nodes still
  // passing, in chain order, and a node leaves at its first rejection, as in
  // a per-node chain. A per-node plugin sees only the nodes the memo does
  // not pass. Nodes that pass every per-node plugin are kept in the memo.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void RunChain(std::span<const NodeInfo* const> run, std::span<Status> statuses,
                                             RunScratch& scratch, size_t alive, size_t alive_misses) {
    const size_t count = run.size();
    const size_t words = (count + kFlagsPerWord - 1) / kFlagsPerWord;
    uint8_t* const passing = scratch.passing.data();
    const uint8_t* const before = scratch.before.data();
    const uint8_t* const hit = scratch.hit.data();
    OutcomeMemo::Entry* const memo = memo_;
    const std::span<const int64_t> generations = generations_;
    const std::span<FilterPlugin* const> plugins = chain_.plugins;
    const std::span<const uint8_t> per_node = chain_.per_node;
    const std::span<const Symbol> names = chain_.names;
    const int last_per_node = chain_.last_per_node;
    for (size_t i = 0; i < plugins.size() && alive > 0; ++i) {
      const bool memoized = memo != nullptr && per_node[i];
      if (memoized && alive_misses == 0) continue;
      scratch.before = scratch.passing;
      if (memoized) {
        // The memo's hits sit this plugin out.
        for (size_t w = 0; w < words; ++w) {
          const size_t at = kFlagsPerWord * w;
          StoreFlags(passing + at, LoadFlags(passing + at) & ~LoadFlags(hit + at));
        }
      }
      plugins[i]->FilterNodes(state_, pod_, run, std::span<uint8_t>(passing, count), statuses);
      for (size_t w = 0; w < words; ++w) {
        const size_t at = kFlagsPerWord * w;
        const FlagWord was = LoadFlags(before + at);
        FlagWord is = LoadFlags(passing + at);
        if (memoized) {
          // The hits still alive pass this plugin, as they did before.
          is |= was & LoadFlags(hit + at);
          StoreFlags(passing + at, is);
        }
        for (FlagWord lost = was & ~is; lost != 0; lost &= lost - 1) {
          const size_t k = at + LowestFlag(lost);
          --alive;
          if (!hit[k]) {
            --alive_misses;
            // Rejected after it passed every per-node plugin.
            if (memo != nullptr && static_cast<int>(i) > last_per_node) {
              memo->SetPassed(scratch.position[k], generations);
            }
          }
          Reject(statuses[k], names[i]);
        }
      }
    }
    if (memo != nullptr && alive_misses > 0) {
      for (size_t k = 0; k < count; ++k) {
        if (passing[k] && !hit[k]) memo->SetPassed(scratch.position[k], generations);
      }
    }
  }

  // The status of a node `plugin` took out: its rejection, or an error
  // naming the plugin (which ends the round).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void Reject(Status& status, Symbol plugin) {
    if (!status.IsRejected()) {
      status = Status::Error(schedkit::StrCat("running \"", plugin.str(), "\" filter plugin: ", status.Message()));
      errored_.store(true, std::memory_order_relaxed);
    }
    status.WithPlugin(plugin);
  }

  // The nodes TakeOutNominatedNodes took out, one by one: the chain with the
  // nominated pods added and without them (RunFilterPluginsWithNominatedPods),
  // or its verdict as the memo keeps it.
  void RunNominatedPass(int pos, std::span<const NodeInfo* const> run, std::span<Status> statuses,
                        const RunScratch& scratch) {
    // A node before the run's first error is still filtered, as upstream's
    // scan in order would: an error of the chain at a later node must not
    // hide an earlier node's verdict (or error).
    size_t first_error = run.size();
    for (size_t k = 0; k < run.size(); ++k) {
      if (!scratch.one_by_one[k] && !im_.node_passed[pos + k] && statuses[k].IsError()) {
        first_error = k;
        break;
      }
    }
    for (size_t k = 0; k < run.size() && k < first_error; ++k) {
      if (!scratch.one_by_one[k]) continue;
      Status s = memo_keeps_nominated_ ? KeptNominatedPass(*run[k], scratch.position[k], *scratch.lists[k])
                                       : fw_.RunFilterPluginsWithNominatedPods(state_, pod_, *run[k]);
      if (s.IsSuccess()) {
        im_.node_passed[pos + k] = 1;
      } else {
        const bool error = s.IsError();
        statuses[k] = std::move(s);
        if (error) {
          errored_.store(true, std::memory_order_relaxed);
          return;
        }
      }
    }
  }

  // The nominated-pods pass on a node whose nominations are `list`, read
  // from the memo while the node and the list stay the same.
  Status KeptNominatedPass(const NodeInfo& node, int position, const NominatedPodsSnapshot::PodList& list) {
    // The pod's own nomination is left out of its pass: then the verdict is
    // this pod's alone.
    const auto is_pod = [&](const PodInfoPtr& p) { return p->SameUid(pod_); };
    if (pod_may_be_nominee_ && std::any_of(list->begin(), list->end(), is_pod)) {
      return fw_.RunFilterPluginsWithNominatedPods(state_, pod_, node);
    }
    if (const Status* kept = memo_->NominatedVerdict(position, generations_, list)) return *kept;
    Status s = fw_.RunFilterPluginsWithNominatedPods(state_, pod_, node);
    if (!s.IsError()) memo_->SetNominatedVerdict(position, generations_, list, s);
    return s;
  }

  const Framework& fw_;
  Framework::Impl& im_;
  const Snapshot& snap_;
  const CycleState& state_;
  const PodInfo& pod_;
  const std::span<const NodeInfo* const> nodes_;
  const int n_;
  const int start_;
  const ActiveFilterChain& chain_;
  const std::span<const int64_t> generations_;
  OutcomeMemo::Entry* memo_ = nullptr;
  const NominatedPodsSnapshot* nominations_ = nullptr;
  bool with_nominated_ = false;
  bool memo_decides_ = false;
  bool by_position_ = false;
  bool memo_keeps_nominated_ = false;
  bool pod_may_be_nominee_ = false;
  // Set by the round's tasks when a plugin errs; they stop at their next run.
  std::atomic<bool> errored_{false};
};

}  // namespace

Status Framework::Impl::FindNodesThatPassFilters(const CycleState& state, const PodInfo& pod,
                                           std::span<const NodeInfo* const> nodes, int start,
                                           Diagnosis& diagnosis, std::vector<const NodeInfo*>& feasible,
                                           int& processed, CycleTrace* trace) {
  Impl& im = *this;
  const int n = static_cast<int>(nodes.size());
  feasible.clear();
  processed = 0;
  if (n == 0) return Status();
  int to_find = NumFeasibleNodesToFind(percentage_of_nodes_to_score, options.percentage_of_nodes_to_score, n);
  if (!self->HasScorePlugins()) to_find = 1;

  if (!self->HasFilterPlugins()) {
    for (int i = 0; i < to_find; ++i) feasible.push_back(nodes[(start + i) % n]);
    processed = to_find;
    if (trace != nullptr) {
      for (const NodeInfo* node : feasible) trace->filter.push_back({node->name(), Status()});
    }
    return Status();
  }

  im.node_status.resize(n);
  im.node_passed.resize(n);
  im.run_length.resize(n);
  im.run_passed.resize(n);
  im.run_misses.resize(n);
  // This cycle's filter chain, skips removed once rather than per node.
  std::shared_ptr<const ActiveFilterChain> derived;
  const ActiveFilterChain& chain = FilterChainFor(state, derived);
  FilterPass pass(*this, state, pod, nodes, start, chain);
  if (options.check_per_node_outcomes && cycle_memo != nullptr && chain.per_node_mask != 0) {
    CheckKeptFilterPasses(state, pod, nodes, chain);
  }

  int done = 0;
  int found = 0;
  // Upstream's scan ends at the feasible node after the to_find-th: that one
  // is neither kept nor counted, but the rejections before it are.
  const int to_scan_until = to_find + 1;
  // The first round covers what upstream's scan would need if every node
  // passed; each later round doubles, so a cluster where few nodes pass
  // takes a few rounds, not one per kNodesPerTask nodes, while one where
  // most pass does not filter far past the to_find-th feasible node.
  int batch = std::max(to_scan_until, kNodesPerTask);
  int stop_at = -1;  // position of the feasible node after the to_find-th
  bool runs_counted = true;  // every run of every round has its counts
  while (done < n && stop_at < 0) {
    const int end = std::min(n, done + batch);
    // Without an error in the round, only the passing flags need reading:
    // the statuses of a failing pass over thousands of nodes stay untouched.
    if (pass.RunRound(done, end)) {
      // A task stopped early: its runs have no counts, so node by node.
      runs_counted = false;
      for (int pos = done; pos < end; ++pos) {
        if (im.node_passed[pos]) {
          if (++found == to_scan_until) {
            stop_at = pos;
            break;
          }
        } else if (im.node_status[pos].IsError()) {
          // Upstream counts the nodes that passed or were rejected; the
          // node whose filter failed is neither, so the next cycle starts
          // there again.
          processed = pos;
          return im.node_status[pos];
        }
      }
    } else {
      for (int pos = done; pos < end; pos += im.run_length[pos]) {
        if (found + im.run_passed[pos] < to_scan_until) {
          found += im.run_passed[pos];
          continue;
        }
        for (int k = pos;; ++k) {
          if (im.node_passed[k] && ++found == to_scan_until) {
            stop_at = k;
            break;
          }
        }
        break;
      }
    }
    done = end;
    batch *= 2;
  }
  const int last = stop_at >= 0 ? stop_at : n;
  if (stop_at >= 0) --found;
  processed = last;
  CollectFilterResults(nodes, start, last, found, runs_counted, diagnosis, feasible, trace);
  return Status();
}

void Framework::Impl::CollectFilterResults(std::span<const NodeInfo* const> nodes, int start, int last, int found,
                                     bool runs_counted, Diagnosis& diagnosis,
                                     std::vector<const NodeInfo*>& feasible, CycleTrace* trace) {
  Impl& im = *this;
  const int n = static_cast<int>(nodes.size());
  // Each node of the pass is distinct: into a diagnosis without explicit
  // statuses they go unindexed (NodeToStatus::SetNew).
  const bool fresh_statuses = diagnosis.node_to_status.size() == 0;
  diagnosis.node_to_status.Reserve(diagnosis.node_to_status.size() + static_cast<size_t>(last - found));
  // Rejections mostly come from one plugin in a row: insert it once per row.
  std::optional<Symbol> last_rejector;
  auto collect = [&](int pos, int at) {
    const NodeInfo* node = nodes[at];
    if (im.node_passed[pos]) {
      feasible.push_back(node);
      if (trace != nullptr) trace->filter.push_back({node->name(), Status()});
      return;
    }
    Status& s = im.node_status[pos];
    if (s.code() == Code::kPending) {
      diagnosis.pending_plugins.insert(s.plugin());
    } else if (last_rejector != s.plugin()) {
      diagnosis.unschedulable_plugins.insert(s.plugin());
      last_rejector = s.plugin();
    }
    if (trace != nullptr) trace->filter.push_back({node->name(), s});
    if (fresh_statuses) {
      diagnosis.node_to_status.SetNew(node->name(), std::move(s));
    } else {
      diagnosis.node_to_status.Set(node->name(), std::move(s));
    }
  };
  if (!runs_counted || trace != nullptr) {
    for (int pos = 0, at = start; pos < last; ++pos, at = at + 1 == n ? 0 : at + 1) collect(pos, at);
    return;
  }
  // A run whose nodes all passed is a stretch of `nodes` (wrapping at the
  // end): copied whole, without a look at each node.
  for (int pos = 0, at = start; pos < last;) {
    const int len = std::min(im.run_length[pos], last - pos);
    if (im.run_passed[pos] == im.run_length[pos]) {
      const int before_wrap = std::min(len, n - at);
      feasible.insert(feasible.end(), nodes.begin() + at, nodes.begin() + at + before_wrap);
      feasible.insert(feasible.end(), nodes.begin(), nodes.begin() + (len - before_wrap));
      pos += len;
      at = before_wrap == len ? at + len : len - before_wrap;
      if (at == n) at = 0;
    } else {
      for (const int run_end = pos + len; pos < run_end; ++pos, at = at + 1 == n ? 0 : at + 1) collect(pos, at);
    }
  }
}

}  // namespace schedkit::framework
