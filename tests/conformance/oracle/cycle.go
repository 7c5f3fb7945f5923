package main

// One scheduling cycle, reproducing pkg/scheduler/schedule_one.go (v1.37):
// schedulePod -> findNodesThatFitPod (PreFilter, GetNodeHint, nominated- or
// hinted-node fast path, PreFilterResult, findNodesThatPassFilters) ->
// prioritizeNodes -> pop of the SortedScoredNodes heap ->
// StoreScheduleResults, then assume + Reserve + Permit. The upstream
// functions are unexported methods of Scheduler, so their bodies are
// mirrored here line by line and every plugin call goes through the real
// framework runtime. Differences:
//   - filtering runs sequentially (upstream: parallelism 1 gives the same
//     order and the same early stop), except with --throughput; the order
//     matters beyond the early stop, as the feasible list is the heap's input;
//   - OpportunisticBatching (gate on by default) is upstream's own code, fed
//     the same cycle counts; a hint is offered only when every PreFilter,
//     Filter, PreScore and Score plugin signed the pod (the default
//     profile's PodTopologySpread does not, for its system default
//     constraints). Its state expires after 500ms of wall-clock time, so
//     whether a cycle is hinted depends on speed, and a hinted cycle
//     evaluates only the hinted node (--explain's filter map shows just it)
//     and leaves nextStartNodeIndex where it was;
//   - no extenders (rejected at config load);
//   - ties in the heap: upstream leaves Randomizer 0 without extenders, the
//     oracle sets it (setRandomizers) for --tie-break name or uniform random.

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"sync"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/util/feature"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

const (
	minFeasibleNodesToFind           = 100
	minFeasibleNodesPercentageToFind = 5
)

// explainRecord is what --explain prints for one cycle.
type explainRecord struct {
	Filter map[string]filterEntry `json:"filter"`
	Scores map[string]scoreEntry  `json:"scores"`
}

type filterEntry struct {
	Code    string   `json:"code"`
	Plugin  string   `json:"plugin"`
	Reasons []string `json:"reasons"`
}

type pluginScore struct {
	Score      int64 `json:"score"`
	Normalized int64 `json:"normalized"`
	Weight     int64 `json:"weight"`
}

type scoreEntry struct {
	Plugins map[string]pluginScore `json:"plugins"`
	Total   int64                  `json:"total"`
}

// cycleTrace collects what happened in one cycle, for --explain.
type cycleTrace struct {
	evaluated map[string]*fwk.Status // nodes whose filters ran (nil = Success)
	// absent is the status upstream gives nodes that were not evaluated
	// because PreFilter rejected the pod (all nodes) or because they are
	// outside the PreFilterResult (absentNodes lists those).
	absent      *fwk.Status
	absentNodes sets.Set[string] // nil: all nodes not evaluated
	scores      map[string]scoreEntry
}

func newCycleTrace() *cycleTrace {
	return &cycleTrace{evaluated: map[string]*fwk.Status{}, scores: map[string]scoreEntry{}}
}

// scheduleResult mirrors upstream's ScheduleResult.
type scheduleResult struct {
	suggestedHost  string
	evaluatedNodes int
	feasibleNodes  int
}

// schedulePod mirrors Scheduler.schedulePod.
func (w *world) schedulePod(ctx context.Context, pf *profileFW, state fwk.CycleState, podInfo *framework.QueuedPodInfo, tr *cycleTrace) (scheduleResult, error) {
	var result scheduleResult
	pod := podInfo.Pod
	if err := w.cache.UpdateSnapshot(w.logger, w.snapshot); err != nil {
		return result, err
	}
	if w.snapshot.NumNodesInPlacement() == 0 {
		return result, scheduler.ErrNoNodesAvailable
	}
	feasibleNodes, diagnosis, nodeHint, err := w.findNodesThatFitPod(ctx, pf, state, podInfo, tr)
	if err != nil {
		return result, err
	}
	if len(feasibleNodes) == 0 {
		return result, &framework.FitError{
			Pod:         pod,
			NumAllNodes: w.snapshot.NumNodesInPlacement(),
			Diagnosis:   diagnosis,
		}
	}
	// When only one node after predicate, just use it.
	if len(feasibleNodes) == 1 {
		node := feasibleNodes[0].Node().Name
		if feature.DefaultFeatureGate.Enabled(features.OpportunisticBatching) {
			pf.fw.StoreScheduleResults(ctx, podInfo.PodSignature, nodeHint, node, nil, w.queue.SchedulingCycle())
		}
		return scheduleResult{
			suggestedHost:  node,
			evaluatedNodes: 1 + diagnosis.NodeToStatus.Len(),
			feasibleNodes:  1,
		}, nil
	}
	priorityList, err := w.prioritizeNodes(ctx, pf, state, pod, feasibleNodes, tr)
	if err != nil {
		return result, err
	}
	sortedPrioritizedNodes := framework.NewSortedScoredNodes(priorityList)
	node := sortedPrioritizedNodes.Pop().Name
	if feature.DefaultFeatureGate.Enabled(features.OpportunisticBatching) {
		pf.fw.StoreScheduleResults(ctx, podInfo.PodSignature, nodeHint, node, sortedPrioritizedNodes, w.queue.SchedulingCycle())
	}
	return scheduleResult{
		suggestedHost:  node,
		evaluatedNodes: len(feasibleNodes) + diagnosis.NodeToStatus.Len(),
		feasibleNodes:  len(feasibleNodes),
	}, err
}

// findNodesThatFitPod mirrors Scheduler.findNodesThatFitPod.
func (w *world) findNodesThatFitPod(ctx context.Context, pf *profileFW, state fwk.CycleState, podInfo *framework.QueuedPodInfo, tr *cycleTrace) ([]fwk.NodeInfo, framework.Diagnosis, string, error) {
	diagnosis := framework.Diagnosis{
		NodeToStatus: framework.NewDefaultNodeToStatus(),
	}
	allNodes, err := w.snapshot.NodeInfos().List()
	if err != nil {
		return nil, diagnosis, "", err
	}
	// Run "prefilter" plugins.
	pod := podInfo.Pod
	preRes, s, unscheduledPlugins := pf.fw.RunPreFilterPlugins(ctx, state, pod)
	diagnosis.UnschedulablePlugins = unscheduledPlugins
	if !s.IsSuccess() {
		if !s.IsRejected() {
			return nil, diagnosis, "", s.AsError()
		}
		// All nodes in NodeToStatus will have the same status so that they can be handled in the preemption.
		diagnosis.NodeToStatus.SetAbsentNodesStatus(s)
		diagnosis.PreFilterMsg = s.Message()
		diagnosis.AddPluginStatus(s)
		tr.absent = s
		return nil, diagnosis, "", nil
	}

	var nodeHint string
	if feature.DefaultFeatureGate.Enabled(features.OpportunisticBatching) {
		nodeHint = pf.fw.GetNodeHint(ctx, pod, podInfo.PodSignature, state, w.queue.SchedulingCycle())
	}

	// "NominatedNodeName" can potentially be set in a previous scheduling cycle as a result of preemption.
	// This node is likely the only candidate that will fit the pod, and hence we try it first before iterating over all nodes.
	// The batch's hinted node gets the same treatment.
	if len(pod.Status.NominatedNodeName) > 0 || len(nodeHint) > 0 {
		feasibleNodes, err := w.evaluateNominatedNode(ctx, pf, state, pod, nodeHint, diagnosis, tr)
		if err != nil {
			w.logger.V(2).Info("Evaluation failed on nominated node", "pod", key(pod), "node", pod.Status.NominatedNodeName, "err", err)
		}
		// Nominated node passes all the filters, scheduler is good to assign this node to the pod.
		if len(feasibleNodes) != 0 {
			return feasibleNodes, diagnosis, nodeHint, nil
		}
	}

	nodes := allNodes
	if !preRes.AllNodes() {
		nodes = make([]fwk.NodeInfo, 0, len(preRes.NodeNames))
		for nodeName := range preRes.NodeNames {
			// PreRes may return nodeName(s) which do not exist; we verify
			// node exists in the Snapshot.
			if nodeInfo, err := w.snapshot.Get(nodeName); err == nil {
				nodes = append(nodes, nodeInfo)
			}
		}
		diagnosis.NodeToStatus.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable, fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sets.List(unscheduledPlugins))))
		tr.absent = diagnosis.NodeToStatus.AbsentNodesStatus()
		tr.absentNodes = sets.New[string]()
		for _, ni := range allNodes {
			if !preRes.NodeNames.Has(ni.Node().Name) {
				tr.absentNodes.Insert(ni.Node().Name)
			}
		}
	}
	feasibleNodes, err := w.findNodesThatPassFilters(ctx, pf, state, pod, &diagnosis, nodes, tr)
	// always try to update the nextStartNodeIndex regardless of whether an error has occurred
	processedNodes := len(feasibleNodes) + diagnosis.NodeToStatus.Len()
	w.nextStartNodeIndex = (w.nextStartNodeIndex + processedNodes) % len(allNodes)
	if err != nil {
		return nil, diagnosis, nodeHint, err
	}
	return feasibleNodes, diagnosis, nodeHint, nil
}

// evaluateNominatedNode mirrors Scheduler.evaluateNominatedNode (no
// extenders): the nominated node if the pod has one, else the batch's hint.
func (w *world) evaluateNominatedNode(ctx context.Context, pf *profileFW, state fwk.CycleState, pod *v1.Pod, nodeHint string, diagnosis framework.Diagnosis, tr *cycleTrace) ([]fwk.NodeInfo, error) {
	nnn := pod.Status.NominatedNodeName
	if len(nnn) == 0 {
		nnn = nodeHint
	}
	nodeInfo, err := w.snapshot.Get(nnn)
	if err != nil {
		return nil, err
	}
	return w.findNodesThatPassFilters(ctx, pf, state, pod, &diagnosis, []fwk.NodeInfo{nodeInfo}, tr)
}

// findNodesThatPassFilters mirrors Scheduler.findNodesThatPassFilters with
// one worker: nodes are checked in order starting at nextStartNodeIndex, and
// the scan stops when more than numNodesToFind feasible nodes were found
// (the extra one is dropped, as upstream's atomic counter does).
func (w *world) findNodesThatPassFilters(ctx context.Context, pf *profileFW, state fwk.CycleState, pod *v1.Pod, diagnosis *framework.Diagnosis, nodes []fwk.NodeInfo, tr *cycleTrace) ([]fwk.NodeInfo, error) {
	numAllNodes := len(nodes)
	numNodesToFind := w.numFeasibleNodesToFind(pf.fw.PercentageOfNodesToScore(), int32(numAllNodes))
	if !pf.fw.HasScorePlugins() { // no extenders in the oracle
		numNodesToFind = 1
	}
	if !pf.fw.HasFilterPlugins() {
		feasible := make([]fwk.NodeInfo, numNodesToFind)
		for i := range feasible {
			feasible[i] = nodes[(w.nextStartNodeIndex+i)%numAllNodes]
			tr.evaluated[feasible[i].Node().Name] = nil
		}
		return feasible, nil
	}

	if w.parallelFilter {
		return w.filterInParallel(ctx, pf, state, pod, diagnosis, nodes, numNodesToFind)
	}

	type nodeStatus struct {
		node   string
		status *fwk.Status
	}
	var feasible []fwk.NodeInfo
	var failed []nodeStatus
	var filterErr error
	for i := 0; i < numAllNodes; i++ {
		nodeInfo := nodes[(w.nextStartNodeIndex+i)%numAllNodes]
		status := pf.fw.RunFilterPluginsWithNominatedPods(ctx, state, pod, nodeInfo)
		if status.Code() == fwk.Error {
			filterErr = status.AsError()
			break
		}
		if status.IsSuccess() {
			if int32(len(feasible)+1) > numNodesToFind {
				break // "findNodesThatPassFilters has found enough nodes"
			}
			feasible = append(feasible, nodeInfo)
			tr.evaluated[nodeInfo.Node().Name] = nil
		} else {
			failed = append(failed, nodeStatus{node: nodeInfo.Node().Name, status: status})
			tr.evaluated[nodeInfo.Node().Name] = status
		}
	}
	for _, item := range failed {
		diagnosis.NodeToStatus.Set(item.node, item.status)
		diagnosis.AddPluginStatus(item.status)
	}
	if filterErr != nil {
		return feasible, filterErr
	}
	return feasible, nil
}

// filterInParallel is findNodesThatPassFilters as upstream runs it, on the
// framework's parallelizer: the scan stops once more than numNodesToFind
// nodes passed, so which nodes are evaluated depends on thread timing. Only
// --throughput uses it; nothing is traced.
func (w *world) filterInParallel(ctx context.Context, pf *profileFW, state fwk.CycleState, pod *v1.Pod, diagnosis *framework.Diagnosis, nodes []fwk.NodeInfo, numNodesToFind int32) ([]fwk.NodeInfo, error) {
	numAllNodes := len(nodes)
	feasible := make([]fwk.NodeInfo, numNodesToFind)
	statuses := make([]*fwk.Status, numAllNodes)
	var found atomic.Int32
	var filterErr error
	var errOnce sync.Once
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	check := func(i int) {
		nodeInfo := nodes[(w.nextStartNodeIndex+i)%numAllNodes]
		status := pf.fw.RunFilterPluginsWithNominatedPods(ctx, state, pod, nodeInfo)
		switch {
		case status.Code() == fwk.Error:
			errOnce.Do(func() { filterErr = status.AsError(); cancel() })
		case status.IsSuccess():
			// Claim a slot; the claim past the last one stops the scan.
			if n := found.Add(1); n > numNodesToFind {
				cancel()
				found.Add(-1)
			} else {
				feasible[n-1] = nodeInfo
			}
		default:
			statuses[i] = status
		}
	}
	pf.fw.Parallelizer().Until(ctx, numAllNodes, check, "Filter")
	for i, status := range statuses {
		if status != nil {
			diagnosis.NodeToStatus.Set(nodes[(w.nextStartNodeIndex+i)%numAllNodes].Node().Name, status)
			diagnosis.AddPluginStatus(status)
		}
	}
	return feasible[:found.Load()], filterErr
}

// numFeasibleNodesToFind mirrors Scheduler.numFeasibleNodesToFind.
func (w *world) numFeasibleNodesToFind(percentageOfNodesToScore *int32, numAllNodes int32) int32 {
	if numAllNodes < minFeasibleNodesToFind {
		return numAllNodes
	}
	var percentage int32
	if percentageOfNodesToScore != nil {
		percentage = *percentageOfNodesToScore
	} else if w.cfg.PercentageOfNodesToScore != nil {
		percentage = *w.cfg.PercentageOfNodesToScore
	}
	if percentage == 0 {
		percentage = int32(50) - numAllNodes/125
		if percentage < minFeasibleNodesPercentageToFind {
			percentage = minFeasibleNodesPercentageToFind
		}
	}
	numNodes := numAllNodes * percentage / 100
	if numNodes < minFeasibleNodesToFind {
		return minFeasibleNodesToFind
	}
	return numNodes
}

// prioritizeNodes mirrors prioritizeNodes (no extenders). With --explain it
// also records each plugin's raw Score() and NormalizeScore() result, by
// calling the same plugin instances again on the same CycleState, and checks
// that they reproduce the weighted scores RunScorePlugins returned.
func (w *world) prioritizeNodes(ctx context.Context, pf *profileFW, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo, tr *cycleTrace) ([]fwk.NodePluginScores, error) {
	if !pf.fw.HasScorePlugins() {
		result := make([]fwk.NodePluginScores, 0, len(nodes))
		for i := range nodes {
			result = append(result, fwk.NodePluginScores{Name: nodes[i].Node().Name, TotalScore: 1})
			tr.scores[nodes[i].Node().Name] = scoreEntry{Plugins: map[string]pluginScore{}, Total: 1}
		}
		w.setRandomizers(result)
		return result, nil
	}
	preScoreStatus := pf.fw.RunPreScorePlugins(ctx, state, pod, nodes)
	if !preScoreStatus.IsSuccess() {
		return nil, preScoreStatus.AsError()
	}
	nodesScores, scoreStatus := pf.fw.RunScorePlugins(ctx, state, pod, nodes)
	if !scoreStatus.IsSuccess() {
		return nil, scoreStatus.AsError()
	}
	if w.explain {
		if err := w.explainScores(ctx, pf, state, pod, nodes, nodesScores, tr); err != nil {
			return nil, err
		}
	}
	w.setRandomizers(nodesScores)
	return nodesScores, nil
}

// setRandomizers fills the Randomizer that orders equal TotalScores in
// upstream's SortedScoredNodes heap. Upstream sets it (rand.Int) only for
// nodes an extender scored and leaves it 0 otherwise, so ties go to whatever
// the heap's layout of the feasible list puts first. The oracle instead
// makes ties explicit: with --tie-break name the lowest name gets the
// largest value (all >= 1, above the 0 of a node the batch re-adds after
// rescoring), else a random one, i.e. uniform among the top scores.
func (w *world) setRandomizers(list []fwk.NodePluginScores) {
	if !w.tieBreak {
		for i := range list {
			list[i].Randomizer = rand.Int()
		}
		return
	}
	names := make([]string, len(list))
	for i := range list {
		names[i] = list[i].Name
	}
	slices.Sort(names)
	for i := range list {
		rank, _ := slices.BinarySearch(names, list[i].Name)
		list[i].Randomizer = len(list) - rank
	}
}

func (w *world) explainScores(ctx context.Context, pf *profileFW, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo, nodesScores []fwk.NodePluginScores, tr *cycleTrace) error {
	for i := range nodes {
		tr.scores[nodes[i].Node().Name] = scoreEntry{Plugins: map[string]pluginScore{}, Total: nodesScores[i].TotalScore}
	}
	skip := state.GetSkipScorePlugins()
	for _, pc := range pf.scoreCfg {
		if skip.Has(pc.Name) {
			continue
		}
		pl, ok := pf.plugins[pc.Name].(fwk.ScorePlugin)
		if !ok {
			return fmt.Errorf("explain: score plugin %s not captured", pc.Name)
		}
		raw := make(fwk.NodeScoreList, len(nodes))
		for i, ni := range nodes {
			s, st := pl.Score(ctx, state, pod, ni)
			if !st.IsSuccess() {
				return fmt.Errorf("explain: re-running Score of %s: %w", pc.Name, st.AsError())
			}
			raw[i] = fwk.NodeScore{Name: ni.Node().Name, Score: s}
		}
		norm := append(fwk.NodeScoreList(nil), raw...)
		if ext := pl.ScoreExtensions(); ext != nil {
			if st := ext.NormalizeScore(ctx, state, pod, norm); !st.IsSuccess() {
				return fmt.Errorf("explain: re-running NormalizeScore of %s: %w", pc.Name, st.AsError())
			}
		}
		for i := range nodes {
			weighted := int64(-1)
			for _, ps := range nodesScores[i].Scores {
				if ps.Name == pc.Name {
					weighted = ps.Score
				}
			}
			if weighted != norm[i].Score*int64(pc.Weight) {
				return fmt.Errorf("explain: plugin %s on node %s: re-run gives %d*%d, RunScorePlugins gave %d", pc.Name, raw[i].Name, norm[i].Score, pc.Weight, weighted)
			}
			tr.scores[raw[i].Name].Plugins[pc.Name] = pluginScore{Score: raw[i].Score, Normalized: norm[i].Score, Weight: int64(pc.Weight)}
		}
	}
	return nil
}

// filterExplain turns the trace of a cycle into the --explain "filter" map,
// one entry per snapshot node that upstream gave a status. Nodes that were
// never evaluated (the nominated-node fast path succeeded, or the scan
// stopped early) are left out.
func (w *world) filterExplain(tr *cycleTrace) map[string]filterEntry {
	out := map[string]filterEntry{}
	all, _ := w.snapshot.NodeInfos().List()
	for _, ni := range all {
		name := ni.Node().Name
		st, ok := tr.evaluated[name]
		if !ok {
			if tr.absent == nil || (tr.absentNodes != nil && !tr.absentNodes.Has(name)) {
				continue
			}
			st = tr.absent
		}
		if st.IsSuccess() { // nil is Success
			out[name] = filterEntry{Code: fwk.Success.String(), Plugin: "", Reasons: []string{}}
			continue
		}
		reasons := st.Reasons()
		if reasons == nil {
			reasons = []string{}
		}
		out[name] = filterEntry{Code: st.Code().String(), Plugin: st.Plugin(), Reasons: reasons}
	}
	return out
}
