package main

// TestValidateScenarios checks that generated scenarios hold only objects
// kube-apiserver would accept: each object is defaulted, converted to the
// internal type and run through upstream's create validation, the way the
// API server does it. It runs only when SCHEDKIT_VALIDATE_DIR names a
// directory of scenarios (e.g. schedkit-gen's --out):
//
//	SCHEDKIT_VALIDATE_DIR=$PWD/scenarios go test -run TestValidateScenarios .

import (
	"os"
	"path/filepath"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/policy"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	policyvalidation "k8s.io/kubernetes/pkg/apis/policy/validation"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	schedulingvalidation "k8s.io/kubernetes/pkg/apis/scheduling/validation"
)

func TestValidateScenarios(t *testing.T) {
	root := os.Getenv("SCHEDKIT_VALIDATE_DIR")
	if root == "" {
		t.Skip("SCHEDKIT_VALIDATE_DIR not set")
	}
	dirs, err := filepath.Glob(filepath.Join(root, "*"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		c, err := loadCluster([]string{dir})
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		report := func(what string, errs field.ErrorList) {
			if len(errs) > 0 {
				t.Errorf("%s: %s: %v", dir, what, errs.ToAggregate())
			}
		}
		for _, n := range c.nodes {
			n := n.DeepCopy()
			legacyscheme.Scheme.Default(n)
			var in core.Node
			if err := legacyscheme.Scheme.Convert(n, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("Node "+n.Name, corevalidation.ValidateNode(&in))
		}
		for _, ns := range c.namespaces {
			ns := ns.DeepCopy()
			legacyscheme.Scheme.Default(ns)
			var in core.Namespace
			if err := legacyscheme.Scheme.Convert(ns, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("Namespace "+ns.Name, corevalidation.ValidateNamespace(&in))
		}
		for _, pc := range c.priorityClass {
			pc := pc.DeepCopy()
			legacyscheme.Scheme.Default(pc)
			var in scheduling.PriorityClass
			if err := legacyscheme.Scheme.Convert(pc, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("PriorityClass "+pc.Name, schedulingvalidation.ValidatePriorityClass(&in))
		}
		for _, pdb := range c.pdbs {
			pdb := pdb.DeepCopy()
			legacyscheme.Scheme.Default(pdb)
			var in policy.PodDisruptionBudget
			if err := legacyscheme.Scheme.Convert(pdb, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("PodDisruptionBudget "+pdb.Name, policyvalidation.ValidatePodDisruptionBudget(&in, policyvalidation.PodDisruptionBudgetValidationOptions{}))
		}
		for _, p := range c.pods {
			p := p.DeepCopy()
			legacyscheme.Scheme.Default(p)
			var in core.Pod
			if err := legacyscheme.Scheme.Convert(p, &in, nil); err != nil {
				t.Fatal(err)
			}
			opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&in.Spec, nil, &in.ObjectMeta, nil)
			report("Pod "+p.Namespace+"/"+p.Name, corevalidation.ValidatePodCreate(&in, opts))
			if p.Spec.NodeName == "" && p.Status.Phase != v1.PodPending {
				t.Errorf("%s: pending pod %s in phase %q", dir, p.Name, p.Status.Phase)
			}
		}
		checked++
	}
	t.Logf("validated %d scenarios", checked)
}
