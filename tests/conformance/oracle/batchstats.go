package main

// --batch-stats: what upstream's OpportunisticBatching did during a run, read
// from the scheduler's own metrics (scheduler_batch_attempts_total and
// scheduler_batch_cache_flushed_total, summed over profiles), so that a run
// shows whether hints were offered and taken without changing the JSON.

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/kubernetes/pkg/scheduler/metrics"
)

type batchStats struct {
	hintUsed, hintNotUsed int64
	flushes               map[string]int64 // by reason
}

func gatherBatchStats() (batchStats, error) {
	st := batchStats{flushes: map[string]int64{}}
	families, err := metrics.GetGather().Gather()
	if err != nil {
		return st, fmt.Errorf("gathering metrics: %w", err)
	}
	for _, mf := range families {
		name := mf.GetName()
		if name != "scheduler_batch_attempts_total" && name != "scheduler_batch_cache_flushed_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, lp := range m.GetLabel() {
				labels[lp.GetName()] = lp.GetValue()
			}
			v := int64(m.GetCounter().GetValue())
			if name == "scheduler_batch_cache_flushed_total" {
				st.flushes[labels["reason"]] += v
				continue
			}
			switch labels["result"] {
			case metrics.BatchAttemptHintUsed:
				st.hintUsed += v
			case metrics.BatchAttemptHintNotUsed:
				st.hintNotUsed += v
			}
		}
	}
	return st, nil
}

func (a batchStats) minus(b batchStats) batchStats {
	d := batchStats{hintUsed: a.hintUsed - b.hintUsed, hintNotUsed: a.hintNotUsed - b.hintNotUsed, flushes: map[string]int64{}}
	for r, n := range a.flushes {
		if n -= b.flushes[r]; n != 0 {
			d.flushes[r] = n
		}
	}
	return d
}

// String is the --batch-stats line; flush reasons in name order.
func (s batchStats) String() string {
	reasons := make([]string, 0, len(s.flushes))
	for r := range s.flushes {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%s:%d", r, s.flushes[r])
	}
	return fmt.Sprintf("batch: hints-used=%d hints-not-used=%d flushes={%s}", s.hintUsed, s.hintNotUsed, strings.Join(parts, ","))
}
