package main

// The "batch" feature: upstream's OpportunisticBatching (KEP-5598, on by
// default in v1.37) at work. A pod gets a node hint from the previous
// scheduling cycle when both sign alike, and a profile signs a pod only when
// every PreFilter/Filter/PreScore/Score plugin can:
//
//   - PodTopologySpread refuses pods with topologySpreadConstraints, and
//     every pod when it has default constraints (the "System" defaulting
//     has some): each profile gets PodTopologySpread args
//     `defaultingType: List` without defaultConstraints;
//   - InterPodAffinity refuses pods with pod (anti-)affinity, and signs the
//     pod's labels unless ignorePreferredTermsOfExistingPods is set (half of
//     the profiles set it);
//   - DynamicResources refuses pods with resourceClaims.
//
// The pending pods then come largely in runs of identical replicas: some
// pending pods that may head a run (batchSources: signable, and not bound to
// fail in every copy) are followed by 1–11 copies of themselves (another
// name and uid, nothing else), so that the queue pops them one after another
// (input order, same priority). Creation timestamps stay consecutive: the
// copies take the seconds after their pod's, and the pods after a run move
// later by as many seconds.
//
// The feature draws from a stream of its own, after every other one, so
// that scenarios without it are what they were before it existed, and the
// copies are copies of the pods as the other streams left them (volumes,
// claims, owner references, schedulerName, v1.37 fields).

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

const (
	maxRunLength   = 12 // pods in a run, the first included
	maxBatchCopies = 60 // copies added to one scenario at most
)

// batchRuns counts what genBatch made, for scenario.txt.
type batchRuns struct {
	runs, pods int
}

// genBatch makes the configuration (created when the scenario has none)
// let every profile sign pods, and turns some pending pods into runs.
func (g *gen) genBatch(cfg obj) (obj, batchRuns) {
	cfg = g.batchConfig(cfg)
	return cfg, g.batchRuns()
}

// batchConfig gives every profile (the pending pods' schedulerName picks
// one of them) PodTopologySpread args without default constraints, and
// sometimes InterPodAffinity's ignorePreferredTermsOfExistingPods. Whatever
// else the configuration drew stays.
func (g *gen) batchConfig(cfg obj) obj {
	if cfg == nil {
		cfg = obj{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
	}
	profiles, _ := cfg["profiles"].([]any)
	if len(profiles) == 0 {
		p := obj{}
		if g.chance(0.5) {
			p["schedulerName"] = "default-scheduler" // or left to the default
		}
		profiles = []any{p}
	}
	for _, p := range profiles {
		prof := p.(obj)
		pc, _ := prof["pluginConfig"].([]any)
		pc = g.setArgs(pc, "PodTopologySpread", func(a obj) {
			a["defaultingType"] = "List"
			delete(a, "defaultConstraints")
		})
		if g.chance(0.5) {
			pc = g.setArgs(pc, "InterPodAffinity", func(a obj) {
				a["ignorePreferredTermsOfExistingPods"] = true
			})
		}
		prof["pluginConfig"] = pc
	}
	cfg["profiles"] = profiles
	return cfg
}

// setArgs changes the plugin's args in a pluginConfig list, adding an entry
// when it has none.
func (g *gen) setArgs(pc []any, plugin string, set func(obj)) []any {
	for _, e := range pc {
		entry := e.(obj)
		if entry["name"] != plugin {
			continue
		}
		a, _ := entry["args"].(obj)
		if a == nil {
			a = obj{}
			entry["args"] = a
		}
		set(a)
		return pc
	}
	a := obj{}
	set(a)
	return append(pc, g.args(plugin, a))
}

// batchSources tells which pending pods may head a run: upstream's profiles
// can sign them (with the configuration batchConfig makes), a profile
// schedules them, and their copies are not bound to fail all alike — every
// claim they name exists, is bound and is not ReadWriteOncePod (a missing
// claim, an unbound Immediate one or a shared ReadWriteOncePod one fails
// every copy; the binding feature's WaitForFirstConsumer claims take the
// oracle a second of wall time to bind, longer than a batch lives), and
// they fit on two nodes at least when their turn comes (see place). A hint needs two feasible nodes in the cycle before it, and a pod
// that has to preempt comes back nominated, which takes no hint.
type batchSources struct {
	claims  map[string]*v1.PersistentVolumeClaim // namespace/name -> claim (storage feature)
	nodes   []*v1.Node                           // the schedulable ones
	free    []v1.ResourceList                    // per node
	ports   []map[string]bool                    // per node: host ports in use ("TCP/8080")
	running []*v1.Pod
}

func hostPorts(p *v1.Pod) []string {
	var out []string
	for _, c := range p.Spec.Containers {
		for _, port := range c.Ports {
			if port.HostPort > 0 {
				out = append(out, fmt.Sprintf("%s/%d", port.Protocol, port.HostPort))
			}
		}
	}
	return out
}

func (g *gen) newBatchSources() *batchSources {
	b := &batchSources{claims: map[string]*v1.PersistentVolumeClaim{}, running: g.running}
	for _, o := range g.storage {
		if c, ok := o.(*v1.PersistentVolumeClaim); ok {
			b.claims[c.Namespace+"/"+c.Name] = c
		}
	}
	for _, n := range g.nodes {
		if !n.Spec.Unschedulable {
			ports := map[string]bool{}
			for _, r := range g.running {
				if r.Spec.NodeName == n.Name {
					for _, hp := range hostPorts(r) {
						ports[hp] = true
					}
				}
			}
			b.nodes = append(b.nodes, n)
			b.free = append(b.free, g.free[n.Name].DeepCopy())
			b.ports = append(b.ports, ports)
		}
	}
	return b
}

// place is a rough guess at where the pod goes: the node with the most
// free cpu among those it fits on (resources, host ports, taints,
// nodeSelector, required node affinity, running pods' required
// anti-affinity); it returns how many nodes it fits on.
func (b *batchSources) place(p *v1.Pod) int {
	req, ports := requests(p), hostPorts(p)
	best, fitting := -1, 0
	for i, f := range b.free {
		n := b.nodes[i]
		if !fits(f, req) || slices.ContainsFunc(ports, func(hp string) bool { return b.ports[i][hp] }) ||
			!tolerates(p, n) || !matchesNodeSelector(p, n) || !matchesRequiredAffinity(p, n) || b.repelled(p, n) {
			continue
		}
		fitting++
		if best < 0 || f.Cpu().Cmp(*b.free[best].Cpu()) > 0 {
			best = i
		}
	}
	if best >= 0 {
		sub(b.free[best], req)
		for _, hp := range ports {
			b.ports[best][hp] = true
		}
	}
	return fitting
}

// repelled is whether a running pod's required anti-affinity term selects
// the pod in the node's topology domain (namespaceSelector taken as all).
func (b *batchSources) repelled(p *v1.Pod, n *v1.Node) bool {
	for _, r := range b.running {
		a := r.Spec.Affinity
		if a == nil || a.PodAntiAffinity == nil {
			continue
		}
		for _, t := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			node := b.nodeNamed(r.Spec.NodeName)
			if node == nil || node.Labels[t.TopologyKey] == "" || node.Labels[t.TopologyKey] != n.Labels[t.TopologyKey] {
				continue
			}
			if t.NamespaceSelector == nil && !slices.Contains(t.Namespaces, p.Namespace) && (len(t.Namespaces) > 0 || r.Namespace != p.Namespace) {
				continue
			}
			if sel, err := metav1.LabelSelectorAsSelector(t.LabelSelector); err == nil && sel.Matches(labels.Set(p.Labels)) {
				return true
			}
		}
	}
	return false
}

func (b *batchSources) nodeNamed(name string) *v1.Node {
	for _, n := range b.nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// matchesRequiredAffinity is whether the node matches the pod's required
// node affinity (terms ORed, requirements ANDed).
func matchesRequiredAffinity(p *v1.Pod, n *v1.Node) bool {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return true
	}
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		ok := len(t.MatchExpressions)+len(t.MatchFields) > 0
		for _, r := range t.MatchExpressions {
			v, has := n.Labels[r.Key]
			ok = ok && nodeRequirement(r, v, has)
		}
		for _, r := range t.MatchFields {
			ok = ok && nodeRequirement(r, n.Name, true)
		}
		if ok {
			return true
		}
	}
	return false
}

func nodeRequirement(r v1.NodeSelectorRequirement, v string, has bool) bool {
	switch r.Operator {
	case v1.NodeSelectorOpIn:
		return has && slices.Contains(r.Values, v)
	case v1.NodeSelectorOpNotIn:
		return !has || !slices.Contains(r.Values, v)
	case v1.NodeSelectorOpExists:
		return has
	case v1.NodeSelectorOpDoesNotExist:
		return !has
	case v1.NodeSelectorOpGt, v1.NodeSelectorOpLt:
		x, err1 := strconv.Atoi(v)
		y, err2 := strconv.Atoi(r.Values[0])
		if !has || err1 != nil || err2 != nil {
			return false
		}
		return (r.Operator == v1.NodeSelectorOpGt && x > y) || (r.Operator == v1.NodeSelectorOpLt && x < y)
	}
	return false
}

// goodVolume is whether the volume leaves the copies a chance.
func (b *batchSources) goodVolume(ns string, vol v1.Volume) bool {
	if vol.PersistentVolumeClaim == nil {
		return true
	}
	c := b.claims[ns+"/"+vol.PersistentVolumeClaim.ClaimName]
	return c != nil && c.Status.Phase == v1.ClaimBound && !slices.Contains(c.Spec.AccessModes, v1.ReadWriteOncePod)
}

// signable is whether the pod may head a run, requests aside.
func (b *batchSources) signable(p *v1.Pod) bool {
	if len(p.Spec.TopologySpreadConstraints) > 0 || len(p.Spec.ResourceClaims) > 0 {
		return false
	}
	if a := p.Spec.Affinity; a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil) {
		return false
	}
	if p.Spec.SchedulerName == "other-scheduler" {
		return false
	}
	for _, vol := range p.Spec.Volumes {
		if !b.goodVolume(p.Namespace, vol) {
			return false
		}
	}
	return true
}

// strip is a copy of the pod without what keeps it from heading a run
// (requests aside).
func (b *batchSources) strip(p *v1.Pod) *v1.Pod {
	s := p.DeepCopy()
	s.Spec.TopologySpreadConstraints = nil
	// Without its resource claims, its containers name none either (the
	// API server refuses a container claim the pod does not have).
	s.Spec.ResourceClaims = nil
	for _, cs := range [][]v1.Container{s.Spec.Containers, s.Spec.InitContainers} {
		for i := range cs {
			cs[i].Resources.Claims = nil
		}
	}
	if a := s.Spec.Affinity; a != nil {
		a.PodAffinity, a.PodAntiAffinity = nil, nil
		if a.NodeAffinity == nil {
			s.Spec.Affinity = nil
		}
	}
	if s.Spec.SchedulerName == "other-scheduler" {
		s.Spec.SchedulerName = ""
	}
	s.Spec.Volumes = slices.DeleteFunc(s.Spec.Volumes, func(vol v1.Volume) bool { return !b.goodVolume(s.Namespace, vol) })
	if len(s.Spec.Volumes) == 0 {
		s.Spec.Volumes = nil
	}
	return s
}

// batchRuns follows some of the pending pods that may head a run with
// copies of themselves. It walks them in queue order (priority, then input
// order), guessing where each pod and copy goes (place), so that a pod
// heads a run only if there is room for it when its turn comes, and a run
// ends one copy after the guess runs out of room. When no pod may head
// one, one run is made of copies of a pending pod (one with room if any)
// without what keeps it from heading one. The copies are at most twice the nodes (at least 6, at
// most maxBatchCopies): more would mostly stay pending.
func (g *gen) batchRuns() batchRuns {
	share := 0.3 + 0.5*g.r.Float64()
	budget := min(maxBatchCopies, max(6, 2*len(g.nodes)))
	src := g.newBatchSources()
	copies := make([]int, len(g.pending)) // copies to add after each pod
	order := make([]int, len(g.pending))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return g.priority(g.pending[j]) - g.priority(g.pending[i]) })
	var eligible, roomy []int // heads that may be, pods with room
	var st batchRuns
	for _, i := range order {
		p := g.pending[i]
		if src.place(p) < 2 {
			continue
		}
		roomy = append(roomy, i)
		if !src.signable(p) {
			continue
		}
		eligible = append(eligible, i)
		if budget == 0 || !g.chance(share) {
			continue
		}
		// As many copies as drawn, or as seem to find room, and one more.
		n := min(1+g.pick(maxRunLength-1), budget)
		for k := 0; k < n; k++ {
			if src.place(p) == 0 {
				n = k + 1
			}
		}
		copies[i] = n
		budget -= n
		st.runs++
		st.pods += 1 + n
	}
	var stripped *v1.Pod // the fallback run's model
	strippedAfter := -1
	switch {
	case st.runs == 0 && len(eligible) > 0:
		i := pickOf(g, eligible)
		copies[i] = min(1+g.pick(maxRunLength-1), budget)
		st.runs, st.pods = 1, 1+copies[i]
	case st.runs == 0:
		if len(roomy) > 0 {
			strippedAfter = pickOf(g, roomy)
		} else {
			strippedAfter = g.pick(len(g.pending))
		}
		stripped = src.strip(g.pending[strippedAfter])
		copies[strippedAfter] = min(2+g.pick(maxRunLength-1), budget)
		st.runs, st.pods = 1, copies[strippedAfter]
	}

	var out []*v1.Pod
	shift := time.Duration(0)
	for i, p := range g.pending {
		p.CreationTimestamp = metav1.NewTime(p.CreationTimestamp.Add(shift))
		out = append(out, p)
		model := p
		if i == strippedAfter {
			model = stripped
		}
		for k := 0; k < copies[i]; k++ {
			c := model.DeepCopy()
			c.Name = g.name(model.Labels["app"])
			c.UID = g.uid()
			shift += time.Second
			c.CreationTimestamp = metav1.NewTime(p.CreationTimestamp.Add(time.Duration(k+1) * time.Second))
			out = append(out, c)
		}
	}
	g.pending = out
	return st
}

// priority is the pod's priority as the scheduler resolves it.
func (g *gen) priority(p *v1.Pod) int {
	if p.Spec.Priority != nil {
		return int(*p.Spec.Priority)
	}
	if c := g.class(p.Spec.PriorityClassName); c != nil {
		return int(c.Value)
	}
	if g.f.globalDefault {
		if c := g.class("medium"); c != nil {
			return int(c.Value)
		}
	}
	return 0
}
