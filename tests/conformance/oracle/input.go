package main

// Reading the --cluster inputs: files and directories, JSON or YAML, single
// objects or Lists, decoded with the real Kubernetes decoders.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	resourceapi "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	resourcedefaults "k8s.io/kubernetes/pkg/apis/resource/v1"
)

// cluster is everything read from the --cluster inputs, in input order.
type cluster struct {
	nodes         []*v1.Node
	pods          []*v1.Pod
	pdbs          []*policyv1.PodDisruptionBudget
	priorityClass []*schedulingv1.PriorityClass
	namespaces    []*v1.Namespace
	// The workloads PodTopologySpread's default selector reads.
	services     []*v1.Service
	rcs          []*v1.ReplicationController
	replicaSets  []*appsv1.ReplicaSet
	statefulSets []*appsv1.StatefulSet
	// The storage objects the volume plugins read.
	pvs            []*v1.PersistentVolume
	pvcs           []*v1.PersistentVolumeClaim
	storageClasses []*storagev1.StorageClass
	csiNodes       []*storagev1.CSINode
	csiDrivers     []*storagev1.CSIDriver
	capacities     []*storagev1.CSIStorageCapacity
	attachments    []*storagev1.VolumeAttachment
	// Dynamic Resource Allocation (resource.k8s.io/v1). resourceClaims
	// holds the input's claims, then those the emulated resource-claim
	// controller made (claimcontroller.go).
	deviceClasses    []*resourceapi.DeviceClass
	resourceClaims   []*resourceapi.ResourceClaim
	claimTemplates   []*resourceapi.ResourceClaimTemplate
	resourceSlices   []*resourceapi.ResourceSlice
	deviceTaintRules []*resourceapi.DeviceTaintRule
	skippedByKind    map[string]int
	sourceOfObject   map[string]string // "Kind ns/name" -> file, for messages
}

// inputError marks bad input (exit code 2).
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func badInput(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

// expandPaths turns the --cluster arguments into the list of files to read:
// a file as given, a directory as every *.json/*.yaml/*.yml file below it, as
// `kubectl apply -R` reads them (filepath.WalkDir order: names sorted, a
// directory's files where its name sorts; directory symlinks not followed).
func expandPaths(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, badInput("--cluster %s: %v", p, err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			switch strings.ToLower(filepath.Ext(d.Name())) {
			case ".json", ".yaml", ".yml":
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, badInput("--cluster %s: %v", p, err)
		}
	}
	return files, nil
}

func loadCluster(paths []string) (*cluster, error) {
	files, err := expandPaths(paths)
	if err != nil {
		return nil, err
	}
	c := &cluster{skippedByKind: map[string]int{}, sourceOfObject: map[string]string{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, badInput("%s: %v", f, err)
		}
		if err := c.decodeFile(data, f); err != nil {
			return nil, err
		}
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return c, nil
}

type typeHeader struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Items      []json.RawMessage `json:"items"`
}

// decodeFile reads every document of a JSON or YAML stream.
func (c *cluster) decodeFile(data []byte, source string) error {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for doc := 1; ; doc++ {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return badInput("%s: document %d: %v", source, doc, err)
		}
		trimmed := bytes.TrimSpace(raw)
		if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
			continue // empty YAML document
		}
		if err := c.decodeDocument(trimmed, fmt.Sprintf("%s: document %d", source, doc)); err != nil {
			return err
		}
	}
}

func (c *cluster) decodeDocument(raw []byte, where string) error {
	var h typeHeader
	if err := json.Unmarshal(raw, &h); err != nil {
		return badInput("%s: %v", where, err)
	}
	if h.Kind == "" {
		return badInput("%s: object has no kind", where)
	}
	if strings.HasSuffix(h.Kind, "List") && h.Items != nil {
		elemKind := strings.TrimSuffix(h.Kind, "List")
		for i, item := range h.Items {
			itemWhere := fmt.Sprintf("%s: items[%d]", where, i)
			var ih typeHeader
			if err := json.Unmarshal(item, &ih); err != nil {
				return badInput("%s: %v", itemWhere, err)
			}
			if ih.Kind == "" || ih.APIVersion == "" {
				// Items of a typed list (PodList, ...) may omit apiVersion/kind.
				if elemKind == "" {
					return badInput("%s: item of a List has no kind", itemWhere)
				}
				var m map[string]any
				if err := json.Unmarshal(item, &m); err != nil {
					return badInput("%s: %v", itemWhere, err)
				}
				if ih.Kind == "" {
					m["kind"] = elemKind
				}
				if ih.APIVersion == "" {
					m["apiVersion"] = h.APIVersion
				}
				item, _ = json.Marshal(m)
			}
			if err := c.decodeDocument(item, itemWhere); err != nil {
				return err
			}
		}
		return nil
	}
	switch h.Kind {
	case "Node", "Pod", "PodDisruptionBudget", "PriorityClass", "Namespace",
		"Service", "ReplicationController", "ReplicaSet", "StatefulSet",
		"PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode", "CSIDriver",
		"CSIStorageCapacity", "VolumeAttachment",
		"DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule":
	default:
		c.skippedByKind[h.Kind]++
		return nil
	}
	obj, gvk, err := clientgoscheme.Codecs.UniversalDeserializer().Decode(raw, nil, nil)
	if err != nil {
		return badInput("%s: %v", where, err)
	}
	switch o := obj.(type) {
	case *v1.Node:
		c.nodes = append(c.nodes, o)
	case *v1.Pod:
		c.pods = append(c.pods, o)
	case *policyv1.PodDisruptionBudget:
		c.pdbs = append(c.pdbs, o)
	case *schedulingv1.PriorityClass:
		c.priorityClass = append(c.priorityClass, o)
	case *v1.Namespace:
		c.namespaces = append(c.namespaces, o)
	case *v1.Service:
		c.services = append(c.services, o)
	case *v1.ReplicationController:
		c.rcs = append(c.rcs, o)
	case *appsv1.ReplicaSet:
		c.replicaSets = append(c.replicaSets, o)
	case *appsv1.StatefulSet:
		c.statefulSets = append(c.statefulSets, o)
	case *v1.PersistentVolume:
		c.pvs = append(c.pvs, o)
	case *v1.PersistentVolumeClaim:
		c.pvcs = append(c.pvcs, o)
	case *storagev1.StorageClass:
		c.storageClasses = append(c.storageClasses, o)
	case *storagev1.CSINode:
		c.csiNodes = append(c.csiNodes, o)
	case *storagev1.CSIDriver:
		c.csiDrivers = append(c.csiDrivers, o)
	case *storagev1.CSIStorageCapacity:
		c.capacities = append(c.capacities, o)
	case *storagev1.VolumeAttachment:
		c.attachments = append(c.attachments, o)
	case *resourceapi.DeviceClass:
		c.deviceClasses = append(c.deviceClasses, o)
	case *resourceapi.ResourceClaim:
		c.resourceClaims = append(c.resourceClaims, o)
	case *resourceapi.ResourceClaimTemplate:
		c.claimTemplates = append(c.claimTemplates, o)
	case *resourceapi.ResourceSlice:
		c.resourceSlices = append(c.resourceSlices, o)
	case *resourceapi.DeviceTaintRule:
		c.deviceTaintRules = append(c.deviceTaintRules, o)
	default:
		return badInput("%s: unsupported apiVersion %q for kind %s (want v1, apps/v1, policy/v1, scheduling.k8s.io/v1, storage.k8s.io/v1 or resource.k8s.io/v1)", where, gvk.GroupVersion().String(), gvk.Kind)
	}
	return nil
}

// validate mirrors schedkit's ValidateCluster (names present, node names
// unique, pods unique by namespace/name; a pod bound to a node the cluster
// lacks is accepted, as the API server accepts it)
// and fills in what the API server would have: namespace "default" for
// namespaced objects without one, a UID, and schedulerName "default-scheduler".
// Then it makes the ResourceClaims kube-controller-manager's resource-claim
// controller would make from templates, and gives every ResourceClaim
// without one a UID — in the order schedkit-sim's Simulate does it (pod
// UIDs first: a generated claim's owner reference carries its pod's).
func (c *cluster) validate() error {
	nodes := map[string]bool{}
	for _, n := range c.nodes {
		if n.Name == "" {
			return badInput("Node without metadata.name")
		}
		if nodes[n.Name] {
			return badInput("duplicate Node %q", n.Name)
		}
		nodes[n.Name] = true
		if n.UID == "" {
			n.UID = types.UID("node-" + n.Name)
		}
	}
	pods := map[string]bool{}
	uids := map[types.UID]string{}
	for _, p := range c.pods {
		if p.Name == "" {
			return badInput("Pod without metadata.name")
		}
		if p.Namespace == "" {
			p.Namespace = "default"
		}
		key := p.Namespace + "/" + p.Name
		if pods[key] {
			return badInput("duplicate Pod %s", key)
		}
		pods[key] = true
		if p.UID == "" {
			// schedkit-sim's: generated claims name their pod by this uid.
			p.UID = types.UID("uid-" + key)
		}
		if other, dup := uids[p.UID]; dup {
			return badInput("Pods %s and %s have the same metadata.uid %q", other, key, p.UID)
		}
		uids[p.UID] = key
		if p.Spec.SchedulerName == "" {
			p.Spec.SchedulerName = v1.DefaultSchedulerName
		}
	}
	for _, pdb := range c.pdbs {
		if pdb.Name == "" {
			return badInput("PodDisruptionBudget without metadata.name")
		}
		if pdb.Namespace == "" {
			pdb.Namespace = "default"
		}
	}
	// Workloads, claims and capacities are namespaced; the API server
	// defaults the namespace.
	defaultNamespaces(c.services)
	defaultNamespaces(c.rcs)
	defaultNamespaces(c.replicaSets)
	defaultNamespaces(c.statefulSets)
	defaultNamespaces(c.pvcs)
	defaultNamespaces(c.capacities)
	defaultNamespaces(c.resourceClaims)
	defaultNamespaces(c.claimTemplates)
	// The defaults the API server gives the StorageClass fields the volume
	// plugins read.
	for _, sc := range c.storageClasses {
		if sc.VolumeBindingMode == nil {
			mode := storagev1.VolumeBindingImmediate
			sc.VolumeBindingMode = &mode
		}
		if sc.ReclaimPolicy == nil {
			policy := v1.PersistentVolumeReclaimDelete
			sc.ReclaimPolicy = &policy
		}
	}
	for _, pc := range c.priorityClass {
		if pc.Name == "" {
			return badInput("PriorityClass without metadata.name")
		}
	}
	for _, ns := range c.namespaces {
		if ns.Name == "" {
			return badInput("Namespace without metadata.name")
		}
	}
	// The DRA kinds get the API server's defaults (upstream's defaulters:
	// a request's allocationMode ExactCount and count 1, a toleration's
	// operator Equal, a taint's timeAdded), which the allocator reads.
	for _, rc := range c.resourceClaims {
		if rc.Name == "" {
			return badInput("ResourceClaim without metadata.name")
		}
		resourcedefaults.SetObjectDefaults_ResourceClaim(rc)
	}
	for _, t := range c.claimTemplates {
		if t.Name == "" {
			return badInput("ResourceClaimTemplate without metadata.name")
		}
		resourcedefaults.SetObjectDefaults_ResourceClaimTemplate(t)
	}
	for _, s := range c.resourceSlices {
		resourcedefaults.SetObjectDefaults_ResourceSlice(s)
	}
	for _, r := range c.deviceTaintRules {
		resourcedefaults.SetObjectDefaults_DeviceTaintRule(r)
	}
	c.createClaimsFromTemplates()
	// The scheduler tracks allocations in flight by claim uid.
	for _, rc := range c.resourceClaims {
		if rc.UID == "" {
			rc.UID = types.UID("uid-" + rc.Namespace + "-" + rc.Name)
		}
	}
	return nil
}

// resolvePriorities does what the Priority admission plugin would have done
// when the pods were created: spec.priority if set; else the value of the
// PriorityClass named by spec.priorityClassName if it is given; else the value
// of the globalDefault PriorityClass (the lowest one if several claim it);
// else 0. Like admission, a pod without spec.preemptionPolicy takes the
// preemptionPolicy of the class it resolved to.
func (c *cluster) resolvePriorities() {
	byName := map[string]*schedulingv1.PriorityClass{}
	var globalDefault *schedulingv1.PriorityClass
	for _, pc := range c.priorityClass {
		byName[pc.Name] = pc
		if pc.GlobalDefault && (globalDefault == nil || pc.Value < globalDefault.Value) {
			globalDefault = pc
		}
	}
	for _, p := range c.pods {
		if p.Spec.Priority != nil {
			continue
		}
		var class *schedulingv1.PriorityClass
		if pc, ok := byName[p.Spec.PriorityClassName]; ok && p.Spec.PriorityClassName != "" {
			class = pc
		} else if globalDefault != nil {
			class = globalDefault
		}
		var value int32
		if class != nil {
			value = class.Value
			if p.Spec.PreemptionPolicy == nil && class.PreemptionPolicy != nil {
				pp := v1.PreemptionPolicy(*class.PreemptionPolicy)
				p.Spec.PreemptionPolicy = &pp
			}
		}
		p.Spec.Priority = &value
	}
}

// defaultNamespaces gives each object without a namespace "default".
func defaultNamespaces[T metav1.Object](objs []T) {
	for _, o := range objs {
		if o.GetNamespace() == "" {
			o.SetNamespace("default")
		}
	}
}
