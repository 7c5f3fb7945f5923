package main

// The "binding" feature: unbound WaitForFirstConsumer claims on pending
// pods, so that upstream's volume binder matches static PVs and asks for
// provisioning, and the emulated PV controller of both programs
// (tests/conformance/README.md, "The emulated PV controller") binds them.
//
//   - class wffc-static (kubernetes.io/no-provisioner) with Available local
//     PVs: distinct capacities within the class (upstream walks a class's
//     PVs in map order and keeps the first smallest fit, so equal sizes
//     would make it nondeterministic), node affinity to a node's hostname
//     or to a zone, some labelled for claim selectors, some Block, access
//     mode mixtures; some PVs pre-bound to one claim;
//   - class wffc-csi (the CSI driver), sometimes with allowedTopologies,
//     a few static CSI PVs of its own; a CSIDriver (storageCapacity on in
//     some scenarios) with CSIStorageCapacity objects per zone, some too
//     small (a zone's second pool with the first's capacity, which
//     VolumeBinding's Score reads); CSINodes listing the driver (topology keys zone, sometimes
//     zone and hostname) or another driver on nodes that have none yet;
//   - claims with selectors, sizes no PV fits, the selected-node
//     annotation already set, the beta class annotation instead of
//     spec.storageClassName (static class only, see wffcClaim), two claims
//     on one pod, claims shared by two pending pods.
//
// Only pending pods get these claims (a running pod's claims are bound).
// Objects are as an API server stores them (defaults filled in).

import (
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	staticClass    = "wffc-static"
	csiClass       = "wffc-csi"
	capacityNS     = "kube-system"
	otherCSIDriver = "ebs.csi.aws.com"
)

// wffcClaim is a claim drawn by genBinding, with what pre-bound PVs need.
type wffcClaim struct {
	pvc   *v1.PersistentVolumeClaim
	class string
	gi    int64 // requested size in Gi (rounded up)
}

func (g *gen) genBinding() {
	wait := storagev1.VolumeBindingWaitForFirstConsumer
	reclaim := func() *v1.PersistentVolumeReclaimPolicy {
		p := v1.PersistentVolumeReclaimDelete
		if g.chance(0.3) {
			p = v1.PersistentVolumeReclaimRetain
		}
		return &p
	}
	storageClass := func(name, provisioner string) *storagev1.StorageClass {
		return &storagev1.StorageClass{
			TypeMeta:          metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass"},
			ObjectMeta:        metav1.ObjectMeta{Name: name, UID: g.uid()},
			Provisioner:       provisioner,
			VolumeBindingMode: &wait,
			ReclaimPolicy:     reclaim(),
		}
	}
	static := storageClass(staticClass, "kubernetes.io/no-provisioner")
	csi := storageClass(csiClass, csiDriver)
	if len(g.zones) > 1 && g.chance(0.4) {
		zs := append([]string(nil), g.zones...)
		g.r.Shuffle(len(zs), func(i, j int) { zs[i], zs[j] = zs[j], zs[i] })
		csi.AllowedTopologies = []v1.TopologySelectorTerm{{MatchLabelExpressions: []v1.TopologySelectorLabelRequirement{
			{Key: "topology.kubernetes.io/zone", Values: zs[:1+g.pick(len(zs)-1)]},
		}}}
		if g.chance(0.3) {
			// A second term: its key (region) joins the provisioned
			// volumes' topology keys when no CSINode gives them.
			csi.AllowedTopologies = append(csi.AllowedTopologies, v1.TopologySelectorTerm{MatchLabelExpressions: []v1.TopologySelectorLabelRequirement{
				{Key: "topology.kubernetes.io/region", Values: []string{"region-1"}},
				{Key: "topology.kubernetes.io/zone", Values: []string{pickOf(g, g.zones)}},
			}})
		}
	}
	g.binding = append(g.binding, static, csi)

	// The CSI driver, and its capacity per zone when it tracks capacity.
	if g.chance(0.7) {
		capacityTracking := g.chance(0.6)
		fsGroup := storagev1.ReadWriteOnceWithFSTypeFSGroupPolicy
		g.binding = append(g.binding, &storagev1.CSIDriver{
			TypeMeta:   metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "CSIDriver"},
			ObjectMeta: metav1.ObjectMeta{Name: csiDriver, UID: g.uid()},
			Spec: storagev1.CSIDriverSpec{
				AttachRequired:       ptr(true),
				PodInfoOnMount:       ptr(false),
				StorageCapacity:      ptr(capacityTracking),
				FSGroupPolicy:        &fsGroup,
				VolumeLifecycleModes: []storagev1.VolumeLifecycleMode{storagev1.VolumeLifecyclePersistent},
				RequiresRepublish:    ptr(false),
				SELinuxMount:         ptr(false),
			},
		})
		if capacityTracking {
			g.binding = append(g.binding, &v1.Namespace{
				TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
				ObjectMeta: metav1.ObjectMeta{Name: capacityNS, UID: g.uid(),
					Labels:            map[string]string{"kubernetes.io/metadata.name": capacityNS},
					CreationTimestamp: metav1.NewTime(baseTime.Add(-time.Hour))},
				Status: v1.NamespaceStatus{Phase: v1.NamespaceActive},
			})
			for _, z := range g.zones {
				pools := 0
				if g.chance(0.8) {
					pools = 1
					if g.chance(0.2) {
						pools = 2
					}
				}
				var first *storagev1.CSIStorageCapacity
				for i := 0; i < pools; i++ {
					c := &storagev1.CSIStorageCapacity{
						TypeMeta:         metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "CSIStorageCapacity"},
						ObjectMeta:       metav1.ObjectMeta{Name: fmt.Sprintf("csisc-%s-%d", z, i+1), Namespace: capacityNS, UID: g.uid()},
						StorageClassName: csiClass,
						NodeTopology:     &metav1.LabelSelector{MatchLabels: map[string]string{"topology.kubernetes.io/zone": z}},
						Capacity:         gibi(pickOf(g, []int64{2, 5, 10, 20, 50, 100})),
					}
					if g.chance(0.3) {
						c.MaximumVolumeSize = gibi(pickOf(g, []int64{1, 4, 8, 16}))
					}
					// Two pools of a zone hold the same capacity: upstream
					// scores a provisioned claim by the first pool that holds
					// it in its informer's (unordered) list.
					if first == nil {
						first = c
					} else {
						c.Capacity = first.Capacity
					}
					g.binding = append(g.binding, c)
				}
			}
		}
	}

	// CSINodes on nodes that have none yet (the storage feature gives most
	// nodes one, listing the driver with the zone key).
	hasCSINode := map[string]bool{}
	for _, o := range g.storage {
		if cn, ok := o.(*storagev1.CSINode); ok {
			hasCSINode[cn.Name] = true
		}
	}
	for _, n := range g.nodes {
		if hasCSINode[n.Name] || !g.chance(0.6) {
			continue
		}
		d := storagev1.CSINodeDriver{Name: csiDriver, NodeID: n.Name, TopologyKeys: []string{"topology.kubernetes.io/zone"}}
		switch r := g.r.Float64(); {
		case r < 0.25:
			d.TopologyKeys = append(d.TopologyKeys, "kubernetes.io/hostname")
		case r < 0.35:
			// Another driver only: volumes provisioned on this node take
			// the class's allowedTopologies keys.
			d.Name = otherCSIDriver
		}
		if g.chance(0.15) {
			d.Allocatable = &storagev1.VolumeNodeResources{Count: ptr(int32(1 + g.pick(3)))}
		}
		g.binding = append(g.binding, &storagev1.CSINode{
			TypeMeta:   metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "CSINode"},
			ObjectMeta: metav1.ObjectMeta{Name: n.Name, UID: g.uid()},
			Spec:       storagev1.CSINodeSpec{Drivers: []storagev1.CSINodeDriver{d}},
		})
	}

	// Distinct capacities per class, in Gi.
	sizes := map[string][]int64{}
	for _, class := range []string{staticClass, csiClass} {
		s := []int64{1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 16, 20, 24, 25, 30, 32, 40, 48, 50, 64, 80, 100}
		g.r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		sizes[class] = s
	}
	takeSize := func(class string, atLeast int64) int64 {
		for i, s := range sizes[class] {
			if s >= atLeast {
				sizes[class] = append(sizes[class][:i:i], sizes[class][i+1:]...)
				return s
			}
		}
		return 0
	}
	var staticGi []int64
	for i, n := 0, 3+g.pick(8); i < n; i++ {
		gi := takeSize(staticClass, 1)
		staticGi = append(staticGi, gi)
		g.binding = append(g.binding, g.staticPV(fmt.Sprintf("local-pv-%d", i+1), staticClass, gi, nil))
	}
	for i, n := 0, g.pick(3); i < n; i++ {
		gi := takeSize(csiClass, 1)
		g.binding = append(g.binding, g.staticPV(fmt.Sprintf("csi-pv-%d", i+1), csiClass, gi, nil))
	}

	// Claims on some pending pods (at least one).
	var claims []*wffcClaim
	addClaims := func(p *v1.Pod) {
		n := 1
		if g.chance(0.25) {
			n = 2
		}
		for i := 0; i < n; i++ {
			vol := v1.Volume{Name: fmt.Sprintf("wffc-%d", i)}
			var shared []*wffcClaim
			for _, c := range claims {
				if c.pvc.Namespace == p.Namespace && !podUsesClaim(p, c.pvc.Name) {
					shared = append(shared, c)
				}
			}
			if len(shared) > 0 && g.chance(0.2) {
				c := pickOf(g, shared)
				vol.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: c.pvc.Name}
				p.Spec.Volumes = append(p.Spec.Volumes, vol)
				continue
			}
			c := g.wffcClaim(fmt.Sprintf("%s-wffc-%d", p.Name, i), p.Namespace, staticGi)
			claims = append(claims, c)
			vol.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: c.pvc.Name}
			p.Spec.Volumes = append(p.Spec.Volumes, vol)
		}
	}
	podsWithClaims := 0
	for _, p := range g.pending {
		if podsWithClaims < 6 && g.chance(0.3) {
			podsWithClaims++
			addClaims(p)
		}
	}
	if podsWithClaims == 0 {
		addClaims(pickOf(g, g.pending))
	}
	// Pre-bound PVs: reserved for one claim (claimRef with or without its
	// uid), not bound yet.
	for i, c := range claims {
		if c.class != staticClass || c.gi > 100 || !g.chance(0.12) {
			continue
		}
		gi := takeSize(staticClass, c.gi)
		if gi == 0 {
			continue
		}
		ref := &v1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: c.pvc.Namespace, Name: c.pvc.Name}
		if g.chance(0.5) {
			ref.UID = c.pvc.UID
		}
		pv := g.staticPV(fmt.Sprintf("prebound-pv-%d", i+1), staticClass, gi, ref)
		pv.Spec.AccessModes = append([]v1.PersistentVolumeAccessMode(nil), c.pvc.Spec.AccessModes...)
		if g.chance(0.8) {
			pv.Spec.VolumeMode = c.pvc.Spec.VolumeMode
		}
		g.binding = append(g.binding, pv)
	}
	for _, c := range claims {
		g.binding = append(g.binding, c.pvc)
	}
}

func podUsesClaim(p *v1.Pod, name string) bool {
	for _, v := range p.Spec.Volumes {
		if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == name {
			return true
		}
	}
	return false
}

func (g *gen) accessModes() []v1.PersistentVolumeAccessMode {
	return pickOf(g, [][]v1.PersistentVolumeAccessMode{
		{v1.ReadWriteOnce}, {v1.ReadWriteOnce}, {v1.ReadWriteOnce, v1.ReadWriteMany},
		{v1.ReadWriteOnce, v1.ReadOnlyMany, v1.ReadWriteMany}, {v1.ReadWriteOnce, v1.ReadOnlyMany, v1.ReadWriteMany},
		{v1.ReadWriteMany}, {v1.ReadWriteOncePod},
	})
}

func (g *gen) volumeMode() *v1.PersistentVolumeMode {
	switch r := g.r.Float64(); {
	case r < 0.85:
		return ptr(v1.PersistentVolumeFilesystem)
	case r < 0.95:
		return ptr(v1.PersistentVolumeBlock)
	}
	return nil
}

// staticPV is an Available PV of the class: a local volume (wffc-static)
// or a CSI volume (wffc-csi), with node affinity to a node or a zone.
func (g *gen) staticPV(name, class string, gi int64, claimRef *v1.ObjectReference) *v1.PersistentVolume {
	pv := &v1.PersistentVolume{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolume"},
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: g.uid(), CreationTimestamp: metav1.NewTime(baseTime)},
		Spec: v1.PersistentVolumeSpec{
			Capacity:                      v1.ResourceList{v1.ResourceStorage: *gibi(gi)},
			AccessModes:                   g.accessModes(),
			VolumeMode:                    g.volumeMode(),
			StorageClassName:              class,
			PersistentVolumeReclaimPolicy: pickOf(g, []v1.PersistentVolumeReclaimPolicy{v1.PersistentVolumeReclaimRetain, v1.PersistentVolumeReclaimDelete}),
			ClaimRef:                      claimRef,
		},
		Status: v1.PersistentVolumeStatus{Phase: v1.VolumeAvailable},
	}
	if g.chance(0.4) {
		pv.Labels = map[string]string{"speed": pickOf(g, []string{"fast", "slow"})}
	}
	var expr v1.NodeSelectorRequirement
	if class == staticClass && g.chance(0.6) {
		expr = v1.NodeSelectorRequirement{Key: "kubernetes.io/hostname", Operator: v1.NodeSelectorOpIn, Values: []string{pickOf(g, g.nodes).Name}}
	} else {
		expr = v1.NodeSelectorRequirement{Key: "topology.kubernetes.io/zone", Operator: v1.NodeSelectorOpIn, Values: []string{pickOf(g, g.zones)}}
	}
	pv.Spec.NodeAffinity = &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{expr}}}}}
	if class == staticClass {
		pv.Spec.Local = &v1.LocalVolumeSource{Path: "/mnt/disks/" + name}
	} else {
		pv.Spec.CSI = &v1.CSIPersistentVolumeSource{Driver: csiDriver, VolumeHandle: "static-" + name}
	}
	return pv
}

// wffcClaim draws an unbound claim of one of the two classes.
func (g *gen) wffcClaim(name, ns string, staticGi []int64) *wffcClaim {
	c := &wffcClaim{class: staticClass}
	if g.chance(0.45) {
		c.class = csiClass
	}
	// The size: mostly one some PV (or a capacity) can hold, sometimes
	// in Mi, sometimes more than anything offers.
	var size *resource.Quantity
	switch r := g.r.Float64(); {
	case r < 0.1:
		c.gi = 200
		size = gibi(200)
	case r < 0.25:
		mi := int64(256 * (1 + g.pick(12))) // 256Mi..3Gi
		c.gi = (mi + 1023) / 1024
		size = mebi(mi)
	default:
		if c.class == staticClass && len(staticGi) > 0 {
			c.gi = 1 + int64(g.pick(int(pickOf(g, staticGi))))
		} else {
			c.gi = int64(1 + g.pick(30))
		}
		size = gibi(c.gi)
	}
	pvc := &v1.PersistentVolumeClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: g.uid(), CreationTimestamp: metav1.NewTime(baseTime)},
		Spec: v1.PersistentVolumeClaimSpec{
			AccessModes: pickOf(g, [][]v1.PersistentVolumeAccessMode{
				{v1.ReadWriteOnce}, {v1.ReadWriteOnce}, {v1.ReadWriteOnce}, {v1.ReadWriteMany}, {v1.ReadWriteMany},
				{v1.ReadOnlyMany}, {v1.ReadWriteOnce, v1.ReadWriteMany}, {v1.ReadWriteOncePod},
			}),
			Resources:  v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: *size}},
			VolumeMode: g.volumeMode(),
		},
		Status: v1.PersistentVolumeClaimStatus{Phase: v1.ClaimPending},
	}
	if g.chance(0.1) && c.class == staticClass {
		// The beta annotation instead of the field (still honoured). Only on
		// the static class: VolumeBinding's Score (v1.37) dereferences
		// spec.storageClassName of a claim it provisions against a tracked
		// capacity, so upstream crashes on such a claim with the annotation
		// (schedkit reads the annotation's class).
		pvc.Annotations = map[string]string{"volume.beta.kubernetes.io/storage-class": c.class}
	} else {
		class := c.class
		pvc.Spec.StorageClassName = &class
	}
	if c.class == staticClass && g.chance(0.2) {
		speed := pickOf(g, []string{"fast", "slow"})
		if g.chance(0.5) {
			pvc.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"speed": speed}}
		} else {
			pvc.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				pickOf(g, []metav1.LabelSelectorRequirement{
					{Key: "speed", Operator: metav1.LabelSelectorOpIn, Values: []string{speed}},
					{Key: "speed", Operator: metav1.LabelSelectorOpExists},
					{Key: "speed", Operator: metav1.LabelSelectorOpDoesNotExist},
				}),
			}}
		}
	}
	if g.chance(0.1) {
		// A node chosen by an earlier scheduling attempt.
		if pvc.Annotations == nil {
			pvc.Annotations = map[string]string{}
		}
		pvc.Annotations["volume.kubernetes.io/selected-node"] = pickOf(g, g.nodes).Name
	}
	c.pvc = pvc
	return c
}
