package main

import (
	"context"
	"fmt"
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
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
