package main

// The world the upstream code runs in: a fake API server (client-go fake
// clientset) holding every object, the scheduler's informer factory, the real
// scheduler cache (backend/cache) and its snapshot, one framework per profile
// built from the in-tree registry, and the real scheduling queue
// (backend/queue.PriorityQueue) on a fake clock, wired as scheduler.New wires
// them.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
	testingclock "k8s.io/utils/clock/testing"
)

// clockStart is the fake clock's start: a whole second, so that the 1 ns
// steps the oracle takes never cross a backoff ordering window.
var clockStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// podState is the oracle's record of one pod of the input.
type podState struct {
	pod     *v1.Pod // latest object the pod informer delivered
	index   int     // position in the input
	pending bool    // had no spec.nodeName in the input
	deleted bool    // evicted by a preemption

	// Result, for pending pods.
	attempts int
	status   string // Scheduled | Unschedulable | Preempted
	node     string
	message  string
	victims  []string
	explain  *explainRecord
}

// profileFW is one profile's framework plus the plugin instances it built.
type profileFW struct {
	name       string
	fw         framework.Framework
	plugins    map[string]fwk.Plugin
	preemption *defaultpreemption.DefaultPreemption // nil if not enabled
	scoreCfg   []config.Plugin                      // enabled Score plugins, in order, with weights
}

type world struct {
	ctx      context.Context
	logger   klog.Logger
	cfg      *config.KubeSchedulerConfiguration
	cs       *fake.Clientset
	informer informers.SharedInformerFactory
	cache    internalcache.Cache
	snapshot *internalcache.Snapshot
	clock    *testingclock.FakeClock
	queue    internalqueue.SchedulingQueue

	profiles    map[string]*profileFW
	firstProfil *profileFW

	pods     []*podState
	podByUID map[types.UID]*podState
	nodes    []*v1.Node

	explain  bool
	tieBreak bool
	// --throughput: filter nodes in parallel, as upstream does.
	parallelFilter bool
	trace          io.Writer // SCHEDKIT_ORACLE_TRACE=1: one line per attempt on stderr

	// nextStartNodeIndex as kept by upstream's Scheduler (round robin start of
	// the filter scan); it only matters when the scan may stop early.
	nextStartNodeIndex int

	// The pod informer (events.go), the notifications of pod and storage
	// writes not yet handled, and the pods deleted through the API
	// (preemption victims).
	podInformer *syncPodInformer
	evMu        sync.Mutex
	events      []apiEvent
	deletes     []types.NamespacedName
	// The actions of each resource that upstream's informer handlers
	// deliver to the queue (unionedGVKs of the queueing-hint maps).
	handledActions map[fwk.EventResource]fwk.ActionType

	// The emulated PV controller (pvcontroller.go): the last
	// resourceVersion handed out, and the claims that were unbound in the
	// input (the "claims" output reports those bound during the run).
	lastRV        atomic.Int64
	unboundClaims []types.NamespacedName

	// The ResourceClaim informer the claim reactor delivers writes to, and
	// the sync checks of the DRA event handlers' registrations (dra.go).
	claimInformer *syncClaimInformer
	draSynced     []func() bool

	// --timeline (timeline.go): the batches, and the pending pods not yet
	// created, by namespace/name.
	timeline *timeline
	held     map[string]*podState
	// Nodes by name: in the cluster, and held back until a batch creates them.
	liveNodes map[string]*v1.Node
	heldNodes map[string]*v1.Node
	// Scheduling attempts so far (the timeline's afterAttempts counts them).
	attempts int
	// Bindings the fake API server accepted, and when the last one was.
	binds    int
	lastBind time.Time
}

func newWorld(ctx context.Context, cfg *config.KubeSchedulerConfiguration, c *cluster, explain, tieBreak, throughput bool, tl *timeline) (*world, error) {
	w := &world{
		ctx:       ctx,
		logger:    klog.FromContext(ctx),
		cfg:       cfg,
		explain:   explain,
		tieBreak:  tieBreak,
		podByUID:  map[types.UID]*podState{},
		timeline:  tl,
		held:      map[string]*podState{},
		liveNodes: map[string]*v1.Node{},
		heldNodes: map[string]*v1.Node{},
		profiles:  map[string]*profileFW{},
		clock:     testingclock.NewFakeClock(clockStart),
	}
	if os.Getenv("SCHEDKIT_ORACLE_TRACE") != "" {
		w.trace = os.Stderr
	}
	metrics.Register()

	// The API server (it gets copies: the oracle keeps its own objects).
	var objs []runtime.Object
	created := tl.created()
	for _, o := range c.namespaces {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.priorityClass {
		objs = append(objs, o.DeepCopy())
	}
	createdNodes := tl.createdNodes()
	w.nodes = nil
	for _, o := range c.nodes {
		if createdNodes[o.Name] {
			w.heldNodes[o.Name] = o // the timeline creates it
			continue
		}
		w.nodes = append(w.nodes, o)
		w.liveNodes[o.Name] = o
		objs = append(objs, o.DeepCopy())
	}
	for i, p := range c.pods {
		if isTerminal(p) {
			// The scheduler's pod informer never sees Succeeded/Failed pods.
			continue
		}
		ps := &podState{pod: p, index: i, pending: p.Spec.NodeName == "", status: "Unschedulable"}
		w.pods = append(w.pods, ps)
		w.podByUID[p.UID] = ps
		if ps.pending && created[key(p)] {
			w.held[key(p)] = ps // the timeline creates it
			continue
		}
		objs = append(objs, p.DeepCopy())
	}
	for _, o := range c.pdbs {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.services {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.rcs {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.replicaSets {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.statefulSets {
		objs = append(objs, o.DeepCopy())
	}
	// PersistentVolumes and claims carry resourceVersions, as an API
	// server's do: the volume binder's assume caches compare them
	// (pvcontroller.go).
	for _, o := range c.pvs {
		o = o.DeepCopy()
		o.ResourceVersion = w.nextResourceVersion()
		objs = append(objs, o)
	}
	for _, o := range c.pvcs {
		o = o.DeepCopy()
		o.ResourceVersion = w.nextResourceVersion()
		objs = append(objs, o)
		if o.Spec.VolumeName == "" {
			w.unboundClaims = append(w.unboundClaims, types.NamespacedName{Namespace: o.Namespace, Name: o.Name})
		}
	}
	for _, o := range c.storageClasses {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.csiNodes {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.csiDrivers {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.capacities {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.attachments {
		objs = append(objs, o.DeepCopy())
	}
	// Dynamic Resource Allocation. Claims carry resourceVersions, as PVs
	// do: the claim assume cache compares them (dra.go).
	for _, o := range c.deviceClasses {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.resourceSlices {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.deviceTaintRules {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range c.claimTemplates {
		objs = append(objs, o.DeepCopy())
	}
	var claims []*resourceapi.ResourceClaim
	for _, o := range c.resourceClaims {
		o = o.DeepCopy()
		o.ResourceVersion = w.nextResourceVersion()
		objs = append(objs, o)
		claims = append(claims, o)
	}
	if throughput {
		// NewClientset's tracker rebuilds a REST mapper for managed fields on
		// every write, which costs more than the scheduling it serves; the
		// scheduler never reads managed fields.
		w.cs = fake.NewSimpleClientset(objs...) //nolint:staticcheck // see above
	} else {
		w.cs = fake.NewClientset(objs...)
	}
	w.parallelFilter = throughput
	w.cs.PrependReactor("*", "pods", w.podWriteReactor)
	w.cs.PrependReactor("update", "persistentvolumes", w.storageWriteReactor)
	w.cs.PrependReactor("update", "persistentvolumeclaims", w.storageWriteReactor)
	w.cs.PrependReactor("*", "resourceclaims", w.claimWriteReactor)
	// The scheduler's informer factory (scheduler.NewInformerFactory) with
	// the synchronous pod informer in place of newPodInformer.
	w.informer = informers.NewSharedInformerFactory(w.cs, 0)
	w.podInformer = newSyncPodInformer()
	w.informer.InformerFor(&v1.Pod{}, func(kubernetes.Interface, time.Duration) toolscache.SharedIndexInformer { return w.podInformer })
	for _, ps := range w.pods {
		if w.held[key(ps.pod)] == ps {
			continue
		}
		if err := w.podInformer.GetStore().Add(trimPod(ps.pod)); err != nil {
			return nil, err
		}
	}
	// ... and the synchronous claim informer (dra.go), holding the claims
	// before the assume cache registers with it.
	w.claimInformer = newSyncClaimInformer()
	w.informer.InformerFor(&resourceapi.ResourceClaim{}, func(kubernetes.Interface, time.Duration) toolscache.SharedIndexInformer { return w.claimInformer })
	for _, o := range claims {
		if err := w.claimInformer.GetStore().Add(o.DeepCopy()); err != nil {
			return nil, err
		}
	}

	// The scheduler cache (assumed pods never expire, as in kube-scheduler).
	w.cache = internalcache.New(ctx, nil, feature.DefaultFeatureGate.Enabled(features.GenericWorkload), feature.DefaultFeatureGate.Enabled(features.CompositePodGroup))
	w.snapshot = internalcache.NewEmptySnapshot()

	// Providers that scheduler.New wires up.
	var (
		draManager   fwk.SharedDRAManager
		claimCache   *assumecache.AssumeCache
		sliceTracker *resourceslicetracker.Tracker
	)
	if feature.DefaultFeatureGate.Enabled(features.DynamicResourceAllocation) {
		claimInformer := w.informer.Resource().V1().ResourceClaims().Informer()
		claimCache = assumecache.NewAssumeCache(w.logger, claimInformer, "ResourceClaim", "", nil)
		opts := resourceslicetracker.Options{
			EnableDeviceTaintRules:   feature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
			EnableConsumableCapacity: feature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
			SliceInformer:            w.informer.Resource().V1().ResourceSlices(),
			KubeClient:               w.cs,
		}
		if opts.EnableDeviceTaintRules {
			opts.TaintInformer = w.informer.Resource().V1().DeviceTaintRules()
		}
		tracker, err := resourceslicetracker.StartTracker(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("starting the resource slice tracker: %w", err)
		}
		sliceTracker = tracker
		// The tracker itself must have seen every slice (and taint rule)
		// before the first cycle lists them.
		w.draSynced = append(w.draSynced, tracker.HasSynced)
		draManager = dynamicresources.NewDRAManager(ctx, claimCache, tracker, w.informer)
	}
	csiManager := nodevolumelimits.NewCSIManager(w.informer.Storage().V1().CSINodes().Lister())
	waitingPods := frameworkruntime.NewWaitingPodsMap()
	podsInPreBind := frameworkruntime.NewPodsInPreBindMap()
	metricsRecorder := metrics.NewMetricsAsyncRecorder(1000, time.Second, ctx.Done())

	for i := range cfg.Profiles {
		prof := &cfg.Profiles[i]
		pf := &profileFW{name: prof.SchedulerName, plugins: map[string]fwk.Plugin{}}
		registry := frameworkruntime.Registry{}
		for name, factory := range plugins.NewInTreeRegistry() {
			name, factory := name, factory
			registry[name] = func(ctx context.Context, args runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
				p, err := factory(ctx, args, h)
				if err == nil {
					pf.plugins[name] = p
				}
				return p, err
			}
		}
		fw, err := frameworkruntime.NewFramework(ctx, registry, prof,
			frameworkruntime.WithComponentConfigVersion(cfg.TypeMeta.APIVersion),
			frameworkruntime.WithClientSet(w.cs),
			frameworkruntime.WithInformerFactory(w.informer),
			frameworkruntime.WithSharedDRAManager(draManager),
			frameworkruntime.WithSharedCSIManager(csiManager),
			frameworkruntime.WithSnapshotSharedLister(w.snapshot),
			frameworkruntime.WithMutableSnapshotLister(w.snapshot),
			frameworkruntime.WithEventRecorder(&events.FakeRecorder{}),
			frameworkruntime.WithParallelism(int(cfg.Parallelism)),
			frameworkruntime.WithMetricsRecorder(metricsRecorder),
			frameworkruntime.WithWaitingPods(waitingPods),
			frameworkruntime.WithPodsInPreBind(podsInPreBind),
			frameworkruntime.WithPodGroupManager(w.cache),
		)
		if err != nil {
			return nil, badInput("profile %q: %v", prof.SchedulerName, err)
		}
		pf.fw = fw
		if p, ok := pf.plugins[defaultpreemption.Name].(*defaultpreemption.DefaultPreemption); ok {
			pf.preemption = p
		}
		pf.scoreCfg = fw.ListPlugins().Score.Enabled
		w.profiles[prof.SchedulerName] = pf
		if i == 0 {
			w.firstProfil = pf
		}
	}

	// The scheduling queue, built as scheduler.New builds it.
	preEnqueuePluginMap := make(map[string]map[string]fwk.PreEnqueuePlugin)
	queueingHintsPerProfile := make(internalqueue.QueueingHintMapPerProfile)
	var hintErr error
	for name, pf := range w.profiles {
		pl := pf.fw.PreEnqueuePlugins()
		preEnqueuePluginMap[name] = make(map[string]fwk.PreEnqueuePlugin, len(pl))
		for _, p := range pl {
			preEnqueuePluginMap[name][p.Name()] = p
		}
		m, err := buildQueueingHintMap(ctx, pf.fw.EnqueueExtensions())
		if err != nil {
			hintErr = errors.Join(hintErr, err)
		}
		queueingHintsPerProfile[name] = m
	}
	if hintErr != nil {
		return nil, fmt.Errorf("building queueing hints: %w", hintErr)
	}
	w.handledActions = map[fwk.EventResource]fwk.ActionType{}
	for _, m := range queueingHintsPerProfile {
		for evt := range m {
			w.handledActions[evt.Resource] |= evt.ActionType
		}
	}
	podSigners := make(map[string]internalqueue.PodSigner)
	for name, pf := range w.profiles {
		podSigners[name] = pf.fw.SignPod
	}
	w.queue = internalqueue.NewSchedulingQueue(
		w.firstProfil.fw.QueueSortFunc(),
		w.informer,
		internalqueue.WithClock(w.clock),
		internalqueue.WithPodInitialBackoffDuration(time.Duration(cfg.PodInitialBackoffSeconds)*time.Second),
		internalqueue.WithPodMaxBackoffDuration(time.Duration(cfg.PodMaxBackoffSeconds)*time.Second),
		internalqueue.WithPodLister(w.informer.Core().V1().Pods().Lister()),
		internalqueue.WithPodMaxInUnschedulablePodsDuration(internalqueue.DefaultPodMaxInUnschedulablePodsDuration),
		internalqueue.WithPreEnqueuePluginMap(preEnqueuePluginMap),
		internalqueue.WithQueueingHintMapPerProfile(queueingHintsPerProfile),
		internalqueue.WithMetricsRecorder(metricsRecorder),
		internalqueue.WithPodSigners(podSigners),
	)
	for _, pf := range w.profiles {
		pf.fw.SetPodNominator(w.queue)
		pf.fw.SetPodActivator(w.queue)
	}
	// The DRA kinds' informer handlers (addAllEventHandlers registers them
	// before the informers start, too).
	if draManager != nil {
		synced, err := w.addDRAEventHandlers(claimCache, sliceTracker, draManager)
		if err != nil {
			return nil, fmt.Errorf("adding the DRA event handlers: %w", err)
		}
		w.draSynced = append(w.draSynced, synced...)
	}

	// Listers the oracle and upstream code read.
	w.informer.Core().V1().Namespaces().Lister()
	w.informer.Policy().V1().PodDisruptionBudgets().Lister()
	w.informer.Start(ctx.Done())
	if err := w.waitForInformers(); err != nil {
		return nil, err
	}

	// Initial state, as the informer handlers would deliver it (nodes, then
	// bound pods); pending pods are added to the queue by schedulingLoop.
	for _, n := range w.nodes {
		w.cache.AddNode(w.logger, n)
		w.queue.MoveAllToActiveOrBackoffQueue(w.logger, fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add}, nil, n, nil)
	}
	for _, ps := range w.pods {
		if !ps.pending {
			if err := w.addAssignedPodToCache(ps.pod); err != nil {
				return nil, err
			}
		}
	}
	return w, nil
}

// waitForInformers waits until every started informer has synced, checking
// often (the factory's WaitForCacheSync polls every 100 ms; called with a
// closed channel it only checks once), and until the DRA handlers and the
// slice tracker have processed the initial objects (an informer is synced
// once its store holds them, before its handlers have seen them).
func (w *world) waitForInformers() error {
	closed := make(chan struct{})
	close(closed)
	deadline := time.Now().Add(60 * time.Second)
	for {
		all := true
		for _, ok := range w.informer.WaitForCacheSync(closed) {
			all = all && ok
		}
		for _, synced := range w.draSynced {
			all = all && synced()
		}
		if all {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("informers did not sync")
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// buildQueueingHintMap is a copy of the unexported function of the same name
// in pkg/scheduler/scheduler.go (v1.37): every registered event gets the
// plugin's hint (or the default), and a Pod event is unrolled into the
// assigned, unscheduled and target pod events it stands for.
func buildQueueingHintMap(ctx context.Context, es []fwk.EnqueueExtensions) (internalqueue.QueueingHintMap, error) {
	queueingHintMap := make(internalqueue.QueueingHintMap)
	var returnErr error
	for _, e := range es {
		events, err := e.EventsToRegister(ctx)
		if err != nil {
			returnErr = errors.Join(returnErr, err)
		}
		for _, event := range events {
			fn := event.QueueingHintFn
			if fn == nil {
				fn = defaultQueueingHintFn
			}
			hint := &internalqueue.QueueingHintFunction{
				PluginName:        e.Name(),
				QueueingHintFn:    fn,
				PreQueueingHintFn: event.PreQueueingHintFn,
			}
			if event.Event.Resource == fwk.Pod {
				for _, podEvent := range framework.UnrollPodEvent(event.Event) {
					queueingHintMap[podEvent] = append(queueingHintMap[podEvent], hint)
				}
			} else {
				queueingHintMap[event.Event] = append(queueingHintMap[event.Event], hint)
			}
		}
	}
	if returnErr != nil {
		return nil, returnErr
	}
	return queueingHintMap, nil
}

// defaultQueueingHintFn is upstream's (scheduler.go): always Queue.
var defaultQueueingHintFn = func(_ klog.Logger, _ *v1.Pod, _, _ interface{}) (fwk.QueueingHint, error) {
	return fwk.Queue, nil
}

// bindingReactor makes the fake API server handle the pods/binding
// subresource as kube-apiserver's BindingREST.setPodNodeAndMetadata does:
// set spec.nodeName, clear status.nominatedNodeName
// (ClearingNominatedNodeNameAfterBinding, on since v1.35) and set the
// PodScheduled condition to True.
func (w *world) bindingReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	b := action.(clienttesting.CreateAction).GetObject().(*v1.Binding)
	gvr := v1.SchemeGroupVersion.WithResource("pods")
	obj, err := w.cs.Tracker().Get(gvr, b.Namespace, b.Name)
	if err != nil {
		return true, nil, err
	}
	pod := obj.(*v1.Pod).DeepCopy()
	if b.UID != "" && pod.UID != b.UID {
		return true, nil, fmt.Errorf("binding %s/%s: uid precondition failed", b.Namespace, b.Name)
	}
	if pod.DeletionTimestamp != nil {
		return true, nil, fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", pod.Name)
	}
	if pod.Spec.NodeName != "" {
		return true, nil, fmt.Errorf("pod %v is already assigned to node %q", pod.Name, pod.Spec.NodeName)
	}
	if len(pod.Spec.SchedulingGates) != 0 {
		return true, nil, fmt.Errorf("pod %v has non-empty .spec.schedulingGates", pod.Name)
	}
	pod.Spec.NodeName = b.Target.Name
	if feature.DefaultFeatureGate.Enabled(features.ClearingNominatedNodeNameAfterBinding) {
		pod.Status.NominatedNodeName = ""
	}
	setPodScheduledTrue(&pod.Status)
	if err := w.cs.Tracker().Update(gvr, pod, pod.Namespace); err != nil {
		return true, nil, err
	}
	w.binds++
	w.lastBind = time.Now()
	return true, b, nil
}

// setPodScheduledTrue is podutil.UpdatePodCondition(PodScheduled=True) as
// the binding storage applies it (no transition time needed here).
func setPodScheduledTrue(st *v1.PodStatus) {
	for i := range st.Conditions {
		if st.Conditions[i].Type == v1.PodScheduled {
			st.Conditions[i].Status = v1.ConditionTrue
			st.Conditions[i].Reason = ""
			st.Conditions[i].Message = ""
			return
		}
	}
	st.Conditions = append(st.Conditions, v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue})
}

// tick advances the fake clock by 1 ns. The oracle calls it before every
// queue operation that stamps a pod (Add, AddUnschedulableIfNotPresent,
// Update), so that queue timestamps strictly increase in the order the
// queue receives pods; the ticks never leave the clock's first second, so
// without --timeline (which moves the clock to each batch's instant) no
// backoff ever completes.
func (w *world) tick() { w.clock.Step(time.Nanosecond) }

func isTerminal(p *v1.Pod) bool {
	return p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed
}

func key(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

// getPodFromInformer returns the pod informer's object (nil if absent).
func (w *world) getPodFromInformer(ns, name string) *v1.Pod {
	p, err := w.informer.Core().V1().Pods().Lister().Pods(ns).Get(name)
	if err != nil {
		return nil
	}
	return p
}
