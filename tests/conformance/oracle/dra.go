package main

// Dynamic Resource Allocation: the ResourceClaim informer, the API server's
// side of the scheduler's claim writes, the informer event handlers of the
// DRA kinds (addAllEventHandlers in pkg/scheduler/eventhandlers.go, v1.37),
// and the resourceClaims output.
//
// DynamicResources writes claims through the clientset: PreBind adds the
// finalizer (Update), then the allocation and the pod in reservedFor
// (UpdateStatus), and stores the result in the claim assume cache
// (AssumeClaimAfterAPICall); PostFilter deallocates a claim nobody uses
// (UpdateStatus); Unreserve takes the pod out of reservedFor (a strategic
// merge patch of the status). The next scheduling cycle must see every such
// write, and the queue must get the ResourceClaim events upstream's handler
// on the assume cache would deliver.
//
// Upstream's claim informer is asynchronous; the oracle replaces it with
// syncClaimInformer, which never lists or watches. The fake API server's
// reactor for resourceclaims (claimWriteReactor) performs each write as
// kube-apiserver would (below), then, before the call returns, puts the
// stored object into that informer's store and calls its handlers: the
// assume cache (which updates itself, its allocated-devices tracker, and
// calls the scheduler's ResourceClaim handler) — all on the goroutine that
// made the write, that is the scheduling goroutine. So the informer always
// hears of a write before the plugin assumes the returned object (a live
// watch is usually slower), which makes the assume cache deliver one more
// Update (old and new status equal) when the plugin assumes it.
// schedkit-sim likewise tells its scheduler about a claim write before the
// write returns.
//
// The scheduler's handlers call MoveAllToActiveOrBackoffQueue at once, as
// buildEvtResHandler's do; for claims that is where upstream calls it too
// when the event comes from Assume or Restore (the assume cache delivers
// those synchronously). ResourceSlices, DeviceClasses and DeviceTaintRules
// never change during a run (nothing writes them): their informers are
// ordinary ones, their handlers see only the initial Adds, delivered and
// waited for before the first pod is queued (so they move nothing).
//
// kube-apiserver's behaviour the reactor reproduces, because upstream
// depends on it (the fake object tracker has none of it):
//   - every stored write gets a new resourceVersion (the world's counter,
//     as for PersistentVolumes), which the assume cache compares;
//   - an update or patch naming a resourceVersion other than the stored
//     one, or a uid other than the stored one, fails with 409 Conflict
//     (client-go's RetryOnConflict in PreBind then re-reads and retries);
//   - an update keeps the stored status; a status update or status patch
//     keeps the stored metadata and spec;
//   - a delete of a claim with finalizers only sets deletionTimestamp; the
//     update that removes the last finalizer of such a claim deletes it;
//   - a create without a name takes its generateName (cut to its first 58
//     characters when longer) plus five characters (generateNameSuffix of
//     "<namespace>/<generateName>", the whole generateName, the first free
//     one), and a create without a uid gets "uid-<namespace>-<name>"; the
//     status of a created claim is dropped. DynamicResources creates the
//     claim of a pod's extended resources backed by DeviceClasses
//     (DRAExtendedResource) this way in PreBind, named
//     "<pod>-extended-resources-" plus the suffix, then adds the finalizer
//     and the allocation as for any claim, waits until the claim assume
//     cache holds it (it does at once: the create was delivered before it
//     returned), and patches the pod's status.extendedResourceClaimStatus
//     (a strategic merge patch of the pods/status subresource, which the
//     pod reactor applies, events.go). Unreserve and PostFilter delete
//     such a claim: an update without the finalizer (on a stale
//     resourceVersion it conflicts; upstream then reads the claim and
//     retries), then a delete.
// Get, List and Watch are the object tracker's.

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apiserver/pkg/util/feature"
	clienttesting "k8s.io/client-go/testing"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
)

var claimGVR = resourceapi.SchemeGroupVersion.WithResource("resourceclaims")

// maxGenerateNamePrefix is how much of a generateName the API server keeps
// (names.SimpleNameGenerator: 63 characters minus the five it appends).
const maxGenerateNamePrefix = 58

// syncClaimInformer is a ResourceClaim SharedIndexInformer that never lists
// or watches: its store holds what the oracle puts there, and its handlers
// are called synchronously when it does (deliver).
type syncClaimInformer struct {
	toolscache.SharedIndexInformer
	mu       sync.Mutex
	handlers []toolscache.ResourceEventHandler
}

func newSyncClaimInformer() *syncClaimInformer {
	return &syncClaimInformer{SharedIndexInformer: toolscache.NewSharedIndexInformer(&toolscache.ListWatch{},
		&resourceapi.ResourceClaim{}, 0, toolscache.Indexers{toolscache.NamespaceIndex: toolscache.MetaNamespaceIndexFunc})}
}

func (s *syncClaimInformer) Run(stop <-chan struct{})                 { <-stop }
func (s *syncClaimInformer) RunWithContext(ctx context.Context)       { <-ctx.Done() }
func (s *syncClaimInformer) HasSynced() bool                          { return true }
func (s *syncClaimInformer) HasSyncedChecker() toolscache.DoneChecker { return syncedChecker{} }

func (s *syncClaimInformer) AddEventHandler(h toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(h, toolscache.HandlerOptions{})
}

func (s *syncClaimInformer) AddEventHandlerWithResyncPeriod(h toolscache.ResourceEventHandler, _ time.Duration) (toolscache.ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(h, toolscache.HandlerOptions{})
}

// AddEventHandlerWithOptions registers the handler and, as an informer does
// for a late handler, gives it every stored object as an initial Add (in
// key order), before returning: the registration is synced at once.
func (s *syncClaimInformer) AddEventHandlerWithOptions(h toolscache.ResourceEventHandler, _ toolscache.HandlerOptions) (toolscache.ResourceEventHandlerRegistration, error) {
	s.mu.Lock()
	s.handlers = append(s.handlers, h)
	keys := s.GetStore().ListKeys()
	s.mu.Unlock()
	sort.Strings(keys)
	for _, k := range keys {
		if obj, ok, _ := s.GetStore().GetByKey(k); ok {
			h.OnAdd(obj, true)
		}
	}
	return syncedRegistration{}, nil
}

// RemoveEventHandler: nothing removes the handlers of the oracle's informers.
func (s *syncClaimInformer) RemoveEventHandler(toolscache.ResourceEventHandlerRegistration) error {
	return fmt.Errorf("syncClaimInformer: handlers cannot be removed")
}

// deliver stores a written claim (nil newObj: oldObj was deleted) and
// notifies every handler, as the informer would on the write's watch event;
// the handlers' old object is the one the store held.
func (s *syncClaimInformer) deliver(oldObj, newObj *resourceapi.ResourceClaim) {
	s.mu.Lock()
	store := s.GetStore()
	var old any
	key := ""
	if newObj != nil {
		key = newObj.Namespace + "/" + newObj.Name
	} else {
		key = oldObj.Namespace + "/" + oldObj.Name
	}
	if o, ok, _ := store.GetByKey(key); ok {
		old = o
	}
	switch {
	case newObj == nil:
		_ = store.Delete(oldObj)
	case old == nil:
		_ = store.Add(newObj)
	default:
		_ = store.Update(newObj)
	}
	handlers := append([]toolscache.ResourceEventHandler(nil), s.handlers...)
	s.mu.Unlock()
	for _, h := range handlers {
		switch {
		case newObj == nil:
			if old != nil {
				h.OnDelete(old)
			}
		case old == nil:
			h.OnAdd(newObj, false)
		default:
			h.OnUpdate(old, newObj)
		}
	}
}

// syncedRegistration is a handler registration that is synced from the start.
type syncedRegistration struct{}

func (syncedRegistration) HasSynced() bool                          { return true }
func (syncedRegistration) HasSyncedChecker() toolscache.DoneChecker { return syncedChecker{} }

// claimWriteReactor performs the writes of ResourceClaims (create, update,
// update of the status, patch, delete) as kube-apiserver would (see the
// file comment), then delivers them to the claim informer.
func (w *world) claimWriteReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	sub := action.GetSubresource()
	if sub != "" && sub != "status" {
		return false, nil, nil
	}
	ns := action.GetNamespace()
	switch action.GetVerb() {
	case "create":
		if sub != "" {
			return false, nil, nil
		}
		obj, ok := action.(clienttesting.CreateAction).GetObject().(*resourceapi.ResourceClaim)
		if !ok {
			return false, nil, nil
		}
		stored, err := w.createClaim(ns, obj.DeepCopy())
		return true, stored, err
	case "update":
		obj, ok := action.(clienttesting.UpdateAction).GetObject().(*resourceapi.ResourceClaim)
		if !ok {
			return false, nil, nil
		}
		stored, err := w.updateClaim(ns, obj.Name, sub == "status", func(*resourceapi.ResourceClaim) (*resourceapi.ResourceClaim, error) {
			return obj.DeepCopy(), nil
		})
		return true, stored, err
	case "patch":
		pa := action.(clienttesting.PatchAction)
		stored, err := w.updateClaim(ns, pa.GetName(), sub == "status", func(cur *resourceapi.ResourceClaim) (*resourceapi.ResourceClaim, error) {
			return patchClaim(cur, pa.GetPatchType(), pa.GetPatch())
		})
		return true, stored, err
	case "delete":
		return true, nil, w.deleteClaim(ns, action.(clienttesting.DeleteAction).GetName())
	}
	return false, nil, nil
}

// getClaim returns the stored claim (a copy).
func (w *world) getClaim(ns, name string) (*resourceapi.ResourceClaim, error) {
	obj, err := w.cs.Tracker().Get(claimGVR, ns, name)
	if err != nil {
		return nil, err
	}
	return obj.(*resourceapi.ResourceClaim).DeepCopy(), nil
}

func (w *world) createClaim(ns string, claim *resourceapi.ResourceClaim) (*resourceapi.ResourceClaim, error) {
	if claim.Namespace == "" {
		claim.Namespace = ns
	}
	ns = claim.Namespace
	if claim.Name == "" {
		if claim.GenerateName == "" {
			return nil, apierrors.NewBadRequest("resourceclaims: name or generateName is required")
		}
		// The API server's name generator keeps at most 58 characters of
		// the prefix, so that prefix and suffix fit in 63; the suffix's
		// seed is the generateName as given.
		base := claim.GenerateName
		if len(base) > maxGenerateNamePrefix {
			base = base[:maxGenerateNamePrefix]
		}
		for n := 0; claim.Name == ""; n++ {
			name := base + generateNameSuffix(ns+"/"+claim.GenerateName, n)
			if _, err := w.getClaim(ns, name); apierrors.IsNotFound(err) {
				claim.Name = name
			}
		}
	}
	if claim.UID == "" {
		claim.UID = types.UID("uid-" + ns + "-" + claim.Name)
	}
	claim.Status = resourceapi.ResourceClaimStatus{}
	claim.ResourceVersion = w.nextResourceVersion()
	if err := w.cs.Tracker().Create(claimGVR, claim, ns); err != nil {
		return nil, err
	}
	stored, err := w.getClaim(ns, claim.Name)
	if err != nil {
		return nil, err
	}
	w.claimInformer.deliver(nil, stored.DeepCopy())
	return stored, nil
}

// updateClaim applies change to the stored claim as an update (status:
// an update of the status subresource) and stores the result.
func (w *world) updateClaim(ns, name string, status bool,
	change func(cur *resourceapi.ResourceClaim) (*resourceapi.ResourceClaim, error),
) (*resourceapi.ResourceClaim, error) {
	cur, err := w.getClaim(ns, name)
	if err != nil {
		return nil, err
	}
	obj, err := change(cur.DeepCopy())
	if err != nil {
		return nil, err
	}
	conflict := func(why string) error {
		return apierrors.NewConflict(claimGVR.GroupResource(), name, fmt.Errorf("%s", why))
	}
	if obj.ResourceVersion != "" && obj.ResourceVersion != cur.ResourceVersion {
		return nil, conflict("the object has been modified; please apply your changes to the latest version and try again")
	}
	if obj.UID != "" && obj.UID != cur.UID {
		return nil, conflict(fmt.Sprintf("Precondition failed: UID in precondition: %v, UID in object meta: %v", obj.UID, cur.UID))
	}
	var next *resourceapi.ResourceClaim
	if status {
		next = cur.DeepCopy()
		obj.Status.DeepCopyInto(&next.Status)
	} else {
		next = obj
		next.Namespace, next.Name = cur.Namespace, cur.Name
		next.UID = cur.UID
		next.CreationTimestamp = cur.CreationTimestamp
		next.DeletionTimestamp = cur.DeletionTimestamp
		next.Status = *cur.Status.DeepCopy()
	}
	next.ResourceVersion = w.nextResourceVersion()
	if next.DeletionTimestamp != nil && len(next.Finalizers) == 0 {
		if err := w.cs.Tracker().Delete(claimGVR, ns, name); err != nil {
			return nil, err
		}
		w.claimInformer.deliver(next.DeepCopy(), nil)
		return next, nil
	}
	if err := w.cs.Tracker().Update(claimGVR, next, ns); err != nil {
		return nil, err
	}
	stored, err := w.getClaim(ns, name)
	if err != nil {
		return nil, err
	}
	w.claimInformer.deliver(cur, stored.DeepCopy())
	return stored, nil
}

func (w *world) deleteClaim(ns, name string) error {
	cur, err := w.getClaim(ns, name)
	if err != nil {
		return err
	}
	if len(cur.Finalizers) > 0 {
		if cur.DeletionTimestamp != nil {
			return nil
		}
		now := metav1.NewTime(w.clock.Now())
		return w.markClaimDeleted(cur, &now)
	}
	if err := w.cs.Tracker().Delete(claimGVR, ns, name); err != nil {
		return err
	}
	w.claimInformer.deliver(cur, nil)
	return nil
}

// markClaimDeleted stores the claim with its deletionTimestamp set (the
// API server's graceful deletion of an object with finalizers).
func (w *world) markClaimDeleted(cur *resourceapi.ResourceClaim, ts *metav1.Time) error {
	next := cur.DeepCopy()
	next.DeletionTimestamp = ts
	next.ResourceVersion = w.nextResourceVersion()
	if err := w.cs.Tracker().Update(claimGVR, next, cur.Namespace); err != nil {
		return err
	}
	stored, err := w.getClaim(cur.Namespace, cur.Name)
	if err != nil {
		return err
	}
	w.claimInformer.deliver(cur, stored)
	return nil
}

// patchClaim applies a patch to the claim. Upstream's DynamicResources
// sends strategic merge patches only; another type is an oracle internal
// error rather than a silently ignored write.
func patchClaim(cur *resourceapi.ResourceClaim, pt types.PatchType, patch []byte) (*resourceapi.ResourceClaim, error) {
	if pt != types.StrategicMergePatchType {
		panic(fmt.Sprintf("ResourceClaim %s/%s: patch type %q is not emulated", cur.Namespace, cur.Name, pt))
	}
	orig, err := json.Marshal(cur)
	if err != nil {
		return nil, err
	}
	out, err := strategicpatch.StrategicMergePatch(orig, patch, &resourceapi.ResourceClaim{})
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	patched := &resourceapi.ResourceClaim{}
	if err := json.Unmarshal(out, patched); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return patched, nil
}

// addDRAEventHandlers registers the scheduler's handlers for the DRA kinds
// as addAllEventHandlers does, for the resources and actions some profile's
// plugins registered (w.handledActions, upstream's unionedGVKs):
// ResourceClaim on the claim assume cache, ResourceSlice on the slice
// tracker, DeviceClass on the DeviceClass informer — behind the
// ExtendedResourceCache, which upstream feeds only through this chain (so
// with no plugin registering DeviceClass events it stays empty). It returns
// the registrations' sync checks, waited for before scheduling starts.
func (w *world) addDRAEventHandlers(claimCache *assumecache.AssumeCache, tracker *resourceslicetracker.Tracker, draManager fwk.SharedDRAManager) ([]func() bool, error) {
	var synced []func() bool
	for _, resource := range []fwk.EventResource{fwk.ResourceClaim, fwk.ResourceSlice, fwk.DeviceClass} {
		at := w.handledActions[resource]
		if at == 0 {
			continue
		}
		handler := w.draEventHandler(at, resource)
		switch resource {
		case fwk.ResourceClaim:
			synced = append(synced, claimCache.AddEventHandler(handler).HasSynced)
		case fwk.ResourceSlice:
			reg, err := tracker.AddEventHandler(handler)
			if err != nil {
				return nil, err
			}
			synced = append(synced, reg.HasSynced)
		case fwk.DeviceClass:
			var h toolscache.ResourceEventHandler = handler
			if feature.DefaultFeatureGate.Enabled(features.DRAExtendedResource) {
				erCache, ok := draManager.DeviceClassResolver().(*extendedresourcecache.ExtendedResourceCache)
				if !ok {
					return nil, fmt.Errorf("DRA manager's DeviceClassResolver is %T, not an ExtendedResourceCache", draManager.DeviceClassResolver())
				}
				erCache.AddEventHandler(h)
				h = erCache
			}
			reg, err := w.informer.Resource().V1().DeviceClasses().Informer().AddEventHandler(h)
			if err != nil {
				return nil, err
			}
			synced = append(synced, reg.HasSynced)
		}
	}
	return synced, nil
}

// draEventHandler is buildEvtResHandler's handler: the event and its
// objects to MoveAllToActiveOrBackoffQueue, nothing else.
func (w *world) draEventHandler(at fwk.ActionType, resource fwk.EventResource) toolscache.ResourceEventHandlerFuncs {
	funcs := toolscache.ResourceEventHandlerFuncs{}
	if at&fwk.Add != 0 {
		evt := fwk.ClusterEvent{Resource: resource, ActionType: fwk.Add}
		funcs.AddFunc = func(obj any) { w.moveOnDRAEvent(evt, nil, obj) }
	}
	if at&fwk.Update != 0 {
		evt := fwk.ClusterEvent{Resource: resource, ActionType: fwk.Update}
		funcs.UpdateFunc = func(oldObj, newObj any) { w.moveOnDRAEvent(evt, oldObj, newObj) }
	}
	if at&fwk.Delete != 0 {
		evt := fwk.ClusterEvent{Resource: resource, ActionType: fwk.Delete}
		funcs.DeleteFunc = func(obj any) { w.moveOnDRAEvent(evt, obj, nil) }
	}
	return funcs
}

func (w *world) moveOnDRAEvent(evt fwk.ClusterEvent, oldObj, newObj any) {
	var before map[string]bool
	if w.trace != nil {
		before = w.poolKeys()
	}
	w.queue.MoveAllToActiveOrBackoffQueue(w.logger, evt, oldObj, newObj, nil)
	if w.trace != nil {
		obj := newObj
		if obj == nil {
			obj = oldObj
		}
		name := ""
		if o, ok := obj.(metav1.Object); ok {
			name = o.GetName()
			if o.GetNamespace() != "" {
				name = o.GetNamespace() + "/" + name
			}
			name += " (resourceVersion " + o.GetResourceVersion() + ")"
		}
		after := w.poolKeys()
		var moved []string
		for k := range before {
			if !after[k] {
				moved = append(moved, k)
			}
		}
		sort.Strings(moved)
		fmt.Fprintf(w.trace, "    event %s %s; moved out of the pool: %v\n", evt.Label(), name, moved)
	}
}

// ResourceClaimResult is one ResourceClaim at the end of the run.
type ResourceClaimResult struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// status.allocation.devices.results in order; null when not allocated.
	Allocation []DeviceAllocationResult `json:"allocation"`
	// The names of status.reservedFor, in order.
	ReservedFor []string `json:"reservedFor"`
}

type DeviceAllocationResult struct {
	Request string `json:"request"`
	Driver  string `json:"driver"`
	Pool    string `json:"pool"`
	Device  string `json:"device"`
}

// resourceClaimResults lists every ResourceClaim the API server holds at
// the end of the run, sorted by namespace and name.
func (w *world) resourceClaimResults() []ResourceClaimResult {
	out := []ResourceClaimResult{}
	obj, err := w.cs.Tracker().List(claimGVR, resourceapi.SchemeGroupVersion.WithKind("ResourceClaim"), "")
	if err != nil {
		return out
	}
	for _, c := range obj.(*resourceapi.ResourceClaimList).Items {
		r := ResourceClaimResult{Namespace: c.Namespace, Name: c.Name, ReservedFor: []string{}}
		if a := c.Status.Allocation; a != nil {
			r.Allocation = []DeviceAllocationResult{}
			for _, d := range a.Devices.Results {
				r.Allocation = append(r.Allocation, DeviceAllocationResult{Request: d.Request, Driver: d.Driver, Pool: d.Pool, Device: d.Device})
			}
		}
		for _, ref := range c.Status.ReservedFor {
			r.ReservedFor = append(r.ReservedFor, ref.Name)
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

// ExtendedResourceClaimResult is a pod's status.extendedResourceClaimStatus:
// the claim DynamicResources made for the pod's extended resources backed
// by DeviceClasses, and which request of it serves which container's
// resource, in the order upstream wrote them.
type ExtendedResourceClaimResult struct {
	Name            string                         `json:"name"`
	RequestMappings []ExtendedResourceRequestEntry `json:"requestMappings"`
}

type ExtendedResourceRequestEntry struct {
	Container string `json:"container"`
	Resource  string `json:"resource"`
	Request   string `json:"request"`
}

var podGVR = v1.SchemeGroupVersion.WithResource("pods")

// extendedResourceClaimResult reads the pod as the API server holds it at
// the end of the run (a pod deleted by a preemption: as the pod informer
// last saw it) and returns its extended resource claim status, nil if none.
func (w *world) extendedResourceClaimResult(ps *podState) *ExtendedResourceClaimResult {
	pod := ps.pod
	if obj, err := w.cs.Tracker().Get(podGVR, ps.pod.Namespace, ps.pod.Name); err == nil {
		if stored, ok := obj.(*v1.Pod); ok && stored.UID == ps.pod.UID {
			pod = stored
		}
	}
	st := pod.Status.ExtendedResourceClaimStatus
	if st == nil {
		return nil
	}
	r := &ExtendedResourceClaimResult{Name: st.ResourceClaimName, RequestMappings: []ExtendedResourceRequestEntry{}}
	for _, m := range st.RequestMappings {
		r.RequestMappings = append(r.RequestMappings, ExtendedResourceRequestEntry{Container: m.ContainerName, Resource: m.ResourceName, Request: m.RequestName})
	}
	return r
}
