// Command schedkit-compare compares the JSON outputs (--output json
// --explain) of schedkit-sim and schedkit-oracle for one scenario.
//
//	schedkit-compare [--raw-scores] SIM.json ORACLE.json
//
// Compared: the pod list (order), and per pod: node, status, message (when
// not Scheduled), nominatedNode, victims (in order), extendedResourceClaim
// (the claim DRA made for the pod's extended resources and the request
// mappings in order; missing on one side only counts as a difference;
// null and [] mappings alike), every node's filter
// verdict (code, plugin, reasons) and, per node, every plugin's normalized
// score and weight and the total (with --raw-scores also the raw score);
// the "claims" list (the claims bound during the run: volume and selected
// node of each; a missing list counts as a difference); the
// "resourceClaims" list (every ResourceClaim at the end of the run: its
// allocation, in order, and the pods it is reserved for, then the list's
// order; a missing list counts as a difference); the summary counts. Not
// compared: "seconds", "podsPerSecond".
//
// Prints nothing and exits 0 when they agree; otherwise prints one line per
// difference ("<pod>: <field>: sim <value> | oracle <value>"), the most
// telling first, and exits 1. Exit 2: an unreadable input.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

type output struct {
	Pods           []pod            `json:"pods"`
	Claims         *[]claim         `json:"claims"`
	ResourceClaims *[]resourceClaim `json:"resourceClaims"`
	Summary        map[string]any   `json:"summary"`
}

// claim is one entry of "claims": a claim bound during the run.
type claim struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Volume    string  `json:"volume"`
	Node      *string `json:"node"`
}

// resourceClaim is one entry of "resourceClaims": a ResourceClaim (DRA) at
// the end of the run.
type resourceClaim struct {
	Namespace   string             `json:"namespace"`
	Name        string             `json:"name"`
	Allocation  *[]allocatedDevice `json:"allocation"` // null: not allocated
	ReservedFor []string           `json:"reservedFor"`
}

type allocatedDevice struct {
	Request string `json:"request"`
	Driver  string `json:"driver"`
	Pool    string `json:"pool"`
	Device  string `json:"device"`
}

type pod struct {
	Namespace     string   `json:"namespace"`
	Name          string   `json:"name"`
	Node          *string  `json:"node"`
	Status        string   `json:"status"`
	Message       *string  `json:"message"`
	NominatedNode *string  `json:"nominatedNode"`
	Victims       []string `json:"victims"`
	// Omitted when the pod has none.
	ExtendedResourceClaim *extendedResourceClaim `json:"extendedResourceClaim"`
	Filter                map[string]filter      `json:"filter"`
	Scores                map[string]nodeScores  `json:"scores"`
}

// extendedResourceClaim is a pod's status.extendedResourceClaimStatus: the
// claim made for its extended resources backed by DeviceClasses.
type extendedResourceClaim struct {
	Name            string           `json:"name"`
	RequestMappings []requestMapping `json:"requestMappings"`
}

type requestMapping struct {
	Container string `json:"container"`
	Resource  string `json:"resource"`
	Request   string `json:"request"`
}

// fmtMappings renders request mappings in order, as
// "[container:resource=request ...]".
func fmtMappings(ms []requestMapping) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, m.Container+":"+m.Resource+"="+m.Request)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

type filter struct {
	Code    string   `json:"code"`
	Plugin  string   `json:"plugin"`
	Reasons []string `json:"reasons"`
}

type pluginScore struct {
	Score      int64 `json:"score"`
	Normalized int64 `json:"normalized"`
	Weight     int64 `json:"weight"`
}

type nodeScores struct {
	Plugins map[string]pluginScore `json:"plugins"`
	Total   int64                  `json:"total"`
}

func load(path string) (*output, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var o output
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &o, nil
}

func str(s *string) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *s)
}

func msg(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

type differ struct {
	rawScores bool
	major     []string // placement, status, nomination, victims, messages
	minor     []string // explain details
}

func (d *differ) add(major bool, where, field string, sim, oracle any) {
	line := fmt.Sprintf("%s: %s: sim %v | oracle %v", where, field, sim, oracle)
	if major {
		d.major = append(d.major, line)
	} else {
		d.minor = append(d.minor, line)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func union[V any](a, b map[string]V) []string {
	set := map[string]bool{}
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	return keys(set)
}

func (d *differ) pods(s, o *output) {
	simByKey := map[string]*pod{}
	var simOrder, oraOrder []string
	for i := range s.Pods {
		k := s.Pods[i].Namespace + "/" + s.Pods[i].Name
		simByKey[k] = &s.Pods[i]
		simOrder = append(simOrder, k)
	}
	oraByKey := map[string]*pod{}
	for i := range o.Pods {
		k := o.Pods[i].Namespace + "/" + o.Pods[i].Name
		oraByKey[k] = &o.Pods[i]
		oraOrder = append(oraOrder, k)
	}
	if strings.Join(simOrder, ",") != strings.Join(oraOrder, ",") {
		d.add(true, "pods", "list", strings.Join(simOrder, ","), strings.Join(oraOrder, ","))
	}
	for _, k := range oraOrder {
		sp, ok := simByKey[k]
		if !ok {
			continue
		}
		d.pod(k, sp, oraByKey[k])
	}
}

func (d *differ) pod(k string, s, o *pod) {
	if str(s.Node) != str(o.Node) || s.Status != o.Status {
		d.add(true, k, "placement", s.Status+" "+str(s.Node), o.Status+" "+str(o.Node))
	}
	if s.Status == o.Status && s.Status != "Scheduled" && msg(s.Message) != msg(o.Message) {
		d.add(true, k, "message", fmt.Sprintf("%q", msg(s.Message)), fmt.Sprintf("%q", msg(o.Message)))
	}
	if str(s.NominatedNode) != str(o.NominatedNode) {
		d.add(true, k, "nominatedNode", str(s.NominatedNode), str(o.NominatedNode))
	}
	if strings.Join(s.Victims, ",") != strings.Join(o.Victims, ",") {
		d.add(true, k, "victims", "["+strings.Join(s.Victims, ",")+"]", "["+strings.Join(o.Victims, ",")+"]")
	}
	d.extendedResourceClaim(k, s.ExtendedResourceClaim, o.ExtendedResourceClaim)
	for _, n := range union(s.Filter, o.Filter) {
		sf, sok := s.Filter[n]
		of, ook := o.Filter[n]
		switch {
		case !sok:
			d.add(false, k, "filter["+n+"]", "absent", fmtFilter(of))
		case !ook:
			d.add(false, k, "filter["+n+"]", fmtFilter(sf), "absent")
		case fmtFilter(sf) != fmtFilter(of):
			d.add(false, k, "filter["+n+"]", fmtFilter(sf), fmtFilter(of))
		}
	}
	for _, n := range union(s.Scores, o.Scores) {
		ss, sok := s.Scores[n]
		oscore, ook := o.Scores[n]
		if !sok || !ook {
			d.add(false, k, "scores["+n+"]", present(sok), present(ook))
			continue
		}
		if ss.Total != oscore.Total {
			d.add(false, k, "scores["+n+"].total", ss.Total, oscore.Total)
		}
		for _, pl := range union(ss.Plugins, oscore.Plugins) {
			sp, spok := ss.Plugins[pl]
			op, opok := oscore.Plugins[pl]
			f := "scores[" + n + "]." + pl
			switch {
			case !spok || !opok:
				d.add(false, k, f, present(spok), present(opok))
			case sp.Normalized != op.Normalized || sp.Weight != op.Weight || (d.rawScores && sp.Score != op.Score):
				d.add(false, k, f, fmtScore(sp, d.rawScores), fmtScore(op, d.rawScores))
			}
		}
	}
}

// extendedResourceClaim compares the pods' extended resource claims: the
// claim's presence, then its name and the request mappings (in order).
func (d *differ) extendedResourceClaim(k string, s, o *extendedResourceClaim) {
	if s == nil || o == nil {
		if s != nil || o != nil {
			d.add(true, k, "extendedResourceClaim", present(s != nil), present(o != nil))
		}
		return
	}
	if s.Name != o.Name {
		d.add(true, k, "extendedResourceClaim.name", fmt.Sprintf("%q", s.Name), fmt.Sprintf("%q", o.Name))
	}
	if sm, om := fmtMappings(s.RequestMappings), fmtMappings(o.RequestMappings); sm != om {
		d.add(true, k, "extendedResourceClaim.requestMappings", sm, om)
	}
}

func present(ok bool) string {
	if ok {
		return "present"
	}
	return "absent"
}

func fmtFilter(f filter) string {
	r := f.Reasons
	if r == nil {
		r = []string{}
	}
	rj, _ := json.Marshal(r)
	return fmt.Sprintf("%s/%q %s", f.Code, f.Plugin, rj)
}

func fmtScore(p pluginScore, raw bool) string {
	if raw {
		return fmt.Sprintf("raw %d normalized %d weight %d", p.Score, p.Normalized, p.Weight)
	}
	return fmt.Sprintf("normalized %d weight %d", p.Normalized, p.Weight)
}

// claims compares the claims bound during the run; every difference is
// major.
func (d *differ) claims(s, o *output) {
	if s.Claims == nil || o.Claims == nil {
		if s.Claims != nil || o.Claims != nil {
			d.add(true, "claims", "list", present(s.Claims != nil), present(o.Claims != nil))
		}
		return
	}
	index := func(cs []claim) map[string]string {
		m := map[string]string{}
		for _, c := range cs {
			v := fmt.Sprintf("volume %q", c.Volume)
			if c.Node != nil {
				v += fmt.Sprintf(" node %q", *c.Node)
			}
			m[c.Namespace+"/"+c.Name] = v
		}
		return m
	}
	sm, om := index(*s.Claims), index(*o.Claims)
	for _, k := range union(sm, om) {
		sv, sok := sm[k]
		ov, ook := om[k]
		if !sok {
			sv = "not bound"
		}
		if !ook {
			ov = "not bound"
		}
		if sv != ov {
			d.add(true, "claim "+k, "binding", sv, ov)
		}
	}
	// Same claims, same bindings: the order (namespace, then name) and
	// duplicates are still part of the contract.
	order := func(cs []claim) string {
		var ks []string
		for _, c := range cs {
			ks = append(ks, c.Namespace+"/"+c.Name)
		}
		return strings.Join(ks, ",")
	}
	if so, oo := order(*s.Claims), order(*o.Claims); so != oo && len(union(sm, om)) == len(sm) && len(sm) == len(om) {
		d.add(true, "claims", "order", so, oo)
	}
}

// resourceClaims compares the ResourceClaims at the end of the run, after
// the PersistentVolumeClaims; every difference is major. An allocation is
// its results in order ("request=driver/pool/device"); reservedFor is
// compared in order, null and [] alike.
func (d *differ) resourceClaims(s, o *output) {
	if s.ResourceClaims == nil || o.ResourceClaims == nil {
		if s.ResourceClaims != nil || o.ResourceClaims != nil {
			d.add(true, "resourceClaims", "list", present(s.ResourceClaims != nil), present(o.ResourceClaims != nil))
		}
		return
	}
	type entry struct{ allocation, reservedFor string }
	index := func(cs []resourceClaim) map[string]entry {
		m := map[string]entry{}
		for _, c := range cs {
			e := entry{allocation: "null", reservedFor: "[" + strings.Join(c.ReservedFor, ",") + "]"}
			if c.Allocation != nil {
				var rs []string
				for _, r := range *c.Allocation {
					rs = append(rs, fmt.Sprintf("%s=%s/%s/%s", r.Request, r.Driver, r.Pool, r.Device))
				}
				e.allocation = "[" + strings.Join(rs, ",") + "]"
			}
			m[c.Namespace+"/"+c.Name] = e
		}
		return m
	}
	sm, om := index(*s.ResourceClaims), index(*o.ResourceClaims)
	for _, k := range union(sm, om) {
		se, sok := sm[k]
		oe, ook := om[k]
		where := "resourceClaim " + k
		if !sok || !ook {
			d.add(true, where, "claim", present(sok), present(ook))
			continue
		}
		if se.allocation != oe.allocation {
			d.add(true, where, "allocation", se.allocation, oe.allocation)
		}
		if se.reservedFor != oe.reservedFor {
			d.add(true, where, "reservedFor", se.reservedFor, oe.reservedFor)
		}
	}
	// Same claims: the order (namespace, then name) and duplicates are
	// still part of the contract.
	order := func(cs []resourceClaim) string {
		var ks []string
		for _, c := range cs {
			ks = append(ks, c.Namespace+"/"+c.Name)
		}
		return strings.Join(ks, ",")
	}
	if so, oo := order(*s.ResourceClaims), order(*o.ResourceClaims); so != oo && len(union(sm, om)) == len(sm) && len(sm) == len(om) {
		d.add(true, "resourceClaims", "order", so, oo)
	}
}

func (d *differ) summary(s, o *output) {
	for _, f := range []string{"nodes", "pendingPods", "scheduled", "unschedulable", "preempted"} {
		if fmt.Sprint(s.Summary[f]) != fmt.Sprint(o.Summary[f]) {
			d.add(true, "summary", f, s.Summary[f], o.Summary[f])
		}
	}
}

func main() {
	raw := flag.Bool("raw-scores", false, "also compare raw (unnormalized) plugin scores")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: schedkit-compare [--raw-scores] SIM.json ORACLE.json")
		os.Exit(2)
	}
	s, err := load(flag.Arg(0))
	if err != nil {
		fmt.Fprintf(os.Stderr, "schedkit-compare: sim: %v\n", err)
		os.Exit(2)
	}
	o, err := load(flag.Arg(1))
	if err != nil {
		fmt.Fprintf(os.Stderr, "schedkit-compare: oracle: %v\n", err)
		os.Exit(2)
	}
	all := compare(s, o, *raw)
	if len(all) == 0 {
		return
	}
	for _, l := range all {
		fmt.Println(l)
	}
	os.Exit(1)
}

// compare lists the differences, the major ones (pods, then claims, then
// resource claims, then the summary) first.
func compare(s, o *output, rawScores bool) []string {
	d := &differ{rawScores: rawScores}
	d.pods(s, o)
	d.claims(s, o)
	d.resourceClaims(s, o)
	d.summary(s, o)
	return append(d.major, d.minor...)
}
