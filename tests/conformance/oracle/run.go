package main

// The scheduling loop and one attempt: ScheduleOne, schedulingCycle,
// bindingCycle, handleBindingCycleError and handleSchedulingFailure of
// pkg/scheduler/schedule_one.go (v1.37), made synchronous, driving upstream's
// real PriorityQueue.

import (
	"context"
	"errors"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/util/feature"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	fwk "k8s.io/kube-scheduler/framework"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"
)

// maxPops guards against a livelock (each pop is one scheduling attempt).
const maxPops = 200000

// schedulingLoop is THE pass/retry policy of the oracle: upstream's queue
// decides everything. Keep the policy in this function.
//
//   - Pending pods are added to the queue (queue.Add, as the informer's add
//     handler does) in input order; the fake clock stands still except for
//     a 1 ns step before every queue operation that stamps a pod (and, with
//     --timeline, a move to each batch's instant before the batch).
//   - The loop pops while Pop would not block: activeQ non-empty, or (with
//     SchedulerPopFromBackoffQ, beta and on since v1.35) the backoffQ proper
//     non-empty. Pods in the error backoff queue and in the unschedulable
//     pool stay there (the latter until an event moves them): the queue's
//     periodic flushes do not run (with --timeline, advanceClock does both
//     flushes' work between batches).
//   - Each popped pod gets one ScheduleOne; its binding cycle runs right
//     after its scheduling cycle, and every API change's informer event is
//     handled (events.go) before the next pop.
func (w *world) schedulingLoop(ctx context.Context) error {
	for _, ps := range w.pods {
		if !ps.pending || w.held[key(ps.pod)] == ps {
			continue
		}
		if !w.responsibleForPod(ps.pod) {
			// The informer's add handler ignores such pods (responsibleForPod);
			// frameworkForPod's text says why.
			ps.message = fmt.Sprintf("profile not found for scheduler name %q", ps.pod.Spec.SchedulerName)
			continue
		}
		w.tick()
		w.queue.Add(w.ctx, ps.pod)
	}
	limit := maxPops + 20*len(w.pods)
	for pops := 0; ; pops++ {
		if w.timeline.due(w.attempts) {
			if _, err := w.applyNextBatch(ctx); err != nil {
				return err
			}
			continue
		}
		if !w.poppable() {
			applied, err := w.applyNextBatch(ctx)
			if err != nil {
				return err
			}
			if !applied {
				return nil
			}
			continue
		}
		if pops >= limit {
			return fmt.Errorf("no end after %d scheduling attempts", pops)
		}
		entity, err := w.queue.Pop(w.logger)
		if err != nil {
			return fmt.Errorf("queue pop: %w", err)
		}
		// GenericWorkload is off: the queue holds pods only.
		qpi, ok := entity.(*framework.QueuedPodInfo)
		if !ok || qpi == nil || qpi.Pod == nil {
			return fmt.Errorf("queue pop returned %T, not a pod", entity)
		}
		if err := w.scheduleOne(ctx, qpi); err != nil {
			return err
		}
	}
}

// poppable reports whether Pop would return without blocking: upstream's
// activeQueue.unlockedPop waits while activeQ is empty and the podBackoffQ
// (not the podErrorBackoffQ, which holds pods whose last attempt had no
// rejecting plugin) is empty. PodsInBackoffQ lists both, so each backoff pod
// is classified by its QueuedPodInfo the way backoffQueue.add did.
func (w *world) poppable() bool {
	if len(w.queue.PodsInActiveQ()) > 0 {
		return true
	}
	for _, p := range w.queue.PodsInBackoffQ() {
		qpi, ok := w.queue.GetPod(p.Name, p.Namespace, p.Spec.SchedulingGroup)
		if ok && (qpi.UnschedulablePlugins.Len() > 0 || qpi.PendingPlugins.Len() > 0) {
			return true
		}
	}
	return false
}

var clearNominatedNode = &fwk.NominatingInfo{NominatingMode: fwk.ModeOverride, NominatedNodeName: ""}

// scheduleOne mirrors Scheduler.ScheduleOne for a popped pod.
func (w *world) scheduleOne(ctx context.Context, podInfo *framework.QueuedPodInfo) error {
	pod := podInfo.Pod
	ps := w.podByUID[pod.UID]
	if ps == nil {
		return fmt.Errorf("popped unknown pod %s", key(pod))
	}
	pf, ok := w.profiles[pod.Spec.SchedulerName]
	if !ok {
		w.queue.Done(pod.UID)
		return nil
	}
	// skipPodSchedule
	if pod.DeletionTimestamp != nil {
		w.fail(ps, fmt.Sprintf("skip schedule deleting pod: %v/%v", pod.Namespace, pod.Name), nil)
		w.queue.Done(pod.UID)
		return nil
	}
	if isAssumed, _ := w.cache.IsAssumedPod(pod); isAssumed {
		w.queue.Done(pod.UID)
		return nil
	}
	ps.attempts++
	w.attempts++
	if w.trace != nil {
		fmt.Fprintf(w.trace, "attempt %d: %s (priority %d, queue attempts %d)\n", ps.attempts, key(pod), corev1helpers.PodPriority(pod), podInfo.Attempts)
	}

	state := framework.NewCycleState()
	state.SetRecordPluginMetrics(false)
	podsToActivate := framework.NewPodsToActivate()
	state.Write(framework.PodsToActivateKey, podsToActivate)
	cycleCtx, cancel := context.WithCancel(ctx)
	defer cancel()

	tr := newCycleTrace()
	host, assumedPodInfo, nominatingInfo, status, err := w.schedulingCycle(cycleCtx, pf, state, ps, podInfo, podsToActivate, tr)
	if err != nil {
		return err
	}
	if !status.IsSuccess() {
		return w.handleSchedulingFailure(cycleCtx, pf, ps, assumedPodInfo, status, nominatingInfo, tr)
	}
	return w.bindingCycle(ctx, pf, state, ps, host, assumedPodInfo, podsToActivate, tr)
}

// schedulingCycle mirrors Scheduler.schedulingCycle. With async preemption
// it also waits for the preemption goroutine and handles the informer events
// of its API calls before returning: the victims are gone (and the pod's
// in-flight events recorded) before the failure is handled.
func (w *world) schedulingCycle(ctx context.Context, pf *profileFW, state fwk.CycleState, ps *podState,
	podInfo *framework.QueuedPodInfo, podsToActivate *framework.PodsToActivate, tr *cycleTrace,
) (string, *framework.QueuedPodInfo, *fwk.NominatingInfo, *fwk.Status, error) {
	pod := podInfo.Pod
	result, err := w.schedulePod(ctx, pf, state, podInfo, tr)
	if err != nil {
		if errors.Is(err, scheduler.ErrNoNodesAvailable) {
			return "", podInfo, clearNominatedNode, fwk.NewStatus(fwk.UnschedulableAndUnresolvable).WithError(err), nil
		}
		var fitError *framework.FitError
		if !errors.As(err, &fitError) {
			// A plugin's Error stopped the cycle: which nodes upstream's
			// parallel filter had evaluated by then is not defined, so
			// --explain reports none (as schedkit-sim does).
			if tr != nil {
				*tr = *newCycleTrace()
			}
			return "", podInfo, clearNominatedNode, fwk.AsStatus(err), nil
		}
		if !pf.fw.HasPostFilterPlugins() {
			return "", podInfo, clearNominatedNode, fwk.NewStatus(fwk.Unschedulable).WithError(err), nil
		}
		w.evMu.Lock()
		w.deletes = nil
		w.evMu.Unlock()
		res, status := pf.fw.RunPostFilterPlugins(ctx, state, pod, fitError.Diagnosis.NodeToStatus)
		fitError.Diagnosis.PostFilterMsg = status.Message()
		var nominatingInfo *fwk.NominatingInfo
		if res != nil {
			nominatingInfo = res.NominatingInfo
		}
		if err := w.finishPreemption(ps, pf); err != nil {
			return "", nil, nil, nil, err
		}
		return "", podInfo, nominatingInfo, fwk.NewStatus(fwk.Unschedulable).WithError(err), nil
	}

	// assume
	assumedPodInfo := podInfo.DeepCopy()
	assumedPod := assumedPodInfo.Pod
	assumedPod.Spec.NodeName = result.suggestedHost
	if err := w.cache.AssumePod(w.logger, assumedPod); err != nil {
		return "", assumedPodInfo, clearNominatedNode, fwk.AsStatus(err), nil
	}
	w.queue.DeleteNominatedPodIfExists(assumedPod)

	rejected := func(sts *fwk.Status) *fwk.Status {
		pf.fw.RunReservePluginsUnreserve(ctx, state, assumedPod, result.suggestedHost)
		_ = w.cache.ForgetPod(w.logger, assumedPod)
		if sts.IsRejected() {
			fitErr := &framework.FitError{
				NumAllNodes: 1,
				Pod:         pod,
				Diagnosis:   framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()},
			}
			fitErr.Diagnosis.NodeToStatus.Set(result.suggestedHost, sts)
			fitErr.Diagnosis.AddPluginStatus(sts)
			return fwk.NewStatus(sts.Code()).WithError(fitErr)
		}
		return sts
	}
	if sts := pf.fw.RunReservePluginsReserve(ctx, state, assumedPod, result.suggestedHost); !sts.IsSuccess() {
		return "", assumedPodInfo, clearNominatedNode, rejected(sts), nil
	}
	waitTime, sts := pf.fw.RunPermitPlugins(ctx, state, assumedPod, result.suggestedHost)
	if sts.IsWait() {
		pf.fw.AddWaitingPod(assumedPod, waitTime)
	} else if !sts.IsSuccess() {
		return "", assumedPodInfo, clearNominatedNode, rejected(sts), nil
	}
	if len(podsToActivate.Map) != 0 {
		w.queue.Activate(w.logger, podsToActivate.Map)
		podsToActivate.Map = make(map[string]*v1.Pod)
	}
	return result.suggestedHost, assumedPodInfo, nil, nil, nil
}

// finishPreemption waits for DefaultPreemption's asynchronous preparation
// (clearing lower-priority nominations, patching and deleting the victims)
// to have made all its API calls — IsPodRunningPreemption turns false once
// the last victim is gone from the pod informer, and the goroutine makes no
// API call after that — then handles the informer events and records the
// victims.
func (w *world) finishPreemption(preemptor *podState, pf *profileFW) error {
	if pf.preemption != nil {
		deadline := time.Now().Add(60 * time.Second)
		for pf.preemption.Executor.IsPodRunningPreemption(preemptor.pod.UID) {
			if time.Now().After(deadline) {
				return fmt.Errorf("preemption for %s did not finish", key(preemptor.pod))
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	if err := w.sync(); err != nil {
		return err
	}
	w.evMu.Lock()
	deleted := append([]types.NamespacedName(nil), w.deletes...)
	w.deletes = nil
	w.evMu.Unlock()
	for _, nn := range deleted {
		var victim *podState
		for _, ps := range w.pods {
			if ps.pod.Namespace == nn.Namespace && ps.pod.Name == nn.Name {
				victim = ps
				break
			}
		}
		if victim == nil {
			continue
		}
		preemptor.victims = append(preemptor.victims, nn.Namespace+"/"+nn.Name)
		if victim.pending {
			victim.status = "Preempted"
			victim.node = ""
			victim.message = fmt.Sprintf("%s: preempting to accommodate a higher priority pod", preemptor.pod.Spec.SchedulerName)
		}
	}
	return nil
}

// bindingCycle mirrors Scheduler.bindingCycle, run right after the
// scheduling cycle, followed by the informer events of the binding.
func (w *world) bindingCycle(ctx context.Context, pf *profileFW, state fwk.CycleState, ps *podState, host string,
	assumedPodInfo *framework.QueuedPodInfo, podsToActivate *framework.PodsToActivate, tr *cycleTrace,
) error {
	assumedPod := assumedPodInfo.Pod
	if feature.DefaultFeatureGate.Enabled(features.NominatedNodeNameForExpectation) {
		preFlightStatus := pf.fw.RunPreBindPreFlights(ctx, state, assumedPod, host)
		if preFlightStatus.Code() == fwk.Error || preFlightStatus.IsRejected() {
			return w.handleBindingCycleError(ctx, pf, state, ps, assumedPodInfo, host, preFlightStatus, tr)
		}
		if preFlightStatus.IsSuccess() || pf.fw.WillWaitOnPermit(ctx, assumedPod) {
			if err := w.updatePodStatus(ctx, assumedPod, nil, &fwk.NominatingInfo{NominatedNodeName: host, NominatingMode: fwk.ModeOverride}); err != nil {
				return err
			}
		}
	}
	if status := pf.fw.WaitOnPermit(ctx, assumedPod); !status.IsSuccess() {
		if status.IsRejected() {
			fitErr := &framework.FitError{
				NumAllNodes: 1,
				Pod:         assumedPodInfo.Pod,
				Diagnosis: framework.Diagnosis{
					NodeToStatus:         framework.NewDefaultNodeToStatus(),
					UnschedulablePlugins: sets.New(status.Plugin()),
				},
			}
			fitErr.Diagnosis.NodeToStatus.Set(host, status)
			status = fwk.NewStatus(status.Code()).WithError(fitErr)
		}
		return w.handleBindingCycleError(ctx, pf, state, ps, assumedPodInfo, host, status, tr)
	}
	w.queue.Done(assumedPod.UID)
	if status := pf.fw.RunPreBindPlugins(ctx, state, assumedPod, host); !status.IsSuccess() {
		return w.handleBindingCycleError(ctx, pf, state, ps, assumedPodInfo, host, status, tr)
	}
	// bind (no extenders) + finishBinding
	status := pf.fw.RunBindPlugins(ctx, state, assumedPod, host)
	if !status.IsSuccess() {
		return w.handleBindingCycleError(ctx, pf, state, ps, assumedPodInfo, host, status, tr)
	}
	ps.status = "Scheduled"
	ps.node = host
	if w.trace != nil {
		fmt.Fprintf(w.trace, "  -> bound to %s\n", host)
	}
	ps.message = ""
	if w.explain {
		ps.explain = &explainRecord{Filter: w.filterExplain(tr), Scores: tr.scores}
	}
	pf.fw.RunPostBindPlugins(ctx, state, assumedPod, host)
	if len(podsToActivate.Map) != 0 {
		w.queue.Activate(w.logger, podsToActivate.Map)
	}
	// The informer's update event (unassigned -> assigned) confirms the pod
	// in the cache and delivers AssignedPodAdd to the queue.
	return w.sync()
}

// handleBindingCycleError mirrors Scheduler.handleBindingCycleError.
func (w *world) handleBindingCycleError(ctx context.Context, pf *profileFW, state fwk.CycleState, ps *podState,
	podInfo *framework.QueuedPodInfo, host string, status *fwk.Status, tr *cycleTrace,
) error {
	assumedPod := podInfo.Pod
	pf.fw.RunReservePluginsUnreserve(ctx, state, assumedPod, host)
	var deferred func()
	if err := w.cache.ForgetPod(w.logger, assumedPod); err == nil {
		if status.IsRejected() {
			deferred = func() {
				w.queue.MoveAllToActiveOrBackoffQueue(w.logger, framework.EventAssignedPodDelete, assumedPod, nil, func(pod *v1.Pod) bool {
					return assumedPod.UID != pod.UID
				})
			}
		} else {
			w.queue.MoveAllToActiveOrBackoffQueue(w.logger, framework.EventAssignedPodDelete, assumedPod, nil, nil)
		}
	}
	err := w.handleSchedulingFailure(ctx, pf, ps, podInfo, status, clearNominatedNode, tr)
	if deferred != nil {
		deferred()
	}
	return err
}

// handleSchedulingFailure mirrors Scheduler.handleSchedulingFailure, then
// handles the informer event of its status patch. It also records the
// attempt's outcome.
func (w *world) handleSchedulingFailure(ctx context.Context, pf *profileFW, ps *podState, podInfo *framework.QueuedPodInfo,
	status *fwk.Status, nominatingInfo *fwk.NominatingInfo, tr *cycleTrace,
) error {
	podInfo = podInfo.DeepCopy()
	calledDone := false
	defer func() {
		if !calledDone {
			w.queue.Done(podInfo.Pod.UID)
		}
	}()
	reason := v1.PodReasonSchedulerError
	if status.IsRejected() {
		reason = v1.PodReasonUnschedulable
	}
	pod := podInfo.Pod
	err := status.AsError()
	errMsg := status.Message()
	podInfo.ClearRejectorPlugins()
	var fitError *framework.FitError
	if err != scheduler.ErrNoNodesAvailable && errors.As(err, &fitError) {
		podInfo.UnschedulablePlugins = fitError.Diagnosis.UnschedulablePlugins
		podInfo.PendingPlugins = fitError.Diagnosis.PendingPlugins
	}
	w.fail(ps, errMsg, tr)
	if w.trace != nil {
		fmt.Fprintf(w.trace, "  -> failed: %s (rejectors %v, pending %v, nominating %v, victims so far %v)\n", errMsg,
			sets.List(podInfo.UnschedulablePlugins), sets.List(podInfo.PendingPlugins), nominatingInfo, ps.victims)
	}

	if cachedPod := w.getPodFromInformer(pod.Namespace, pod.Name); cachedPod != nil && len(cachedPod.Spec.NodeName) == 0 {
		if cachedPod.UID != podInfo.Pod.UID {
			return nil
		}
		podInfo.PodInfo, _ = framework.NewPodInfo(cachedPod.DeepCopy())
		w.tick()
		_ = w.queue.AddUnschedulablePodIfNotPresent(w.logger, podInfo, w.queue.SchedulingCycle())
		calledDone = true
	}
	w.queue.AddNominatedPod(w.logger, podInfo.PodInfo, nominatingInfo)
	if err == nil {
		return nil
	}
	return w.updatePodStatus(ctx, pod, &v1.PodCondition{
		Type:               v1.PodScheduled,
		ObservedGeneration: podutil.CalculatePodConditionObservedGeneration(&pod.Status, pod.Generation, v1.PodScheduled),
		Status:             v1.ConditionFalse,
		Reason:             reason,
		Message:            errMsg,
	}, nominatingInfo)
}

// updatePodStatus mirrors the unexported updatePod of schedule_one.go
// (without an API cacher: SchedulerAsyncAPICalls is off in v1.37), then
// handles the informer event of the patch.
func (w *world) updatePodStatus(ctx context.Context, pod *v1.Pod, condition *v1.PodCondition, nominatingInfo *fwk.NominatingInfo) error {
	podStatusCopy := pod.Status.DeepCopy()
	nnnNeedsUpdate := nominatingInfo.Mode() == fwk.ModeOverride && pod.Status.NominatedNodeName != nominatingInfo.NominatedNodeName
	podConditionNeedsUpdate := condition != nil && podutil.UpdatePodCondition(podStatusCopy, condition)
	if !podConditionNeedsUpdate && !nnnNeedsUpdate {
		return nil
	}
	if nnnNeedsUpdate {
		podStatusCopy.NominatedNodeName = nominatingInfo.NominatedNodeName
	}
	if err := schedutil.PatchPodStatus(ctx, w.cs, pod.Name, pod.Namespace, &pod.Status, podStatusCopy); err != nil {
		return fmt.Errorf("patching status of %s: %w", key(pod), err)
	}
	return w.sync()
}

// fail records an unschedulable outcome.
func (w *world) fail(ps *podState, msg string, tr *cycleTrace) {
	ps.status = "Unschedulable"
	ps.node = ""
	ps.message = msg
	if w.explain {
		rec := &explainRecord{Filter: map[string]filterEntry{}, Scores: map[string]scoreEntry{}}
		if tr != nil {
			rec.Filter = w.filterExplain(tr)
			rec.Scores = tr.scores
		}
		ps.explain = rec
	}
}
