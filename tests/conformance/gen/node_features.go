package main

// The v1.37 fields (the "v137" feature, its own random stream so that the
// rest of a scenario is what it was before it existed):
//
//   - node.status.declaredFeatures: a sorted subset of the features
//     component-helpers' registry knows (as a kubelet publishes them), on
//     some nodes, sometimes with a name the registry lacks;
//   - restartPolicyRules with the RestartAllContainers action on a
//     container of some pending pods (with restartPolicy Never, as the API
//     requires), so NodeDeclaredFeatures rejects nodes that do not declare
//     RestartAllContainersOnContainerExits;
//   - image volumes (ImageVolume, GA) on some pods, which ImageLocality
//     counts since v1.37;
//   - preventPodSchedulingIfMissing on the binding feature's CSIDriver
//     (VolumeLimitScaling), as the API server stores it (false by default).
//
// Pods needing user namespaces with host networking or bind mount options
// are not drawn: the API server refuses or drops those fields at the v1.37
// defaults.

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// The registry of nodedeclaredfeatures (v1.37.2), and a name it lacks.
var declaredFeatureNames = []string{
	"DRANodeAllocatableResources", "DRAOptionalNodeOperations", "ExtendWebSocketsToKubelet",
	"InPlacePodLevelResourcesVerticalScaling", "InPlacePodVerticalScalingInitContainers",
	"InPlacePodVerticalScalingMemoryBackedVolumes", "RestartAllContainersOnContainerExits",
	"UserNamespacesHostNetworkSupport", "VolumeBindMountOptions",
}

func (g *gen) genV137() {
	for _, n := range g.nodes {
		if !g.chance(0.6) {
			continue
		}
		var fs []string
		for _, f := range declaredFeatureNames {
			if g.chance(0.5) {
				fs = append(fs, f)
			}
		}
		if g.chance(0.1) {
			fs = append(fs, "SomeFutureFeature")
		}
		sort.Strings(fs)
		n.Status.DeclaredFeatures = fs
	}
	restartAll := g.chance(0.5)
	for _, p := range g.pending {
		if !restartAll || !g.chance(0.25) {
			continue
		}
		c := &p.Spec.Containers[g.pick(len(p.Spec.Containers))]
		never := v1.ContainerRestartPolicyNever
		c.RestartPolicy = &never
		c.RestartPolicyRules = []v1.ContainerRestartRule{{
			Action:    v1.ContainerRestartRuleActionRestartAllContainers,
			ExitCodes: &v1.ContainerRestartRuleOnExitCodes{Operator: v1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
		}}
	}
	if g.f.images && g.chance(0.5) {
		g.forSomePods(0.3, func(p *v1.Pod, i int) {
			p.Spec.Volumes = append(p.Spec.Volumes, v1.Volume{
				Name: "image-" + string(rune('a'+i)),
				VolumeSource: v1.VolumeSource{Image: &v1.ImageVolumeSource{
					Reference: images[g.pick(len(images))].pod, PullPolicy: v1.PullIfNotPresent}},
			})
		})
	}
	for _, o := range g.binding {
		if d, ok := o.(*storagev1.CSIDriver); ok {
			d.Spec.PreventPodSchedulingIfMissing = ptr(g.chance(0.4))
		}
	}
}
