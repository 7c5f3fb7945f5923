package main

// The emulated resource-claim controller.
//
// kube-controller-manager's resource-claim controller
// (pkg/controller/resourceclaim) creates the ResourceClaim of every pod
// entry that names a ResourceClaimTemplate and records its name in the
// pod's status.resourceClaimStatuses; the scheduler only reads the result
// (DynamicResources' PreEnqueue keeps a pod without it waiting). There is no
// controller here, so before anything starts the oracle does what
// schedkit-sim's stand-in does (lib/sim/claim_controller.cc), with the same
// outcome, so that both programs schedule the same claims:
//
//   - for each pod in input order, each of its spec.resourceClaims entries
//     in order that names a template (and no claim) and that the pod's
//     status does not record yet: if the template exists in the pod's
//     namespace, a claim with the template's spec, labels and annotations,
//     the annotation resource.kubernetes.io/pod-claim-name = the entry's
//     name, the pod as controlling owner (apiVersion v1, kind Pod, name,
//     uid, controller: true), uid "uid-<namespace>-<name>", and a name made
//     as generateName would make it, but reproducibly (generateName below);
//   - a pod that got a claim has its statuses rewritten: those it had that
//     name a claim, plus the new ones, sorted by entry name (the
//     controller's server-side apply keeps the list keyed by name);
//   - a missing template gives nothing (the real controller fails and
//     retries; the pod stays pending).
//
// Like the stand-in, it does not look at the pod's phase or
// deletionTimestamp: Succeeded and Failed pods get their claims too.

import (
	"sort"
	"strconv"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

const annPodClaimName = "resource.kubernetes.io/pod-claim-name"

// createClaimsFromTemplates adds the claims the controller would create to
// c.resourceClaims (after the input's, in creation order) and records them
// in the pods' statuses. Pods need their UIDs first.
func (c *cluster) createClaimsFromTemplates() {
	templates := map[string]*resourceapi.ResourceClaimTemplate{}
	for _, t := range c.claimTemplates {
		templates[t.Namespace+"/"+t.Name] = t
	}
	names := map[string]bool{}
	for _, rc := range c.resourceClaims {
		names[rc.Namespace+"/"+rc.Name] = true
	}
	var created []*resourceapi.ResourceClaim
	for _, pod := range c.pods {
		if len(pod.Spec.ResourceClaims) == 0 {
			continue
		}
		ns := pod.Namespace
		statuses := map[string]string{}
		for _, s := range pod.Status.ResourceClaimStatuses {
			if s.ResourceClaimName != nil {
				statuses[s.Name] = *s.ResourceClaimName
			}
		}
		changed := false
		for _, entry := range pod.Spec.ResourceClaims {
			if entry.ResourceClaimTemplateName == nil || entry.ResourceClaimName != nil {
				continue
			}
			recorded := false
			for _, s := range pod.Status.ResourceClaimStatuses {
				if s.Name == entry.Name {
					recorded = true
					break
				}
			}
			if recorded {
				continue
			}
			tmpl, ok := templates[ns+"/"+*entry.ResourceClaimTemplateName]
			if !ok {
				continue
			}
			base := claimGenerateName(pod.Name, entry.Name)
			name := ""
			for n := 0; name == "" || names[ns+"/"+name]; n++ {
				name = base + generateNameSuffix(ns+"/"+pod.Name+"/"+entry.Name, n)
			}
			names[ns+"/"+name] = true

			claim := &resourceapi.ResourceClaim{}
			claim.APIVersion = "resource.k8s.io/v1"
			claim.Kind = "ResourceClaim"
			claim.Name = name
			claim.Namespace = ns
			claim.GenerateName = base
			claim.UID = types.UID("uid-" + ns + "-" + name)
			if tmpl.Spec.Labels != nil {
				claim.Labels = map[string]string{}
				for k, v := range tmpl.Spec.Labels {
					claim.Labels[k] = v
				}
			}
			claim.Annotations = map[string]string{}
			for k, v := range tmpl.Spec.Annotations {
				claim.Annotations[k] = v
			}
			claim.Annotations[annPodClaimName] = entry.Name
			controller := true
			claim.OwnerReferences = []metav1.OwnerReference{{
				APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID, Controller: &controller,
			}}
			tmpl.Spec.Spec.DeepCopyInto(&claim.Spec)
			created = append(created, claim)
			statuses[entry.Name] = name
			changed = true
		}
		if !changed {
			continue
		}
		keys := make([]string, 0, len(statuses))
		for k := range statuses {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		pod.Status.ResourceClaimStatuses = nil
		for _, k := range keys {
			claimName := statuses[k]
			pod.Status.ResourceClaimStatuses = append(pod.Status.ResourceClaimStatuses,
				v1.PodResourceClaimStatus{Name: k, ResourceClaimName: &claimName})
		}
	}
	c.resourceClaims = append(c.resourceClaims, created...)
}

// claimGenerateName is the controller's generateName, "<pod>-<claim>-";
// past 57 characters (room for the five generated ones within 63) both
// parts are cut in proportion to their lengths, and the hyphens become one.
func claimGenerateName(pod, claim string) string {
	full := pod + "-" + claim + "-"
	const maxBase = 57
	if len(full) <= maxBase {
		return full
	}
	return pod[:len(pod)*maxBase/len(full)] + "-" + claim[:len(claim)*maxBase/len(full)]
}

// generateNameSuffix stands for the five random characters the API server
// appends to a generateName (from the same alphabet, without vowels). They
// derive from seed and n through 64-bit FNV-1a of "<seed>#<n>", as
// schedkit-sim derives them (lib/sim/generate_name.cc), so that runs repeat
// and both programs name the claims alike; n counts collisions.
func generateNameSuffix(seed string, n int) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	h := uint64(1469598103934665603)
	for _, b := range []byte(seed + "#" + strconv.Itoa(n)) {
		h ^= uint64(b)
		h *= 1099511628211
	}
	out := make([]byte, 5)
	for i := range out {
		out[i] = alphabet[h%uint64(len(alphabet))]
		h /= uint64(len(alphabet))
	}
	return string(out)
}
