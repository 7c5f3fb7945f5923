package main

// The "draExtended" feature: extended resources backed by DeviceClasses
// (DRAExtendedResource, GA in v1.37). It only comes with the "dra" feature
// (40% of those scenarios) and draws from a stream of its own, after
// genDRA, so that the DRA objects and every other part of a scenario are
// what they were before it existed; it changes objects genDRA and the
// earlier streams made.
//
//   - Explicit names: some DeviceClasses (at least one) get
//     spec.extendedResourceName "example.com/<driver short name>-<k>", k
//     counting up, so no two classes share a name (with duplicates upstream's
//     cache picks a class by creation time and name). Every class also
//     stands for its implicit name deviceclass.resource.kubernetes.io/<class>.
//   - Nodes: for some explicit names, 1–3 nodes (any: with the class's
//     devices or without) have the name in status.allocatable and capacity,
//     as a device plugin would publish it (0–4, now and then 0, which
//     NodeResourcesFit still leaves to DRA); sometimes a running pod there
//     already uses some.
//   - Pending pods: some (a share drawn per scenario, at most 10, replicas
//     mostly alike) ask for one name, sometimes two: an explicit one
//     (likelier) or an implicit one, rarely the implicit name of a class
//     that does not exist. Requests and limits are equal integers 1–3 (as
//     the API requires of extended resources), in the first container
//     mostly and in others now and then; sometimes the pod gets one more
//     init container (not a sidecar), sidecar (an init container with
//     restartPolicy Always) or container, which mostly asks too — so that
//     upstream's per-container requests, the reuse of later requests by
//     init containers, and the mappings vary. Pods genDRA gave claims may
//     be among them.
//   - Scoring: when the scenario's configuration scores NodeResourcesFit
//     resources, sometimes an explicit name joins them (DRA-backed scoring).
//
// Left out: running pods holding such a claim already (a claim made by an
// earlier scheduler with the pod's status.extendedResourceClaimStatus).

import (
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
)

// Added containers' names (no generated pod uses them).
const (
	extInitName    = "dev-init"
	extSidecarName = "dev-sidecar"
	extWorkerName  = "dev-worker"
)

// extCounts counts what genExtended made, for scenario.txt.
type extCounts struct {
	classes, nodes, pods int
}

// extContainer is a container a plan adds: an init container (sidecar or
// not) at index pos of initContainers, or a container at the end.
type extContainer struct {
	name    string
	init    bool
	sidecar bool
	pos     int
}

// extAsk is one container's request (and limit) for one resource.
type extAsk struct {
	container string
	resource  v1.ResourceName
	count     int64
}

// extPlan is what one pod asks for; its replicas reuse it.
type extPlan struct {
	added []extContainer
	asks  []extAsk
}

// genExtended draws the feature; config is the scenario's configuration
// (nil without one).
func (d *draGen) genExtended(config obj) extCounts {
	var n extCounts
	type mapped struct {
		class *resourcev1.DeviceClass
		short string
	}
	var classes []mapped
	for _, o := range d.dclasses {
		c := o.(*resourcev1.DeviceClass)
		for _, drv := range d.drivers {
			if slices.Contains(d.deviceClasses[drv.name], c.Name) {
				classes = append(classes, mapped{c, drv.short})
			}
		}
	}
	var explicit []v1.ResourceName
	chosen := make([]bool, len(classes))
	for i := range classes {
		chosen[i] = d.chance(0.5)
	}
	if !slices.Contains(chosen, true) {
		chosen[d.pick(len(classes))] = true
	}
	for i, m := range classes {
		if !chosen[i] {
			continue
		}
		name := fmt.Sprintf("example.com/%s-%d", m.short, len(explicit))
		m.class.Spec.ExtendedResourceName = ptr(name)
		explicit = append(explicit, v1.ResourceName(name))
	}
	n.classes = len(explicit)

	// What pods may ask for: explicit names three times as often as
	// implicit ones.
	var cands []v1.ResourceName
	for _, r := range explicit {
		cands = append(cands, r, r, r)
	}
	for _, m := range classes {
		cands = append(cands, v1.ResourceName(resourcev1.ResourceDeviceClassPrefix+m.class.Name))
	}

	for _, r := range explicit {
		if d.chance(0.6) {
			n.nodes += d.devicePlugin(r)
		}
	}

	share := 0.2 + 0.3*d.r.Float64()
	var prev *v1.Pod
	var prevPlan *extPlan
	for _, p := range d.pending {
		same := prev != nil && prev.Namespace == p.Namespace && prev.Labels["pod-template-hash"] == p.Labels["pod-template-hash"]
		var plan *extPlan
		switch {
		case same && prevPlan != nil && d.chance(0.85):
			plan = prevPlan
		case !same && n.pods < 10 && d.chance(share):
			plan = d.extPlan(p, cands)
		}
		if plan != nil {
			applyExtPlan(p, plan)
			n.pods++
		}
		prev, prevPlan = p, plan
	}
	if n.pods == 0 {
		p := pickOf(d.gen, d.pending)
		applyExtPlan(p, d.extPlan(p, cands))
		n.pods++
	}

	// The draw stays so that turning scoring on keeps the other choices.
	if config != nil && d.chance(0.5) && scoreDRAExtended {
		d.scoreExtended(config, explicit)
	}
	return n
}

// devicePlugin puts the resource into the allocatable and capacity of 1–3
// nodes and sometimes has a running pod there use some; it returns the
// number of nodes.
func (d *draGen) devicePlugin(r v1.ResourceName) int {
	k := min(len(d.nodes), 1+d.pick(3))
	for _, i := range d.r.Perm(len(d.nodes))[:k] {
		node := d.nodes[i]
		amount := pickOf(d.gen, []int64{0, 1, 2, 2, 3, 4})
		node.Status.Allocatable[r] = *count(amount)
		node.Status.Capacity[r] = *count(amount)
		if amount == 0 || !d.chance(0.5) {
			continue
		}
		var on []*v1.Pod
		for _, p := range d.running {
			if p.Spec.NodeName == node.Name {
				on = append(on, p)
			}
		}
		if len(on) > 0 {
			p := pickOf(d.gen, on)
			setExtRequest(&p.Spec.Containers[0], r, 1+int64(d.pick(int(amount))))
		}
	}
	return k
}

// extPlan draws what a pending pod asks for: sometimes added containers,
// then 1–2 resources, each asked by some of the containers (the first
// container, or else an added one, when none was drawn).
func (d *draGen) extPlan(p *v1.Pod, cands []v1.ResourceName) *extPlan {
	plan := &extPlan{}
	inits := len(p.Spec.InitContainers)
	if d.chance(0.25) {
		plan.added = append(plan.added, extContainer{name: extInitName, init: true, pos: d.pick(inits + 1)})
		inits++
	}
	if d.chance(0.2) {
		plan.added = append(plan.added, extContainer{name: extSidecarName, init: true, sidecar: true, pos: d.pick(inits + 1)})
	}
	if d.chance(0.15) {
		plan.added = append(plan.added, extContainer{name: extWorkerName})
	}
	// The containers as they will be: initContainers, then containers.
	tmp := p.DeepCopy()
	addExtContainers(tmp, plan.added)
	var names []string
	for _, c := range tmp.Spec.InitContainers {
		names = append(names, c.Name)
	}
	for _, c := range tmp.Spec.Containers {
		names = append(names, c.Name)
	}
	first := tmp.Spec.Containers[0].Name

	var resources []v1.ResourceName
	for want := 1 + map[bool]int{true: 1}[d.chance(0.2)]; len(resources) < want; {
		r := pickOf(d.gen, cands)
		if d.chance(0.03) {
			r = v1.ResourceName(resourcev1.ResourceDeviceClassPrefix + pickOf(d.gen, d.drivers).short + "-legacy")
		}
		if !slices.Contains(resources, r) {
			resources = append(resources, r)
		} else if len(slices.Compact(slices.Sorted(slices.Values(cands)))) < want {
			break
		}
	}
	for _, r := range resources {
		asked := false
		for _, name := range names {
			pr := 0.35
			switch {
			case name == first:
				pr = 0.85
			case slices.ContainsFunc(plan.added, func(c extContainer) bool { return c.name == name }):
				pr = 0.8
			}
			if d.chance(pr) {
				plan.asks = append(plan.asks, extAsk{container: name, resource: r, count: pickOf(d.gen, []int64{1, 1, 1, 2, 2, 3})})
				asked = true
			}
		}
		if !asked {
			plan.asks = append(plan.asks, extAsk{container: first, resource: r, count: 1})
		}
	}
	return plan
}

// addExtContainers adds a plan's containers: a little cpu each, unless the
// pod asks for resources at the pod level (which must cover its
// containers').
func addExtContainers(p *v1.Pod, added []extContainer) {
	for _, a := range added {
		c := v1.Container{Name: a.name, Image: "busybox"}
		if p.Spec.Resources == nil {
			c.Resources.Requests = v1.ResourceList{v1.ResourceCPU: *milli(50)}
		}
		switch {
		case !a.init:
			p.Spec.Containers = append(p.Spec.Containers, c)
		default:
			if a.sidecar {
				always := v1.ContainerRestartPolicyAlways
				c.RestartPolicy = &always
			}
			pos := min(a.pos, len(p.Spec.InitContainers))
			p.Spec.InitContainers = slices.Insert(p.Spec.InitContainers, pos, c)
		}
	}
}

func applyExtPlan(p *v1.Pod, plan *extPlan) {
	addExtContainers(p, plan.added)
	for _, a := range plan.asks {
		for _, cs := range [][]v1.Container{p.Spec.InitContainers, p.Spec.Containers} {
			for i := range cs {
				if cs[i].Name == a.container {
					setExtRequest(&cs[i], a.resource, a.count)
				}
			}
		}
	}
}

// setExtRequest sets the container's request and limit (equal, as the API
// requires of extended resources).
func setExtRequest(c *v1.Container, r v1.ResourceName, n int64) {
	if c.Resources.Requests == nil {
		c.Resources.Requests = v1.ResourceList{}
	}
	if c.Resources.Limits == nil {
		c.Resources.Limits = v1.ResourceList{}
	}
	c.Resources.Requests[r] = *count(n)
	c.Resources.Limits[r] = *count(n)
}

// scoreDRAExtended: whether scenarios name an extended resource backed by
// DRA among NodeResourcesFit's scored resources (scored from the class's
// devices on the node).
const scoreDRAExtended = true

// scoreExtended adds an explicit name to the scored resources of the
// NodeResourcesFit args that list some (so that NodeResourcesFit scores it
// from the DRA devices where no device plugin offers it).
func (d *draGen) scoreExtended(config obj, explicit []v1.ResourceName) {
	profiles, _ := config["profiles"].([]any)
	for _, p := range profiles {
		pc, _ := p.(obj)["pluginConfig"].([]any)
		for _, e := range pc {
			entry := e.(obj)
			if entry["name"] != "NodeResourcesFit" {
				continue
			}
			a, _ := entry["args"].(obj)
			st, _ := a["scoringStrategy"].(obj)
			rs, _ := st["resources"].([]any)
			if len(rs) == 0 {
				continue
			}
			st["resources"] = append(rs, obj{"name": string(pickOf(d.gen, explicit)), "weight": 1 + d.pick(5)})
		}
	}
}
