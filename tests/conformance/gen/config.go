package main

// The "config" feature: a random, valid KubeSchedulerConfiguration
// (kubescheduler.config.k8s.io/v1) that both programs get with --config.
// It is drawn from a stream of its own, after every other part of the
// scenario, so that scenarios without it are what they were before it
// existed. The only change it makes to the cluster is spec.schedulerName on
// some pending pods, when it draws a second profile. The "batch" feature
// (batch.go, drawn later still) may then set PodTopologySpread's and
// InterPodAffinity's args in every profile, or make a configuration of its
// own.
//
// Everything drawn is valid for upstream v1.37: oracle's
// TestValidateScenarios decodes it with upstream's scheme, validates it and
// builds the frameworks. Not drawn: extenders (the oracle rejects them),
// DynamicResourcesArgs.bindingTimeout (until claims are modelled),
// and configurations upstream refuses at framework construction (a profile
// without a queue sort or bind plugin, a plugin enabled twice or at an
// extension point it does not implement, Filter without its PreFilter).

import "sigs.k8s.io/yaml"

const configFile = "scheduler.conf"

// secondScheduler is the schedulerName of the second profile.
const secondScheduler = "batch-scheduler"

// Default plugins and the extension points this generator touches.
var (
	// Filter plugins, named in filter.enabled (which moves them to the
	// front) or disabled at filter only: their PreFilter stays (a Filter
	// without its PreFilter state would be an error, which is valid but
	// says nothing).
	filterPlugins = []string{
		"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
		"NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding",
		"VolumeZone", "PodTopologySpread", "InterPodAffinity", "NodeDeclaredFeatures",
	}
	// Score plugins and their default weights.
	scorePlugins = []struct {
		name   string
		weight int
	}{
		{"TaintToleration", 3}, {"NodeAffinity", 2}, {"NodeResourcesFit", 1},
		{"PodTopologySpread", 2}, {"InterPodAffinity", 2}, {"NodeResourcesBalancedAllocation", 1},
		{"ImageLocality", 1}, {"VolumeBinding", 1},
	}
	// Plugins that may be disabled altogether (multiPoint): everything but
	// PrioritySort and DefaultBinder (a profile needs both).
	removablePlugins = []string{
		"SchedulingGates", "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
		"NodePorts", "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding",
		"VolumeZone", "PodTopologySpread", "InterPodAffinity", "DynamicResources",
		"DefaultPreemption", "NodeResourcesBalancedAllocation", "ImageLocality", "NodeDeclaredFeatures",
	}
	// The default multiPoint list (v1 default_plugins.go with the v1.37
	// gates), with weights for score plugins.
	defaultMultiPoint = []struct {
		name   string
		weight int
	}{
		{"SchedulingGates", 0}, {"PrioritySort", 0}, {"NodeName", 0}, {"NodeUnschedulable", 0},
		{"TaintToleration", 3}, {"NodeAffinity", 2}, {"NodePorts", 0}, {"NodeResourcesFit", 1},
		{"VolumeRestrictions", 0}, {"NodeVolumeLimits", 0}, {"VolumeBinding", 0}, {"VolumeZone", 0},
		{"PodTopologySpread", 2}, {"InterPodAffinity", 2}, {"DynamicResources", 2},
		{"DefaultPreemption", 0}, {"NodeResourcesBalancedAllocation", 1}, {"ImageLocality", 1},
		{"DefaultBinder", 0}, {"NodeDeclaredFeatures", 0},
	}
)

type obj = map[string]any

func plugin(name string, weight int) obj {
	p := obj{"name": name}
	if weight != 0 {
		p["weight"] = weight
	}
	return p
}

// genConfig draws the configuration and, with a second profile, names it in
// some pending pods. The "batch" feature (batch.go) may still change it;
// marshalConfig writes it.
func (g *gen) genConfig() obj {
	cfg := obj{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
	if g.chance(0.3) {
		cfg["percentageOfNodesToScore"] = g.pick(101)
	}
	if g.chance(0.2) {
		cfg["parallelism"] = 1 + g.pick(32)
	}
	if g.chance(0.2) {
		initial := 1 + g.pick(5)
		cfg["podInitialBackoffSeconds"] = initial
		cfg["podMaxBackoffSeconds"] = initial + g.pick(20)
	}
	nProfiles := 1
	if g.chance(0.35) {
		nProfiles = 2
	}
	var profiles []any
	for i := 0; i < nProfiles; i++ {
		p := g.genProfile()
		switch {
		case i == 1:
			p["schedulerName"] = secondScheduler
		case nProfiles == 2 || g.chance(0.5):
			// A single profile may leave it out (defaulted).
			p["schedulerName"] = "default-scheduler"
		}
		if len(p) > 0 || nProfiles > 1 || g.chance(0.5) {
			profiles = append(profiles, p)
		}
	}
	if len(profiles) > 0 {
		cfg["profiles"] = profiles
	}
	if nProfiles == 2 {
		g.nameSecondProfile()
	}
	return cfg
}

// marshalConfig is the scheduler.conf text of a configuration (nil for none).
func marshalConfig(cfg obj) []byte {
	if cfg == nil {
		return nil
	}
	data, err := yaml.Marshal(cfg)
	if err != nil {
		panic(err)
	}
	return data
}

// nameSecondProfile sets spec.schedulerName on the pods of some pending
// replica groups (all replicas of a template alike), sometimes explicitly
// to the default profile.
//
// A few groups name a scheduler no profile has: they stay pending, with
// upstream's "profile not found for scheduler name" message.
func (g *gen) nameSecondProfile() {
	share := 0.2 + 0.6*g.r.Float64()
	choice := map[string]string{}
	for _, p := range g.pending {
		key := p.Namespace + "/" + p.Labels["app"] + "/" + p.Labels["pod-template-hash"]
		name, ok := choice[key]
		if !ok {
			switch x := g.r.Float64(); {
			case x < share:
				name = secondScheduler
			case x < share+0.1:
				name = "default-scheduler"
			case x < share+0.14:
				name = "other-scheduler"
			}
			choice[key] = name
		}
		if name != "" {
			p.Spec.SchedulerName = name
		}
	}
}

func (g *gen) genProfile() obj {
	prof := obj{}
	if g.chance(0.25) {
		prof["percentageOfNodesToScore"] = g.pick(101)
	}
	if plugins := g.genPlugins(); len(plugins) > 0 {
		prof["plugins"] = plugins
	}
	if pc := g.genPluginConfig(); len(pc) > 0 {
		prof["pluginConfig"] = pc
	}
	return prof
}

// genPlugins draws changes to the default plugin sets. Each extension point
// is touched at most once, and a plugin is named at most once per list.
func (g *gen) genPlugins() obj {
	plugins := obj{}
	set := func(point string, enabled, disabled []any) {
		ps := obj{}
		if len(enabled) > 0 {
			ps["enabled"] = enabled
		}
		if len(disabled) > 0 {
			ps["disabled"] = disabled
		}
		if len(ps) > 0 {
			plugins[point] = ps
		}
	}

	// multiPoint: replace the whole list (disabled "*", re-enabled in another
	// order with other weights), or disable some plugins and re-weight others.
	// A plugin removed here is not enabled again at a single extension point
	// below (its PreFilter/PreScore would be missing).
	removed := map[string]bool{}
	switch x := g.r.Float64(); {
	case x < 0.12:
		var enabled []any
		for _, k := range g.r.Perm(len(defaultMultiPoint)) {
			p := defaultMultiPoint[k]
			required := p.name == "PrioritySort" || p.name == "DefaultBinder"
			if !required && g.chance(0.2) {
				removed[p.name] = true
				continue
			}
			w := p.weight
			if w != 0 && g.chance(0.5) {
				w = g.weight()
			}
			enabled = append(enabled, plugin(p.name, w))
		}
		set("multiPoint", enabled, []any{plugin("*", 0)})
	case x < 0.45:
		var enabled, disabled []any
		used := map[string]bool{}
		for i := 0; i < g.pick(3); i++ {
			name := pickOf(g, removablePlugins)
			if !used[name] {
				used[name] = true
				removed[name] = true
				disabled = append(disabled, plugin(name, 0))
			}
		}
		for i := 0; i < g.pick(3); i++ {
			sp := pickOf(g, scorePlugins)
			if !used[sp.name] {
				used[sp.name] = true
				enabled = append(enabled, plugin(sp.name, g.weight()))
			}
		}
		set("multiPoint", enabled, disabled)
	}

	// filter: disable some Filters (their PreFilter stays), or name some in
	// front of the others (explicitly enabled plugins come first).
	if g.chance(0.3) {
		var enabled, disabled []any
		used := map[string]bool{}
		for _, k := range g.r.Perm(len(filterPlugins))[:1+g.pick(3)] {
			used[filterPlugins[k]] = true
			disabled = append(disabled, plugin(filterPlugins[k], 0))
		}
		if g.chance(0.4) {
			for _, k := range g.r.Perm(len(filterPlugins))[:1+g.pick(4)] {
				if !used[filterPlugins[k]] && !removed[filterPlugins[k]] {
					enabled = append(enabled, plugin(filterPlugins[k], 0))
				}
			}
		}
		set("filter", enabled, disabled)
	} else if g.chance(0.15) {
		var enabled []any
		for _, k := range g.r.Perm(len(filterPlugins))[:1+g.pick(5)] {
			if !removed[filterPlugins[k]] {
				enabled = append(enabled, plugin(filterPlugins[k], 0))
			}
		}
		set("filter", enabled, nil)
	}

	// score: re-weight, disable some, or disable all and re-enable a few.
	switch x := g.r.Float64(); {
	case x < 0.1:
		// A third of these keep no Score plugin: upstream then wants one
		// feasible node, and its scan stops at the second.
		var enabled []any
		n := 1 + g.pick(3)
		if g.chance(0.33) {
			n = 0
		}
		for _, k := range g.r.Perm(len(scorePlugins))[:n] {
			if !removed[scorePlugins[k].name] {
				enabled = append(enabled, plugin(scorePlugins[k].name, g.weight()))
			}
		}
		set("score", enabled, []any{plugin("*", 0)})
	case x < 0.45:
		var enabled, disabled []any
		perm := g.r.Perm(len(scorePlugins))
		nd := g.pick(3)
		for _, k := range perm[:nd] {
			disabled = append(disabled, plugin(scorePlugins[k].name, 0))
		}
		for _, k := range perm[nd : nd+g.pick(4)] {
			if removed[scorePlugins[k].name] {
				continue
			}
			w := 0
			if g.chance(0.85) {
				w = g.weight()
			}
			enabled = append(enabled, plugin(scorePlugins[k].name, w))
		}
		set("score", enabled, disabled)
	}

	// postFilter: preemption off (its PreEnqueue stays).
	if g.chance(0.08) {
		set("postFilter", nil, []any{plugin("DefaultPreemption", 0)})
	}
	// preEnqueue: SchedulingGates off.
	if g.chance(0.04) {
		set("preEnqueue", nil, []any{plugin("SchedulingGates", 0)})
	}
	return plugins
}

// weight is a score plugin weight: small mostly, sometimes large.
func (g *gen) weight() int {
	if g.chance(0.8) {
		return 1 + g.pick(10)
	}
	return 1 + g.pick(100)
}

// args wraps plugin args, sometimes with their apiVersion and kind.
func (g *gen) args(plugin string, a obj) obj {
	if g.chance(0.3) {
		a["apiVersion"] = "kubescheduler.config.k8s.io/v1"
		a["kind"] = plugin + "Args"
	}
	return obj{"name": plugin, "args": a}
}

var scoredResources = []string{"cpu", "memory", "ephemeral-storage", extendedResource}

func (g *gen) genPluginConfig() []any {
	var out []any
	if g.chance(0.5) {
		a := obj{}
		if g.chance(0.85) {
			st := obj{}
			typ := pickOf(g, []string{"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"})
			st["type"] = typ
			if g.chance(0.7) {
				var rs []any
				for _, k := range g.r.Perm(len(scoredResources))[:1+g.pick(len(scoredResources))] {
					r := obj{"name": scoredResources[k]}
					if g.chance(0.9) {
						r["weight"] = g.weight()
					} else {
						r["weight"] = 1
					}
					rs = append(rs, r)
				}
				if g.chance(0.05) {
					rs = append(rs, obj{"name": "pods", "weight": 1 + g.pick(5)})
				}
				st["resources"] = rs
			}
			if typ == "RequestedToCapacityRatio" {
				st["requestedToCapacityRatio"] = obj{"shape": g.shape()}
			}
			a["scoringStrategy"] = st
		}
		if g.chance(0.2) {
			a["ignoredResources"] = []any{extendedResource}
		}
		if g.chance(0.15) {
			a["ignoredResourceGroups"] = []any{"example.com"}
		}
		out = append(out, g.args("NodeResourcesFit", a))
	}
	if g.chance(0.3) {
		var rs []any
		for _, k := range g.r.Perm(len(scoredResources))[:1+g.pick(len(scoredResources))] {
			r := obj{"name": scoredResources[k]}
			if g.chance(0.5) {
				r["weight"] = 1
			}
			rs = append(rs, r)
		}
		out = append(out, g.args("NodeResourcesBalancedAllocation", obj{"resources": rs}))
	}
	if g.chance(0.3) {
		a := obj{}
		if g.chance(0.8) {
			a["hardPodAffinityWeight"] = pickOf(g, []int{0, 1, 5, 10, 50, 100, g.pick(101)})
		}
		if g.chance(0.5) {
			a["ignorePreferredTermsOfExistingPods"] = g.chance(0.6)
		}
		out = append(out, g.args("InterPodAffinity", a))
	}
	if g.chance(0.25) {
		na := obj{}
		if g.chance(0.6) {
			var terms []any
			for i := 0; i < 1+g.pick(2); i++ {
				terms = append(terms, g.nodeTerm())
			}
			na["requiredDuringSchedulingIgnoredDuringExecution"] = obj{"nodeSelectorTerms": terms}
		}
		if _, ok := na["requiredDuringSchedulingIgnoredDuringExecution"]; !ok || g.chance(0.5) {
			var prefs []any
			for i := 0; i < 1+g.pick(2); i++ {
				prefs = append(prefs, obj{"weight": 1 + g.pick(100), "preference": g.nodeTerm()})
			}
			na["preferredDuringSchedulingIgnoredDuringExecution"] = prefs
		}
		out = append(out, g.args("NodeAffinity", obj{"addedAffinity": na}))
	}
	if g.chance(0.3) {
		a := obj{}
		switch g.pick(4) {
		case 0:
			a["defaultingType"] = "System"
		case 1:
			a["defaultingType"] = "List" // no default constraints at all
		default:
			a["defaultingType"] = "List"
			var cs []any
			keys := []string{"topology.kubernetes.io/zone", "kubernetes.io/hostname"}
			for _, k := range g.r.Perm(2)[:1+g.pick(2)] {
				c := obj{
					"maxSkew":           1 + g.pick(4),
					"topologyKey":       keys[k],
					"whenUnsatisfiable": pickOf(g, []string{"DoNotSchedule", "ScheduleAnyway"}),
				}
				if c["whenUnsatisfiable"] == "DoNotSchedule" && g.chance(0.2) {
					c["minDomains"] = 1 + g.pick(4)
				}
				if g.chance(0.2) {
					c["nodeAffinityPolicy"] = pickOf(g, []string{"Honor", "Ignore"})
				}
				if g.chance(0.2) {
					c["nodeTaintsPolicy"] = pickOf(g, []string{"Honor", "Ignore"})
				}
				cs = append(cs, c)
			}
			a["defaultConstraints"] = cs
		}
		out = append(out, g.args("PodTopologySpread", a))
	}
	if g.chance(0.3) {
		// Upstream's dry run starts at a random node and stops after
		// max(percentage × nodes, absolute) candidates: fewer than the
		// nodes would make upstream itself random. So either the absolute
		// number covers every node (≥ 60, the most nodes a scenario has),
		// or the percentage is 100.
		a := obj{}
		if g.chance(0.7) {
			if g.chance(0.8) {
				a["minCandidateNodesPercentage"] = g.pick(101)
			}
			a["minCandidateNodesAbsolute"] = 60 + g.pick(141)
		} else {
			a["minCandidateNodesPercentage"] = 100
			if g.chance(0.8) {
				a["minCandidateNodesAbsolute"] = g.pick(201)
			}
		}
		out = append(out, g.args("DefaultPreemption", a))
	}
	if g.chance(0.2) {
		// A pod waits at most this long for its claims to be bound. Not 1:
		// upstream's PreBind polls first after one second, so a 1 s timeout
		// races with that poll (the oracle's answers vary).
		a := obj{"bindTimeoutSeconds": pickOf(g, []int{2, 5, 30, 600, 2 + g.pick(599)})}
		if g.chance(0.5) {
			// StorageCapacityScoring (on since v1.36) scores by it; with the
			// gate off a shape is refused (drawn all the same, so that the
			// draws after it do not move).
			if shape := g.shape(); g.gateEnabled("StorageCapacityScoring") {
				a["shape"] = shape
			}
		}
		out = append(out, g.args("VolumeBinding", a))
	}
	if g.chance(0.1) {
		out = append(out, g.args("DynamicResources", obj{"filterTimeout": pickOf(g, []string{"0s", "10s", "1m30s"})}))
	}
	// Shuffle: the order of pluginConfig entries means nothing.
	g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// shape is a RequestedToCapacityRatio shape: 1-4 points, increasing
// utilization in [0, 100], scores in [0, 10].
func (g *gen) shape() []any {
	n := 1 + g.pick(4)
	utils := g.r.Perm(101)[:n]
	sortInts(utils)
	var out []any
	for _, u := range utils {
		out = append(out, obj{"utilization": u, "score": g.pick(11)})
	}
	return out
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
