package main

// TestValidateScenarios checks that generated scenarios hold only objects
// kube-apiserver would accept: each object is defaulted, converted to the
// internal type and run through upstream's create validation, the way the
// API server does it. A scenario's scheduler.conf (the "config" feature) is
// decoded, defaulted and validated as kube-scheduler does it, its
// NodeResourcesFitArgs too (upstream's ValidateKubeSchedulerConfiguration
// leaves them to the plugin's constructor), and every profile's framework is
// built. It runs only when SCHEDKIT_VALIDATE_DIR names a directory of
// scenarios (e.g. schedkit-gen's --out):
//
//	SCHEDKIT_VALIDATE_DIR=$PWD/scenarios go test -run TestValidateScenarios .

import (
	"context"
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
	"k8s.io/kubernetes/pkg/apis/resource"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	resourcevalidation "k8s.io/kubernetes/pkg/apis/resource/validation"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	schedulingvalidation "k8s.io/kubernetes/pkg/apis/scheduling/validation"
	"k8s.io/kubernetes/pkg/apis/storage"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	storagevalidation "k8s.io/kubernetes/pkg/apis/storage/validation"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	schedvalidation "k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
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
	checked, configs := 0, 0
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
		for _, pv := range c.pvs {
			pv := pv.DeepCopy()
			legacyscheme.Scheme.Default(pv)
			var in core.PersistentVolume
			if err := legacyscheme.Scheme.Convert(pv, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("PersistentVolume "+pv.Name, corevalidation.ValidatePersistentVolume(&in, corevalidation.ValidationOptionsForPersistentVolume(&in, nil)))
		}
		for _, pvc := range c.pvcs {
			pvc := pvc.DeepCopy()
			legacyscheme.Scheme.Default(pvc)
			var in core.PersistentVolumeClaim
			if err := legacyscheme.Scheme.Convert(pvc, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("PersistentVolumeClaim "+pvc.Namespace+"/"+pvc.Name, corevalidation.ValidatePersistentVolumeClaim(&in, corevalidation.ValidationOptionsForPersistentVolumeClaim(&in, nil)))
		}
		for _, sc := range c.storageClasses {
			sc := sc.DeepCopy()
			legacyscheme.Scheme.Default(sc)
			var in storage.StorageClass
			if err := legacyscheme.Scheme.Convert(sc, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("StorageClass "+sc.Name, storagevalidation.ValidateStorageClass(&in))
		}
		for _, cn := range c.csiNodes {
			cn := cn.DeepCopy()
			legacyscheme.Scheme.Default(cn)
			var in storage.CSINode
			if err := legacyscheme.Scheme.Convert(cn, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("CSINode "+cn.Name, storagevalidation.ValidateCSINode(&in))
		}
		for _, d := range c.csiDrivers {
			d := d.DeepCopy()
			legacyscheme.Scheme.Default(d)
			var in storage.CSIDriver
			if err := legacyscheme.Scheme.Convert(d, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("CSIDriver "+d.Name, storagevalidation.ValidateCSIDriver(&in))
		}
		for _, sc := range c.capacities {
			sc := sc.DeepCopy()
			legacyscheme.Scheme.Default(sc)
			var in storage.CSIStorageCapacity
			if err := legacyscheme.Scheme.Convert(sc, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("CSIStorageCapacity "+sc.Namespace+"/"+sc.Name, storagevalidation.ValidateCSIStorageCapacity(&in, storagevalidation.CSIStorageCapacityValidateOptions{}))
		}
		for _, va := range c.attachments {
			va := va.DeepCopy()
			legacyscheme.Scheme.Default(va)
			var in storage.VolumeAttachment
			if err := legacyscheme.Scheme.Convert(va, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("VolumeAttachment "+va.Name, storagevalidation.ValidateVolumeAttachment(&in))
		}
		// DeviceClasses (their extendedResourceName, "draExtended").
		for _, dc := range c.deviceClasses {
			dc := dc.DeepCopy()
			legacyscheme.Scheme.Default(dc)
			var in resource.DeviceClass
			if err := legacyscheme.Scheme.Convert(dc, &in, nil); err != nil {
				t.Fatal(err)
			}
			report("DeviceClass "+dc.Name, resourcevalidation.ValidateDeviceClass(&in))
		}
		// Claims live in their pods' namespace and are valid for the
		// volume binder: a UID (provisioned volumes are named after it).
		for _, pvc := range c.pvcs {
			if pvc.UID == "" {
				t.Errorf("%s: PersistentVolumeClaim %s/%s has no uid", dir, pvc.Namespace, pvc.Name)
			}
		}
		if conf := filepath.Join(dir, "scheduler.conf"); fileExists(conf) {
			configs++
			validateConfig(t, dir, conf, c)
		}
		checked++
	}
	t.Logf("validated %d scenarios, %d with a scheduler.conf", checked, configs)
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// validateConfig checks a scenario's KubeSchedulerConfiguration: what
// kube-scheduler does on start-up (decode with defaulting, validate), the
// NodeResourcesFitArgs validation NodeResourcesFit's constructor runs, and
// the frameworks built on the scenario's cluster (unknown plugins, plugins
// at extension points they do not implement, a missing queue sort or bind
// plugin, score weights).
func validateConfig(t *testing.T, dir, path string, c *cluster) {
	t.Helper()
	cfg, err := loadConfig(path, false)
	if err != nil {
		t.Errorf("%s: %v", dir, err)
		return
	}
	for i, prof := range cfg.Profiles {
		for j, pc := range prof.PluginConfig {
			if args, ok := pc.Args.(*schedconfig.NodeResourcesFitArgs); ok {
				p := field.NewPath("profiles").Index(i).Child("pluginConfig").Index(j).Child("args")
				if err := schedvalidation.ValidateNodeResourcesFitArgs(p, args); err != nil {
					t.Errorf("%s: %v", dir, err)
				}
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := newWorld(ctx, cfg, c, false, true, false, nil); err != nil {
		t.Errorf("%s: building the frameworks: %v", dir, err)
	}
}
