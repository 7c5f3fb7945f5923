package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runJSON runs the oracle in-process and decodes its output.
func runJSON(t *testing.T, args ...string) (Output, []byte) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("run(%v) = %d, stderr: %s", args, code, stderr.String())
	}
	var out Output
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout.String())
	}
	return out, stdout.Bytes()
}

func podByName(t *testing.T, out Output, name string) PodResult {
	t.Helper()
	for _, p := range out.Pods {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("pod %s not in output", name)
	return PodResult{}
}

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

// The hand-checked facts of testdata/basic (see README.md there).
func TestBasicScenario(t *testing.T) {
	for _, args := range [][]string{
		{"--cluster", "testdata/basic", "--tie-break", "name", "--explain"},
		{"--cluster", "testdata/basic/01-cluster.yaml", "--cluster", "testdata/basic/02-pending.json", "--output", "json", "--seed", "7"},
		// Parallel filtering; with fewer than 100 nodes every node is still
		// evaluated, so the decisions are the same.
		{"--cluster", "testdata/basic", "--tie-break", "name", "--throughput"},
	} {
		out, _ := runJSON(t, args...)

		if got := len(out.Pods); got != 4 {
			t.Fatalf("%d pod entries, want 4", got)
		}
		// Input order, not scheduling order.
		var names []string
		for _, p := range out.Pods {
			names = append(names, p.Name)
		}
		if got, want := strings.Join(names, ","), "p-small,p-huge,p-high,p-infra"; got != want {
			t.Errorf("pod order %s, want %s", got, want)
		}

		high := podByName(t, out, "p-high")
		if high.Status != "Scheduled" || deref(high.Node) != "n1" || high.NominatedNode != nil ||
			strings.Join(high.Victims, ",") != "default/r1" {
			t.Errorf("p-high = %+v (node %s, nominated %s), want Scheduled on n1 after preempting default/r1, nomination cleared by the binding",
				high, deref(high.Node), deref(high.NominatedNode))
		}
		if small := podByName(t, out, "p-small"); small.Status != "Scheduled" || deref(small.Node) != "n1" {
			t.Errorf("p-small on %s (%s), want n1", deref(small.Node), small.Status)
		}
		if infra := podByName(t, out, "p-infra"); infra.Status != "Scheduled" || deref(infra.Node) != "n3" {
			t.Errorf("p-infra on %s (%s), want n3", deref(infra.Node), infra.Status)
		}
		huge := podByName(t, out, "p-huge")
		const hugeMsg = "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. " +
			"preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
		if huge.Status != "Unschedulable" || huge.Node != nil || huge.Message != hugeMsg {
			t.Errorf("p-huge = %s on %s, message\n  %q\nwant Unschedulable, message\n  %q", huge.Status, deref(huge.Node), huge.Message, hugeMsg)
		}
		s := out.Summary
		if s.Nodes != 3 || s.PendingPods != 4 || s.Scheduled != 3 || s.Unschedulable != 1 || s.Preempted != 1 {
			t.Errorf("summary %+v", s)
		}
	}
}

// The explain output, compared with the hand-checked golden file (timing
// fields ignored). UPDATE_GOLDEN=1 rewrites it.
func TestBasicScenarioGolden(t *testing.T) {
	_, raw := runJSON(t, "--cluster", "testdata/basic", "--tie-break", "name", "--explain")
	normalize := func(b []byte) []byte {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		summary := m["summary"].(map[string]any)
		summary["seconds"] = 0
		summary["podsPerSecond"] = 0
		out, _ := json.MarshalIndent(m, "", "  ")
		return append(out, '\n')
	}
	golden := filepath.Join("testdata", "basic.expected.json")
	got := normalize(raw)
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, normalize(want)) {
		t.Errorf("output differs from %s; got:\n%s", golden, got)
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--output", "yaml"}, 2},
		{[]string{"--tie-break", "random"}, 2},
		{[]string{"--cluster", "testdata/does-not-exist"}, 2},
		{[]string{"--config", "testdata/basic/01-cluster.yaml"}, 2},
		{[]string{"stray"}, 2},
		{[]string{"--throughput", "--explain"}, 2},
		{[]string{}, 0},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, &stdout, &stderr)
		if code != tc.code {
			t.Errorf("run(%v) = %d, want %d (stderr %q)", tc.args, code, tc.code, stderr.String())
		}
		if code == 2 && strings.Count(strings.TrimRight(stderr.String(), "\n"), "\n") != 0 {
			t.Errorf("run(%v): stderr is not one line: %q", tc.args, stderr.String())
		}
	}
}

// testdata/requeue (see README.md there): an AssignedPodAdd event requeues a
// pod rejected by InterPodAffinity; it later preempts a pending pod that was
// placed meanwhile, which becomes Preempted.
func TestRequeueScenario(t *testing.T) {
	out, _ := runJSON(t, "--cluster", "testdata/requeue", "--tie-break", "name", "--explain")
	h := podByName(t, out, "h")
	if h.Status != "Scheduled" || deref(h.Node) != "n1" || h.NominatedNode != nil || strings.Join(h.Victims, ",") != "default/l2" {
		t.Errorf("h = %s on %s, nominated %s, victims %v; want Scheduled on n1, no nomination, victims [default/l2]",
			h.Status, deref(h.Node), deref(h.NominatedNode), h.Victims)
	}
	if l1 := podByName(t, out, "l1"); l1.Status != "Scheduled" || deref(l1.Node) != "n1" {
		t.Errorf("l1 = %s on %s, want Scheduled on n1", l1.Status, deref(l1.Node))
	}
	l2 := podByName(t, out, "l2")
	const msg = "default-scheduler: preempting to accommodate a higher priority pod"
	if l2.Status != "Preempted" || l2.Node != nil || l2.Message != msg {
		t.Errorf("l2 = %s on %s, message %q; want Preempted, no node, %q", l2.Status, deref(l2.Node), l2.Message, msg)
	}
	if s := out.Summary; s.Scheduled != 2 || s.Preempted != 1 || s.Unschedulable != 0 {
		t.Errorf("summary %+v", s)
	}
}

// testdata/wffc (see README.md there): WaitForFirstConsumer claims through
// the emulated PV controller (pvcontroller.go): static binding to the
// smallest fitting Available PV, provisioning with the node affinity rule,
// a pre-bound PV, later pods sharing provisioned claims, and claims that
// nothing can satisfy.
func TestWFFCScenario(t *testing.T) {
	out, _ := runJSON(t, "--cluster", "testdata/wffc", "--tie-break", "name", "--explain")
	for _, tc := range []struct{ pod, node string }{
		{"p-static", "n1"}, {"p-csi1", "n1"}, {"p-csi2", "n2"}, {"p-share1", "n1"}, {"p-share2", "n2"}, {"p-pre", "n3"},
	} {
		if p := podByName(t, out, tc.pod); p.Status != "Scheduled" || deref(p.Node) != tc.node {
			t.Errorf("%s = %s on %s (%s), want Scheduled on %s", tc.pod, p.Status, deref(p.Node), p.Message, tc.node)
		}
	}
	// The provisioned volumes' node affinity: c-csi1's from CSINode n1's
	// topology keys (zone and hostname), c-csi2's from the class's
	// allowedTopologies (zone only).
	const affinityConflict = "node(s) didn't match PersistentVolume's node affinity"
	for _, tc := range []struct{ pod, node string }{{"p-share1", "n3"}, {"p-share2", "n1"}, {"p-share2", "n3"}} {
		f := (*podByName(t, out, tc.pod).Filter)[tc.node]
		if f.Plugin != "VolumeBinding" || strings.Join(f.Reasons, ";") != affinityConflict {
			t.Errorf("%s on %s: filter %+v, want VolumeBinding %q", tc.pod, tc.node, f, affinityConflict)
		}
	}
	const tail = " preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	for _, tc := range []struct{ pod, msg string }{
		{"p-nopv", "0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind." + tail},
		{"p-huge", "0/3 nodes are available: 3 node(s) did not have enough free storage." + tail},
	} {
		if p := podByName(t, out, tc.pod); p.Status != "Unschedulable" || p.Message != tc.msg {
			t.Errorf("%s = %s, message\n  %q\nwant Unschedulable,\n  %q", tc.pod, p.Status, p.Message, tc.msg)
		}
	}
	var claims []string
	for _, c := range out.Claims {
		claims = append(claims, c.Namespace+"/"+c.Name+"="+c.Volume+"@"+deref(c.Node))
	}
	want := []string{
		"default/c-csi1=pvc-00000000-0000-4000-8000-0000000000c2@n1",
		"default/c-csi2=pvc-00000000-0000-4000-8000-0000000000c3@n2",
		"default/c-pre=pv-prebound@<null>",
		"default/c-static=pv-medium@<null>",
	}
	if strings.Join(claims, " ") != strings.Join(want, " ") {
		t.Errorf("claims\n  %v\nwant\n  %v", claims, want)
	}
}

// testdata/dra (see README.md there): claims made from a template by the
// emulated resource-claim controller, allocated under a matchAttribute
// constraint by DynamicResources and written back through the claim
// reactor; the third pod finds no pair of devices left.
func TestDRAScenario(t *testing.T) {
	out, _ := runJSON(t, "--cluster", "testdata/dra", "--tie-break", "name", "--explain")
	for _, tc := range []struct{ pod, node string }{{"train-0", "n1"}, {"train-1", "n2"}} {
		if p := podByName(t, out, tc.pod); p.Status != "Scheduled" || deref(p.Node) != tc.node {
			t.Errorf("%s = %s on %s (%s), want Scheduled on %s", tc.pod, p.Status, deref(p.Node), p.Message, tc.node)
		}
	}
	const msg = "0/2 nodes are available: 2 cannot allocate all claims. " +
		"preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
	if p := podByName(t, out, "train-2"); p.Status != "Unschedulable" || p.Node != nil || p.Message != msg {
		t.Errorf("train-2 = %s on %s, message\n  %q\nwant Unschedulable,\n  %q", p.Status, deref(p.Node), p.Message, msg)
	}
	if f := (*podByName(t, out, "train-1").Filter)["n1"]; f.Code != "UnschedulableAndUnresolvable" || f.Plugin != "DynamicResources" ||
		strings.Join(f.Reasons, ";") != "cannot allocate all claims" {
		t.Errorf("train-1 on n1: filter %+v, want DynamicResources UnschedulableAndUnresolvable %q", f, "cannot allocate all claims")
	}
	var got []string
	for _, c := range out.ResourceClaims {
		alloc := "null"
		if c.Allocation != nil {
			var devs []string
			for _, d := range c.Allocation {
				devs = append(devs, d.Request+":"+d.Driver+"/"+d.Pool+"/"+d.Device)
			}
			alloc = "[" + strings.Join(devs, ",") + "]"
		}
		if c.ReservedFor == nil {
			t.Errorf("claim %s/%s: reservedFor is null, want a list", c.Namespace, c.Name)
		}
		got = append(got, c.Namespace+"/"+c.Name+" "+alloc+" reservedFor="+strings.Join(c.ReservedFor, ","))
	}
	want := []string{
		"default/train-0-gpus-8p6dd [gpus:gpu.example.com/n1/gpu-0,gpus:gpu.example.com/n1/gpu-1] reservedFor=train-0",
		"default/train-1-gpus-gx8x4 [gpus:gpu.example.com/n2/gpu-1,gpus:gpu.example.com/n2/gpu-2] reservedFor=train-1",
		"default/train-2-gpus-dnjd8 null reservedFor=",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("resourceClaims\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// Without claims, resourceClaims is an empty list, not null.
func TestResourceClaimsAlwaysListed(t *testing.T) {
	_, raw := runJSON(t, "--cluster", "testdata/requeue", "--tie-break", "name")
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(m["resourceClaims"])); got != "[]" {
		t.Errorf("resourceClaims = %s, want []", got)
	}
}
