package main

// The "gates" feature: feature gates set away from kube-scheduler's
// defaults, among those schedkit models (framework/feature_gates.cc's
// kModeled; CheckModeled refuses the others), passed to both programs with
// --feature-gates (tests/conformance/run.sh reads the feature-gates file).

import (
	"fmt"
	"sort"
	"strings"
)

const gatesFile = "feature-gates"

// modeledGates: each gate schedkit models, with kube-scheduler v1.37.2's
// default.
var modeledGates = map[string]bool{
	"MatchLabelKeysInPodTopologySpread": true,
	"OpportunisticBatching":             true,
	"StorageCapacityScoring":            true,
	"VolumeLimitScaling":                true,
}

// offWith: gates kube-scheduler's --feature-gates refuses to leave on when
// the modeled gate is off (they depend on it); not read by the scheduler.
var offWith = map[string][]string{
	"MatchLabelKeysInPodTopologySpread": {"MatchLabelKeysInPodTopologySpreadSelectorMerge"},
}

// genGates sets each modeled gate, at random, to either value (at least one
// away from its default, or the feature would mean nothing).
func (g *gen) genGates() {
	names := make([]string, 0, len(modeledGates))
	for name := range modeledGates {
		names = append(names, name)
	}
	sort.Strings(names)
	g.gates = map[string]bool{}
	for _, name := range names {
		g.gates[name] = g.chance(0.5)
	}
	changed := false
	for name, on := range g.gates {
		changed = changed || on != modeledGates[name]
	}
	if !changed {
		first := names[g.pick(len(names))]
		g.gates[first] = !modeledGates[first]
	}
}

// gateEnabled is whether the scenario runs with the gate on.
func (g *gen) gateEnabled(name string) bool {
	if on, ok := g.gates[name]; ok {
		return on
	}
	return modeledGates[name]
}

// featureGatesFlag is the --feature-gates value ("" without the feature).
func (g *gen) featureGatesFlag() string {
	if len(g.gates) == 0 {
		return ""
	}
	var parts []string
	for name, on := range g.gates {
		parts = append(parts, fmt.Sprintf("%s=%t", name, on))
		if !on {
			for _, dependent := range offWith[name] {
				parts = append(parts, dependent+"=false")
			}
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
