package main

import (
	"strings"
	"testing"
)

// The emulated resource-claim controller makes what schedkit-sim's stand-in
// makes (tests/sim/claim_controller_test.cc runs the same input): the
// template's spec and metadata, the pod as owner, the same generated name,
// and the pod's status recording it.
func TestClaimsFromTemplates(t *testing.T) {
	const input = `
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus, namespace: ml}
spec:
  metadata:
    labels: {team: ml}
    annotations: {note: from-template}
  spec:
    devices:
      requests:
      - name: gpus
        exactly: {deviceClassName: gpu.example.com, count: 2}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: ml, uid: trainer-uid}
spec:
  containers: [{name: main}]
  resourceClaims:
  - {name: gpus, resourceClaimTemplateName: two-gpus}
  - {name: nic, resourceClaimName: shared-nic}
  - {name: missing, resourceClaimTemplateName: no-such-template}
---
apiVersion: v1
kind: Pod
metadata: {name: a-pod-with-a-rather-long-name-for-its-job, namespace: ml, uid: long-uid}
spec:
  containers: [{name: main}]
  resourceClaims:
  - {name: a-claim-with-an-even-longer-name-than-the-pod, resourceClaimTemplateName: two-gpus}
---
apiVersion: v1
kind: Pod
metadata: {name: recorded, namespace: ml, uid: recorded-uid}
spec:
  containers: [{name: main}]
  resourceClaims:
  - {name: gpus, resourceClaimTemplateName: two-gpus}
status:
  resourceClaimStatuses:
  - {name: gpus, resourceClaimName: recorded-gpus-abcde}
---
apiVersion: v1
kind: Pod
metadata: {name: nouid}
spec:
  containers: [{name: main}]
  resourceClaims:
  - {name: gpus, resourceClaimTemplateName: two-gpus}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus}
spec:
  spec:
    devices:
      requests:
      - name: gpus
        exactly: {deviceClassName: gpu.example.com}
`
	c := &cluster{skippedByKind: map[string]int{}, sourceOfObject: map[string]string{}}
	if err := c.decodeFile([]byte(input), "input.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := c.validate(); err != nil {
		t.Fatal(err)
	}
	if len(c.resourceClaims) != 3 {
		t.Fatalf("%d claims, want 3", len(c.resourceClaims))
	}
	claim := c.resourceClaims[0]
	if claim.Namespace != "ml" || claim.GenerateName != "trainer-gpus-" || len(claim.Name) != len("trainer-gpus-")+5 ||
		!strings.HasPrefix(claim.Name, "trainer-gpus-") {
		t.Errorf("claim %s/%s (generateName %q)", claim.Namespace, claim.Name, claim.GenerateName)
	}
	if string(claim.UID) != "uid-ml-"+claim.Name {
		t.Errorf("uid %q, want uid-ml-%s", claim.UID, claim.Name)
	}
	if claim.Labels["team"] != "ml" || claim.Annotations["note"] != "from-template" ||
		claim.Annotations["resource.kubernetes.io/pod-claim-name"] != "gpus" {
		t.Errorf("labels %v, annotations %v", claim.Labels, claim.Annotations)
	}
	if refs := claim.OwnerReferences; len(refs) != 1 || refs[0].Kind != "Pod" || refs[0].APIVersion != "v1" ||
		refs[0].Name != "trainer" || refs[0].UID != "trainer-uid" || refs[0].Controller == nil || !*refs[0].Controller {
		t.Errorf("owner references %+v", refs)
	}
	if r := claim.Spec.Devices.Requests; len(r) != 1 || r[0].Exactly == nil || r[0].Exactly.Count != 2 {
		t.Errorf("spec %+v", claim.Spec)
	}

	trainer := c.pods[0]
	if st := trainer.Status.ResourceClaimStatuses; len(st) != 1 || st[0].Name != "gpus" ||
		st[0].ResourceClaimName == nil || *st[0].ResourceClaimName != claim.Name {
		t.Errorf("trainer statuses %+v", st)
	}
	// Cut in proportion past 57 characters, losing the trailing hyphen.
	if long := c.resourceClaims[1]; long.GenerateName != "a-pod-with-a-rather-long-n-a-claim-with-an-even-longer-n" || len(long.Name) != 56+5 {
		t.Errorf("long claim %s (generateName %q)", long.Name, long.GenerateName)
	}
	if st := c.pods[2].Status.ResourceClaimStatuses; len(st) != 1 || *st[0].ResourceClaimName != "recorded-gpus-abcde" {
		t.Errorf("recorded pod statuses %+v", st)
	}
	// A pod without uid gets schedkit-sim's, and its claim names it; the
	// template in the default namespace came after the pod in the input,
	// and the API server's defaults (count 1) apply to it.
	nouid := c.resourceClaims[2]
	if c.pods[3].UID != "uid-default/nouid" || nouid.OwnerReferences[0].UID != "uid-default/nouid" || nouid.Namespace != "default" ||
		nouid.Spec.Devices.Requests[0].Exactly.Count != 1 || nouid.Spec.Devices.Requests[0].Exactly.AllocationMode != "ExactCount" {
		t.Errorf("claim of nouid: %+v", nouid)
	}
}

// The suffixes are schedkit-sim's (lib/sim/generate_name.cc): the names it
// printed for testdata/dra.
func TestGenerateNameSuffix(t *testing.T) {
	for seed, want := range map[string]string{
		"default/train-0/gpus": "8p6dd",
		"default/train-1/gpus": "gx8x4",
		"default/train-2/gpus": "dnjd8",
	} {
		if got := generateNameSuffix(seed, 0); got != want {
			t.Errorf("generateNameSuffix(%q, 0) = %q, want %q", seed, got, want)
		}
	}
}
