package main

// --timeline (only with --throughput): the measured pods of a schedkit-perf
// workload file arrive and go in batches, as schedkit-perf replays them
// (bench/perf/trace_runner.h). The cluster file holds every pod; a pod the
// timeline creates is held back (neither in the fake API server nor in the
// informer) until its batch. The scheduling loop applies the next batch
// whenever Pop would block: its deletions through the API (the informer
// handlers then run), then its pods created as the pod informer's add
// handler queues them.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type timelineBatch struct {
	At     float64  `json:"at"`
	Delete []string `json:"delete"`
	Create []string `json:"create"`
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
	}
	return &t, nil
}

// created lists the pods the timeline creates, by namespace/name.
func (t *timeline) created() map[string]bool {
	out := map[string]bool{}
	if t == nil {
		return out
	}
	for _, b := range t.Batches {
		for _, k := range b.Create {
			out[k] = true
		}
	}
	return out
}

// applyNextBatch applies the next batch; false when none is left.
func (w *world) applyNextBatch(ctx context.Context) (bool, error) {
	t := w.timeline
	if t == nil || t.next == len(t.Batches) {
		return false, nil
	}
	b := t.Batches[t.next]
	t.next++
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
		w.queue.Add(w.logger, ps.pod)
	}
	return true, nil
}
