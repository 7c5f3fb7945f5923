package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// parse reads an output as load does.
func parse(t *testing.T, doc string) *output {
	t.Helper()
	var o output
	if err := json.Unmarshal([]byte(doc), &o); err != nil {
		t.Fatalf("%v in %s", err, doc)
	}
	return &o
}

// doc is an output with one scheduled pod, the PVC claims given and the
// resourceClaims list given ("" leaves either list out).
func doc(claims, resourceClaims string) string {
	parts := []string{`"pods":[{"namespace":"default","name":"p1","node":"n1","status":"Scheduled","nominatedNode":null,"victims":[]}]`}
	if claims != "" {
		parts = append(parts, `"claims":`+claims)
	}
	if resourceClaims != "" {
		parts = append(parts, `"resourceClaims":`+resourceClaims)
	}
	parts = append(parts, `"summary":{"nodes":1,"pendingPods":1,"scheduled":1,"unschedulable":0,"preempted":0,"seconds":0.1}`)
	return "{" + strings.Join(parts, ",") + "}"
}

const (
	gpu0 = `{"request":"gpu","driver":"gpu.example.com","pool":"n1","device":"gpu-0"}`
	gpu1 = `{"request":"gpu","driver":"gpu.example.com","pool":"n1","device":"gpu-1"}`
)

func rc(ns, name, allocation string, reservedFor string) string {
	return `{"namespace":"` + ns + `","name":"` + name + `","allocation":` + allocation + `,"reservedFor":` + reservedFor + `}`
}

func TestResourceClaims(t *testing.T) {
	a := rc("default", "a", "["+gpu0+"]", `["p1"]`)
	b := rc("default", "b", "null", `[]`)
	for _, tc := range []struct {
		name        string
		sim, oracle string
		want        []string
	}{
		{name: "equal", sim: doc("[]", "["+a+","+b+"]"), oracle: doc("[]", "["+a+","+b+"]")},
		{name: "both lists missing", sim: doc("[]", ""), oracle: doc("[]", "")},
		{name: "list missing", sim: doc("[]", "[]"), oracle: doc("[]", ""),
			want: []string{"resourceClaims: list: sim present | oracle absent"}},
		{name: "other device", sim: doc("[]", "["+a+"]"), oracle: doc("[]", "["+rc("default", "a", "["+gpu1+"]", `["p1"]`)+"]"),
			want: []string{"resourceClaim default/a: allocation: sim [gpu=gpu.example.com/n1/gpu-0] | oracle [gpu=gpu.example.com/n1/gpu-1]"}},
		{name: "result order", sim: doc("[]", "["+rc("default", "a", "["+gpu0+","+gpu1+"]", `[]`)+"]"),
			oracle: doc("[]", "["+rc("default", "a", "["+gpu1+","+gpu0+"]", `[]`)+"]"),
			want:   []string{"resourceClaim default/a: allocation: sim [gpu=gpu.example.com/n1/gpu-0,gpu=gpu.example.com/n1/gpu-1] | oracle [gpu=gpu.example.com/n1/gpu-1,gpu=gpu.example.com/n1/gpu-0]"}},
		{name: "not allocated", sim: doc("[]", "["+a+"]"), oracle: doc("[]", "["+rc("default", "a", "null", `[]`)+"]"),
			want: []string{
				"resourceClaim default/a: allocation: sim [gpu=gpu.example.com/n1/gpu-0] | oracle null",
				"resourceClaim default/a: reservedFor: sim [p1] | oracle []",
			}},
		{name: "empty allocation is not null", sim: doc("[]", "["+rc("default", "a", "[]", `[]`)+"]"), oracle: doc("[]", "["+rc("default", "a", "null", `[]`)+"]"),
			want: []string{"resourceClaim default/a: allocation: sim [] | oracle null"}},
		{name: "reservedFor order", sim: doc("[]", "["+rc("default", "a", "["+gpu0+"]", `["p1","p2"]`)+"]"),
			oracle: doc("[]", "["+rc("default", "a", "["+gpu0+"]", `["p2","p1"]`)+"]"),
			want:   []string{"resourceClaim default/a: reservedFor: sim [p1,p2] | oracle [p2,p1]"}},
		{name: "reservedFor null is empty", sim: doc("[]", "["+rc("default", "b", "null", `null`)+"]"), oracle: doc("[]", "["+b+"]")},
		{name: "claim missing", sim: doc("[]", "["+a+","+b+"]"), oracle: doc("[]", "["+a+"]"),
			want: []string{"resourceClaim default/b: claim: sim present | oracle absent"}},
		{name: "list order", sim: doc("[]", "["+b+","+a+"]"), oracle: doc("[]", "["+a+","+b+"]"),
			want: []string{"resourceClaims: order: sim default/b,default/a | oracle default/a,default/b"}},
		{name: "same name in two namespaces", sim: doc("[]", "["+a+","+rc("team-a", "a", "null", "[]")+"]"),
			oracle: doc("[]", "["+a+","+rc("team-a", "a", "["+gpu0+"]", `["p9"]`)+"]"),
			want: []string{
				"resourceClaim team-a/a: allocation: sim null | oracle [gpu=gpu.example.com/n1/gpu-0]",
				"resourceClaim team-a/a: reservedFor: sim [] | oracle [p9]",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := compare(parse(t, tc.sim), parse(t, tc.oracle), false)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestOrder: pod differences, then PersistentVolumeClaims, then
// ResourceClaims, then the summary; explain details last.
func TestOrder(t *testing.T) {
	sim := parse(t, `{"pods":[{"namespace":"default","name":"p1","node":"n1","status":"Scheduled","nominatedNode":null,"victims":[],
		"filter":{"n1":{"code":"Success","plugin":"","reasons":[]}}}],
		"claims":[{"namespace":"default","name":"c1","volume":"pv-1"}],
		"resourceClaims":[`+rc("default", "a", "["+gpu0+"]", `["p1"]`)+`],
		"summary":{"nodes":1,"pendingPods":1,"scheduled":1,"unschedulable":0,"preempted":0}}`)
	oracle := parse(t, `{"pods":[{"namespace":"default","name":"p1","node":null,"status":"Unschedulable","message":"no","nominatedNode":null,"victims":[],
		"filter":{"n1":{"code":"Unschedulable","plugin":"DynamicResources","reasons":["cannot allocate all claims"]}}}],
		"claims":[],
		"resourceClaims":[`+rc("default", "a", "null", `[]`)+`],
		"summary":{"nodes":1,"pendingPods":1,"scheduled":0,"unschedulable":1,"preempted":0}}`)
	got := compare(sim, oracle, false)
	want := []string{
		`default/p1: placement: sim Scheduled "n1" | oracle Unschedulable null`,
		`claim default/c1: binding: sim volume "pv-1" | oracle not bound`,
		`resourceClaim default/a: allocation: sim [gpu=gpu.example.com/n1/gpu-0] | oracle null`,
		`resourceClaim default/a: reservedFor: sim [p1] | oracle []`,
		`summary: scheduled: sim 1 | oracle 0`,
		`summary: unschedulable: sim 0 | oracle 1`,
		`default/p1: filter[n1]: sim Success/"" [] | oracle Unschedulable/"DynamicResources" ["cannot allocate all claims"]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestClaims: the PersistentVolumeClaims list as before.
func TestClaims(t *testing.T) {
	c1 := `{"namespace":"default","name":"c1","volume":"pv-1","node":"n1"}`
	for _, tc := range []struct {
		name        string
		sim, oracle string
		want        []string
	}{
		{name: "equal", sim: doc("["+c1+"]", "[]"), oracle: doc("["+c1+"]", "[]")},
		{name: "list missing", sim: doc("", "[]"), oracle: doc("[]", "[]"),
			want: []string{"claims: list: sim absent | oracle present"}},
		{name: "other node", sim: doc("["+c1+"]", "[]"), oracle: doc(`[{"namespace":"default","name":"c1","volume":"pv-1","node":"n2"}]`, "[]"),
			want: []string{`claim default/c1: binding: sim volume "pv-1" node "n1" | oracle volume "pv-1" node "n2"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := compare(parse(t, tc.sim), parse(t, tc.oracle), false)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// podDoc is an output with one scheduled pod whose extendedResourceClaim
// is given ("" leaves it out).
func podDoc(ext string) string {
	p := `{"namespace":"default","name":"p1","node":"n1","status":"Scheduled","nominatedNode":null,"victims":[]`
	if ext != "" {
		p += `,"extendedResourceClaim":` + ext
	}
	return `{"pods":[` + p + `}],"claims":[],"resourceClaims":[],` +
		`"summary":{"nodes":1,"pendingPods":1,"scheduled":1,"unschedulable":0,"preempted":0}}`
}

func ext(name string, mappings ...string) string {
	return `{"name":"` + name + `","requestMappings":[` + strings.Join(mappings, ",") + `]}`
}

func mapping(container, resource, request string) string {
	return `{"container":"` + container + `","resource":"` + resource + `","request":"` + request + `"}`
}

func TestExtendedResourceClaim(t *testing.T) {
	main0 := mapping("main", "example.com/gpu", "container-0-request-1")
	side1 := mapping("side", "example.com/gpu", "container-1-request-0")
	for _, tc := range []struct {
		name        string
		sim, oracle string
		want        []string
	}{
		{name: "both without", sim: podDoc(""), oracle: podDoc("")},
		{name: "equal", sim: podDoc(ext("p1-extended-resources-abcde", main0, side1)), oracle: podDoc(ext("p1-extended-resources-abcde", main0, side1))},
		{name: "null is absent", sim: podDoc("null"), oracle: podDoc("")},
		{name: "missing in sim", sim: podDoc(""), oracle: podDoc(ext("p1-extended-resources-abcde", main0)),
			want: []string{"default/p1: extendedResourceClaim: sim absent | oracle present"}},
		{name: "missing in oracle", sim: podDoc(ext("p1-extended-resources-abcde", main0)), oracle: podDoc(""),
			want: []string{"default/p1: extendedResourceClaim: sim present | oracle absent"}},
		{name: "other name", sim: podDoc(ext("p1-extended-resources-bcdfg", main0)), oracle: podDoc(ext("p1-extended-resources-abcde", main0)),
			want: []string{`default/p1: extendedResourceClaim.name: sim "p1-extended-resources-bcdfg" | oracle "p1-extended-resources-abcde"`}},
		{name: "mapping order", sim: podDoc(ext("c", side1, main0)), oracle: podDoc(ext("c", main0, side1)),
			want: []string{"default/p1: extendedResourceClaim.requestMappings: " +
				"sim [side:example.com/gpu=container-1-request-0 main:example.com/gpu=container-0-request-1] | " +
				"oracle [main:example.com/gpu=container-0-request-1 side:example.com/gpu=container-1-request-0]"}},
		{name: "other request", sim: podDoc(ext("c", mapping("main", "example.com/gpu", "container-0-request-2"))), oracle: podDoc(ext("c", main0)),
			want: []string{"default/p1: extendedResourceClaim.requestMappings: sim [main:example.com/gpu=container-0-request-2] | oracle [main:example.com/gpu=container-0-request-1]"}},
		{name: "null mappings are empty", sim: podDoc(`{"name":"c","requestMappings":null}`), oracle: podDoc(ext("c"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := compare(parse(t, tc.sim), parse(t, tc.oracle), false)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}
