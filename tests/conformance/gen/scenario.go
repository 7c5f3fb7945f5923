package main

// Generate builds one scenario from (seed, index). Every object is what an
// API server would store after admission: DNS-1123 names, canonical
// quantities, a uid and a creationTimestamp on every pod, containers with
// requests only (extended resources also carry the equal limit validation
// requires), priority and preemptionPolicy as the Priority admission plugin
// writes them (or left unset, pre-admission), matchLabelKeys of topology
// spread constraints already merged into the selector (as kube-apiserver
// does in v1.35), overhead set from the RuntimeClass.
//
// A scenario first draws which features it uses, so that each one stays
// small enough to read.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
)

// Scenario is the files of one scenario, in the order they are read.
type Scenario struct {
	Files []File
	// Config is the KubeSchedulerConfiguration (YAML) of the "config"
	// feature, written to scheduler.conf (config.go); nil without it.
	Config []byte
	// FeatureGates is the --feature-gates value of the "gates" feature,
	// written to feature-gates (gates.go); "" without it.
	FeatureGates string
	Summary      string
}

type File struct {
	Name  string
	Items []any
}

const extendedResource = "example.com/gpu"

var (
	baseTime = time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	apps     = []string{"web", "api", "db", "cache", "batch", "ml"}
	// image as pods name it -> names on the node and size
	images = []struct {
		pod   string
		node  []string
		bytes int64
	}{
		{"nginx:1.25", []string{"docker.io/library/nginx:1.25", "docker.io/library/nginx@sha256:4c0fdaa8b6341bfdeca5f18f7837462c80cff90527ee35ef185571e1c327beac"}, 187_000_000},
		{"redis:7", []string{"docker.io/library/redis:7"}, 138_000_000},
		{"postgres:16", []string{"docker.io/library/postgres:16"}, 432_000_000},
		{"busybox", []string{"docker.io/library/busybox:latest"}, 4_260_000},
		{"registry.k8s.io/pause:3.10", []string{"registry.k8s.io/pause:3.10"}, 736_000},
		{"quay.io/prometheus/prometheus:v2.53.0", []string{"quay.io/prometheus/prometheus:v2.53.0"}, 283_000_000},
		{"registry.example.com/ml/trainer:2.1", []string{"registry.example.com/ml/trainer:2.1"}, 2_150_000_000},
	}
	taintChoices = []v1.Taint{
		{Key: "dedicated", Value: "infra", Effect: v1.TaintEffectNoSchedule},
		{Key: "dedicated", Value: "batch", Effect: v1.TaintEffectPreferNoSchedule},
		{Key: "gpu", Value: "true", Effect: v1.TaintEffectNoSchedule},
		{Key: "spot", Value: "true", Effect: v1.TaintEffectPreferNoSchedule},
		{Key: "maintenance", Effect: v1.TaintEffectNoExecute},
		{Key: "example.com/flaky", Value: "yes", Effect: v1.TaintEffectNoExecute},
	}
)

type features struct {
	taints, unschedulableNode, nodeSelector, nodeAffinity, podAffinity, spread bool
	hostPorts, initContainers, overhead, extended, ephemeral, namespaces       bool
	pdbs, priorities, images, globalDefault, rawPriority                       bool
	workloads, disks, storage, binding, config                                 bool
	v137, gates, batch, resize, dra, draExtended                               bool
}

type gen struct {
	r *rand.Rand
	f features
	// Feature gates set away from kube-scheduler's defaults (gates.go).
	gates map[string]bool
	zones []string

	namespaces []*v1.Namespace
	classes    []*schedulingv1.PriorityClass
	nodes      []*v1.Node
	running    []*v1.Pod
	pending    []*v1.Pod
	pdbs       []*policyv1.PodDisruptionBudget
	rc         *nodev1.RuntimeClass
	// Services and the controllers that own pods, for default spreading.
	workloads []any
	// PersistentVolumes, claims, classes and the CSI objects.
	storage []any
	// The WaitForFirstConsumer objects of the "binding" feature (binding.go).
	binding []any
	// The objects of the "dra" feature (dra.go).
	dra []any

	free     map[string]v1.ResourceList // node -> allocatable minus running requests
	podCount map[string]int
	names    map[string]int // name prefix -> next number
	clock    int            // seconds after baseTime, for creation/start times
	hashes   map[string]string
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }
func (g *gen) pick(n int) int        { return g.r.IntN(n) }

func pickOf[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

func Generate(seed uint64, index int) *Scenario {
	g := &gen{
		r:        rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+1)),
		free:     map[string]v1.ResourceList{},
		podCount: map[string]int{},
		names:    map[string]int{},
		hashes:   map[string]string{},
	}
	g.f = features{
		taints:            g.chance(0.5),
		unschedulableNode: g.chance(0.1),
		nodeSelector:      g.chance(0.3),
		nodeAffinity:      g.chance(0.45),
		podAffinity:       g.chance(0.4),
		spread:            g.chance(0.4),
		hostPorts:         g.chance(0.25),
		initContainers:    g.chance(0.3),
		overhead:          g.chance(0.15),
		extended:          g.chance(0.2),
		ephemeral:         g.chance(0.3),
		namespaces:        g.chance(0.5),
		pdbs:              g.chance(0.4),
		priorities:        g.chance(0.85),
		images:            g.chance(0.6),
		globalDefault:     g.chance(0.3),
		rawPriority:       g.chance(0.3),
	}
	g.zones = []string{"zone-a", "zone-b", "zone-c", "zone-d"}[:1+g.pick(4)]

	g.genNamespaces()
	if g.f.priorities {
		g.genClasses()
	}
	if g.f.overhead {
		g.rc = &nodev1.RuntimeClass{
			TypeMeta:   metav1.TypeMeta{APIVersion: "node.k8s.io/v1", Kind: "RuntimeClass"},
			ObjectMeta: metav1.ObjectMeta{Name: "kata", UID: g.uid()},
			Handler:    "kata",
			Overhead: &nodev1.Overhead{PodFixed: v1.ResourceList{
				v1.ResourceCPU:    *milli(250),
				v1.ResourceMemory: *mebi(160),
			}},
		}
	}
	numNodes := 3 + int(57*pow(g.r.Float64(), 2.2))
	for i := 0; i < numNodes; i++ {
		g.genNode(i)
	}
	g.genRunning()
	if g.f.pdbs {
		g.genPDBs()
	}
	numPending := 1 + int(39*pow(g.r.Float64(), 1.6))
	for len(g.pending) < numPending {
		g.genPendingGroup(numPending - len(g.pending))
	}

	// Workloads draw from a stream of their own, so that the rest of a
	// scenario is what it was before they existed.
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+2))
	g.f.workloads = g.chance(0.6)
	if g.f.workloads {
		g.genWorkloads()
	}

	// In-tree disks (VolumeRestrictions' conflicts) draw from a third stream.
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+3))
	g.f.disks = g.chance(0.35)
	if g.f.disks {
		g.genDisks()
	}

	// Claims and volumes draw from a fourth stream.
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+4))
	g.f.storage = g.chance(0.35)
	if g.f.storage {
		g.genStorage()
	}

	// Unbound WaitForFirstConsumer claims draw from a fifth stream.
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+5))
	g.f.binding = g.chance(0.3)
	if g.f.binding {
		g.genBinding()
	}

	// Feature gates draw from an eighth stream (gates.go), before the
	// configuration, whose args must be valid with them.
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+8))
	g.f.gates = g.chance(0.25)
	if g.f.gates {
		g.genGates()
	}

	// The scheduler configuration draws from a sixth stream; it may set
	// spec.schedulerName on pending pods (config.go).
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+6))
	g.f.config = g.chance(0.3)
	var config obj
	if g.f.config {
		config = g.genConfig()
	}

	// The v1.37 fields draw from a seventh stream (node_features.go).
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+7))
	g.f.v137 = g.chance(0.5)
	if g.f.v137 {
		g.genV137()
	}

	// Pod-level requests and resize status draw from a tenth stream
	// (resize.go), before the batch feature copies pending pods.
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+10))
	g.f.resize = g.chance(0.35)
	var resized resizeCounts
	if g.f.resize {
		resized = g.genResize()
	}

	// Dynamic Resource Allocation draws from an eleventh stream (dra.go),
	// before the batch runs, which must see which pods have claims: a pod
	// with claims never heads a run (DynamicResources does not sign it).
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+11))
	g.f.dra = g.chance(0.35)
	var draN draCounts
	var extN extCounts
	if g.f.dra {
		var d *draGen
		d, draN = g.genDRA()
		// Extended resources backed by DeviceClasses draw from a twelfth
		// stream (dra_extended.go), in some of the scenarios with DRA.
		g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+12))
		g.f.draExtended = g.chance(0.4)
		if g.f.draExtended {
			extN = d.genExtended(config)
		}
	}

	// Runs of identical pending pods, and a configuration under which
	// upstream's OpportunisticBatching signs them, draw from a ninth stream,
	// after everything else (batch.go): the runs copy pods as every other
	// stream left them.
	g.r = rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+9))
	g.f.batch = g.chance(0.3)
	var runs batchRuns
	if g.f.batch {
		config, runs = g.genBatch(config)
	}

	s := &Scenario{Config: marshalConfig(config), FeatureGates: g.featureGatesFlag()}
	add := func(name string, items []any) {
		if len(items) > 0 {
			s.Files = append(s.Files, File{Name: name, Items: items})
		}
	}
	add("01-namespaces.json", anys(g.namespaces))
	add("02-priorityclasses.json", anys(g.classes))
	if g.rc != nil {
		add("03-runtimeclasses.json", []any{g.rc})
	}
	add("04-nodes.json", anys(g.nodes))
	add("05-pods-running.json", anys(g.running))
	add("06-pdbs.json", anys(g.pdbs))
	add("07-pods-pending.json", anys(g.pending))
	add("08-workloads.json", g.workloads)
	add("09-storage.json", g.storage)
	add("10-binding.json", g.binding)
	add(draFile, g.dra)

	var on []string
	for name, v := range map[string]bool{
		"taints": g.f.taints, "unschedulableNode": g.f.unschedulableNode, "nodeSelector": g.f.nodeSelector,
		"nodeAffinity": g.f.nodeAffinity, "podAffinity": g.f.podAffinity, "spread": g.f.spread,
		"hostPorts": g.f.hostPorts, "initContainers": g.f.initContainers, "overhead": g.f.overhead,
		"extended": g.f.extended, "ephemeral": g.f.ephemeral, "namespaces": g.f.namespaces, "pdbs": g.f.pdbs,
		"priorities": g.f.priorities, "images": g.f.images, "globalDefault": g.f.globalDefault, "rawPriority": g.f.rawPriority,
		"workloads": g.f.workloads, "disks": g.f.disks, "storage": g.f.storage, "binding": g.f.binding,
		"config": g.f.config, "v137": g.f.v137, "gates": g.f.gates, "batch": g.f.batch,
		"resize": g.f.resize, "dra": g.f.dra, "draExtended": g.f.draExtended,
	} {
		if v {
			on = append(on, name)
		}
	}
	sort.Strings(on)
	summaryStorage := ""
	if len(g.storage) > 0 {
		summaryStorage = fmt.Sprintf(", %d storage objects", len(g.storage))
	}
	if len(g.binding) > 0 {
		summaryStorage += fmt.Sprintf(", %d binding objects", len(g.binding))
	}
	if g.f.batch {
		summaryStorage += fmt.Sprintf(", %d batch runs of %d pods", runs.runs, runs.pods)
	}
	if g.f.resize {
		summaryStorage += fmt.Sprintf(", %d pods with pod-level requests, %d resized", resized.podLevel, resized.resized)
	}
	if g.f.dra {
		summaryStorage += fmt.Sprintf(", %d DRA objects, %d pods with resource claims", draN.objects, draN.pods)
	}
	if g.f.draExtended {
		summaryStorage += fmt.Sprintf(", %d DeviceClasses with an extended resource name, %d nodes offering one, %d pods asking for DRA-backed extended resources",
			extN.classes, extN.nodes, extN.pods)
	}
	s.Summary = fmt.Sprintf("seed %d index %d: %d nodes in %d zone(s), %d running pods, %d pending pods, %d PDBs, %d PriorityClasses%s\nfeatures: %s\n",
		seed, index, len(g.nodes), len(g.zones), len(g.running), len(g.pending), len(g.pdbs), len(g.classes), summaryStorage, strings.Join(on, " "))
	return s
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func pow(x, y float64) float64 { return math.Pow(x, y) }

func milli(m int64) *resource.Quantity { return resource.NewMilliQuantity(m, resource.DecimalSI) }
func mebi(m int64) *resource.Quantity  { return resource.NewQuantity(m<<20, resource.BinarySI) }
func gibi(g int64) *resource.Quantity  { return resource.NewQuantity(g<<30, resource.BinarySI) }
func count(n int64) *resource.Quantity { return resource.NewQuantity(n, resource.DecimalSI) }

// uid is a random RFC 4122 version-4 UUID from the scenario's stream.
func (g *gen) uid() types.UID {
	a, b := g.r.Uint64(), g.r.Uint64()
	return types.UID(fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xfff, 0x8000|(b>>48)&0x3fff, b&0xffffffffffff))
}

func (g *gen) name(prefix string) string {
	g.names[prefix]++
	return fmt.Sprintf("%s-%d", prefix, g.names[prefix])
}

func (g *gen) tick(sec int) metav1.Time {
	g.clock += sec
	return metav1.NewTime(baseTime.Add(time.Duration(g.clock) * time.Second))
}

// ---------------------------------------------------------------- cluster

func (g *gen) genNamespaces() {
	mk := func(name string, l map[string]string) {
		lab := map[string]string{"kubernetes.io/metadata.name": name}
		for k, v := range l {
			lab[k] = v
		}
		g.namespaces = append(g.namespaces, &v1.Namespace{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: metav1.ObjectMeta{Name: name, UID: g.uid(), Labels: lab, CreationTimestamp: metav1.NewTime(baseTime.Add(-time.Hour))},
			Status:     v1.NamespaceStatus{Phase: v1.NamespaceActive},
		})
	}
	mk("default", nil)
	if g.f.namespaces {
		mk("team-a", map[string]string{"team": "a", "env": "prod"})
		mk("team-b", map[string]string{"team": "b", "env": "dev"})
	}
}

func (g *gen) namespace() string {
	if !g.f.namespaces || g.chance(0.5) {
		return "default"
	}
	return pickOf(g, []string{"team-a", "team-b"})
}

func (g *gen) genClasses() {
	mk := func(name string, value int32, never, def bool, desc string) {
		pp := v1.PreemptLowerPriority
		if never {
			pp = v1.PreemptNever
		}
		g.classes = append(g.classes, &schedulingv1.PriorityClass{
			TypeMeta:         metav1.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"},
			ObjectMeta:       metav1.ObjectMeta{Name: name, UID: g.uid()},
			Value:            value,
			GlobalDefault:    def,
			Description:      desc,
			PreemptionPolicy: &pp,
		})
	}
	mk("low", 100, false, false, "best effort batch work")
	mk("medium", 1000, false, g.f.globalDefault, "default service tier")
	mk("high", 10000, false, false, "user-facing services")
	if g.chance(0.5) {
		mk("high-nonpreempting", 10000, true, false, "high priority that never preempts")
	}
	if g.chance(0.4) {
		mk("critical", 100000, false, false, "cluster-critical add-ons")
	}
}

func (g *gen) class(name string) *schedulingv1.PriorityClass {
	for _, c := range g.classes {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (g *gen) genNode(i int) {
	name := fmt.Sprintf("node-%02d", i+1)
	zone := g.zones[i%len(g.zones)]
	if g.chance(0.2) {
		zone = pickOf(g, g.zones)
	}
	lab := map[string]string{
		"kubernetes.io/hostname":        name,
		"kubernetes.io/os":              "linux",
		"kubernetes.io/arch":            "amd64",
		"topology.kubernetes.io/zone":   zone,
		"topology.kubernetes.io/region": "region-1",
		"disktype":                      pickOf(g, []string{"ssd", "hdd"}),
		"example.com/generation":        fmt.Sprint(1 + g.pick(5)),
	}
	if g.chance(0.5) {
		lab["tier"] = pickOf(g, []string{"frontend", "backend", "batch"})
	}
	cpu := int64(pickOf(g, []int{2000, 2000, 4000, 4000, 8000, 3500}))
	memGi := int64(pickOf(g, []int{4, 8, 8, 16, 32}))
	pods := int64(pickOf(g, []int{110, 110, 32, 16, 8}))
	alloc := v1.ResourceList{
		v1.ResourceCPU:              *milli(cpu),
		v1.ResourceMemory:           *gibi(memGi),
		v1.ResourcePods:             *count(pods),
		v1.ResourceEphemeralStorage: *gibi(int64(pickOf(g, []int{20, 50, 100}))),
	}
	capacity := v1.ResourceList{
		v1.ResourceCPU:              *milli(cpu),
		v1.ResourceMemory:           *resource.NewQuantity(memGi<<30+512<<20, resource.BinarySI),
		v1.ResourcePods:             *count(pods),
		v1.ResourceEphemeralStorage: *gibi(120),
	}
	if g.f.extended && g.chance(0.4) {
		n := int64(1 + g.pick(4))
		alloc[extendedResource] = *count(n)
		capacity[extendedResource] = *count(n)
		lab["gpu"] = "true"
	}
	node := &v1.Node{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: g.uid(), Labels: lab, CreationTimestamp: metav1.NewTime(baseTime.Add(-24 * time.Hour))},
		Status: v1.NodeStatus{
			Allocatable: alloc,
			Capacity:    capacity,
			Conditions:  []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue, Reason: "KubeletReady"}},
		},
	}
	if g.f.taints && g.chance(0.35) {
		for _, t := range g.r.Perm(len(taintChoices))[:1+g.pick(2)] {
			tt := taintChoices[t]
			node.Spec.Taints = append(node.Spec.Taints, tt)
		}
		if _, gpu := lab["gpu"]; !gpu {
			// keep the gpu taint on gpu nodes only
			var ts []v1.Taint
			for _, t := range node.Spec.Taints {
				if t.Key != "gpu" {
					ts = append(ts, t)
				}
			}
			node.Spec.Taints = ts
		}
	}
	if _, gpu := lab["gpu"]; gpu && g.f.taints && g.chance(0.6) {
		node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: "gpu", Value: "true", Effect: v1.TaintEffectNoSchedule})
	}
	node.Spec.Taints = dedupTaints(node.Spec.Taints)
	if g.f.unschedulableNode && i > 0 && g.chance(0.15) {
		node.Spec.Unschedulable = true
		node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: v1.TaintNodeUnschedulable, Effect: v1.TaintEffectNoSchedule})
	}
	if g.f.images {
		for _, k := range g.r.Perm(len(images))[:g.pick(4)] {
			im := images[k]
			node.Status.Images = append(node.Status.Images, v1.ContainerImage{Names: im.node, SizeBytes: im.bytes})
		}
	}
	g.nodes = append(g.nodes, node)
	g.free[name] = alloc.DeepCopy()
}

func dedupTaints(ts []v1.Taint) []v1.Taint {
	seen := map[string]bool{}
	var out []v1.Taint
	for _, t := range ts {
		k := t.Key + ":" + string(t.Effect)
		if !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}

// ---------------------------------------------------------------- pods

// template is what the replicas of one group share.
type template struct {
	app       string
	namespace string
	class     string
	spec      v1.PodSpec
	labels    map[string]string
}

func (g *gen) hash(app, ns string) string {
	k := ns + "/" + app
	if h, ok := g.hashes[k]; ok {
		return h
	}
	const alnum = "bcdfghjklmnpqrstvwxz2456789"
	b := make([]byte, 10)
	for i := range b {
		b[i] = alnum[g.pick(len(alnum))]
	}
	g.hashes[k] = string(b)
	return g.hashes[k]
}

func (g *gen) container(name string, big bool) v1.Container {
	cpu := int64(50 * (1 + g.pick(20))) // 50m..1000m
	mem := int64(64 * (1 + g.pick(24))) // 64Mi..1.5Gi
	if big {
		cpu = int64(250 * (2 + g.pick(11))) // 500m..3000m
		mem = int64(256 * (1 + g.pick(24))) // 256Mi..6Gi
	}
	c := v1.Container{
		Name:  name,
		Image: images[g.pick(len(images))].pod,
		Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
			v1.ResourceCPU:    *milli(cpu),
			v1.ResourceMemory: *mebi(mem),
		}},
	}
	if !g.f.images {
		c.Image = "busybox"
	}
	if g.f.ephemeral && g.chance(0.4) {
		c.Resources.Requests[v1.ResourceEphemeralStorage] = *gibi(int64(1 + g.pick(10)))
	}
	if g.chance(0.05) {
		delete(c.Resources.Requests, v1.ResourceMemory) // cpu only
	}
	return c
}

func (g *gen) newTemplate(app, ns string, running bool) *template {
	t := &template{app: app, namespace: ns}
	t.labels = map[string]string{"app": app, "pod-template-hash": g.hash(app, ns)}
	if g.chance(0.5) {
		t.labels["tier"] = pickOf(g, []string{"frontend", "backend", "batch"})
	}
	big := g.chance(0.35)
	n := 1
	if g.chance(0.3) {
		n = 2
	}
	for i := 0; i < n; i++ {
		t.spec.Containers = append(t.spec.Containers, g.container(fmt.Sprintf("%s-%d", app, i), big))
	}
	if g.f.initContainers && g.chance(0.4) {
		ic := g.container("init", g.chance(0.5))
		t.spec.InitContainers = append(t.spec.InitContainers, ic)
		if g.chance(0.5) {
			sc := g.container("sidecar", false)
			always := v1.ContainerRestartPolicyAlways
			sc.RestartPolicy = &always
			t.spec.InitContainers = append(t.spec.InitContainers, sc)
		}
	}
	if g.f.extended && g.chance(0.25) {
		q := *count(int64(1 + g.pick(2)))
		c := &t.spec.Containers[0]
		c.Resources.Requests[extendedResource] = q
		c.Resources.Limits = v1.ResourceList{extendedResource: q}
		if g.f.taints {
			t.spec.Tolerations = append(t.spec.Tolerations, v1.Toleration{Key: "gpu", Operator: v1.TolerationOpEqual, Value: "true", Effect: v1.TaintEffectNoSchedule})
		}
	}
	if g.f.hostPorts && g.chance(0.3) {
		port := int32(pickOf(g, []int{8080, 9090, 53, 443}))
		proto := v1.ProtocolTCP
		if port == 53 && g.chance(0.5) {
			proto = v1.ProtocolUDP
		}
		hp := v1.ContainerPort{Name: "hp", ContainerPort: port, HostPort: port, Protocol: proto}
		if g.chance(0.2) {
			hp.HostIP = "10.0.0.1"
		}
		t.spec.Containers[0].Ports = append(t.spec.Containers[0].Ports, hp)
	}
	if g.rc != nil && g.chance(0.4) {
		rcName := g.rc.Name
		t.spec.RuntimeClassName = &rcName
		t.spec.Overhead = g.rc.Overhead.PodFixed.DeepCopy()
	}
	if g.f.nodeSelector && g.chance(0.3) {
		switch g.pick(3) {
		case 0:
			t.spec.NodeSelector = map[string]string{"disktype": "ssd"}
		case 1:
			t.spec.NodeSelector = map[string]string{"topology.kubernetes.io/zone": pickOf(g, g.zones)}
		default:
			t.spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
		}
	}
	if g.f.taints && g.chance(0.4) {
		t.spec.Tolerations = append(t.spec.Tolerations, g.tolerations()...)
	}
	// Affinity and spreading mostly on pending pods; running pods sometimes
	// carry (anti-)affinity that incoming pods must respect.
	if g.f.nodeAffinity && g.chance(map[bool]float64{true: 0.15, false: 0.5}[running]) {
		g.nodeAffinity(t)
	}
	if g.f.podAffinity && g.chance(map[bool]float64{true: 0.25, false: 0.5}[running]) {
		g.podAffinity(t)
	}
	if g.f.spread && !running && g.chance(0.5) {
		g.spread(t)
	}
	if g.f.priorities {
		var cands []string
		if running {
			cands = []string{"low", "low", "medium", "medium", "high", ""}
		} else {
			cands = []string{"low", "medium", "medium", "high", "high", "high-nonpreempting", "critical", ""}
		}
		t.class = pickOf(g, cands)
		if t.class != "" && g.class(t.class) == nil {
			t.class = "high"
		}
	}
	return t
}

func (g *gen) tolerations() []v1.Toleration {
	var out []v1.Toleration
	for i := 0; i < 1+g.pick(2); i++ {
		t := pickOf(g, taintChoices)
		switch g.pick(4) {
		case 0:
			out = append(out, v1.Toleration{Key: t.Key, Operator: v1.TolerationOpExists})
		case 1:
			tol := v1.Toleration{Key: t.Key, Operator: v1.TolerationOpEqual, Value: t.Value, Effect: t.Effect}
			if t.Value == "" {
				tol.Operator = v1.TolerationOpExists
			}
			if t.Effect == v1.TaintEffectNoExecute && g.chance(0.5) {
				s := int64(300)
				tol.TolerationSeconds = &s
			}
			out = append(out, tol)
		case 2:
			out = append(out, v1.Toleration{Key: t.Key, Operator: v1.TolerationOpExists, Effect: t.Effect})
		default:
			// A near miss: same key, another value.
			out = append(out, v1.Toleration{Key: t.Key, Operator: v1.TolerationOpEqual, Value: "other", Effect: v1.TaintEffectNoSchedule})
		}
	}
	if g.chance(0.05) {
		out = append(out, v1.Toleration{Operator: v1.TolerationOpExists}) // tolerates everything
	}
	return out
}

func (g *gen) nodeExpr() v1.NodeSelectorRequirement {
	switch g.pick(9) {
	case 0:
		return v1.NodeSelectorRequirement{Key: "disktype", Operator: v1.NodeSelectorOpIn, Values: []string{"ssd"}}
	case 1:
		return v1.NodeSelectorRequirement{Key: "tier", Operator: v1.NodeSelectorOpNotIn, Values: []string{"batch"}}
	case 2:
		return v1.NodeSelectorRequirement{Key: "tier", Operator: v1.NodeSelectorOpExists}
	case 3:
		return v1.NodeSelectorRequirement{Key: "gpu", Operator: v1.NodeSelectorOpDoesNotExist}
	case 4:
		return v1.NodeSelectorRequirement{Key: "example.com/generation", Operator: v1.NodeSelectorOpGt, Values: []string{fmt.Sprint(1 + g.pick(3))}}
	case 5:
		return v1.NodeSelectorRequirement{Key: "example.com/generation", Operator: v1.NodeSelectorOpLt, Values: []string{fmt.Sprint(2 + g.pick(4))}}
	case 6:
		zs := append([]string(nil), g.zones...)
		g.r.Shuffle(len(zs), func(i, j int) { zs[i], zs[j] = zs[j], zs[i] })
		return v1.NodeSelectorRequirement{Key: "topology.kubernetes.io/zone", Operator: v1.NodeSelectorOpIn, Values: zs[:1+g.pick(len(zs))]}
	case 7:
		return v1.NodeSelectorRequirement{Key: "kubernetes.io/hostname", Operator: v1.NodeSelectorOpNotIn, Values: []string{pickOf(g, g.nodes).Name}}
	default:
		return v1.NodeSelectorRequirement{Key: "topology.kubernetes.io/region", Operator: v1.NodeSelectorOpIn, Values: []string{"region-1"}}
	}
}

func (g *gen) nodeTerm() v1.NodeSelectorTerm {
	var t v1.NodeSelectorTerm
	for i := 0; i < 1+g.pick(2); i++ {
		t.MatchExpressions = append(t.MatchExpressions, g.nodeExpr())
	}
	if g.chance(0.1) {
		t.MatchFields = []v1.NodeSelectorRequirement{{Key: "metadata.name", Operator: pickOf(g, []v1.NodeSelectorOperator{v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn}), Values: []string{pickOf(g, g.nodes).Name}}}
	}
	return t
}

func (g *gen) affinity(t *template) *v1.Affinity {
	if t.spec.Affinity == nil {
		t.spec.Affinity = &v1.Affinity{}
	}
	return t.spec.Affinity
}

func (g *gen) nodeAffinity(t *template) {
	na := &v1.NodeAffinity{}
	if g.chance(0.6) {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &v1.NodeSelector{}
		for i := 0; i < 1+g.pick(2); i++ {
			na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = append(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms, g.nodeTerm())
		}
	}
	if na.RequiredDuringSchedulingIgnoredDuringExecution == nil || g.chance(0.5) {
		for i := 0; i < 1+g.pick(2); i++ {
			na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
				v1.PreferredSchedulingTerm{Weight: int32(1 + g.pick(100)), Preference: g.nodeTerm()})
		}
	}
	g.affinity(t).NodeAffinity = na
}

func (g *gen) podTerm(t *template, self bool) v1.PodAffinityTerm {
	app := pickOf(g, apps)
	if self {
		app = t.app
	}
	term := v1.PodAffinityTerm{
		TopologyKey: pickOf(g, []string{"kubernetes.io/hostname", "kubernetes.io/hostname", "topology.kubernetes.io/zone"}),
	}
	if g.chance(0.7) {
		term.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
	} else {
		term.LabelSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{app, pickOf(g, apps)}},
		}}
		if g.chance(0.3) {
			term.LabelSelector.MatchExpressions = append(term.LabelSelector.MatchExpressions,
				metav1.LabelSelectorRequirement{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"batch"}})
		}
	}
	if g.f.namespaces && g.chance(0.4) {
		switch g.pick(3) {
		case 0:
			term.Namespaces = []string{pickOf(g, []string{"team-a", "team-b", "default"})}
		case 1:
			term.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": pickOf(g, []string{"a", "b"})}}
		default:
			term.NamespaceSelector = &metav1.LabelSelector{} // all namespaces
		}
	}
	return term
}

func (g *gen) podAffinity(t *template) {
	a := g.affinity(t)
	switch g.pick(4) {
	case 0: // spread replicas: required self anti-affinity
		a.PodAntiAffinity = &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{g.podTerm(t, true)}}
	case 1: // preferred self anti-affinity
		a.PodAntiAffinity = &v1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
			{Weight: int32(1 + g.pick(100)), PodAffinityTerm: g.podTerm(t, true)}}}
	case 2: // required affinity to another app, sometimes preferred too
		a.PodAffinity = &v1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{g.podTerm(t, false)}}
		if g.chance(0.4) {
			a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution = []v1.WeightedPodAffinityTerm{
				{Weight: int32(1 + g.pick(100)), PodAffinityTerm: g.podTerm(t, false)}}
		}
	default: // preferred affinity and anti-affinity to other apps
		a.PodAffinity = &v1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
			{Weight: int32(1 + g.pick(100)), PodAffinityTerm: g.podTerm(t, false)}}}
		a.PodAntiAffinity = &v1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
			{Weight: int32(1 + g.pick(100)), PodAffinityTerm: g.podTerm(t, false)}}}
		if g.chance(0.3) {
			a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = []v1.PodAffinityTerm{g.podTerm(t, false)}
		}
	}
}

func (g *gen) spread(t *template) {
	for i := 0; i < 1+g.pick(2); i++ {
		c := v1.TopologySpreadConstraint{
			MaxSkew:           int32(1 + g.pick(2)),
			TopologyKey:       pickOf(g, []string{"topology.kubernetes.io/zone", "kubernetes.io/hostname"}),
			WhenUnsatisfiable: pickOf(g, []v1.UnsatisfiableConstraintAction{v1.DoNotSchedule, v1.ScheduleAnyway}),
			LabelSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": t.app}},
		}
		if i == 1 && c.TopologyKey == t.spec.TopologySpreadConstraints[0].TopologyKey {
			c.TopologyKey = map[string]string{"topology.kubernetes.io/zone": "kubernetes.io/hostname", "kubernetes.io/hostname": "topology.kubernetes.io/zone"}[c.TopologyKey]
		}
		if c.WhenUnsatisfiable == v1.DoNotSchedule && g.chance(0.3) {
			md := int32(1 + g.pick(5))
			c.MinDomains = &md
		}
		if g.chance(0.3) {
			p := pickOf(g, []v1.NodeInclusionPolicy{v1.NodeInclusionPolicyHonor, v1.NodeInclusionPolicyIgnore})
			c.NodeAffinityPolicy = &p
		}
		if g.chance(0.3) {
			p := pickOf(g, []v1.NodeInclusionPolicy{v1.NodeInclusionPolicyHonor, v1.NodeInclusionPolicyIgnore})
			c.NodeTaintsPolicy = &p
		}
		if g.chance(0.3) {
			// kube-apiserver merges matchLabelKeys into the selector at creation.
			c.MatchLabelKeys = []string{"pod-template-hash"}
			c.LabelSelector.MatchExpressions = append(c.LabelSelector.MatchExpressions, metav1.LabelSelectorRequirement{
				Key: "pod-template-hash", Operator: metav1.LabelSelectorOpIn, Values: []string{t.labels["pod-template-hash"]}})
		}
		t.spec.TopologySpreadConstraints = append(t.spec.TopologySpreadConstraints, c)
	}
}

// pod instantiates a template; admitted sets priority as admission would.
func (g *gen) pod(t *template, prefix string) *v1.Pod {
	name := g.name(prefix)
	p := &v1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: t.namespace, UID: g.uid(),
			CreationTimestamp: g.tick(1 + g.pick(5)),
			Labels:            map[string]string{},
		},
		Spec: *t.spec.DeepCopy(),
	}
	for k, v := range t.labels {
		p.Labels[k] = v
	}
	g.setPriority(p, t.class)
	return p
}

func (g *gen) setPriority(p *v1.Pod, class string) {
	if !g.f.priorities {
		return
	}
	var pc *schedulingv1.PriorityClass
	if class != "" {
		pc = g.class(class)
	} else if g.f.globalDefault {
		pc = g.class("medium")
	}
	if g.f.rawPriority && g.chance(0.5) {
		// Pre-admission form: only the class name (the programs resolve it).
		if class != "" {
			p.Spec.PriorityClassName = class
		}
		return
	}
	if pc == nil {
		zero := int32(0)
		p.Spec.Priority = &zero
		pp := v1.PreemptLowerPriority
		p.Spec.PreemptionPolicy = &pp
		return
	}
	p.Spec.PriorityClassName = pc.Name
	v := pc.Value
	p.Spec.Priority = &v
	pp := *pc.PreemptionPolicy
	p.Spec.PreemptionPolicy = &pp
}

// requests sums what the scheduler would count, roughly (for packing
// running pods only; the programs compute the real values).
func requests(p *v1.Pod) v1.ResourceList {
	sum := v1.ResourceList{}
	add := func(rl v1.ResourceList) {
		for k, q := range rl {
			cur := sum[k]
			cur.Add(q)
			sum[k] = cur
		}
	}
	for _, c := range p.Spec.Containers {
		add(c.Resources.Requests)
	}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil {
			add(c.Resources.Requests)
		}
	}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy == nil {
			for k, q := range c.Resources.Requests {
				if cur, ok := sum[k]; !ok || q.Cmp(cur) > 0 {
					sum[k] = q.DeepCopy()
				}
			}
		}
	}
	add(p.Spec.Overhead)
	sum[v1.ResourcePods] = *count(1)
	return sum
}

func fits(free, req v1.ResourceList) bool {
	for k, q := range req {
		f, ok := free[k]
		if !ok || f.Cmp(q) < 0 {
			return false
		}
	}
	return true
}

func sub(free, req v1.ResourceList) {
	for k, q := range req {
		f := free[k]
		f.Sub(q)
		free[k] = f
	}
}

func tolerates(p *v1.Pod, n *v1.Node) bool {
	for _, t := range n.Spec.Taints {
		if t.Effect == v1.TaintEffectPreferNoSchedule {
			continue
		}
		ok := false
		for _, tol := range p.Spec.Tolerations {
			if tol.ToleratesTaint(klog.Background(), &t, false) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func matchesNodeSelector(p *v1.Pod, n *v1.Node) bool {
	return labels.SelectorFromSet(p.Spec.NodeSelector).Matches(labels.Set(n.Labels))
}

// genRunning fills the nodes with running pods to a per-scenario target
// utilization, so that pending pods compete and preemption has victims.
func (g *gen) genRunning() {
	target := 0.3 + 0.65*g.r.Float64()
	for _, n := range g.nodes {
		if n.Spec.Unschedulable && g.chance(0.5) {
			continue
		}
		allocCPU := n.Status.Allocatable[v1.ResourceCPU]
		budget := int64(float64(allocCPU.MilliValue()) * target)
		used := int64(0)
		for tries := 0; tries < 8 && used < budget; tries++ {
			t := g.newTemplate(pickOf(g, apps), g.namespace(), true)
			p := g.pod(t, t.app)
			if !tolerates(p, n) || !matchesNodeSelector(p, n) {
				// Running pods got there somehow; keep it realistic.
				p.Spec.Tolerations = append(p.Spec.Tolerations, v1.Toleration{Operator: v1.TolerationOpExists})
				p.Spec.NodeSelector = nil
			}
			req := requests(p)
			if !fits(g.free[n.Name], req) {
				g.names[t.app]-- // name unused
				continue
			}
			sub(g.free[n.Name], req)
			cpu := req[v1.ResourceCPU]
			used += cpu.MilliValue()
			p.Spec.NodeName = n.Name
			start := metav1.NewTime(p.CreationTimestamp.Add(time.Duration(1+g.pick(4)) * time.Second))
			p.Status = v1.PodStatus{
				Phase:     v1.PodRunning,
				StartTime: &start,
				Conditions: []v1.PodCondition{
					{Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: p.CreationTimestamp},
					{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: start},
				},
				QOSClass: v1.PodQOSBurstable,
			}
			// The affinity it was scheduled with may no longer hold; that is
			// fine (IgnoredDuringExecution).
			g.running = append(g.running, p)
		}
	}
}

func (g *gen) genPendingGroup(max int) {
	t := g.newTemplate(pickOf(g, apps), g.namespace(), false)
	n := 1
	if g.chance(0.45) {
		n = 2 + g.pick(4)
	}
	if n > max {
		n = max
	}
	for i := 0; i < n; i++ {
		p := g.pod(t, t.app)
		p.Status = v1.PodStatus{Phase: v1.PodPending, QOSClass: v1.PodQOSBurstable}
		g.pending = append(g.pending, p)
	}
}

func (g *gen) genPDBs() {
	type key struct{ ns, app string }
	countBy := map[key]int{}
	var keys []key
	for _, p := range g.running {
		k := key{p.Namespace, p.Labels["app"]}
		if countBy[k] == 0 {
			keys = append(keys, k)
		}
		countBy[k]++
	}
	for _, k := range keys {
		if !g.chance(0.4) {
			continue
		}
		n := countBy[k]
		pdb := &policyv1.PodDisruptionBudget{
			TypeMeta:   metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
			ObjectMeta: metav1.ObjectMeta{Name: k.app + "-pdb", Namespace: k.ns, UID: g.uid(), Generation: 1, CreationTimestamp: metav1.NewTime(baseTime)},
			Spec: policyv1.PodDisruptionBudgetSpec{
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": k.app}},
			},
		}
		desired := 0
		switch g.pick(3) {
		case 0:
			m := 1 + g.pick(n)
			v := intstr.FromInt32(int32(m))
			pdb.Spec.MinAvailable = &v
			desired = m
		case 1:
			v := intstr.FromInt32(1)
			pdb.Spec.MaxUnavailable = &v
			desired = n - 1
		default:
			v := intstr.FromString("50%")
			pdb.Spec.MinAvailable = &v
			desired = (n + 1) / 2
		}
		allowed := n - desired
		if allowed < 0 {
			allowed = 0
		}
		pdb.Status = policyv1.PodDisruptionBudgetStatus{
			ObservedGeneration: 1,
			DisruptionsAllowed: int32(allowed),
			CurrentHealthy:     int32(n),
			DesiredHealthy:     int32(desired),
			ExpectedPods:       int32(n),
			Conditions: []metav1.Condition{{
				Type: policyv1.DisruptionAllowedCondition, Status: map[bool]metav1.ConditionStatus{true: metav1.ConditionTrue, false: metav1.ConditionFalse}[allowed > 0],
				Reason:             map[bool]string{true: policyv1.SufficientPodsReason, false: policyv1.InsufficientPodsReason}[allowed > 0],
				LastTransitionTime: metav1.NewTime(baseTime), ObservedGeneration: 1,
			}},
		}
		g.pdbs = append(g.pdbs, pdb)
	}
}

// genWorkloads gives the pods of an app in a namespace the controller a
// cluster would have made them with (mostly a ReplicaSet, sometimes a
// StatefulSet or a ReplicationController, sometimes none) and some apps a
// Service, so that PodTopologySpread's default constraints apply to them as
// upstream derives them (helper.DefaultSelector).
func (g *gen) genWorkloads() {
	type key struct{ ns, app string }
	podsOf := map[key][]*v1.Pod{}
	var keys []key
	for _, list := range [][]*v1.Pod{g.running, g.pending} {
		for _, p := range list {
			k := key{p.Namespace, p.Labels["app"]}
			if podsOf[k] == nil {
				keys = append(keys, k)
			}
			podsOf[k] = append(podsOf[k], p)
		}
	}
	meta := func(name, ns string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: ns, UID: g.uid(), CreationTimestamp: metav1.NewTime(baseTime)}
	}
	for _, k := range keys {
		pods := podsOf[k]
		replicas := int32(len(pods))
		var owner metav1.OwnerReference
		switch r := g.r.Float64(); {
		case r < 0.6:
			hash := pods[0].Labels["pod-template-hash"]
			rs := &appsv1.ReplicaSet{
				TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
				ObjectMeta: meta(k.app+"-"+hash, k.ns),
				Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{
					MatchLabels: map[string]string{"app": k.app, "pod-template-hash": hash}}},
			}
			owner = metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID}
			g.workloads = append(g.workloads, rs)
		case r < 0.75:
			ss := &appsv1.StatefulSet{
				TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
				ObjectMeta: meta(k.app, k.ns),
				Spec: appsv1.StatefulSetSpec{Replicas: &replicas, ServiceName: k.app, Selector: &metav1.LabelSelector{
					MatchLabels: map[string]string{"app": k.app}}},
			}
			owner = metav1.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: ss.Name, UID: ss.UID}
			g.workloads = append(g.workloads, ss)
		case r < 0.85:
			rc := &v1.ReplicationController{
				TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ReplicationController"},
				ObjectMeta: meta(k.app+"-rc", k.ns),
				Spec:       v1.ReplicationControllerSpec{Replicas: &replicas, Selector: map[string]string{"app": k.app}},
			}
			owner = metav1.OwnerReference{APIVersion: "v1", Kind: "ReplicationController", Name: rc.Name, UID: rc.UID}
			g.workloads = append(g.workloads, rc)
		}
		if owner.Kind != "" {
			for _, p := range pods {
				if g.chance(0.05) {
					continue // a pod its controller released
				}
				ref := owner
				controller := !g.chance(0.05) // an owner that is not the controller counts for nothing
				ref.Controller = &controller
				p.OwnerReferences = append(p.OwnerReferences, ref)
			}
		}
		if g.chance(0.4) {
			selector := map[string]string{"app": k.app}
			if g.chance(0.3) {
				if tier, ok := pods[0].Labels["tier"]; ok {
					selector["tier"] = tier
				}
			}
			svc := &v1.Service{
				TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
				ObjectMeta: meta(k.app, k.ns),
				Spec:       v1.ServiceSpec{Selector: selector},
			}
			if g.chance(0.1) {
				svc.Spec.Selector = nil // selects no pod
			}
			g.workloads = append(g.workloads, svc)
		}
	}
}

// genDisks gives some running and pending pods in-tree disk volumes drawn
// from a small pool, so that pods share disks: GCE PDs and iSCSI targets
// (read-only sharing allowed), AWS EBS volumes (never shared) and Ceph RBD
// images (a shared monitor, pool and image conflict unless both read-only).
func (g *gen) genDisks() {
	disk := func(i int) v1.Volume {
		v := v1.Volume{Name: fmt.Sprintf("disk-%d", i)}
		ro := g.chance(0.4)
		switch g.pick(4) {
		case 0:
			v.GCEPersistentDisk = &v1.GCEPersistentDiskVolumeSource{PDName: fmt.Sprintf("pd-%d", g.pick(4)), ReadOnly: ro}
		case 1:
			v.AWSElasticBlockStore = &v1.AWSElasticBlockStoreVolumeSource{VolumeID: fmt.Sprintf("vol-%d", g.pick(3)), ReadOnly: ro}
		case 2:
			monitors := []string{"10.0.0.1:6789", "10.0.0.2:6789", "10.0.0.3:6789"}
			m := []string{monitors[g.pick(3)]}
			if g.chance(0.5) {
				m = append(m, monitors[g.pick(3)])
			}
			// The API server defaults the pool to "rbd", so a dump always has one.
			v.RBD = &v1.RBDVolumeSource{CephMonitors: m, RBDImage: fmt.Sprintf("img-%d", g.pick(2)),
				RBDPool: pickOf(g, []string{"rbd", "fast"}), ReadOnly: ro}
		default:
			v.ISCSI = &v1.ISCSIVolumeSource{TargetPortal: "10.0.0.9:3260", IQN: pickOf(g, []string{"iqn.2026-01.io.example:a", "iqn.2026-01.io.example:b"}), ReadOnly: ro}
		}
		return v
	}
	g.forSomePods(0.3, func(p *v1.Pod, i int) { p.Spec.Volumes = append(p.Spec.Volumes, disk(i)) })
}

// forSomePods calls add(p, i) for i = 0 and sometimes 1 on each running and
// pending pod chosen with probability `share`.
func (g *gen) forSomePods(share float64, add func(p *v1.Pod, i int)) {
	for _, pods := range [][]*v1.Pod{g.running, g.pending} {
		for _, p := range pods {
			if !g.chance(share) {
				continue
			}
			n := 1 + g.pick(2)
			for i := 0; i < n; i++ {
				add(p, i)
			}
		}
	}
}

// The CSI driver the generated volumes use.
const csiDriver = "pd.csi.storage.gke.io"

// genStorage gives some pods claims: most bound (with the bind-completed
// annotation, as the PV controller leaves them) to CSI volumes with zone
// labels or node affinity; some ReadWriteOncePod and shared between pods;
// some unbound with an Immediate class, and some naming no claim at all.
// Nodes get CSINodes, some with attach limits, and running pods' volumes
// VolumeAttachments. Unbound WaitForFirstConsumer claims are the "binding"
// feature's (binding.go).
func (g *gen) genStorage() {
	immediate := storagev1.VolumeBindingImmediate
	wait := storagev1.VolumeBindingWaitForFirstConsumer
	g.storage = append(g.storage,
		&storagev1.StorageClass{
			TypeMeta:          metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass"},
			ObjectMeta:        metav1.ObjectMeta{Name: "standard", UID: g.uid()},
			Provisioner:       csiDriver,
			VolumeBindingMode: &immediate,
		},
		&storagev1.StorageClass{
			TypeMeta:          metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass"},
			ObjectMeta:        metav1.ObjectMeta{Name: "local", UID: g.uid()},
			Provisioner:       "kubernetes.io/no-provisioner",
			VolumeBindingMode: &wait,
		})
	for _, n := range g.nodes {
		if !g.chance(0.7) {
			continue
		}
		d := storagev1.CSINodeDriver{Name: csiDriver, NodeID: n.Name, TopologyKeys: []string{"topology.kubernetes.io/zone"}}
		if g.chance(0.6) {
			d.Allocatable = &storagev1.VolumeNodeResources{Count: ptr(int32(1 + g.pick(3)))}
		}
		g.storage = append(g.storage, &storagev1.CSINode{
			TypeMeta:   metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "CSINode"},
			ObjectMeta: metav1.ObjectMeta{Name: n.Name, UID: g.uid()},
			Spec:       storagev1.CSINodeSpec{Drivers: []storagev1.CSINodeDriver{d}},
		})
	}
	zoneOf := map[string]string{}
	for _, n := range g.nodes {
		zoneOf[n.Name] = n.Labels["topology.kubernetes.io/zone"]
	}
	type shared struct {
		ns, claim string
	}
	var rwop []shared
	volume := func(p *v1.Pod, i int) {
		name := fmt.Sprintf("%s-data-%d", p.Name, i)
		vol := v1.Volume{Name: fmt.Sprintf("data-%d", i)}
		switch r := g.r.Float64(); {
		case r < 0.05: // a claim that does not exist
			vol.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: name}
			p.Spec.Volumes = append(p.Spec.Volumes, vol)
			return
		case r < 0.15 && len(rwop) > 0 && p.Spec.NodeName == "": // another pod's ReadWriteOncePod claim
			s := pickOf(g, rwop)
			if s.ns == p.Namespace {
				vol.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: s.claim}
				p.Spec.Volumes = append(p.Spec.Volumes, vol)
				return
			}
		}
		class := "standard"
		mode := v1.ReadWriteOnce
		if g.chance(0.2) {
			mode = v1.ReadWriteOncePod
			rwop = append(rwop, shared{p.Namespace, name})
		}
		pvc := &v1.PersistentVolumeClaim{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: p.Namespace, UID: g.uid()},
			Spec: v1.PersistentVolumeClaimSpec{
				AccessModes:      []v1.PersistentVolumeAccessMode{mode},
				StorageClassName: &class,
				Resources:        v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: *gibi(int64(1 + g.pick(20)))}},
			},
		}
		vol.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: name}
		p.Spec.Volumes = append(p.Spec.Volumes, vol)
		if p.Spec.NodeName == "" && g.chance(0.1) { // unbound, Immediate: waits for the PV controller
			pvc.Status.Phase = v1.ClaimPending
			g.storage = append(g.storage, pvc)
			return
		}
		zone := pickOf(g, g.zones)
		if p.Spec.NodeName != "" {
			zone = zoneOf[p.Spec.NodeName]
		}
		pvName := "pv-" + name
		pv := &v1.PersistentVolume{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolume"},
			ObjectMeta: metav1.ObjectMeta{Name: pvName, UID: g.uid(), Labels: map[string]string{}},
			Spec: v1.PersistentVolumeSpec{
				Capacity:                      v1.ResourceList{v1.ResourceStorage: pvc.Spec.Resources.Requests[v1.ResourceStorage]},
				AccessModes:                   []v1.PersistentVolumeAccessMode{mode},
				StorageClassName:              class,
				PersistentVolumeReclaimPolicy: v1.PersistentVolumeReclaimDelete,
				ClaimRef:                      &v1.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: p.Namespace, Name: name, UID: pvc.UID},
				PersistentVolumeSource: v1.PersistentVolumeSource{
					CSI: &v1.CSIPersistentVolumeSource{Driver: csiDriver, VolumeHandle: "disk-" + name},
				},
			},
			Status: v1.PersistentVolumeStatus{Phase: v1.VolumeBound},
		}
		if g.chance(0.6) {
			pv.Labels["topology.kubernetes.io/zone"] = zone
		}
		if g.chance(0.5) {
			pv.Spec.NodeAffinity = &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{
				MatchExpressions: []v1.NodeSelectorRequirement{{Key: "topology.kubernetes.io/zone", Operator: v1.NodeSelectorOpIn, Values: []string{zone}}},
			}}}}
		}
		pvc.Spec.VolumeName = pvName
		pvc.Annotations = map[string]string{"pv.kubernetes.io/bind-completed": "yes"}
		pvc.Status.Phase = v1.ClaimBound
		g.storage = append(g.storage, pvc, pv)
		if p.Spec.NodeName != "" && g.chance(0.5) {
			g.storage = append(g.storage, &storagev1.VolumeAttachment{
				TypeMeta:   metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "VolumeAttachment"},
				ObjectMeta: metav1.ObjectMeta{Name: "csi-" + name, UID: g.uid()},
				Spec: storagev1.VolumeAttachmentSpec{
					Attacher: csiDriver, NodeName: p.Spec.NodeName,
					Source: storagev1.VolumeAttachmentSource{PersistentVolumeName: &pvName},
				},
				Status: storagev1.VolumeAttachmentStatus{Attached: true},
			})
		}
	}
	g.forSomePods(0.3, volume)
}

func ptr[T any](v T) *T { return &v }
