package main

// The emulated PV controller.
//
// Upstream's VolumeBinding PreBind (binder.go, BindPodVolumes) writes the
// PersistentVolumes it matched (spec.claimRef set) and the claims it wants
// provisioned (annotation volume.kubernetes.io/selected-node), then polls
// the PV/PVC informers every second until the PV controller (and the
// external provisioner) have bound them. The oracle has no controller, so
// the fake API server's update reactor for persistentvolumes and
// persistentvolumeclaims performs the scheduler's write and then, at once,
// the writes the controller would make. schedkit-sim emulates the same
// contract (tests/conformance/README.md, "The emulated PV controller"):
//
//   - a PV update whose claimRef names an existing claim (same uid, or
//     none in the ref) that has no volumeName: the claim gets volumeName,
//     the bind-completed and bound-by-controller annotations, phase Bound,
//     accessModes and capacity of the PV;
//   - a claim update carrying the selected-node annotation: unless its
//     StorageClass or the node is missing or the class cannot provision,
//     a PV "pvc-<claim uid>" is created for it (CSI source of the class's
//     provisioner, node affinity from the CSINode's topology keys for that
//     driver, else from the class's allowedTopologies keys, with the
//     node's values), then the claim is bound to it as above.
//
// Every write gets a fresh resourceVersion, as an API server's would. The
// fake object tracker does not maintain them, but upstream's volume binder
// needs them: its assume caches (passive_assume_cache.go) return an
// assumed object for as long as its resourceVersion equals the informer's,
// so with versions that never change, an assumed claim would hide the
// controller's bound version forever; checkBindings also waits until the
// informer holds a version at least as new as the one written.
//
// Each write is recorded as an informer notification in the same ordered
// list as the pod events (events.go).

import (
	"fmt"
	"sort"
	"strconv"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"
	fwk "k8s.io/kube-scheduler/framework"
)

const (
	annSelectedNode      = "volume.kubernetes.io/selected-node"
	annBindCompleted     = "pv.kubernetes.io/bind-completed"
	annBoundByController = "pv.kubernetes.io/bound-by-controller"
	annProvisionedBy     = "pv.kubernetes.io/provisioned-by"
	annBetaStorageClass  = "volume.beta.kubernetes.io/storage-class"
	noProvisioner        = "kubernetes.io/no-provisioner"
)

var (
	pvGVR      = v1.SchemeGroupVersion.WithResource("persistentvolumes")
	pvcGVR     = v1.SchemeGroupVersion.WithResource("persistentvolumeclaims")
	nodeGVR    = v1.SchemeGroupVersion.WithResource("nodes")
	classGVR   = storagev1.SchemeGroupVersion.WithResource("storageclasses")
	csiNodeGVR = storagev1.SchemeGroupVersion.WithResource("csinodes")
)

func (w *world) nextResourceVersion() string {
	return strconv.FormatInt(w.lastRV.Add(1), 10)
}

// storageWriteReactor handles every update of a PersistentVolume or a
// PersistentVolumeClaim (only upstream's volume binder makes them): the
// write itself, then the controller's reaction. It returns what the API
// server returns for the scheduler's own update: the object as stored.
func (w *world) storageWriteReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	upd, ok := action.(clienttesting.UpdateAction)
	if !ok || action.GetSubresource() != "" {
		return false, nil, nil
	}
	switch obj := upd.GetObject().(type) {
	case *v1.PersistentVolume:
		stored, err := w.storageUpdate(fwk.PersistentVolume, pvGVR, "", obj)
		if err != nil {
			return true, nil, err
		}
		pv := stored.(*v1.PersistentVolume)
		if err := w.bindClaimOfVolume(pv); err != nil {
			panic(fmt.Sprintf("emulated PV controller, after the update of PV %s: %v", pv.Name, err))
		}
		return true, pv, nil
	case *v1.PersistentVolumeClaim:
		stored, err := w.storageUpdate(fwk.PersistentVolumeClaim, pvcGVR, action.GetNamespace(), obj)
		if err != nil {
			return true, nil, err
		}
		pvc := stored.(*v1.PersistentVolumeClaim)
		if err := w.provisionClaim(pvc); err != nil {
			panic(fmt.Sprintf("emulated PV controller, after the update of claim %s/%s: %v", pvc.Namespace, pvc.Name, err))
		}
		return true, pvc, nil
	}
	return false, nil, nil
}

// storageUpdate stores an update as kube-apiserver would (the object must
// exist; a non-empty resourceVersion must be the current one; the stored
// object gets a new one), records the notification and returns the stored
// object.
func (w *world) storageUpdate(res fwk.EventResource, gvr schema.GroupVersionResource, ns string, obj runtime.Object) (runtime.Object, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	if ns == "" {
		ns = m.GetNamespace()
	}
	tracker := w.cs.Tracker()
	old, err := tracker.Get(gvr, ns, m.GetName())
	if err != nil {
		return nil, err
	}
	oldMeta, _ := meta.Accessor(old)
	if rv := m.GetResourceVersion(); rv != "" && rv != oldMeta.GetResourceVersion() {
		return nil, apierrors.NewConflict(gvr.GroupResource(), m.GetName(),
			fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	obj = obj.DeepCopyObject()
	m, _ = meta.Accessor(obj)
	m.SetResourceVersion(w.nextResourceVersion())
	if err := tracker.Update(gvr, obj, ns); err != nil {
		return nil, err
	}
	stored, err := tracker.Get(gvr, ns, m.GetName())
	if err != nil {
		return nil, err
	}
	w.recordStorageEvent(apiEvent{kind: storageUpdate, resource: res, oldObj: old, newObj: stored})
	return stored, nil
}

// storageCreate creates an object with a new resourceVersion and records
// the notification.
func (w *world) storageCreate(res fwk.EventResource, gvr schema.GroupVersionResource, obj runtime.Object) (runtime.Object, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	m.SetResourceVersion(w.nextResourceVersion())
	tracker := w.cs.Tracker()
	if err := tracker.Create(gvr, obj, m.GetNamespace()); err != nil {
		return nil, err
	}
	stored, err := tracker.Get(gvr, m.GetNamespace(), m.GetName())
	if err != nil {
		return nil, err
	}
	w.recordStorageEvent(apiEvent{kind: storageAdd, resource: res, newObj: stored})
	return stored, nil
}

func (w *world) recordStorageEvent(ev apiEvent) {
	w.evMu.Lock()
	w.events = append(w.events, ev)
	w.evMu.Unlock()
}

// bindClaimOfVolume: the controller's reaction to a PV the scheduler bound
// to a claim (spec.claimRef): bind the claim to it.
func (w *world) bindClaimOfVolume(pv *v1.PersistentVolume) error {
	ref := pv.Spec.ClaimRef
	if ref == nil || ref.Name == "" {
		return nil
	}
	obj, err := w.cs.Tracker().Get(pvcGVR, ref.Namespace, ref.Name)
	if err != nil {
		return nil // no such claim: nothing to bind
	}
	claim := obj.(*v1.PersistentVolumeClaim)
	if (ref.UID != "" && ref.UID != claim.UID) || claim.Spec.VolumeName != "" {
		return nil
	}
	return w.completeBinding(claim, pv)
}

// completeBinding writes the claim bound to the volume, as the PV
// controller's bindClaimToVolume + updateClaimStatus leave it.
func (w *world) completeBinding(claim *v1.PersistentVolumeClaim, pv *v1.PersistentVolume) error {
	c := claim.DeepCopy()
	c.Spec.VolumeName = pv.Name
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[annBindCompleted] = "yes"
	c.Annotations[annBoundByController] = "yes"
	c.Status.Phase = v1.ClaimBound
	c.Status.AccessModes = append([]v1.PersistentVolumeAccessMode(nil), pv.Spec.AccessModes...)
	c.Status.Capacity = pv.Spec.Capacity.DeepCopy()
	_, err := w.storageUpdate(fwk.PersistentVolumeClaim, pvcGVR, c.Namespace, c)
	return err
}

// claimClass is the claim's StorageClass name: the beta annotation when
// present, else spec.storageClassName.
func claimClass(c *v1.PersistentVolumeClaim) string {
	if name, ok := c.Annotations[annBetaStorageClass]; ok {
		return name
	}
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}

// provisionClaim: the reaction of the controller and of the class's
// provisioner to a claim the scheduler gave a selected node.
func (w *world) provisionClaim(claim *v1.PersistentVolumeClaim) error {
	nodeName, ok := claim.Annotations[annSelectedNode]
	if !ok {
		return nil
	}
	tracker := w.cs.Tracker()
	className := claimClass(claim)
	if className == "" {
		return nil
	}
	obj, err := tracker.Get(classGVR, "", className)
	if err != nil {
		return nil
	}
	class := obj.(*storagev1.StorageClass)
	if class.Provisioner == "" || class.Provisioner == noProvisioner {
		return nil
	}
	obj, err = tracker.Get(nodeGVR, "", nodeName)
	if err != nil {
		return nil
	}
	node := obj.(*v1.Node)

	// Topology keys: the driver's in the node's CSINode, else those of the
	// class's allowedTopologies (first appearance, no duplicates).
	var keys []string
	driverFound := false
	if obj, err := tracker.Get(csiNodeGVR, "", nodeName); err == nil {
		for _, d := range obj.(*storagev1.CSINode).Spec.Drivers {
			if d.Name == class.Provisioner {
				keys = append(keys, d.TopologyKeys...)
				driverFound = true
				break
			}
		}
	}
	if !driverFound {
		seen := map[string]bool{}
		for _, term := range class.AllowedTopologies {
			for _, e := range term.MatchLabelExpressions {
				if !seen[e.Key] {
					seen[e.Key] = true
					keys = append(keys, e.Key)
				}
			}
		}
	}
	var reqs []v1.NodeSelectorRequirement
	for _, k := range keys {
		if v, ok := node.Labels[k]; ok {
			reqs = append(reqs, v1.NodeSelectorRequirement{Key: k, Operator: v1.NodeSelectorOpIn, Values: []string{v}})
		}
	}

	name := "pvc-" + string(claim.UID)
	reclaim := v1.PersistentVolumeReclaimDelete
	if class.ReclaimPolicy != nil {
		reclaim = *class.ReclaimPolicy
	}
	pv := &v1.PersistentVolume{}
	pv.Name = name
	pv.Annotations = map[string]string{annProvisionedBy: class.Provisioner}
	if q, ok := claim.Spec.Resources.Requests[v1.ResourceStorage]; ok {
		pv.Spec.Capacity = v1.ResourceList{v1.ResourceStorage: q.DeepCopy()}
	}
	pv.Spec.AccessModes = append([]v1.PersistentVolumeAccessMode(nil), claim.Spec.AccessModes...)
	if claim.Spec.VolumeMode != nil {
		mode := *claim.Spec.VolumeMode
		pv.Spec.VolumeMode = &mode
	}
	pv.Spec.StorageClassName = class.Name
	pv.Spec.PersistentVolumeReclaimPolicy = reclaim
	pv.Spec.ClaimRef = &v1.ObjectReference{
		Kind: "PersistentVolumeClaim", APIVersion: "v1",
		Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID,
	}
	pv.Spec.CSI = &v1.CSIPersistentVolumeSource{Driver: class.Provisioner, VolumeHandle: name}
	if len(reqs) > 0 {
		pv.Spec.NodeAffinity = &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{
			NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: reqs}},
		}}
	}
	pv.Status.Phase = v1.VolumeBound
	stored, err := w.storageCreate(fwk.PersistentVolume, pvGVR, pv)
	if err != nil {
		return fmt.Errorf("creating PV %s: %w", name, err)
	}
	obj, err = tracker.Get(pvcGVR, claim.Namespace, claim.Name)
	if err != nil {
		return err
	}
	return w.completeBinding(obj.(*v1.PersistentVolumeClaim), stored.(*v1.PersistentVolume))
}

// ClaimResult is one claim bound during the run.
type ClaimResult struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Volume    string  `json:"volume"`
	Node      *string `json:"node,omitempty"`
}

// boundClaims lists the claims that had no spec.volumeName in the input
// and have one at the end of the run, sorted by namespace and name.
func (w *world) boundClaims() []ClaimResult {
	out := []ClaimResult{}
	for _, nn := range w.unboundClaims {
		obj, err := w.cs.Tracker().Get(pvcGVR, nn.Namespace, nn.Name)
		if err != nil {
			continue
		}
		c := obj.(*v1.PersistentVolumeClaim)
		if c.Spec.VolumeName == "" {
			continue
		}
		r := ClaimResult{Namespace: c.Namespace, Name: c.Name, Volume: c.Spec.VolumeName}
		if n, ok := c.Annotations[annSelectedNode]; ok {
			r.Node = &n
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Name < out[j].Name
	})
	return out
}
