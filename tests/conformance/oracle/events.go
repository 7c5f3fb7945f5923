package main

// Informer events: what kube-scheduler's informer event handlers do
// (pkg/scheduler/eventhandlers.go, v1.37), made synchronous.
//
// The pod informer is replaced by syncPodInformer, whose store the oracle
// updates in the fake API server's reactor chain, at the moment a write
// succeeds: listers (the queue's nominator, DefaultPreemption, the failure
// handler) see every write at once, and the write's notification is
// recorded. The PersistentVolume and PersistentVolumeClaim writes of the
// volume binder and of the emulated PV controller (pvcontroller.go) are
// recorded in the same list. sync() then runs the handlers' logic on the
// recorded notifications, in write order, on the scheduling goroutine.
// Other informers (nodes, namespaces, PDBs, ...) are ordinary ones over
// objects that never change during a run; the real PV and PVC informers
// (read by the volume binder's caches and the volume plugins' listers) get
// the storage writes through the fake API server's watch, on their own.
// ResourceClaim writes take another path (dra.go): a synchronous claim
// informer, whose handlers (the claim assume cache, then the scheduler's
// ResourceClaim handler) run inside the write, as the assume cache's own
// events do upstream.

import (
	"context"
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
	toolscache "k8s.io/client-go/tools/cache"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	fwk "k8s.io/kube-scheduler/framework"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

type eventKind int

const (
	podUpdate eventKind = iota
	podDelete
	storageAdd    // a PersistentVolume or PersistentVolumeClaim created
	storageUpdate // ... or updated
)

// apiEvent is one recorded informer notification.
type apiEvent struct {
	kind     eventKind
	old, new *v1.Pod // pod events; delete: old only
	// Storage events: the resource and the objects before and after the
	// write (oldObj nil for an add).
	resource       fwk.EventResource
	oldObj, newObj runtime.Object
}

// syncPodInformer is a pod SharedIndexInformer that never lists or watches:
// its store holds exactly what the oracle puts there.
type syncPodInformer struct {
	toolscache.SharedIndexInformer
}

func newSyncPodInformer() *syncPodInformer {
	return &syncPodInformer{toolscache.NewSharedIndexInformer(&toolscache.ListWatch{}, &v1.Pod{}, 0, toolscache.Indexers{})}
}

func (s *syncPodInformer) Run(stop <-chan struct{})                 { <-stop }
func (s *syncPodInformer) RunWithContext(ctx context.Context)       { <-ctx.Done() }
func (s *syncPodInformer) HasSynced() bool                          { return true }
func (s *syncPodInformer) HasSyncedChecker() toolscache.DoneChecker { return syncedChecker{} }

// syncedChecker is a DoneChecker that is done from the start.
type syncedChecker struct{}

var closedChannel = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (syncedChecker) Name() string          { return "oracle pod store" }
func (syncedChecker) Done() <-chan struct{} { return closedChannel }

// trimPod drops managedFields, as the scheduler's pod informer transform does.
func trimPod(p *v1.Pod) *v1.Pod {
	p = p.DeepCopy()
	p.ManagedFields = nil
	return p
}

// podWriteReactor performs pod writes (update, patch, delete and the
// binding subresource) on the tracker itself, then updates the pod store
// and records the notification the pod informer would deliver.
func (w *world) podWriteReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	verb, sub := action.GetVerb(), action.GetSubresource()
	var ns, name string
	switch {
	case verb == "create" && sub == "binding":
		b, ok := action.(clienttesting.CreateAction).GetObject().(*v1.Binding)
		if !ok {
			return true, nil, fmt.Errorf("binding: unexpected object %T", action.(clienttesting.CreateAction).GetObject())
		}
		ns, name = b.Namespace, b.Name
	case verb == "update":
		m, err := meta.Accessor(action.(clienttesting.UpdateAction).GetObject())
		if err != nil {
			return true, nil, err
		}
		ns, name = action.GetNamespace(), m.GetName()
	case verb == "patch":
		ns, name = action.GetNamespace(), action.(clienttesting.PatchAction).GetName()
	case verb == "delete":
		ns, name = action.GetNamespace(), action.(clienttesting.DeleteAction).GetName()
	default:
		return false, nil, nil
	}
	var (
		handled bool
		ret     runtime.Object
		err     error
	)
	if verb == "create" {
		handled, ret, err = w.bindingReactor(action)
	} else {
		handled, ret, err = clienttesting.ObjectReaction(w.cs.Tracker())(action)
	}
	if err != nil {
		return handled, ret, err
	}
	gvr := v1.SchemeGroupVersion.WithResource("pods")
	var newPod *v1.Pod
	if obj, gerr := w.cs.Tracker().Get(gvr, ns, name); gerr == nil {
		newPod = trimPod(obj.(*v1.Pod))
	}
	store := w.podInformer.GetStore()
	w.evMu.Lock()
	defer w.evMu.Unlock()
	var oldPod *v1.Pod
	if o, ok, _ := store.GetByKey(ns + "/" + name); ok {
		oldPod = o.(*v1.Pod)
	}
	switch {
	case newPod == nil && oldPod != nil:
		w.events = append(w.events, apiEvent{kind: podDelete, old: oldPod})
		w.deletes = append(w.deletes, types.NamespacedName{Namespace: ns, Name: name})
		_ = store.Delete(oldPod)
	case newPod != nil && oldPod != nil:
		w.events = append(w.events, apiEvent{kind: podUpdate, old: oldPod, new: newPod})
		_ = store.Update(newPod)
	}
	return handled, ret, err
}

// sync runs the event handlers on every notification recorded so far, in
// write order.
func (w *world) sync() error {
	for {
		w.evMu.Lock()
		evs := w.events
		w.events = nil
		w.evMu.Unlock()
		if len(evs) == 0 {
			return nil
		}
		for _, ev := range evs {
			var before map[string]bool
			if w.trace != nil {
				before = w.poolKeys()
			}
			if ev.kind == storageAdd || ev.kind == storageUpdate {
				w.handleStorageEvent(ev)
			} else if err := w.handlePodEvent(ev); err != nil {
				return err
			}
			if w.trace != nil {
				w.traceEvent(ev, before)
			}
		}
	}
}

func (w *world) handlePodEvent(ev apiEvent) error {
	switch ev.kind {
	case podUpdate:
		if ps := w.podByUID[ev.new.UID]; ps != nil {
			ps.pod = ev.new
		}
		return w.updatePod(ev.old, ev.new)
	case podDelete:
		if ps := w.podByUID[ev.old.UID]; ps != nil {
			ps.pod = ev.old
			ps.deleted = true
		}
		return w.deletePod(ev.old)
	}
	return nil
}

// handleStorageEvent does what upstream's handler for the PersistentVolume
// and PersistentVolumeClaim informers (built by buildEvtResHandler) does:
// move pods with the event {Resource, Add|Update} and the objects, nothing
// else. Upstream registers that handler, and each of its Add and Update
// functions, only when some plugin of some profile registered that resource
// and action (unionedGVKs of the queueing-hint maps, kept in
// w.handledActions).
func (w *world) handleStorageEvent(ev apiEvent) {
	action := fwk.Update
	if ev.kind == storageAdd {
		action = fwk.Add
	}
	if w.handledActions[ev.resource]&action == 0 {
		return
	}
	evt := fwk.ClusterEvent{Resource: ev.resource, ActionType: action}
	if action == fwk.Add {
		w.queue.MoveAllToActiveOrBackoffQueue(w.logger, evt, nil, ev.newObj, nil)
		return
	}
	w.queue.MoveAllToActiveOrBackoffQueue(w.logger, evt, ev.oldObj, ev.newObj, nil)
}

func assignedPod(p *v1.Pod) bool { return p.Spec.NodeName != "" }

func (w *world) responsibleForPod(p *v1.Pod) bool {
	_, ok := w.profiles[p.Spec.SchedulerName]
	return ok
}

// known reports whether the pod is one of the input's (not the sentinel, not
// a terminal pod).
func (w *world) known(p *v1.Pod) bool { return w.podByUID[p.UID] != nil }

// updatePod mirrors Scheduler.updatePod.
func (w *world) updatePod(oldPod, newPod *v1.Pod) error {
	if !w.known(newPod) {
		return nil
	}
	if assignedPod(oldPod) {
		return w.updateAssignedPodInCache(oldPod, newPod)
	} else if assignedPod(newPod) {
		// This update means binding operation.
		if err := w.addAssignedPodToCache(newPod); err != nil {
			return err
		}
		if w.responsibleForPod(oldPod) {
			w.deletePodFromSchedulingQueue(oldPod, true)
		}
	} else if w.responsibleForPod(oldPod) {
		w.updatePodInSchedulingQueue(oldPod, newPod)
	}
	return nil
}

// deletePod mirrors Scheduler.deletePod.
func (w *world) deletePod(pod *v1.Pod) error {
	if !w.known(pod) {
		return nil
	}
	if assignedPod(pod) {
		return w.deleteAssignedPodFromCache(pod)
	} else if w.responsibleForPod(pod) {
		w.deletePodFromSchedulingQueue(pod, false)
	}
	return nil
}

// addAssignedPodToCache mirrors Scheduler.addAssignedPodToCache with
// SchedulerQueueingHints (GA, locked on).
func (w *world) addAssignedPodToCache(pod *v1.Pod) error {
	if err := w.cache.AddPod(w.logger, pod); err != nil {
		return fmt.Errorf("scheduler cache AddPod %s: %w", key(pod), err)
	}
	w.queue.MoveAllToActiveOrBackoffQueue(w.logger, framework.EventAssignedPodAdd, nil, pod, nil)
	return nil
}

// updateAssignedPodInCache mirrors Scheduler.updateAssignedPodInCache.
func (w *world) updateAssignedPodInCache(oldPod, newPod *v1.Pod) error {
	if err := w.cache.UpdatePod(w.logger, oldPod, newPod); err != nil {
		return fmt.Errorf("scheduler cache UpdatePod %s: %w", key(oldPod), err)
	}
	for _, evt := range framework.PodSchedulingPropertiesChange(newPod, oldPod, false) {
		w.queue.MoveAllToActiveOrBackoffQueue(w.logger, evt, oldPod, newPod, nil)
	}
	return nil
}

// deleteAssignedPodFromCache mirrors Scheduler.deleteAssignedPodFromCache.
func (w *world) deleteAssignedPodFromCache(pod *v1.Pod) error {
	if err := w.cache.RemovePod(w.logger, pod); err != nil {
		return fmt.Errorf("scheduler cache RemovePod %s: %w", key(pod), err)
	}
	w.queue.MoveAllToActiveOrBackoffQueue(w.logger, framework.EventAssignedPodDelete, pod, nil, nil)
	return nil
}

// updatePodInSchedulingQueue mirrors Scheduler.updatePodInSchedulingQueue.
// Upstream first drops updates whose resourceVersion did not change; the
// fake API server does not maintain resourceVersions, and every update the
// oracle sees is a real write, so that check is left out.
func (w *world) updatePodInSchedulingQueue(oldPod, newPod *v1.Pod) {
	isAssumed, _ := w.cache.IsAssumedPod(newPod)
	if isAssumed {
		// Assumed pods are bound before the next event is handled, and
		// nothing deletes pending pods: handleAssumedPodDeletion has no case.
		return
	}
	w.tick()
	w.queue.Update(w.ctx, oldPod, newPod)
	if hasNominatedNodeNameChanged(oldPod, newPod) {
		w.queue.MoveAllToActiveOrBackoffQueue(w.logger, framework.EventAssignedPodDelete, oldPod, nil, getLEPriorityPreCheck(corev1helpers.PodPriority(oldPod)))
	}
}

func hasNominatedNodeNameChanged(oldPod, newPod *v1.Pod) bool {
	return len(oldPod.Status.NominatedNodeName) > 0 && oldPod.Status.NominatedNodeName != newPod.Status.NominatedNodeName
}

// deletePodFromSchedulingQueue mirrors Scheduler.deletePodFromSchedulingQueue
// (the assumed-pod case cannot happen here, see updatePodInSchedulingQueue).
func (w *world) deletePodFromSchedulingQueue(pod *v1.Pod, inBinding bool) {
	w.queue.Delete(w.logger, pod)
	if inBinding {
		return
	}
	if isAssumed, _ := w.cache.IsAssumedPod(pod); isAssumed {
		return
	}
	if pod.Status.NominatedNodeName != "" {
		w.queue.MoveAllToActiveOrBackoffQueue(w.logger, framework.EventAssignedPodDelete, pod, nil, getLEPriorityPreCheck(corev1helpers.PodPriority(pod)))
	}
}

func getLEPriorityPreCheck(priority int32) internalqueue.PreEnqueueCheck {
	return func(pod *v1.Pod) bool {
		return corev1helpers.PodPriority(pod) <= priority
	}
}

// poolKeys lists the pods in the unschedulable pool (for the trace).
func (w *world) poolKeys() map[string]bool {
	out := map[string]bool{}
	for _, p := range w.queue.UnschedulablePods() {
		out[key(p)] = true
	}
	return out
}

// traceEvent prints an event and the pods it moved out of the pool.
func (w *world) traceEvent(ev apiEvent, before map[string]bool) {
	after := w.poolKeys()
	var moved []string
	for k := range before {
		if !after[k] {
			moved = append(moved, k)
		}
	}
	sort.Strings(moved)
	if ev.kind == storageAdd || ev.kind == storageUpdate {
		what := "update"
		if ev.kind == storageAdd {
			what = "add"
		}
		name := ""
		if m, err := meta.Accessor(ev.newObj); err == nil {
			name = m.GetName()
			if m.GetNamespace() != "" {
				name = m.GetNamespace() + "/" + name
			}
		}
		fmt.Fprintf(w.trace, "    event %s %s %s; moved out of the pool: %v\n", what, ev.resource, name, moved)
		return
	}
	what := "update"
	p := ev.new
	switch {
	case ev.kind == podDelete:
		what, p = "delete", ev.old
	case !assignedPod(ev.old) && assignedPod(ev.new):
		what = "bind"
	}
	fmt.Fprintf(w.trace, "    event %s %s; moved out of the pool: %v\n", what, key(p), moved)
}
