package main

// --timeline (only with --throughput): the measured pods of a schedkit-perf
// workload file arrive and go in batches, as schedkit-perf replays them
// (bench/perf/trace_runner.h). The cluster file holds every pod; a pod the
// timeline creates is held back (neither in the fake API server nor in the
// informer) until its batch. The scheduling loop applies the next batch
// whenever Pop would block: the queue's clock moves to the batch's instant
// (advanceClock), its deletions go through the API (the informer handlers
// then run), then its pods are created as the pod informer's add handler
// queues them. A built-in workload's churn op (schedkit-perf records the
// ticks its own run met) comes as batches with afterAttempts, applied before
// the attempt that follows that many, and may create and delete nodes, held
// back from the cluster file like the pods.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

type timelineBatch struct {
	At float64 `json:"at"`
	// Set for a churn tick of a built-in workload (schedkit-perf replays its
	// own run): the batch comes before the scheduling attempt that follows
	// this many attempts, or earlier if Pop would block.
	AfterAttempts *int     `json:"afterAttempts,omitempty"`
	Delete        []string `json:"delete"`
	Create        []string `json:"create"`
	// Nodes by name; a created node is held back from the cluster file
	// until its batch.
	DeleteNodes []string `json:"deleteNodes"`
	CreateNodes []string `json:"createNodes"`
}

type timeline struct {
	Batches []timelineBatch `json:"batches"`
	next    int
}

func loadTimeline(path string) (*timeline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput("--timeline %s: %v", path, err)
	}
	var t timeline
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, badInput("--timeline %s: %v", path, err)
	}
	for i, b := range t.Batches {
		for _, k := range append(append([]string{}, b.Delete...), b.Create...) {
			if strings.Count(k, "/") != 1 {
				return nil, badInput("--timeline %s: batches[%d]: %q is not namespace/name", path, i, k)
			}
		}
		for _, n := range append(append([]string{}, b.DeleteNodes...), b.CreateNodes...) {
			if n == "" || strings.Contains(n, "/") {
				return nil, badInput("--timeline %s: batches[%d]: %q is not a node name", path, i, n)
			}
		}
		if b.AfterAttempts != nil && *b.AfterAttempts < 0 {
			return nil, badInput("--timeline %s: batches[%d].afterAttempts: %d is negative", path, i, *b.AfterAttempts)
		}
	}
	return &t, nil
}

// due reports whether the next batch asks to come before the attempt that
// follows `attempts` scheduling attempts.
func (t *timeline) due(attempts int) bool {
	if t == nil || t.next == len(t.Batches) {
		return false
	}
	after := t.Batches[t.next].AfterAttempts
	return after != nil && attempts >= *after
}

// created lists the pods the timeline creates, by namespace/name.
func (t *timeline) created() map[string]bool {
	return t.collect(func(b timelineBatch) []string { return b.Create })
}

// createdNodes lists the nodes the timeline creates, by name.
func (t *timeline) createdNodes() map[string]bool {
	return t.collect(func(b timelineBatch) []string { return b.CreateNodes })
}

// collect gathers one list of every batch into a set.
func (t *timeline) collect(list func(timelineBatch) []string) map[string]bool {
	out := map[string]bool{}
	if t == nil {
		return out
	}
	for _, b := range t.Batches {
		for _, k := range list(b) {
			out[k] = true
		}
	}
	return out
}

// leftoverFlushPeriod is how often upstream's PriorityQueue.Run flushes the
// pods that stayed too long in the unschedulable pool.
const leftoverFlushPeriod = 30 * time.Second

// advanceClock moves the queue's clock to a batch's instant `to`, as
// schedkit-perf's run moves its clock (so a pod a deletion requeues goes to
// activeQ once its backoff has expired in trace time), doing on the way what
// the queue's periodic flushes would have (the oracle does not start
// PriorityQueue.Run): at the last 30-second tick before `to` (ticks count
// from clockStart, as schedkit's timers count from its clock's start), the
// pods that waited over five minutes in the unschedulable pool are moved.
// Nothing is scheduled between ticks, so the last tick moves what earlier
// ones would have. The 1-second backoff flush finds backoffQ proper empty
// (Pop drained it before the batch); from the error backoff queue (pods
// whose cycle ended in an error no plugin is blamed for) it takes those
// whose backoff has ended, which Activate moves here.
func (w *world) advanceClock(to time.Time) {
	now := w.clock.Now()
	if !to.After(now) {
		return // the 1 ns ticks since the last batch are past a batch at the same instant
	}
	if tick := clockStart.Add(to.Sub(clockStart) / leftoverFlushPeriod * leftoverFlushPeriod); tick.After(now) {
		w.clock.SetTime(tick)
		stale := map[types.UID]bool{}
		for _, p := range w.queue.UnschedulablePods() {
			qpi, ok := w.queue.GetPod(p.Name, p.Namespace, p.Spec.SchedulingGroup)
			if !ok {
				continue
			}
			// flushUnschedulableEntitiesLeftover (v1.37): the later of the
			// last attempt and the last flush, which it stamps.
			last := qpi.Timestamp
			if qpi.FlushTimestamp.After(last) {
				last = qpi.FlushTimestamp
			}
			if tick.Sub(last) > internalqueue.DefaultPodMaxInUnschedulablePodsDuration {
				qpi.WasFlushedFromUnschedulable = true
				qpi.FlushTimestamp = tick
				stale[p.UID] = true
			}
		}
		if len(stale) > 0 {
			w.queue.MoveAllToActiveOrBackoffQueue(w.logger, framework.EventUnschedulableTimeout, nil, nil,
				func(p *v1.Pod) bool { return stale[p.UID] })
		}
	}
	w.clock.SetTime(to)
	ended := map[string]*v1.Pod{}
	window := to.Truncate(time.Second)
	for _, p := range w.queue.PodsInBackoffQ() {
		qpi, ok := w.queue.GetPod(p.Name, p.Namespace, p.Spec.SchedulingGroup)
		if ok && qpi.UnschedulablePlugins.Len() == 0 && qpi.PendingPlugins.Len() == 0 && w.backoffEnd(qpi).Before(window) {
			ended[key(p)] = p
		}
	}
	if len(ended) > 0 {
		w.queue.Activate(w.logger, ended)
	}
}

// backoffEnd is when a queued pod's backoff ends, in the queue's 1-second
// windows (upstream's backoffQueue.getBackoffTime): the initial backoff
// doubled per failed attempt (errors counted apart), at most the maximum.
func (w *world) backoffEnd(qpi *framework.QueuedPodInfo) time.Time {
	count := qpi.UnschedulableCount
	if qpi.ConsecutiveErrorsCount > 0 {
		count = qpi.ConsecutiveErrorsCount
	}
	if count == 0 {
		return time.Time{}
	}
	initial := time.Duration(w.cfg.PodInitialBackoffSeconds) * time.Second
	max := time.Duration(w.cfg.PodMaxBackoffSeconds) * time.Second
	d := max
	if shift := count - 1; shift < 32 && initial <= max>>shift {
		d = initial << shift
	}
	return qpi.Timestamp.Add(d).Truncate(time.Second)
}

// applyNextBatch applies the next batch; false when none is left.
func (w *world) applyNextBatch(ctx context.Context) (bool, error) {
	t := w.timeline
	if t == nil || t.next == len(t.Batches) {
		return false, nil
	}
	b := t.Batches[t.next]
	t.next++
	w.advanceClock(clockStart.Add(time.Duration(b.At * float64(time.Second))))
	// Nodes as the node informer's handlers deliver them (upstream's
	// deleteNodeFromCache and addNodeToCache; with queueing hints on, a new
	// node's pre-check is nil).
	for _, name := range b.DeleteNodes {
		n := w.liveNodes[name]
		if n == nil {
			return false, badInput("timeline: node %s is not in the cluster", name)
		}
		delete(w.liveNodes, name)
		if err := w.cs.CoreV1().Nodes().Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			return false, fmt.Errorf("timeline: delete node %s: %w", name, err)
		}
		w.queue.MoveAllToActiveOrBackoffQueue(w.logger, fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Delete}, n, nil, nil)
		if err := w.cache.RemoveNode(w.logger, n); err != nil {
			return false, fmt.Errorf("timeline: delete node %s: %w", name, err)
		}
	}
	for _, k := range b.Delete {
		ns, name, _ := strings.Cut(k, "/")
		// A preemption victim is gone already.
		if err := w.cs.CoreV1().Pods(ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return false, fmt.Errorf("timeline: delete %s: %w", k, err)
		}
	}
	if err := w.sync(); err != nil {
		return false, err
	}
	for _, name := range b.CreateNodes {
		n := w.heldNodes[name]
		if n == nil {
			return false, badInput("timeline: node %s is not a held-back node of the cluster", name)
		}
		delete(w.heldNodes, name)
		w.liveNodes[name] = n
		if err := w.cs.Tracker().Add(n.DeepCopy()); err != nil {
			return false, fmt.Errorf("timeline: create node %s: %w", name, err)
		}
		w.cache.AddNode(w.logger, n)
		w.queue.MoveAllToActiveOrBackoffQueue(w.logger, fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add}, nil, n, nil)
	}
	for _, k := range b.Create {
		ps := w.held[k]
		if ps == nil {
			return false, badInput("timeline: %s is not a pending pod of the cluster", k)
		}
		delete(w.held, k)
		if err := w.cs.Tracker().Add(ps.pod.DeepCopy()); err != nil {
			return false, fmt.Errorf("timeline: create %s: %w", k, err)
		}
		if err := w.podInformer.GetStore().Add(trimPod(ps.pod)); err != nil {
			return false, err
		}
		if !w.responsibleForPod(ps.pod) {
			continue
		}
		w.tick()
		w.queue.Add(w.ctx, ps.pod)
	}
	return true, nil
}
