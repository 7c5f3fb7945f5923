package main

// The "dra" feature: Dynamic Resource Allocation (resource.k8s.io/v1 as
// v1.37 serves it), file 11-dra.json. It draws from a stream of its own, so
// that scenarios without it are what they were before it existed, after
// everything but the batch runs (whose heads never have claims).
//
//   - Drivers: 1–3 of gpu.example.com, nic.example.com and fpga.example.com,
//     each with a DeviceClass named after it (selector
//     `device.driver == "<driver>"`) and sometimes a second class with one
//     more selector.
//   - ResourceSlices: per-node pools (spec.nodeName, the pool named after
//     the node) on 2–7 nodes (deviceNodes), some split over two slices, a few
//     incomplete (resourceSliceCount 2, one slice published); partitionable
//     GPUs (a slice of sharedCounters and a slice of devices consuming them:
//     the whole GPU, halves and quarters); sometimes a pool spanning nodes
//     (spec.nodeSelector on the zone or disktype label, or spec.allNodes).
//     Devices carry string, int, bool and version attributes (every device
//     of a driver has the same ones, except the optional `healthy`, which
//     selectors only read behind has()), node-local GPUs and NICs the
//     standard resource.kubernetes.io/pcieRoot, tied to their NUMA node, and
//     every device one capacity. Some devices are tainted (NoSchedule,
//     NoExecute or None), sometimes a DeviceTaintRule taints more; some NICs
//     allow multiple allocations with a request policy (consumable
//     capacity).
//   - Claims: ResourceClaimTemplates (pods reference them; the simulator
//     and the oracle emulate the resource-claim controller, so the
//     generated claims are never written here) and standalone ResourceClaims,
//     some shared by a replica group or by two pods. Requests are `exactly`
//     (ExactCount 1–3 or All) or `firstAvailable` (2–3 subrequests), with
//     CEL selectors from a small grammar over the drawn attributes and
//     capacities (celExpr), tolerations of the drawn taints, capacity
//     requests; constraints matchAttribute and distinctAttribute. Rarely a
//     class, a claim or a template that does not exist.
//   - Allocated claims: some running pods on a node with a per-node pool
//     hold a standalone claim already allocated there (untainted devices
//     nothing else uses, a nodeSelector on the node's name) and reserved
//     for them; a pending pod sometimes shares one.
//   - Admin access: sometimes a pending pod in namespace dra-admin
//     (labelled resource.kubernetes.io/admin-access: "true", as the API
//     server requires for adminAccess requests) with such a claim.
//
// Left out: binding conditions (a driver would have to complete them),
// per-device node selection, list-type attributes and derived attributes
// (alpha). DeviceClass extendedResourceName is the "draExtended" feature's
// (dra_extended.go, its own names: "example.com/gpu" stays the "extended"
// feature's device-plugin resource). Every object is what the API server
// stores: defaults filled in (allocationMode, count, toleration operator),
// taints with timeAdded, canonical quantities, CEL that compiles.

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	draFile          = "11-dra.json"
	adminNamespace   = "dra-admin"
	adminAccessLabel = "resource.kubernetes.io/admin-access"
	// The domain of the standard attributes (pcieRoot).
	standardDomain = "resource.kubernetes.io"
	deleteProtect  = "resource.kubernetes.io/delete-protection"
)

// draAttr is an attribute every device of a driver has (optional: some
// devices only). Values are in ascending order (ints, versions), so that
// selectors can draw comparisons that hold for some devices only.
type draAttr struct {
	name     string
	kind     string // string, int, bool, version
	values   []string
	optional bool
}

// draDriver is one driver of the catalog.
type draDriver struct {
	name, short string
	attrs       []draAttr
	capacity    string   // the capacity every device has
	thresholds  []string // quantities selectors and capacity requests compare with (ascending)
	pcieRoot    bool     // node-local devices carry resource.kubernetes.io/pcieRoot
}

var draDrivers = []*draDriver{
	{
		name: "gpu.example.com", short: "gpu",
		attrs: []draAttr{
			{name: "model", kind: "string", values: []string{"a100", "h100", "l4"}},
			{name: "numa", kind: "int", values: []string{"0", "1"}},
			{name: "memoryGB", kind: "int", values: []string{"24", "40", "80"}},
			{name: "driverVersion", kind: "version", values: []string{"1.2.3", "1.10.0-rc.1", "2.0.0"}},
			{name: "healthy", kind: "bool", values: []string{"true", "true", "false"}, optional: true},
		},
		capacity: "memory", thresholds: []string{"20Gi", "30Gi", "40Gi", "64Gi"}, pcieRoot: true,
	},
	{
		name: "nic.example.com", short: "nic",
		attrs: []draAttr{
			{name: "model", kind: "string", values: []string{"cx6", "cx7", "e810"}},
			{name: "numa", kind: "int", values: []string{"0", "1"}},
			{name: "speedGbps", kind: "int", values: []string{"25", "100", "200"}},
			{name: "sriov", kind: "bool", values: []string{"true", "false"}},
			{name: "firmware", kind: "version", values: []string{"22.31.1014", "28.39.2048", "28.40.0"}},
		},
		capacity: "bandwidth", thresholds: []string{"10G", "20G", "50G", "100G"}, pcieRoot: true,
	},
	{
		name: "fpga.example.com", short: "fpga",
		attrs: []draAttr{
			{name: "family", kind: "string", values: []string{"agilex", "stratix"}},
			{name: "numa", kind: "int", values: []string{"0", "1"}},
			{name: "bitstream", kind: "version", values: []string{"1.0.0", "1.4.2", "2.1.0"}},
			{name: "healthy", kind: "bool", values: []string{"true", "false"}, optional: true},
		},
		capacity: "memory", thresholds: []string{"8Gi", "12Gi", "16Gi"},
	},
}

// draDevice is a published device, as the pre-allocated claims need it.
type draDevice struct {
	driver *draDriver
	pool   string
	node   string // per-node pools only
	name   string
	// plain: a per-node device without taints, counters or shared
	// allocation in a complete pool, which a pre-allocated claim may hold.
	plain bool
	taken bool
}

// draCounts counts what genDRA made, for scenario.txt.
type draCounts struct {
	objects, pods int
}

type draGen struct {
	*gen
	drivers       []*draDriver
	deviceClasses map[string][]string // driver -> its DeviceClasses, the plain one first (gen.classes are PriorityClasses)
	taints        bool                // devices may be tainted
	consumable    bool                // NICs may allow multiple allocations
	drawnTaint    []resourcev1.DeviceTaint
	devices       []*draDevice

	// The objects, by kind, in the order 11-dra.json lists them.
	adminNS   *v1.Namespace
	dclasses  []any
	sliceObjs []any
	rules     []any
	templates []any
	claimObjs []any

	specs     map[string]resourcev1.ResourceClaimSpec // template name -> spec
	specNames []string
	written   map[string]bool // namespace/template written
	// Standalone claims a second pod may share, and allocated ones.
	shareable []*resourcev1.ResourceClaim
	allocated []*resourcev1.ResourceClaim
	// Pending and running pods with claims.
	withPods, runningWith int
}

// genDRA draws the feature's objects into g.dra; the "draExtended"
// feature (dra_extended.go) then works on what it returns.
func (g *gen) genDRA() (*draGen, draCounts) {
	d := &draGen{gen: g, deviceClasses: map[string][]string{}, specs: map[string]resourcev1.ResourceClaimSpec{}, written: map[string]bool{}}
	for _, i := range g.r.Perm(len(draDrivers))[:1+g.pick(len(draDrivers))] {
		d.drivers = append(d.drivers, draDrivers[i])
	}
	slices.SortFunc(d.drivers, func(a, b *draDriver) int { return strings.Compare(a.name, b.name) })
	d.taints = g.chance(0.4)
	d.consumable = g.chance(0.4)
	for _, drv := range d.drivers {
		d.genClasses(drv)
		d.genPools(drv)
	}
	if d.taints && g.chance(0.4) {
		d.genTaintRule()
	}
	d.preallocate()
	d.pendingClaims()
	if g.chance(0.3) {
		d.adminPod()
	}

	var objs []any
	if d.adminNS != nil {
		objs = append(objs, d.adminNS)
	}
	objs = append(objs, d.dclasses...)
	objs = append(objs, d.sliceObjs...)
	objs = append(objs, d.rules...)
	objs = append(objs, d.templates...)
	objs = append(objs, d.claimObjs...)
	g.dra = objs
	return d, draCounts{objects: len(objs), pods: d.withPods + d.runningWith}
}

func (d *draGen) meta(name, ns string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: ns, UID: d.uid(), CreationTimestamp: metav1.NewTime(baseTime)}
}

func celSelector(expr string) resourcev1.DeviceSelector {
	return resourcev1.DeviceSelector{CEL: &resourcev1.CELDeviceSelector{Expression: expr}}
}

// genClasses: the class named after the driver selects its devices; a
// second one sometimes narrows them with a drawn selector.
func (d *draGen) genClasses(drv *draDriver) {
	mk := func(name string, selectors ...string) {
		c := &resourcev1.DeviceClass{
			TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "DeviceClass"},
			ObjectMeta: d.meta(name, ""),
		}
		for _, s := range selectors {
			c.Spec.Selectors = append(c.Spec.Selectors, celSelector(s))
		}
		d.dclasses = append(d.dclasses, c)
		d.deviceClasses[drv.name] = append(d.deviceClasses[drv.name], name)
	}
	byDriver := fmt.Sprintf("device.driver == %q", drv.name)
	mk(drv.name, byDriver)
	if d.chance(0.5) {
		mk(drv.short+"-"+pickOf(d.gen, []string{"large", "fast", "prod"}), byDriver, d.celExpr(drv))
	}
}

// className is the class a request names: mostly the driver's own, rarely
// one that does not exist (upstream: `device class ... does not exist`).
func (d *draGen) className(drv *draDriver) string {
	if d.chance(0.02) {
		return drv.short + "-legacy"
	}
	cs := d.deviceClasses[drv.name]
	if len(cs) > 1 && d.chance(0.35) {
		return cs[1]
	}
	return cs[0]
}

// ---------------------------------------------------------------- slices

// genPools publishes the driver's devices: per-node pools on a few nodes,
// sometimes a pool spanning nodes.
func (d *draGen) genPools(drv *draDriver) {
	for _, i := range d.deviceNodes() {
		if drv.short == "gpu" && d.chance(0.25) {
			d.partitionedPool(drv, d.nodes[i])
		} else {
			d.nodePool(drv, d.nodes[i])
		}
	}
	if d.chance(0.45) {
		d.sharedPool(drv)
	}
}

// deviceNodes picks the nodes of a driver's per-node pools (2–7, by index):
// mostly nodes with free cpu and without taints that repel pods, so that a
// fair share of the pods with claims find room next to their devices (in
// a cluster packed at random, claims alone would keep most of them
// pending).
func (d *draGen) deviceNodes() []int {
	type cand struct {
		i int
		w float64
	}
	var cands []cand
	for i, n := range d.nodes {
		free := d.free[n.Name][v1.ResourceCPU]
		w := (0.2 + float64(free.MilliValue())/1000) * (0.5 + d.r.Float64())
		for _, t := range n.Spec.Taints {
			if t.Effect != v1.TaintEffectPreferNoSchedule {
				w /= 3
			}
		}
		cands = append(cands, cand{i, w})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.w, a.w) })
	k := min(len(d.nodes), 2+d.pick(6))
	var out []int
	for _, c := range cands[:k] {
		out = append(out, c.i)
	}
	slices.Sort(out)
	return out
}

// nodeSelection is where a slice's devices are available: exactly one
// field set.
type nodeSelection struct {
	nodeName string
	selector *v1.NodeSelector
	all      bool
}

func (d *draGen) slice(name string, drv *draDriver, pool string, count int64, at nodeSelection, devices []resourcev1.Device, counters []resourcev1.CounterSet) {
	s := &resourcev1.ResourceSlice{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceSlice"},
		ObjectMeta: d.meta(name, ""),
		Spec: resourcev1.ResourceSliceSpec{
			Driver:         drv.name,
			Pool:           resourcev1.ResourcePool{Name: pool, Generation: 1, ResourceSliceCount: count},
			Devices:        devices,
			SharedCounters: counters,
			NodeSelector:   at.selector,
		},
	}
	if at.nodeName != "" {
		s.Spec.NodeName = ptr(at.nodeName)
	}
	if at.all {
		s.Spec.AllNodes = ptr(true)
	}
	d.sliceObjs = append(d.sliceObjs, s)
}

// attributes draws a device's attributes. NUMA node and PCIe root go
// together (two roots per NUMA node), so that matchAttribute on either
// finds GPUs and NICs that sit together.
func (d *draGen) attributes(drv *draDriver, numa int, nodeLocal bool, fixed map[string]string) map[resourcev1.QualifiedName]resourcev1.DeviceAttribute {
	out := map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{}
	for _, a := range drv.attrs {
		if a.optional && !d.chance(0.6) {
			continue
		}
		v := pickOf(d.gen, a.values)
		if f, ok := fixed[a.name]; ok {
			v = f
		}
		if a.name == "numa" {
			v = strconv.Itoa(numa)
		}
		out[resourcev1.QualifiedName(a.name)] = attrValue(a.kind, v)
	}
	if drv.pcieRoot && nodeLocal {
		root := fmt.Sprintf("pci0000:%02x", 2*numa+d.pick(2))
		out[resourcev1.QualifiedName(standardDomain+"/pcieRoot")] = resourcev1.DeviceAttribute{StringValue: ptr(root)}
	}
	return out
}

func attrValue(kind, v string) resourcev1.DeviceAttribute {
	switch kind {
	case "int":
		n, _ := strconv.ParseInt(v, 10, 64)
		return resourcev1.DeviceAttribute{IntValue: ptr(n)}
	case "bool":
		return resourcev1.DeviceAttribute{BoolValue: ptr(v == "true")}
	case "version":
		return resourcev1.DeviceAttribute{VersionValue: ptr(v)}
	}
	return resourcev1.DeviceAttribute{StringValue: ptr(v)}
}

// gpuModel draws a GPU model and its memory in GiB.
func (d *draGen) gpuModel() (string, int64) {
	switch d.pick(4) {
	case 0:
		return "l4", 24
	case 1:
		return "h100", 80
	case 2:
		return "a100", 40
	}
	return "a100", 80
}

// device draws one device of the driver (not partitioned).
func (d *draGen) device(drv *draDriver, name string, numa int, nodeLocal bool, model string, memGi int64) (resourcev1.Device, bool) {
	dev := resourcev1.Device{Name: name}
	plain := true
	fixed := map[string]string{}
	var capacity resourcev1.DeviceCapacity
	switch drv.short {
	case "gpu":
		fixed["model"], fixed["memoryGB"] = model, strconv.FormatInt(memGi, 10)
		capacity.Value = *gibi(memGi)
	case "nic":
		speed := pickOf(d.gen, []int64{25, 100, 100, 200})
		fixed["speedGbps"] = strconv.FormatInt(speed, 10)
		capacity.Value = *resource.NewScaledQuantity(speed, resource.Giga)
		if d.consumable && d.chance(0.5) {
			// Shared by several allocations: each takes a share of the
			// bandwidth, as its request policy rounds it.
			dev.AllowMultipleAllocations = ptr(true)
			switch d.pick(3) {
			case 0:
				capacity.RequestPolicy = &resourcev1.CapacityRequestPolicy{
					Default:    resource.NewScaledQuantity(10, resource.Giga),
					ValidRange: &resourcev1.CapacityRequestPolicyRange{Min: resource.NewScaledQuantity(1, resource.Giga), Step: resource.NewScaledQuantity(1, resource.Giga)},
				}
				if d.chance(0.5) {
					capacity.RequestPolicy.ValidRange.Max = ptr(capacity.Value.DeepCopy())
				}
			case 1:
				capacity.RequestPolicy = &resourcev1.CapacityRequestPolicy{
					Default:     resource.NewScaledQuantity(10, resource.Giga),
					ValidValues: []resource.Quantity{*resource.NewScaledQuantity(10, resource.Giga), *resource.NewScaledQuantity(25, resource.Giga)},
				}
			}
			plain = false
		}
	default:
		capacity.Value = *gibi(pickOf(d.gen, []int64{8, 16}))
	}
	dev.Attributes = d.attributes(drv, numa, nodeLocal, fixed)
	dev.Capacity = map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{resourcev1.QualifiedName(drv.capacity): capacity}
	if d.taints && d.chance(0.15) {
		dev.Taints = []resourcev1.DeviceTaint{d.taint()}
		plain = false
	}
	return dev, plain
}

// taint draws a device taint, as the API server stores it (timeAdded set).
func (d *draGen) taint() resourcev1.DeviceTaint {
	t := pickOf(d.gen, []resourcev1.DeviceTaint{
		{Key: "example.com/unhealthy", Value: "ecc"},
		{Key: "example.com/unhealthy", Value: "thermal"},
		{Key: "example.com/maintenance"},
	})
	t.Effect = pickOf(d.gen, []resourcev1.DeviceTaintEffect{
		resourcev1.DeviceTaintEffectNoSchedule, resourcev1.DeviceTaintEffectNoSchedule,
		resourcev1.DeviceTaintEffectNoExecute, resourcev1.DeviceTaintEffectNone,
	})
	added := metav1.NewTime(baseTime.Add(-30 * time.Minute))
	t.TimeAdded = &added
	d.drawnTaint = append(d.drawnTaint, t)
	return t
}

func (d *draGen) record(drv *draDriver, pool, node string, devs []resourcev1.Device, plain []bool) {
	for i, dev := range devs {
		d.devices = append(d.devices, &draDevice{driver: drv, pool: pool, node: node, name: dev.Name, plain: plain[i]})
	}
}

// nodePool: 1–6 devices on one node, in one slice, sometimes two, and now
// and then a pool that says two slices but has only one published
// (incomplete: upstream's allocator does not take its devices as they are).
func (d *draGen) nodePool(drv *draDriver, n *v1.Node) {
	model, mem := d.gpuModel()
	var devs []resourcev1.Device
	var plain []bool
	for i, c := 0, 1+d.pick(6); i < c; i++ {
		dev, p := d.device(drv, fmt.Sprintf("%s-%d", drv.short, i), i%2, true, model, mem)
		devs = append(devs, dev)
		plain = append(plain, p)
	}
	at := nodeSelection{nodeName: n.Name}
	name := n.Name + "-" + drv.short
	switch r := d.r.Float64(); {
	case r < 0.2 && len(devs) >= 2:
		cut := 1 + d.pick(len(devs)-1)
		d.slice(name+"-1", drv, n.Name, 2, at, devs[:cut], nil)
		d.slice(name+"-2", drv, n.Name, 2, at, devs[cut:], nil)
	case r < 0.25:
		d.slice(name+"-1", drv, n.Name, 2, at, devs, nil)
		plain = make([]bool, len(devs))
	default:
		d.slice(name, drv, n.Name, 1, at, devs, nil)
	}
	d.record(drv, n.Name, n.Name, devs, plain)
}

// partitionedPool: one or two GPUs that can be allocated whole or as
// halves or quarters, all drawing on the GPU's counter set (in a slice of
// its own, as v1.37 requires).
func (d *draGen) partitionedPool(drv *draDriver, n *v1.Node) {
	model, mem := d.gpuModel()
	if mem < 40 {
		model, mem = "a100", 40
	}
	var sets []resourcev1.CounterSet
	var devs []resourcev1.Device
	for gpu, n := 0, 1+d.pick(2); gpu < n; gpu++ {
		set := fmt.Sprintf("gpu-%d-counters", gpu)
		sets = append(sets, resourcev1.CounterSet{Name: set, Counters: map[string]resourcev1.Counter{
			"memory":          {Value: *gibi(mem)},
			"multiprocessors": {Value: *count(8)},
		}})
		parts := []struct {
			suffix string
			n      int
		}{{"", 1}, {"-half", 2}, {"-quarter", 4}}
		for _, part := range parts {
			for i := 0; i < part.n; i++ {
				name := fmt.Sprintf("gpu-%d%s", gpu, part.suffix)
				if part.n > 1 {
					name += fmt.Sprintf("-%d", i)
				}
				dev, _ := d.device(drv, name, gpu%2, true, model, mem/int64(part.n))
				dev.ConsumesCounters = []resourcev1.DeviceCounterConsumption{{CounterSet: set, Counters: map[string]resourcev1.Counter{
					"memory":          {Value: *gibi(mem / int64(part.n))},
					"multiprocessors": {Value: *count(int64(8 / part.n))},
				}}}
				devs = append(devs, dev)
			}
		}
	}
	at := nodeSelection{nodeName: n.Name}
	d.slice(n.Name+"-gpu-counters", drv, n.Name, 2, at, nil, sets)
	d.slice(n.Name+"-gpu", drv, n.Name, 2, at, devs, nil)
	d.record(drv, n.Name, n.Name, devs, make([]bool, len(devs)))
}

// sharedPool: 2–4 devices reachable from several nodes (a zone, the nodes
// with SSDs) or from all.
func (d *draGen) sharedPool(drv *draDriver) {
	var at nodeSelection
	var pool string
	switch r := d.r.Float64(); {
	case r < 0.45:
		z := pickOf(d.gen, d.zones)
		pool = "fabric-" + z
		at.selector = &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{
			{Key: "topology.kubernetes.io/zone", Operator: v1.NodeSelectorOpIn, Values: []string{z}}}}}}
	case r < 0.7:
		pool = "fabric-ssd"
		at.selector = &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{
			{Key: "disktype", Operator: v1.NodeSelectorOpIn, Values: []string{"ssd"}}}}}}
	default:
		pool = "cluster"
		at.all = true
	}
	model, mem := d.gpuModel()
	var devs []resourcev1.Device
	for i, c := 0, 2+d.pick(3); i < c; i++ {
		dev, _ := d.device(drv, fmt.Sprintf("%s-%d", drv.short, i), i%2, false, model, mem)
		devs = append(devs, dev)
	}
	name := pool + "-" + drv.short
	if d.chance(0.2) {
		d.slice(name+"-1", drv, pool, 2, at, devs[:1], nil)
		d.slice(name+"-2", drv, pool, 2, at, devs[1:], nil)
	} else {
		d.slice(name, drv, pool, 1, at, devs, nil)
	}
	d.record(drv, pool, "", devs, make([]bool, len(devs)))
}

// genTaintRule taints one device, a pool or a driver's devices through a
// DeviceTaintRule.
func (d *draGen) genTaintRule() {
	dev := pickOf(d.gen, d.devices)
	sel := &resourcev1.DeviceTaintSelector{Driver: ptr(dev.driver.name)}
	name := "taint-" + dev.driver.short
	switch d.pick(3) {
	case 0:
		sel.Pool, sel.Device = ptr(dev.pool), ptr(dev.name)
		name = "taint-" + dev.pool + "-" + dev.name
	case 1:
		sel.Pool = ptr(dev.pool)
		name = "taint-" + dev.pool + "-" + dev.driver.short
	}
	for _, o := range d.devices {
		if o.driver == dev.driver && (sel.Pool == nil || *sel.Pool == o.pool) && (sel.Device == nil || *sel.Device == o.name) {
			o.plain = false
		}
	}
	d.rules = append(d.rules, &resourcev1.DeviceTaintRule{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "DeviceTaintRule"},
		ObjectMeta: d.meta(name, ""),
		Spec:       resourcev1.DeviceTaintRuleSpec{DeviceSelector: sel, Taint: d.taint()},
	})
}

// ---------------------------------------------------------------- CEL

// celExpr draws a device selector for the driver's devices: one condition,
// two joined by && or ||, a negation, or a cel.bind of the attributes.
func (d *draGen) celExpr(drv *draDriver) string {
	attrs := fmt.Sprintf("device.attributes[%q]", drv.name)
	// An atom joined to another is parenthesized when it is a && or ||
	// itself (has() guards are), for the reader: CEL binds && tighter.
	atom := func() string {
		a := d.celAtom(drv, attrs)
		if strings.Contains(a, " && ") || strings.Contains(a, " || ") {
			return "(" + a + ")"
		}
		return a
	}
	switch r := d.r.Float64(); {
	case r < 0.55:
		return d.celAtom(drv, attrs)
	case r < 0.7:
		return atom() + " && " + atom()
	case r < 0.82:
		return atom() + " || " + atom()
	case r < 0.92:
		return "!(" + d.celAtom(drv, attrs) + ")"
	}
	return fmt.Sprintf("cel.bind(attrs, %s, %s)", attrs, d.celAtom(drv, "attrs"))
}

// celAtom is one condition on an attribute (read through attrs), the
// capacity, the standard pcieRoot, or the device's own fields. Attributes
// every device of the driver has are read directly; the optional ones and
// pcieRoot (not on shared pools' devices) only behind has(), so that no
// selector fails at run time.
func (d *draGen) celAtom(drv *draDriver, attrs string) string {
	capacity := fmt.Sprintf("device.capacity[%q].%s", drv.name, drv.capacity)
	switch r := d.r.Float64(); {
	case r < 0.15:
		t := drv.thresholds
		switch d.pick(3) {
		case 0:
			return fmt.Sprintf("%s.compareTo(quantity(%q)) >= 0", capacity, pickOf(d.gen, t))
		case 1:
			return fmt.Sprintf("%s.isGreaterThan(quantity(%q))", capacity, pickOf(d.gen, t[:len(t)-1]))
		}
		return fmt.Sprintf("%s.isLessThan(quantity(%q))", capacity, pickOf(d.gen, t[1:]))
	case r < 0.22 && drv.pcieRoot:
		root := standardDomain + `"].pcieRoot`
		std := `device.attributes["` + root
		return fmt.Sprintf("has(%s) && %s.endsWith(%q)", std, std, strconv.Itoa(d.pick(2)))
	case r < 0.25 && drv.short == "nic" && d.consumable:
		return pickOf(d.gen, []string{"device.allowMultipleAllocations", "!device.allowMultipleAllocations"})
	case r < 0.27:
		return fmt.Sprintf("device.driver == %q", drv.name)
	}
	a := pickOf(d.gen, drv.attrs)
	x := attrs + "." + a.name
	v := pickOf(d.gen, a.values)
	if a.optional {
		switch d.pick(3) {
		case 0:
			return fmt.Sprintf("has(%s) && %s", x, x)
		case 1:
			return fmt.Sprintf("!has(%s) || %s", x, x)
		}
		return fmt.Sprintf("has(%s)", x)
	}
	switch a.kind {
	case "string":
		other := pickOf(d.gen, a.values)
		switch d.pick(6) {
		case 0:
			return fmt.Sprintf("%s == %q", x, v)
		case 1:
			return fmt.Sprintf("%s != %q", x, v)
		case 2:
			return fmt.Sprintf("%s in [%q, %q]", x, v, other)
		case 3:
			return fmt.Sprintf("%s.startsWith(%q)", x, v[:1])
		case 4:
			return fmt.Sprintf("%s.matches(%q)", x, "^("+v+"|"+other+")$")
		}
		return fmt.Sprintf("%s.contains(%q)", x, v[len(v)-2:])
	case "int":
		// Each comparison holds for some of the values and not for others.
		op := pickOf(d.gen, []string{"==", "!=", "<", ">=", ">"})
		switch op {
		case "<", ">=":
			v = pickOf(d.gen, a.values[1:])
		case ">":
			v = pickOf(d.gen, a.values[:len(a.values)-1])
		}
		return fmt.Sprintf("%s %s %s", x, op, v)
	case "bool":
		return pickOf(d.gen, []string{x, "!" + x, x + " == " + v})
	}
	// version
	switch d.pick(4) {
	case 0:
		return fmt.Sprintf("%s.isGreaterThan(semver(%q))", x, pickOf(d.gen, a.values[:len(a.values)-1]))
	case 1:
		return fmt.Sprintf("%s.isLessThan(semver(%q))", x, pickOf(d.gen, a.values[1:]))
	case 2:
		return fmt.Sprintf("%s.compareTo(semver(%q)) >= 0", x, v)
	}
	return fmt.Sprintf("%s.major() >= %d", x, 1+d.pick(2))
}

// ---------------------------------------------------------------- claims

// tolerations: sometimes one, of a taint drawn in the scenario (or all).
func (d *draGen) tolerations() []resourcev1.DeviceToleration {
	if len(d.drawnTaint) == 0 || !d.chance(0.35) {
		return nil
	}
	t := pickOf(d.gen, d.drawnTaint)
	switch d.pick(5) {
	case 0:
		return []resourcev1.DeviceToleration{{Key: t.Key, Operator: resourcev1.DeviceTolerationOpExists}}
	case 1:
		return []resourcev1.DeviceToleration{{Key: t.Key, Operator: resourcev1.DeviceTolerationOpEqual, Value: t.Value, Effect: t.Effect}}
	case 2:
		return []resourcev1.DeviceToleration{{Key: t.Key, Operator: resourcev1.DeviceTolerationOpExists, Effect: t.Effect}}
	case 3:
		// A near miss: another value.
		return []resourcev1.DeviceToleration{{Key: t.Key, Operator: resourcev1.DeviceTolerationOpEqual, Value: "other", Effect: t.Effect}}
	}
	return []resourcev1.DeviceToleration{{Operator: resourcev1.DeviceTolerationOpExists}}
}

// capacityRequest: sometimes a share of the driver's capacity (a filter on
// devices that cannot be shared, a share of those that can).
func (d *draGen) capacityRequest(drv *draDriver) *resourcev1.CapacityRequirements {
	p := 0.1
	if drv.short == "nic" && d.consumable {
		p = 0.45
	}
	if !d.chance(p) {
		return nil
	}
	return &resourcev1.CapacityRequirements{Requests: map[resourcev1.QualifiedName]resource.Quantity{
		resourcev1.QualifiedName(drv.capacity): resource.MustParse(pickOf(d.gen, drv.thresholds)),
	}}
}

func (d *draGen) selectors(drv *draDriver) []resourcev1.DeviceSelector {
	var out []resourcev1.DeviceSelector
	switch r := d.r.Float64(); {
	case r < 0.45:
	case r < 0.9:
		out = append(out, celSelector(d.celExpr(drv)))
	default:
		out = append(out, celSelector(d.celExpr(drv)), celSelector(d.celExpr(drv)))
	}
	return out
}

// countAndMode: ExactCount 1–3 (mostly 1), sometimes All.
func (d *draGen) countAndMode() (resourcev1.DeviceAllocationMode, int64) {
	if d.chance(0.1) {
		return resourcev1.DeviceAllocationModeAll, 0
	}
	return resourcev1.DeviceAllocationModeExactCount, pickOf(d.gen, []int64{1, 1, 1, 1, 1, 2, 2, 3})
}

func (d *draGen) exact(drv *draDriver, admin bool) *resourcev1.ExactDeviceRequest {
	mode, n := d.countAndMode()
	r := &resourcev1.ExactDeviceRequest{
		DeviceClassName: d.className(drv),
		Selectors:       d.selectors(drv),
		AllocationMode:  mode,
		Count:           n,
		Tolerations:     d.tolerations(),
		Capacity:        d.capacityRequest(drv),
	}
	if admin {
		r.AdminAccess = ptr(true)
	}
	return r
}

// claimSpec draws what a claim (or a template) asks for; base names it
// after its first request's driver.
func (d *draGen) claimSpec(admin bool) (spec resourcev1.ResourceClaimSpec, base string) {
	n := 1
	if d.chance(0.3) {
		n = 2
	}
	var used []*draDriver
	multi := n > 1
	for i := 0; i < n; i++ {
		drv := pickOf(d.gen, d.drivers)
		used = append(used, drv)
		name := drv.short
		if i > 0 && name == spec.Devices.Requests[0].Name {
			name = fmt.Sprintf("%s-%d", drv.short, i)
		}
		req := resourcev1.DeviceRequest{Name: name}
		if !admin && d.chance(0.2) {
			// Alternatives in order of preference; another driver now and then.
			for k, sub := range []string{"large", "medium", "small"}[:2+d.pick(2)] {
				sd := drv
				if k > 0 && d.chance(0.25) {
					sd = pickOf(d.gen, d.drivers)
				}
				mode, c := d.countAndMode()
				req.FirstAvailable = append(req.FirstAvailable, resourcev1.DeviceSubRequest{
					Name: sub, DeviceClassName: d.className(sd), Selectors: d.selectors(sd),
					AllocationMode: mode, Count: c, Tolerations: d.tolerations(), Capacity: d.capacityRequest(sd),
				})
				multi = multi || c != 1
			}
		} else {
			req.Exactly = d.exact(drv, admin && i == 0)
			multi = multi || req.Exactly.Count != 1
		}
		spec.Devices.Requests = append(spec.Devices.Requests, req)
	}
	if multi && d.chance(0.4) {
		spec.Devices.Constraints = []resourcev1.DeviceConstraint{d.constraint(spec, used)}
	}
	return spec, used[0].short
}

// constraint: devices that share an attribute (the same NUMA node, PCIe
// root, model) or all differ in one.
func (d *draGen) constraint(spec resourcev1.ResourceClaimSpec, used []*draDriver) resourcev1.DeviceConstraint {
	var c resourcev1.DeviceConstraint
	attr := used[0].name + "/" + pickOf(d.gen, []string{"numa", "numa", "model"})
	if used[0].short == "fpga" && strings.HasSuffix(attr, "model") {
		attr = used[0].name + "/family"
	}
	if len(used) > 1 && used[0].pcieRoot && used[1].pcieRoot && d.chance(0.6) {
		attr = standardDomain + "/pcieRoot"
	}
	fq := resourcev1.FullyQualifiedName(attr)
	if d.chance(0.25) {
		c.DistinctAttribute = &fq
	} else {
		c.MatchAttribute = &fq
	}
	if len(spec.Devices.Requests) > 1 && d.chance(0.5) {
		for _, r := range spec.Devices.Requests {
			c.Requests = append(c.Requests, r.Name)
		}
	}
	return c
}

// template returns the name of a template in the namespace, writing it
// there when it is the first use: an existing spec, or a new one (at most
// four per scenario).
func (d *draGen) template(ns string) string {
	var name string
	if len(d.specNames) > 0 && (len(d.specNames) >= 4 || d.chance(0.5)) {
		name = pickOf(d.gen, d.specNames)
	} else {
		spec, base := d.claimSpec(false)
		name = fmt.Sprintf("%s-%d", base, len(d.specNames)+1)
		d.specs[name] = spec
		d.specNames = append(d.specNames, name)
	}
	d.writeTemplate(ns, name, d.specs[name])
	return name
}

func (d *draGen) writeTemplate(ns, name string, spec resourcev1.ResourceClaimSpec) {
	if d.written[ns+"/"+name] {
		return
	}
	d.written[ns+"/"+name] = true
	d.templates = append(d.templates, &resourcev1.ResourceClaimTemplate{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaimTemplate"},
		ObjectMeta: d.meta(name, ns),
		Spec:       resourcev1.ResourceClaimTemplateSpec{Spec: *spec.DeepCopy()},
	})
}

func (d *draGen) claim(name, ns string, spec resourcev1.ResourceClaimSpec) *resourcev1.ResourceClaim {
	c := &resourcev1.ResourceClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
		ObjectMeta: d.meta(name, ns),
		Spec:       spec,
	}
	d.claimObjs = append(d.claimObjs, c)
	return c
}

// usePodClaim adds a pod claim to the pod and names it in its first
// container.
func usePodClaim(p *v1.Pod, name string, claim, template *string) {
	p.Spec.ResourceClaims = append(p.Spec.ResourceClaims, v1.PodResourceClaim{Name: name, ResourceClaimName: claim, ResourceClaimTemplateName: template})
	p.Spec.Containers[0].Resources.Claims = append(p.Spec.Containers[0].Resources.Claims, v1.ResourceClaim{Name: name})
}

func podClaimName(p *v1.Pod, base string) string {
	name := base
	for i := 1; slices.ContainsFunc(p.Spec.ResourceClaims, func(c v1.PodResourceClaim) bool { return c.Name == name }); i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	return name
}

// addPodClaims gives a pending pod one or two claims: mostly from a
// template, or a standalone claim of its own or another pod's, rarely one
// that does not exist.
func (d *draGen) addPodClaims(p *v1.Pod) {
	for i, n := 0, 1+map[bool]int{true: 1}[d.chance(0.25)]; i < n; i++ {
		switch r := d.r.Float64(); {
		case r < 0.02:
			usePodClaim(p, podClaimName(p, "missing"), ptr(p.Name+"-missing"), nil)
		case r < 0.04:
			usePodClaim(p, podClaimName(p, "missing"), nil, ptr("missing-template"))
		case r < 0.55:
			t := d.template(p.Namespace)
			usePodClaim(p, podClaimName(p, strings.SplitN(t, "-", 2)[0]), nil, &t)
		default:
			var shared []*resourcev1.ResourceClaim
			for _, c := range d.shareable {
				if c.Namespace == p.Namespace && !podUses(p, c.Name) {
					shared = append(shared, c)
				}
			}
			if len(shared) > 0 && d.chance(0.35) {
				c := pickOf(d.gen, shared)
				usePodClaim(p, podClaimName(p, "shared"), ptr(c.Name), nil)
				continue
			}
			spec, base := d.claimSpec(false)
			name := podClaimName(p, base)
			c := d.claim(p.Name+"-"+name, p.Namespace, spec)
			d.shareable = append(d.shareable, c)
			usePodClaim(p, name, ptr(c.Name), nil)
		}
	}
	if len(p.Spec.Containers) > 1 && d.chance(0.3) {
		p.Spec.Containers[1].Resources.Claims = append(p.Spec.Containers[1].Resources.Claims, p.Spec.Containers[0].Resources.Claims[0])
	}
}

func podUses(p *v1.Pod, claim string) bool {
	return slices.ContainsFunc(p.Spec.ResourceClaims, func(c v1.PodResourceClaim) bool {
		return c.ResourceClaimName != nil && *c.ResourceClaimName == claim
	})
}

// pendingClaims gives claims to some pending pods. The replicas of a group
// (consecutive pods of one app and namespace) mostly ask alike, as a
// Deployment's would: the same templates, and the same standalone claims,
// which they then share.
func (d *draGen) pendingClaims() {
	share := 0.2 + 0.3*d.r.Float64()
	var prev *v1.Pod
	for _, p := range d.pending {
		same := prev != nil && prev.Namespace == p.Namespace && prev.Labels["pod-template-hash"] == p.Labels["pod-template-hash"]
		switch {
		case same && len(prev.Spec.ResourceClaims) > 0 && d.chance(0.85):
			p.Spec.ResourceClaims = append([]v1.PodResourceClaim(nil), prev.Spec.ResourceClaims...)
			for i := range p.Spec.Containers {
				if i < len(prev.Spec.Containers) {
					p.Spec.Containers[i].Resources.Claims = append([]v1.ResourceClaim(nil), prev.Spec.Containers[i].Resources.Claims...)
				}
			}
			d.withPods++
		case !same && d.withPods < 12 && d.chance(share):
			d.addPodClaims(p)
			d.withPods++
		}
		prev = p
	}
	if d.withPods == 0 {
		d.addPodClaims(pickOf(d.gen, d.pending))
		d.withPods++
	}
	// A pending pod that shares a running pod's allocated claim must go to
	// its node.
	if len(d.allocated) > 0 && d.chance(0.4) {
		c := pickOf(d.gen, d.allocated)
		var in []*v1.Pod
		for _, p := range d.pending {
			if p.Namespace == c.Namespace && !podUses(p, c.Name) {
				in = append(in, p)
			}
		}
		if len(in) > 0 {
			p := pickOf(d.gen, in)
			if len(p.Spec.ResourceClaims) == 0 {
				d.withPods++
			}
			usePodClaim(p, podClaimName(p, "shared"), ptr(c.Name), nil)
		}
	}
}

// preallocate gives 1–2 running pods (in half of the scenarios) a
// standalone claim allocated on their node, as the scheduler left it:
// results for devices of a per-node pool that nothing else holds, a node
// selector on the node's name, the deletion-protection finalizer, and the
// pod in reservedFor.
func (d *draGen) preallocate() {
	if !d.chance(0.5) {
		return
	}
	for i, n := 0, 1+d.pick(2); i < n; i++ {
		type option struct {
			p    *v1.Pod
			free []*draDevice
		}
		var opts []option
		for _, p := range d.running {
			if len(p.Spec.ResourceClaims) > 0 {
				continue
			}
			for _, drv := range d.drivers {
				var free []*draDevice
				for _, dev := range d.devices {
					if dev.driver == drv && dev.node == p.Spec.NodeName && dev.plain && !dev.taken {
						free = append(free, dev)
					}
				}
				if len(free) > 0 {
					opts = append(opts, option{p, free})
				}
			}
		}
		if len(opts) == 0 {
			return
		}
		o := pickOf(d.gen, opts)
		k := 1
		if len(o.free) > 1 && d.chance(0.3) {
			k = 2
		}
		drv := o.free[0].driver
		spec := resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{{
			Name: drv.short,
			Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: drv.name,
				AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: int64(k)},
		}}}}
		c := d.claim(o.p.Name+"-"+drv.short, o.p.Namespace, spec)
		c.Finalizers = []string{deleteProtect}
		alloc := &resourcev1.AllocationResult{
			NodeSelector: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchFields: []v1.NodeSelectorRequirement{
				{Key: "metadata.name", Operator: v1.NodeSelectorOpIn, Values: []string{o.p.Spec.NodeName}}}}}},
			AllocationTimestamp: ptr(metav1.NewTime(baseTime)),
		}
		for _, j := range d.r.Perm(len(o.free))[:k] {
			dev := o.free[j]
			dev.taken = true
			alloc.Devices.Results = append(alloc.Devices.Results, resourcev1.DeviceRequestAllocationResult{
				Request: drv.short, Driver: drv.name, Pool: dev.pool, Device: dev.name})
		}
		c.Status.Allocation = alloc
		c.Status.ReservedFor = []resourcev1.ResourceClaimConsumerReference{{Resource: "pods", Name: o.p.Name, UID: o.p.UID}}
		usePodClaim(o.p, drv.short, ptr(c.Name), nil)
		d.allocated = append(d.allocated, c)
		d.runningWith++
	}
}

// adminPod: a monitoring pod with admin access to devices (which ignores
// other allocations), in the namespace labelled for it.
func (d *draGen) adminPod() {
	d.adminNS = &v1.Namespace{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
		ObjectMeta: metav1.ObjectMeta{Name: adminNamespace, UID: d.uid(), CreationTimestamp: metav1.NewTime(baseTime.Add(-time.Hour)),
			Labels: map[string]string{"kubernetes.io/metadata.name": adminNamespace, adminAccessLabel: "true"}},
		Status: v1.NamespaceStatus{Phase: v1.NamespaceActive},
	}
	p := &v1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: d.name("dra-monitor"), Namespace: adminNamespace, UID: d.uid(),
			CreationTimestamp: d.tick(1 + d.pick(5)), Labels: map[string]string{"app": "dra-monitor"}},
		Spec: v1.PodSpec{Containers: []v1.Container{{
			Name: "monitor", Image: "busybox",
			Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: *milli(50), v1.ResourceMemory: *mebi(64)}},
		}}},
		Status: v1.PodStatus{Phase: v1.PodPending, QOSClass: v1.PodQOSBurstable},
	}
	d.setPriority(p, "")
	spec, base := d.claimSpec(true)
	if d.chance(0.5) {
		name := "admin-" + base
		d.writeTemplate(adminNamespace, name, spec)
		usePodClaim(p, base, nil, &name)
	} else {
		c := d.claim(p.Name+"-"+base, adminNamespace, spec)
		usePodClaim(p, base, ptr(c.Name), nil)
	}
	d.pending = append(d.pending, p)
	d.withPods++
}
