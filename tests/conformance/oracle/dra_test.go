package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
)

// The claim reactor behaves as kube-apiserver where DynamicResources
// depends on it (dra.go): new resourceVersions, conflicts on stale ones,
// status kept by updates and metadata by status writes, the strategic merge
// patch of Unreserve — and every write reaches the claim informer before
// the call returns.
func TestClaimWrites(t *testing.T) {
	const input = `
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: g
      exactly: {deviceClassName: gpu.example.com}
`
	c := &cluster{skippedByKind: map[string]int{}, sourceOfObject: map[string]string{}}
	if err := c.decodeFile([]byte(input), "input.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := c.validate(); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig("", true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := newWorld(ctx, cfg, c, false, true, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	claims := w.cs.ResourceV1().ResourceClaims("default")
	informed := func() *resourceapi.ResourceClaim {
		t.Helper()
		obj, err := w.informer.Resource().V1().ResourceClaims().Lister().ResourceClaims("default").Get("c")
		if err != nil {
			t.Fatal(err)
		}
		return obj
	}
	get := func() *resourceapi.ResourceClaim {
		t.Helper()
		obj, err := claims.Get(ctx, "c", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return obj
	}

	orig := get()
	if orig.UID != "uid-default-c" || orig.ResourceVersion == "" || informed().ResourceVersion != orig.ResourceVersion {
		t.Fatalf("input claim: uid %q, resourceVersion %q (informer %q)", orig.UID, orig.ResourceVersion, informed().ResourceVersion)
	}

	// An update adds the finalizer and keeps the stored status.
	upd := orig.DeepCopy()
	upd.Finalizers = []string{resourceapi.Finalizer}
	upd.Status.ReservedFor = []resourceapi.ResourceClaimConsumerReference{{Resource: "pods", Name: "ignored", UID: "x"}}
	withFinalizer, err := claims.Update(ctx, upd, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if withFinalizer.ResourceVersion == orig.ResourceVersion || len(withFinalizer.Finalizers) != 1 || len(withFinalizer.Status.ReservedFor) != 0 {
		t.Errorf("after the update: %+v", withFinalizer)
	}
	if informed().ResourceVersion != withFinalizer.ResourceVersion {
		t.Errorf("informer holds resourceVersion %s, the API %s", informed().ResourceVersion, withFinalizer.ResourceVersion)
	}

	// A write on the old version conflicts.
	if _, err := claims.UpdateStatus(ctx, orig, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("status update on a stale resourceVersion: %v, want a conflict", err)
	}

	// A status update keeps the stored metadata.
	st := withFinalizer.DeepCopy()
	st.Finalizers = nil
	st.Status.ReservedFor = []resourceapi.ResourceClaimConsumerReference{
		{Resource: "pods", Name: "p1", UID: "u1"}, {Resource: "pods", Name: "p2", UID: "u2"},
	}
	reserved, err := claims.UpdateStatus(ctx, st, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(reserved.Finalizers) != 1 || len(reserved.Status.ReservedFor) != 2 {
		t.Errorf("after the status update: %+v", reserved)
	}

	// Unreserve's patch removes one entry, whatever the version.
	patch := fmt.Sprintf(`{"metadata": {"uid": %q}, "status": { "reservedFor": [ {"$patch": "delete", "uid": %q} ] }}`, orig.UID, "u1")
	patched, err := claims.Patch(ctx, "c", types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}, "status")
	if err != nil {
		t.Fatal(err)
	}
	if len(patched.Status.ReservedFor) != 1 || patched.Status.ReservedFor[0].Name != "p2" || patched.ResourceVersion == reserved.ResourceVersion {
		t.Errorf("after the patch: %+v", patched)
	}
	if got := informed(); len(got.Status.ReservedFor) != 1 || got.ResourceVersion != patched.ResourceVersion {
		t.Errorf("informer after the patch: %+v", got)
	}
	// ... but not on another claim with the same name.
	wrongUID := fmt.Sprintf(`{"metadata": {"uid": %q}, "status": { "reservedFor": [ {"$patch": "delete", "uid": "u2"} ] }}`, "other")
	if _, err := claims.Patch(ctx, "c", types.StrategicMergePatchType, []byte(wrongUID), metav1.PatchOptions{}, "status"); !apierrors.IsConflict(err) {
		t.Errorf("patch naming another uid: %v, want a conflict", err)
	}

	// A delete of a claim with a finalizer only marks it; removing the
	// finalizer then deletes it.
	if err := claims.Delete(ctx, "c", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	marked := get()
	if marked.DeletionTimestamp == nil {
		t.Fatalf("deleted claim with a finalizer: no deletionTimestamp")
	}
	marked.Finalizers = nil
	if _, err := claims.Update(ctx, marked, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := claims.Get(ctx, "c", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("claim after its last finalizer went: %v, want not found", err)
	}
	if _, err := w.informer.Resource().V1().ResourceClaims().Lister().ResourceClaims("default").Get("c"); !apierrors.IsNotFound(err) {
		t.Errorf("informer after the deletion: %v, want not found", err)
	}

	// A create with generateName gets a name and a uid as schedkit-sim's
	// generated objects do.
	created, err := claims.Create(ctx, &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{GenerateName: "p-extended-resources-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "p-extended-resources-" + generateNameSuffix("default/p-extended-resources-", 0)
	if created.Name != want || string(created.UID) != "uid-default-"+want || created.ResourceVersion == "" {
		t.Errorf("created %s (uid %s, resourceVersion %q), want %s", created.Name, created.UID, created.ResourceVersion, want)
	}
}

// A generateName longer than 58 characters is cut to 58 before the five
// generated characters, which still derive from the whole generateName.
func TestClaimGenerateNameTruncated(t *testing.T) {
	w := emptyWorld(t)
	claims := w.cs.ResourceV1().ResourceClaims("default")
	long := "a-pod-with-a-name-long-enough-to-push-its-claim-past-the-limit-extended-resources-"
	if len(long) <= maxGenerateNamePrefix {
		t.Fatalf("test generateName has %d characters", len(long))
	}
	for n, want := range []string{
		long[:58] + generateNameSuffix("default/"+long, 0),
		long[:58] + generateNameSuffix("default/"+long, 1), // the first name is taken
	} {
		created, err := claims.Create(context.Background(), &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{GenerateName: long}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if created.Name != want || len(created.Name) != 63 || created.GenerateName != long {
			t.Errorf("create %d: name %q (%d characters), generateName %q; want %q", n, created.Name, len(created.Name), created.GenerateName, want)
		}
	}
	// At 58 characters nothing is cut.
	short := long[:58]
	created, err := claims.Create(context.Background(), &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{GenerateName: short}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := short + generateNameSuffix("default/"+short, 0); created.Name != want {
		t.Errorf("58-character generateName: name %q, want %q", created.Name, want)
	}
}

// emptyWorld builds a world over an empty cluster.
func emptyWorld(t *testing.T) *world {
	t.Helper()
	c := &cluster{skippedByKind: map[string]int{}, sourceOfObject: map[string]string{}}
	if err := c.validate(); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig("", true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w, err := newWorld(ctx, cfg, c, false, true, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// claimLines renders resourceClaims as "ns/name [request:driver/pool/device,...] reservedFor=a,b".
func claimLines(cs []ResourceClaimResult) []string {
	var out []string
	for _, c := range cs {
		alloc := "null"
		if c.Allocation != nil {
			var devs []string
			for _, d := range c.Allocation {
				devs = append(devs, d.Request+":"+d.Driver+"/"+d.Pool+"/"+d.Device)
			}
			alloc = "[" + strings.Join(devs, ",") + "]"
		}
		out = append(out, c.Namespace+"/"+c.Name+" "+alloc+" reservedFor="+strings.Join(c.ReservedFor, ","))
	}
	return out
}

func mappingLines(r *ExtendedResourceClaimResult) string {
	if r == nil {
		return "<none>"
	}
	var ms []string
	for _, m := range r.RequestMappings {
		ms = append(ms, m.Container+"/"+m.Resource+"="+m.Request)
	}
	return r.Name + " [" + strings.Join(ms, " ") + "]"
}

// testdata/dra-extended (see README.md there): extended resources backed by
// a DeviceClass. On the node without the resource in its allocatable,
// DynamicResources creates "<pod>-extended-resources-xxxxx" in PreBind,
// allocates and reserves it, and records it in the pod's status; on the
// node with a device plugin's allocatable nothing is created.
func TestDRAExtendedResourceScenario(t *testing.T) {
	out, _ := runJSON(t, "--cluster", "testdata/dra-extended", "--tie-break", "name", "--explain")
	claimName := func(pod string) string {
		gn := pod + "-extended-resources-"
		return gn[:min(len(gn), 58)] + generateNameSuffix("default/"+gn, 0)
	}
	const long = "trainer-with-a-rather-long-name-for-its-claim-0"
	for _, tc := range []struct{ pod, node, claim string }{
		{"dra-pod", "n1", claimName("dra-pod") + " [main/example.com/gpu=container-0-request-1]"},
		{"multi", "n1", claimName("multi") + " [helper/example.com/gpu=container-1-request-1 main/example.com/gpu=container-2-request-1" +
			" prep/example.com/gpu=container-1-request-1 prep/example.com/gpu=container-2-request-1]"},
		{"implicit", "n1", claimName("implicit") + " [main/deviceclass.resource.kubernetes.io/gpu.example.com=container-0-request-1]"},
		{long, "n1", claimName(long) + " [main/example.com/gpu=container-0-request-1]"},
		{"dp-pod", "n2", "<none>"},
	} {
		p := podByName(t, out, tc.pod)
		if p.Status != "Scheduled" || deref(p.Node) != tc.node {
			t.Errorf("%s = %s on %s (%s), want Scheduled on %s", tc.pod, p.Status, deref(p.Node), p.Message, tc.node)
		}
		if got := mappingLines(p.ExtendedResourceClaim); got != tc.claim {
			t.Errorf("%s: extendedResourceClaim\n  %s\nwant\n  %s", tc.pod, got, tc.claim)
		}
	}
	if got, want := claimName("dra-pod"), "dra-pod-extended-resources-ph8kn"; got != want {
		t.Errorf("claim name %s, want %s (README.md)", got, want)
	}
	if got := claimName(long); len(got) != 63 || !strings.HasPrefix(got, "trainer-with-a-rather-long-name-for-its-claim-0-extended-r") {
		t.Errorf("long pod's claim %q: want 58 characters of its generateName and 5 more", got)
	}
	want := []string{
		"default/" + claimName("dra-pod") + " [container-0-request-1:gpu.example.com/n1/gpu-0] reservedFor=dra-pod",
		"default/" + claimName("implicit") + " [container-0-request-1:gpu.example.com/n1/gpu-3] reservedFor=implicit",
		"default/" + claimName("multi") + " [container-1-request-1:gpu.example.com/n1/gpu-1,container-2-request-1:gpu.example.com/n1/gpu-2] reservedFor=multi",
		"default/" + claimName(long) + " [container-0-request-1:gpu.example.com/n1/gpu-4] reservedFor=" + long,
	}
	if got := claimLines(out.ResourceClaims); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("resourceClaims\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// The created claims are what the API server holds: the annotation, the
// pod as controller owner, the finalizer; the pod's stored status names the
// claim. When PreBind fails after the create (here: the pod status patch),
// Unreserve deletes the claim the way upstream's deleteClaim does: an update
// dropping the finalizer on the stale object (a conflict), a read, the
// update again, the delete.
func TestExtendedResourceClaimWrites(t *testing.T) {
	build := func(t *testing.T) *world {
		t.Helper()
		c, err := loadCluster([]string{"testdata/dra-extended"})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := loadConfig("", true)
		if err != nil {
			t.Fatal(err)
		}
		c.resolvePriorities()
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		w, err := newWorld(ctx, cfg, c, false, true, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}

	t.Run("stored", func(t *testing.T) {
		w := build(t)
		if err := w.schedulingLoop(w.ctx); err != nil {
			t.Fatal(err)
		}
		pod, err := w.cs.CoreV1().Pods("default").Get(w.ctx, "dra-pod", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		st := pod.Status.ExtendedResourceClaimStatus
		if st == nil || pod.Spec.NodeName != "n1" {
			t.Fatalf("dra-pod: node %q, extendedResourceClaimStatus %+v", pod.Spec.NodeName, st)
		}
		claim, err := w.cs.ResourceV1().ResourceClaims("default").Get(w.ctx, st.ResourceClaimName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		owner := metav1.GetControllerOf(claim)
		if claim.Annotations[resourceapi.ExtendedResourceClaimAnnotation] != "true" || owner == nil || owner.Name != "dra-pod" || owner.UID != pod.UID ||
			!slices.Contains(claim.Finalizers, resourceapi.Finalizer) || claim.GenerateName != "dra-pod-extended-resources-" ||
			claim.UID != types.UID("uid-default-"+claim.Name) || len(claim.Spec.Devices.Requests) != 1 {
			t.Errorf("claim %s: %+v", claim.Name, claim)
		}
		// The claim assume cache (through the synchronous informer) holds
		// the stored version.
		cached, err := w.informer.Resource().V1().ResourceClaims().Lister().ResourceClaims("default").Get(claim.Name)
		if err != nil || cached.ResourceVersion != claim.ResourceVersion {
			t.Errorf("claim informer: %v, resourceVersion %v, want %s", err, cached, claim.ResourceVersion)
		}
		if dp, _ := w.cs.CoreV1().Pods("default").Get(w.ctx, "dp-pod", metav1.GetOptions{}); dp.Status.ExtendedResourceClaimStatus != nil {
			t.Errorf("dp-pod: extendedResourceClaimStatus %+v, want none", dp.Status.ExtendedResourceClaimStatus)
		}
	})

	t.Run("deleted after a PreBind failure", func(t *testing.T) {
		w := build(t)
		var verbs []string
		failed := false
		w.cs.PrependReactor("*", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
			if action.GetResource().Resource == "resourceclaims" {
				verbs = append(verbs, action.GetVerb()+action.GetSubresource())
			}
			if pa, ok := action.(clienttesting.PatchAction); ok && !failed && action.GetResource().Resource == "pods" &&
				pa.GetName() == "dra-pod" && strings.Contains(string(pa.GetPatch()), "extendedResourceClaimStatus") {
				failed = true
				return true, nil, apierrors.NewBadRequest("injected failure")
			}
			return false, nil, nil
		})
		if err := w.schedulingLoop(w.ctx); err != nil {
			t.Fatal(err)
		}
		out := w.output(0)
		p := podByName(t, *out, "dra-pod")
		if !failed || p.Status != "Unschedulable" || !strings.Contains(p.Message, "injected failure") || p.ExtendedResourceClaim != nil {
			t.Errorf("dra-pod = %s (%q), extendedResourceClaim %s; want the injected failure and no claim", p.Status, p.Message, mappingLines(p.ExtendedResourceClaim))
		}
		for _, c := range out.ResourceClaims {
			if strings.HasPrefix(c.Name, "dra-pod-") {
				t.Errorf("claim %s left after Unreserve", c.Name)
			}
		}
		// dra-pod's writes: create, finalizer, status; then Unreserve's
		// update on the created object (conflict), get, update, delete.
		// The other pods' claims follow.
		want := "create update updatestatus update get update delete"
		if got := strings.Join(verbs, " "); !strings.HasPrefix(got, want+" create") {
			t.Errorf("claim API calls %q, want them to start with %q", got, want)
		}
		if _, err := w.informer.Resource().V1().ResourceClaims().Lister().ResourceClaims("default").Get("dra-pod-extended-resources-ph8kn"); !apierrors.IsNotFound(err) {
			t.Errorf("claim informer after the delete: %v, want not found", err)
		}
	})
}
