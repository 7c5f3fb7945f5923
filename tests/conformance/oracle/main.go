// Command schedkit-oracle runs the real kube-scheduler v1.37 code (the
// framework runtime, the in-tree plugins, the scheduler cache) on a cluster
// read from files and prints what upstream decides for every pending pod, in
// the JSON format schedkit-sim prints, so the two can be compared.
//
//	schedkit-oracle [--cluster PATH]... [--config PATH] [--output json]
//	                [--explain] [--tie-break name] [--seed N] [--throughput [--timeline PATH]]
//	                [--feature-gates K=V,...] [--batch-stats]
//
// --throughput is for speed comparisons (schedkit-perf --vs-upstream): the
// configuration's parallelism and percentageOfNodesToScore are kept, and
// nodes are filtered in parallel as upstream's scheduler does, so decisions
// are no longer reproducible. It cannot be combined with --explain.
// --timeline replays a workload file's batches of deletions and arrivals
// (timeline.go).
// --batch-stats prints one line to stderr after the run, what upstream's
// OpportunisticBatching metrics counted during it (batchstats.go).
//
// Exit codes: 0 after a run, 2 on bad usage or bad input (one line on
// stderr), 1 on an internal error. See tests/conformance/README.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"k8s.io/klog/v2"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

type options struct {
	clusters   []string
	config     string
	explain    bool
	tieBreak   bool
	throughput bool
	timeline   string
	batchStats bool
	// --feature-gates values, in order, as kube-scheduler's flag takes them.
	featureGates []string
}

func parseArgs(args []string) (*options, error) {
	fs := flag.NewFlagSet("schedkit-oracle", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		o        options
		clusters stringList
		output   string
		tieBreak string
		seed     string
		gates    stringList
	)
	fs.Var(&clusters, "cluster", "cluster file or directory (repeatable)")
	fs.Var(&gates, "feature-gates", "key=value pairs of feature gates, as kube-scheduler's --feature-gates (repeatable)")
	fs.StringVar(&o.config, "config", "", "KubeSchedulerConfiguration file")
	fs.StringVar(&output, "output", "json", "output format (json)")
	fs.BoolVar(&o.explain, "explain", false, "print per-node filter statuses and scores")
	fs.BoolVar(&o.throughput, "throughput", false, "keep parallelism and percentageOfNodesToScore; filter in parallel")
	fs.StringVar(&o.timeline, "timeline", "", "with --throughput: batches of pod deletions and creations (schedkit-perf --workload-file)")
	fs.BoolVar(&o.batchStats, "batch-stats", false, "print OpportunisticBatching counters to stderr at exit")
	fs.StringVar(&tieBreak, "tie-break", "", "tie-break rule among top-scored nodes (name)")
	fs.StringVar(&seed, "seed", "", "ignored (the oracle's randomness is not seedable)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.throughput && o.explain {
		return nil, errors.New("--throughput and --explain cannot be combined")
	}
	if o.timeline != "" && !o.throughput {
		return nil, errors.New("--timeline needs --throughput")
	}
	if output != "json" {
		return nil, fmt.Errorf("--output %q: only json is supported", output)
	}
	switch tieBreak {
	case "":
	case "name":
		o.tieBreak = true
	default:
		return nil, fmt.Errorf("--tie-break %q: only name is supported", tieBreak)
	}
	if seed != "" {
		if _, err := strconv.ParseUint(seed, 10, 64); err != nil {
			return nil, fmt.Errorf("--seed %q: not a number", seed)
		}
	}
	o.clusters = clusters
	o.featureGates = gates
	return &o, nil
}

// silenceKlog keeps the upstream code's logging off stderr unless
// SCHEDKIT_ORACLE_V=<level> asks for it.
func silenceKlog(stderr io.Writer) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	if v := os.Getenv("SCHEDKIT_ORACLE_V"); v != "" {
		_ = fs.Set("v", v)
		klog.SetOutput(stderr)
		return
	}
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
}

func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// A panic in the upstream code (or ours) is an internal error, not
		// Go's default exit status 2, which means bad input here.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "schedkit-oracle: internal error: panic: %v\n", r)
			code = 1
		}
	}()
	opts, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "schedkit-oracle: %v\n", oneLine(err))
		return 2
	}
	silenceKlog(stderr)
	out, err := runOracle(opts, stderr)
	if err != nil {
		var ie *inputError
		if errors.As(err, &ie) {
			fmt.Fprintf(stderr, "schedkit-oracle: %v\n", oneLine(err))
			return 2
		}
		fmt.Fprintf(stderr, "schedkit-oracle: internal error: %v\n", oneLine(err))
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "schedkit-oracle: internal error: %v\n", oneLine(err))
		return 1
	}
	return 0
}

func oneLine(err error) string {
	return strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
}

// Output is the JSON document (the contract shared with schedkit-sim).
type Output struct {
	Pods []PodResult `json:"pods"`
	// Claims unbound in the input and bound during the run (pvcontroller.go).
	Claims []ClaimResult `json:"claims"`
	// Every ResourceClaim at the end of the run (dra.go): the input's and
	// those the emulated resource-claim controller made (claimcontroller.go).
	ResourceClaims []ResourceClaimResult `json:"resourceClaims"`
	Summary        Summary               `json:"summary"`
}

type PodResult struct {
	Namespace     string   `json:"namespace"`
	Name          string   `json:"name"`
	Node          *string  `json:"node"`
	Status        string   `json:"status"`
	Message       string   `json:"message,omitempty"`
	NominatedNode *string  `json:"nominatedNode"`
	Victims       []string `json:"victims"`
	// The pod's status.extendedResourceClaimStatus as stored at the end of
	// the run (dra.go); omitted when it has none.
	ExtendedResourceClaim *ExtendedResourceClaimResult `json:"extendedResourceClaim,omitempty"`
	Filter                *map[string]filterEntry      `json:"filter,omitempty"`
	Scores                *map[string]scoreEntry       `json:"scores,omitempty"`
}

type Summary struct {
	Nodes         int     `json:"nodes"`
	PendingPods   int     `json:"pendingPods"`
	Scheduled     int     `json:"scheduled"`
	Unschedulable int     `json:"unschedulable"`
	Preempted     int     `json:"preempted"`
	Seconds       float64 `json:"seconds"`
	// Bindings accepted: with --timeline, a pod bound and later deleted or
	// preempted still counts once.
	Binds int `json:"binds"`
	// Scheduling attempts of the pending pods (ScheduleOne calls that ran a
	// scheduling cycle), for comparing the work behind two throughputs.
	Attempts      int     `json:"attempts"`
	PodsPerSecond float64 `json:"podsPerSecond"`
}

func runOracle(opts *options, stderr io.Writer) (*Output, error) {
	t0 := time.Now()
	// Before anything reads a gate: the configuration's defaults depend on
	// some (VolumeBinding's shape on StorageCapacityScoring).
	for _, g := range opts.featureGates {
		if err := utilfeature.DefaultMutableFeatureGate.Set(g); err != nil {
			return nil, badInput("--feature-gates %q: %v", g, err)
		}
	}
	c, err := loadCluster(opts.clusters)
	if err != nil {
		return nil, err
	}
	cfg, err := loadConfig(opts.config, !opts.throughput)
	if err != nil {
		return nil, err
	}
	c.resolvePriorities()
	var tl *timeline
	if opts.timeline != "" {
		if tl, err = loadTimeline(opts.timeline); err != nil {
			return nil, err
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := newWorld(ctx, cfg, c, opts.explain, opts.tieBreak, opts.throughput, tl)
	if err != nil {
		return nil, err
	}
	if opts.batchStats {
		// The counters are process-wide (and run's tests share a process):
		// report this run's increase. newWorld registered them.
		before, err := gatherBatchStats()
		if err != nil {
			return nil, err
		}
		defer func() {
			if after, err := gatherBatchStats(); err == nil {
				fmt.Fprintln(stderr, after.minus(before))
			}
		}()
	}
	start := time.Now()
	if os.Getenv("SCHEDKIT_ORACLE_TIMING") != "" {
		fmt.Fprintf(os.Stderr, "setup %v\n", start.Sub(t0))
	}
	if path := os.Getenv("SCHEDKIT_ORACLE_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
		defer pprof.StopCPUProfile()
	}
	if err := w.schedulingLoop(ctx); err != nil {
		return nil, err
	}
	// To the last binding, as schedkit-perf times its run: batches a
	// timeline applies after it (deletions, churn) are not scheduling.
	end := time.Now()
	if w.binds > 0 {
		end = w.lastBind
	}
	return w.output(end.Sub(start).Seconds()), nil
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (w *world) output(seconds float64) *Output {
	out := &Output{Pods: []PodResult{}, Claims: w.boundClaims(), ResourceClaims: w.resourceClaimResults()}
	out.Summary.Nodes = len(w.nodes)
	for _, ps := range w.pods {
		if !ps.pending {
			continue
		}
		out.Summary.PendingPods++
		out.Summary.Attempts += ps.attempts
		r := PodResult{
			Namespace:     ps.pod.Namespace,
			Name:          ps.pod.Name,
			Node:          strPtr(ps.node),
			Status:        ps.status,
			NominatedNode: strPtr(ps.pod.Status.NominatedNodeName),
			Victims:       ps.victims,
		}
		if r.Victims == nil {
			r.Victims = []string{}
		}
		r.ExtendedResourceClaim = w.extendedResourceClaimResult(ps)
		if ps.status != "Scheduled" {
			r.Message = ps.message
		}
		// preempted counts the victims, pending or not; a pending pod that
		// was bound and then preempted is in its preemptor's victims.
		out.Summary.Preempted += len(r.Victims)
		switch ps.status {
		case "Scheduled":
			out.Summary.Scheduled++
		case "Preempted":
		default:
			out.Summary.Unschedulable++
		}
		if w.explain {
			rec := ps.explain
			if rec == nil {
				rec = &explainRecord{Filter: map[string]filterEntry{}, Scores: map[string]scoreEntry{}}
			}
			r.Filter = &rec.Filter
			r.Scores = &rec.Scores
		}
		out.Pods = append(out.Pods, r)
	}
	out.Summary.Seconds = seconds
	out.Summary.Binds = w.binds
	if seconds > 0 {
		out.Summary.PodsPerSecond = float64(out.Summary.PendingPods) / seconds
	}
	return out
}
