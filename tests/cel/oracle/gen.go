package main

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// ---------------------------------------------------------------------------
// Types the generator reasons about.

type kind uint8

const (
	kBool kind = iota
	kInt
	kUint
	kDouble
	kString
	kBytes
	kNull
	kDuration
	kTimestamp
	kQuantity
	kSemver
	kIP
	kCIDR
	kURL
	kFormat
	kType
	kDyn
	kList
	kMap
	kOpt
)

type typ struct {
	k    kind
	a, b *typ // list: a = elem; map: a = key, b = value; optional: a = inner
}

var (
	tBool      = &typ{k: kBool}
	tInt       = &typ{k: kInt}
	tUint      = &typ{k: kUint}
	tDouble    = &typ{k: kDouble}
	tString    = &typ{k: kString}
	tBytes     = &typ{k: kBytes}
	tNull      = &typ{k: kNull}
	tDuration  = &typ{k: kDuration}
	tTimestamp = &typ{k: kTimestamp}
	tQuantity  = &typ{k: kQuantity}
	tSemver    = &typ{k: kSemver}
	tIP        = &typ{k: kIP}
	tCIDR      = &typ{k: kCIDR}
	tURL       = &typ{k: kURL}
	tFormat    = &typ{k: kFormat}
	tType      = &typ{k: kType}
	tDyn       = &typ{k: kDyn}
)

func listOf(e *typ) *typ   { return &typ{k: kList, a: e} }
func mapOf(k, v *typ) *typ { return &typ{k: kMap, a: k, b: v} }
func optOf(e *typ) *typ    { return &typ{k: kOpt, a: e} }

func (t *typ) equal(u *typ) bool {
	if t == nil || u == nil {
		return t == u
	}
	if t.k != u.k {
		return false
	}
	switch t.k {
	case kList, kOpt:
		return t.a.equal(u.a)
	case kMap:
		return t.a.equal(u.a) && t.b.equal(u.b)
	}
	return true
}

func (t *typ) String() string {
	switch t.k {
	case kList:
		return "list(" + t.a.String() + ")"
	case kMap:
		return "map(" + t.a.String() + ", " + t.b.String() + ")"
	case kOpt:
		return "optional(" + t.a.String() + ")"
	}
	return [...]string{"bool", "int", "uint", "double", "string", "bytes", "null", "duration", "timestamp",
		"Quantity", "Semver", "IP", "CIDR", "URL", "Format", "type", "dyn"}[t.k]
}

var (
	scalarTypes   = []*typ{tBool, tInt, tUint, tDouble, tString, tBytes, tDuration, tTimestamp}
	sortableTypes = scalarTypes // isSorted/min/max/sort/sortBy keys
	summableTypes = []*typ{tInt, tUint, tDouble, tDuration}
	mapKeyTypes   = []*typ{tString, tString, tInt, tUint, tBool}
	opaqueTypes   = []*typ{tQuantity, tSemver, tIP, tCIDR, tURL}
)

// ---------------------------------------------------------------------------
// Device model.

type genAttr struct {
	domain, id string
	k          kind // kBool, kInt, kString, kSemver, or kList with elem in elemKind
	elem       kind
}

type genCap struct{ domain, id string }

type genDevice struct {
	json  DeviceJSON
	attrs []genAttr
	caps  []genCap
}

var (
	driverPool    = []string{"gpu.example.com", "dra.example.com", "nic", "tpu.k8s.io", "example.com"}
	otherDomains  = []string{"example.com", "vendor.io", "gpu.example.com", "dra.example.com"}
	missingDomain = []string{"missing.example.org", "nope", ""}
	attrIDs       = []string{"model", "count", "enabled", "version", "memory", "index", "family", "driverVersion", "numa", "uuid", "healthy", "cores", "name", "pcieRoot"}
	missingIDs    = []string{"missing", "absent", "Model", "count2", "x"}
	capIDs        = []string{"memory", "cores", "bandwidth", "slots", "counters"}
	capValues     = []string{"16Gi", "80G", "1500m", "4", "0", "100M", "1.5", "2k", "1e3", "512Mi", "1Ti", "3n", "123456789", "-1", "0.5Gi"}
	intAttrVals   = []int64{0, 1, 2, 4, 8, 16, -1, 80, 1 << 40, 9223372036854775807, -9223372036854775808, 3}
	strAttrVals   = []string{"a100", "h100", "", "v1.2.3", "Foo", "x y", "é", "gpu-0", "10.0.0.1", "1Gi", "true", "42"}
	verAttrVals   = []string{"1.0.0", "1.2.3", "2.0.0-rc.1", "1.2.3+build.5", "0.0.1", "10.20.30", "1.10.0", "1.2.3-alpha.1"}
	preferredKind = map[string]kind{"model": kString, "count": kInt, "enabled": kBool, "version": kSemver, "memory": kInt,
		"index": kInt, "family": kString, "driverVersion": kSemver, "numa": kInt, "uuid": kString, "healthy": kBool,
		"cores": kInt, "name": kString, "pcieRoot": kString}
)

func ptrTo[T any](v T) *T { return &v }

func (g *gen) newDevice() *genDevice {
	d := &genDevice{}
	d.json.Driver = pick(g, driverPool)
	switch g.intn(3) {
	case 0:
		d.json.AllowMultipleAllocations = ptrTo(true)
	case 1:
		d.json.AllowMultipleAllocations = ptrTo(false)
	}
	seen := map[string]bool{}
	nAttr := 1 + g.intn(6)
	if g.chance(0.1) {
		nAttr = 0
	}
	for range nAttr {
		a := genAttr{domain: d.json.Driver, id: pick(g, attrIDs)}
		if g.chance(0.3) {
			a.domain = pick(g, otherDomains)
		}
		if seen[a.domain+"/"+a.id] {
			continue
		}
		seen[a.domain+"/"+a.id] = true
		a.k = preferredKind[a.id]
		if g.chance(0.2) {
			a.k = pick(g, []kind{kBool, kInt, kString, kSemver})
		}
		var v resourceapi.DeviceAttribute
		if g.listAttrs && g.chance(0.3) {
			a.elem = a.k
			a.k = kList
			n := 1 + g.intn(3)
			for range n {
				switch a.elem {
				case kBool:
					v.BoolValues = append(v.BoolValues, g.chance(0.5))
				case kInt:
					v.IntValues = append(v.IntValues, pick(g, intAttrVals))
				case kString:
					v.StringValues = append(v.StringValues, pick(g, strAttrVals))
				case kSemver:
					v.VersionValues = append(v.VersionValues, pick(g, verAttrVals))
				}
			}
		} else {
			switch a.k {
			case kBool:
				v.BoolValue = ptrTo(g.chance(0.5))
			case kInt:
				v.IntValue = ptrTo(pick(g, intAttrVals))
			case kString:
				v.StringValue = ptrTo(pick(g, strAttrVals))
			case kSemver:
				v.VersionValue = ptrTo(pick(g, verAttrVals))
			}
		}
		name := a.domain + "/" + a.id
		if a.domain == d.json.Driver && g.chance(0.6) {
			name = a.id
		}
		if d.json.Attributes == nil {
			d.json.Attributes = map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{}
		}
		d.json.Attributes[resourceapi.QualifiedName(name)] = v
		d.attrs = append(d.attrs, a)
	}
	nCap := g.intn(4)
	seen = map[string]bool{}
	for range nCap {
		c := genCap{domain: d.json.Driver, id: pick(g, capIDs)}
		if g.chance(0.2) {
			c.domain = pick(g, otherDomains)
		}
		if seen[c.domain+"/"+c.id] {
			continue
		}
		seen[c.domain+"/"+c.id] = true
		name := c.domain + "/" + c.id
		if c.domain == d.json.Driver && g.chance(0.6) {
			name = c.id
		}
		if d.json.Capacity == nil {
			d.json.Capacity = map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{}
		}
		d.json.Capacity[resourceapi.QualifiedName(name)] = resourceapi.DeviceCapacity{Value: resource.MustParse(pick(g, capValues))}
		d.caps = append(d.caps, c)
	}
	return d
}

// ---------------------------------------------------------------------------
// Generator state.

type scopeVar struct {
	name string
	t    *typ
}

type gen struct {
	r         *rand.Rand
	dev       *genDevice
	listAttrs bool
	vars      []scopeVar
	maxDepth  int
	devBias   bool // reference the device often in this expression
	illTyped  bool // inject one type error
	injected  bool
	errMode   bool // favour productions that fail at runtime
	// noDyn > 0 while generating elements of list/map literals: the
	// homogeneous-literal validator rejects mixing dyn (attributes) with
	// concrete element types, so no dyn-typed expression may stand in for
	// a concrete type there.
	noDyn int
}

// Intent of a generated expression (informational, written as "intent").
const (
	intentOK      = "ok"
	intentRuntime = "runtime_error"
	intentIll     = "ill_typed"
	intentSyntax  = "syntax_error"
)

type genLine struct {
	ID         int64      `json:"id"`
	Expression string     `json:"expression"`
	Device     DeviceJSON `json:"device"`
	Intent     string     `json:"intent,omitempty"`
}

// generateOne draws expression number id for seed. Each line has its own
// random stream, so line i is the same for every n > i.
func generateOne(seed uint64, id int64, listAttrs bool) genLine {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(id)*0x9E3779B97F4A7C15+1)), listAttrs: listAttrs}
	g.dev = g.newDevice()
	g.maxDepth = 2 + g.intn(3)
	g.devBias = g.chance(0.65)
	intent := intentOK
	x := g.r.Float64()
	switch {
	case x < 0.10:
		g.illTyped = true
		intent = intentIll
	case x < 0.12:
		intent = intentSyntax
	case x < 0.22:
		g.errMode = true
		intent = intentRuntime
	}
	var expr string
	switch {
	case g.chance(0.02):
		// Top level is the (dyn) attribute type itself: allowed by the
		// output type check; fails at runtime unless the attribute is a bool.
		expr = g.attrRef(pick(g, []kind{kBool, kBool, kInt, kString}))
	case g.illTyped && g.chance(0.2):
		// Wrong result type.
		expr = g.expr(pick(g, []*typ{tInt, tString, tDouble, listOf(tBool), tQuantity}), 0)
		g.injected = true
	default:
		expr = g.expr(tBool, 0)
	}
	if g.illTyped && !g.injected {
		f := pick(g, []string{"(%s) + 1", "!(%s).size()", "(%s) && 1", "(%s) || \"true\"", "[%s, 1][0]", "(%s) == 1u"})
		expr = fmt.Sprintf(f, expr)
	}
	if intent == intentSyntax {
		expr = g.breakSyntax(expr)
	}
	return genLine{ID: id, Expression: expr, Device: g.dev.json, Intent: intent}
}

func (g *gen) intn(n int) int           { return g.r.IntN(n) }
func (g *gen) chance(p float64) bool    { return g.r.Float64() < p }
func pick[T any](g *gen, xs []T) T      { return xs[g.r.IntN(len(xs))] }
func (g *gen) ew(w int) int             { return map[bool]int{true: w * 8, false: w}[g.errMode] }
func (g *gen) dw(w int) int             { return map[bool]int{true: w * 4, false: 0}[g.devBias && g.noDyn == 0] }
func (g *gen) vw(t *typ, w int) int     { return map[bool]int{true: w, false: 0}[g.varOf(t) != ""] }
func (g *gen) bw(cond bool, w int) int  { return map[bool]int{true: w, false: 0}[cond] }
func (g *gen) sub(t *typ, d int) string { return g.expr(t, d+1) }

type prod struct {
	w int
	f func() string
}

func (g *gen) oneOf(ps ...prod) string {
	total := 0
	for _, p := range ps {
		total += p.w
	}
	if total == 0 {
		panic("no production")
	}
	x := g.intn(total)
	for _, p := range ps {
		if x < p.w {
			return p.f()
		}
		x -= p.w
	}
	panic("unreachable")
}

func lit(s string) func() string { return func() string { return s } }

// paren wraps a compound expression; rarely it leaves the parentheses out so
// that operator precedence gets exercised too.
func (g *gen) paren(s string) string {
	if g.chance(0.04) {
		return s
	}
	return "(" + s + ")"
}

// recv makes s usable as a receiver or operand of a unary operator.
func recv(s string) string {
	if s == "" {
		return s
	}
	c := s[0]
	if strings.ContainsAny(s, " ") || c == '-' || c == '!' || (c >= '0' && c <= '9') || c == '.' {
		return "(" + s + ")"
	}
	return s
}

func (g *gen) bin(a, op, b string) string { return g.paren(a + " " + op + " " + b) }

func (g *gen) varOf(t *typ) string {
	shadowed := map[string]bool{}
	for i := len(g.vars) - 1; i >= 0; i-- {
		v := g.vars[i]
		if shadowed[v.name] {
			continue
		}
		shadowed[v.name] = true
		if v.t.equal(t) {
			return v.name
		}
	}
	return ""
}

var varNames = []string{"x", "y", "z", "e", "k", "v", "i", "j", "n", "m", "a", "b"}

// fresh returns a variable name not in scope (mostly).
func (g *gen) fresh() string {
	if len(g.vars) > 0 && g.chance(0.05) {
		return g.vars[g.intn(len(g.vars))].name // shadowing
	}
	for range 20 {
		n := pick(g, varNames)
		used := false
		for _, v := range g.vars {
			if v.name == n {
				used = true
			}
		}
		if !used {
			return n
		}
	}
	return "w" + strconv.Itoa(len(g.vars))
}

func (g *gen) with(vs []scopeVar, f func() string) string {
	old := len(g.vars)
	g.vars = append(g.vars, vs...)
	s := f()
	g.vars = g.vars[:old]
	return s
}

func (g *gen) randType(depth int) *typ {
	x := g.intn(100)
	switch {
	case x < 55:
		return pick(g, scalarTypes)
	case x < 70:
		return pick(g, opaqueTypes)
	case x < 82 && depth < 2:
		return listOf(g.randType(depth + 1))
	case x < 90 && depth < 2:
		return mapOf(pick(g, mapKeyTypes), g.randType(depth+1))
	case x < 95 && depth < 2:
		return optOf(g.randType(depth + 1))
	}
	return pick(g, []*typ{tInt, tString, tBool})
}

// ---------------------------------------------------------------------------
// Literals.

var (
	intLits      = []string{"0", "1", "2", "3", "5", "7", "10", "42", "100", "-1", "-5", "1024", "0x10", "0xff", "1000000"}
	edgeIntLits  = []string{"4294967296", "9223372036854775807", "-9223372036854775808", "-0x8000000000000000", "0x7fffffffffffffff"}
	uintLits     = []string{"0u", "1u", "2u", "7u", "10u", "100u", "0x1Fu", "5U"}
	edgeUintLits = []string{"4294967296u", "18446744073709551615u", "9223372036854775808u", "0xFFFFFFFFFFFFFFFFu"}
	doubleLits   = []string{"0.0", "1.0", "1.5", "-2.5", "3.14", "1e3", "1e-3", "2.5e10", "1e308", ".5", "0.1", "-0.0", "1e300", "123.456e-2", "9007199254740993.0"}
	stringLits   = []string{`""`, `"a"`, `"abc"`, `"Hello, World"`, `"gpu"`, `"a100"`, `"x-y_z"`, `"ÄÖü"`, `"日本語"`, `"\t\n"`, `"\u00e9"`, `"\x41\101"`,
		`'single "q"'`, `r"raw\n"`, `"""tri"ple"""`, `"a.b.c"`, `"1.2.3"`, `"10.0.0.1"`, `"192.168.0.0/16"`, `"https://example.com/x?y=1"`,
		`"1Gi"`, `"true"`, `"42"`, `"-7"`, `"3.5"`, `"1h"`, `"%d items"`, `"gpu.example.com"`, `"/"`, `","`, `" "`, `"a,b,,c"`, `"  pad  "`,
		`"😀x"`, `"e\u0301"`, `"\U0001F600"`, `'\''`, `"ABC def"`, `"nic"`, `"model"`, `"count"`}
	bytesLits    = []string{`b""`, `b"abc"`, `b"\xff\x00"`, `b'\000\001'`, `b"ÿ"`, `B"Z"`, `br"\\x"`, `b"\303\251"`}
	regexLits    = []string{`"^a"`, `"b+"`, `"[0-9]+"`, `"(a|b)c"`, `".*"`, `"\\d{2}"`, `"^$"`, `"(?i)ABC"`, `"[[:alpha:]]+"`, `"é"`, `"x*"`, `"^gpu"`, `"example\\.com$"`, `"(\\w+)\\.(\\w+)"`}
	badRegexLits = []string{`"("`, `"[a-"`, `"*a"`, `"a{2,1}"`, `"(?P<n"`, `"\\8"`}
	durLits      = []string{`"0s"`, `"1s"`, `"1.5s"`, `"-2m"`, `"1h30m"`, `"100ms"`, `"1us"`, `"1ns"`, `"2562047h"`, `"1h2m3.5s"`, `"-0.5h"`, `"1µs"`, `"3000000000s"`, `"86400s"`}
	badDurLits   = []string{`"1x"`, `"1"`, `""`, `"h"`, `"9999999999h"`}
	tsLits       = []string{`"2023-01-02T03:04:05Z"`, `"1970-01-01T00:00:00Z"`, `"2024-02-29T23:59:59.999999999Z"`, `"2023-06-15T12:00:00+02:00"`, `"0001-01-01T00:00:00Z"`, `"9999-12-31T23:59:59Z"`, `"2000-03-01T00:00:00.5-08:00"`}
	badTsLits    = []string{`"2023-13-01T00:00:00Z"`, `"yesterday"`, `"2023-01-02"`, `"10000-01-01T00:00:00Z"`}
	tsIntLits    = []string{"0", "1700000000", "-62135596800", "253402300799", "86400", "-1"}
	tzLits       = []string{`"UTC"`, `"America/New_York"`, `"+05:30"`, `"-08:00"`, `"Europe/Berlin"`, `"Asia/Kolkata"`, `"Australia/Lord_Howe"`, `"02:00"`}
	badTzLits    = []string{`"Invalid/Zone"`, `"+25:00"`, `"abc"`}
	qtyLits      = []string{`"1"`, `"0"`, `"1Gi"`, `"1G"`, `"500m"`, `"1.5"`, `"2k"`, `"1e3"`, `"1E3"`, `"100Mi"`, `"-1"`, `"0.1"`, `"1Ki"`, `"1Ti"`, `"123456789"`, `"1.5Gi"`, `"3n"`, `"16Gi"`, `"80G"`, `"9223372036854775807"`, `"1Ei"`}
	badQtyLits   = []string{`"1u"`, `"1Z"`, `"abc"`, `""`, `" 1"`, `"1.2.3"`, `"--1"`}
	semverLits   = []string{`"1.2.3"`, `"0.0.0"`, `"1.0.0-alpha"`, `"1.0.0-alpha.1"`, `"1.0.0+build"`, `"2.10.3-rc.1+meta"`, `"1.10.0"`, `"1.2.3-alpha.10"`, `"1.2.3-alpha.9"`, `"10.20.30"`}
	normSemver   = []string{`"v1.2.3"`, `"1.2"`, `"1"`, `"v2"`, `"1.2.3"`, `"V1.0"`}
	badSemver    = []string{`"01.2.3"`, `"1.2.3.4"`, `""`, `"a.b.c"`, `"v1.2.3"`, `"1.2"`}
	ipLits       = []string{`"10.0.0.1"`, `"192.168.1.1"`, `"127.0.0.1"`, `"0.0.0.0"`, `"255.255.255.255"`, `"224.0.0.1"`, `"169.254.1.1"`, `"::1"`, `"::"`, `"fe80::1"`, `"ff02::1"`, `"2001:db8::1"`, `"2001:DB8::1"`, `"8.8.8.8"`}
	badIPLits    = []string{`"::ffff:1.2.3.4"`, `"1.2.3"`, `"010.0.0.1"`, `"fe80::1%eth0"`, `"300.1.1.1"`, `""`}
	cidrLits     = []string{`"10.0.0.0/8"`, `"192.168.1.0/24"`, `"192.168.1.5/24"`, `"::1/128"`, `"2001:db8::/32"`, `"0.0.0.0/0"`, `"fe80::/10"`, `"10.1.2.3/32"`, `"2001:DB8::1/64"`}
	badCIDRLits  = []string{`"10.0.0.1/33"`, `"10.0.0.0"`, `"::ffff:1.2.3.0/120"`, `"abc/8"`}
	urlLits      = []string{`"https://example.com"`, `"https://user:pw@example.com:8443/a/b?x=1&x=2&y=3#frag"`, `"http://[::1]:8080/path"`, `"/absolute/path"`, `"ftp://host/%20space"`, `"https://example.com/a%2Fb?q=%41"`, `"http://host:80"`, `"https://例子.com/"`, `"mailto:a@b.c"`}
	badURLLits   = []string{`"example.com"`, `""`, `"http://host:port"`, `"::"`, `"relative/path"`}
	formatNames  = []string{"dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName", "dns1123LabelPrefix", "dns1123SubdomainPrefix", "dns1035LabelPrefix", "labelValue", "uri", "uuid", "byte", "date", "datetime"}
	typeIdents   = map[kind]string{kBool: "bool", kInt: "int", kUint: "uint", kDouble: "double", kString: "string", kBytes: "bytes", kNull: "null_type", kList: "list", kMap: "map", kType: "type", kDuration: "google.protobuf.Duration", kTimestamp: "google.protobuf.Timestamp"}
)

// ---------------------------------------------------------------------------
// Device references.

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (g *gen) domainLit(existing []string) string {
	x := g.r.Float64()
	switch {
	case x < 0.7 && len(existing) > 0:
		return strconv.Quote(pick(g, existing))
	case x < 0.8:
		return "device.driver"
	case x < 0.9:
		return strconv.Quote(g.dev.json.Driver)
	}
	return strconv.Quote(pick(g, append(missingDomain, otherDomains...)))
}

// attrRef references an attribute, preferring one of kind k on the device.
func (g *gen) attrRef(k kind) string {
	var match, all []genAttr
	for _, a := range g.dev.attrs {
		all = append(all, a)
		if a.k == k || a.k == kList && k == kList {
			match = append(match, a)
		}
	}
	var dom, id string
	x := g.r.Float64()
	switch {
	case x < 0.75 && len(match) > 0:
		a := pick(g, match)
		dom, id = strconv.Quote(a.domain), a.id
		if a.domain == g.dev.json.Driver && g.chance(0.3) {
			dom = "device.driver"
		}
	case x < 0.88 && len(all) > 0:
		a := pick(g, all)
		dom, id = strconv.Quote(a.domain), a.id
	default:
		var doms []string
		for _, a := range all {
			doms = append(doms, a.domain)
		}
		dom = g.domainLit(doms)
		id = pick(g, append(missingIDs, attrIDs...))
	}
	unq, _ := strconv.Unquote(dom)
	switch y := g.intn(20); {
	case y < 2:
		return "device.attributes[" + dom + "][" + strconv.Quote(id) + "]"
	case y < 3 && isIdent(unq):
		return "device.attributes." + unq + "." + id
	}
	return "device.attributes[" + dom + "]." + id
}

func (g *gen) capRef() string {
	var dom, id string
	if len(g.dev.caps) > 0 && g.chance(0.8) {
		c := pick(g, g.dev.caps)
		dom, id = strconv.Quote(c.domain), c.id
		if c.domain == g.dev.json.Driver && g.chance(0.3) {
			dom = "device.driver"
		}
	} else {
		var doms []string
		for _, c := range g.dev.caps {
			doms = append(doms, c.domain)
		}
		dom = g.domainLit(doms)
		id = pick(g, append([]string{"missing"}, capIDs...))
	}
	if g.chance(0.1) {
		return "device.capacity[" + dom + "][" + strconv.Quote(id) + "]"
	}
	return "device.capacity[" + dom + "]." + id
}

func (g *gen) attrDomainExpr() string {
	var doms []string
	for _, a := range g.dev.attrs {
		doms = append(doms, a.domain)
	}
	return g.domainLit(doms)
}

// ---------------------------------------------------------------------------
// The type-directed expression generator.

func (g *gen) expr(t *typ, d int) string {
	if g.illTyped && !g.injected && d > 0 && g.chance(0.25) {
		g.injected = true
		u := g.randType(1)
		for u.equal(t) {
			u = g.randType(1)
		}
		t = u
	}
	deep := d >= g.maxDepth
	if deep {
		return g.leaf(t, d)
	}
	return g.oneOf(
		prod{12, func() string { return g.compound(t, d) }},
		prod{g.bw(d > 0, 3), func() string { return g.leaf(t, d) }},
		prod{2, func() string { return g.generic(t, d) }},
	)
}

// generic productions valid for any type.
func (g *gen) generic(t *typ, d int) string {
	return g.oneOf(
		prod{4, func() string { return g.paren(g.sub(tBool, d) + " ? " + g.sub(t, d) + " : " + g.sub(t, d)) }},
		prod{2, func() string {
			g.noDyn++
			elems := g.sub(t, d) + ", " + g.leaf(t, d+1)
			g.noDyn--
			return "[" + elems + "][" + g.oneOf(prod{4, lit("0")}, prod{2, lit("1")}, prod{g.ew(1), lit("2")}, prod{g.ew(1), lit("-1")}, prod{g.bw(g.errMode, 2), func() string { return g.sub(tInt, d) }}) + "]"
		}},
		prod{2, func() string {
			k := pick(g, mapKeyTypes)
			kl := g.leaf(k, d+1)
			key := kl
			if g.errMode && g.chance(0.5) {
				key = g.leaf(k, d+1)
			}
			return "{" + kl + ": " + g.sub(t, d) + "}[" + key + "]"
		}},
		prod{2, func() string { return "optional.of(" + g.sub(t, d) + ").orValue(" + g.leaf(t, d+1) + ")" }},
		prod{1, func() string { return "optional.none().orValue(" + g.sub(t, d) + ")" }},
		prod{1, func() string { return recv(g.sub(optOf(t), d)) + ".value()" }},
		prod{2, func() string {
			u := g.randType(1)
			v := g.fresh()
			init := g.sub(u, d)
			body := g.with([]scopeVar{{v, u}}, func() string { return g.sub(t, d) })
			return "cel.bind(" + v + ", " + init + ", " + body + ")"
		}},
		prod{g.bw(g.noDyn == 0, 1), func() string { return "dyn(" + g.sub(t, d) + ")" }},
		prod{1, func() string {
			return recv(g.sub(listOf(t), d)) + pick(g, []string{".first()", ".last()"}) + ".orValue(" + g.leaf(t, d+1) + ")"
		}},
	)
}

// leaf returns a depth-1 expression of type t: a literal, a variable in
// scope or a device reference.
func (g *gen) leaf(t *typ, d int) string {
	if v := g.varOf(t); v != "" && g.chance(0.5) {
		return v
	}
	// dyn-typed variables fit everywhere (runtime dispatch decides).
	if g.noDyn == 0 && g.chance(0.05) {
		if v := g.varOf(tDyn); v != "" {
			return v
		}
	}
	switch t.k {
	case kBool:
		return g.oneOf(prod{6, lit("true")}, prod{6, lit("false")},
			prod{g.dw(2), lit("device.allowMultipleAllocations")},
			prod{g.dw(3), func() string { return g.attrRef(kBool) }})
	case kInt:
		return g.oneOf(prod{10, func() string { return pick(g, intLits) }}, prod{g.ew(1), func() string { return pick(g, edgeIntLits) }},
			prod{g.dw(3), func() string { return g.attrRef(kInt) }})
	case kUint:
		return g.oneOf(prod{10, func() string { return pick(g, uintLits) }}, prod{g.ew(1), func() string { return pick(g, edgeUintLits) }})
	case kDouble:
		return pick(g, doubleLits)
	case kString:
		return g.oneOf(prod{10, func() string { return pick(g, stringLits) }},
			prod{g.dw(2), lit("device.driver")},
			prod{g.dw(3), func() string { return g.attrRef(kString) }})
	case kBytes:
		return pick(g, bytesLits)
	case kNull:
		return "null"
	case kDuration:
		return g.oneOf(prod{10, func() string { return "duration(" + pick(g, durLits) + ")" }},
			prod{g.bw(g.errMode, 1), func() string { return "duration(" + pick(g, badDurLits) + ")" }}, // literal validation: compile error
			prod{g.bw(g.errMode && g.noDyn == 0, 3), func() string { return "duration(" + g.dynStr(pick(g, badDurLits)) + ")" }})
	case kTimestamp:
		return g.oneOf(prod{8, func() string { return "timestamp(" + pick(g, tsLits) + ")" }},
			prod{3, func() string { return "timestamp(" + pick(g, tsIntLits) + ")" }},
			prod{g.bw(g.errMode, 1), func() string { return "timestamp(" + pick(g, badTsLits) + ")" }}, // literal validation: compile error
			prod{g.bw(g.errMode && g.noDyn == 0, 3), func() string { return "timestamp(" + g.dynStr(pick(g, badTsLits)) + ")" }})
	case kQuantity:
		return g.oneOf(prod{24, func() string { return "quantity(" + pick(g, qtyLits) + ")" }},
			prod{g.ew(1), func() string { return "quantity(" + pick(g, badQtyLits) + ")" }},
			prod{g.bw(g.errMode && g.noDyn == 0, 2), func() string { return "quantity(" + g.dynStr(pick(g, badQtyLits)) + ")" }},
			prod{g.dw(4), g.capRef})
	case kSemver:
		return g.oneOf(prod{24, func() string { return "semver(" + pick(g, semverLits) + ")" }},
			prod{2, func() string { return "semver(" + pick(g, normSemver) + ", true)" }},
			prod{g.ew(1), func() string { return "semver(" + pick(g, badSemver) + ")" }},
			prod{g.bw(g.errMode && g.noDyn == 0, 2), func() string { return "semver(" + g.dynStr(pick(g, badSemver)) + ")" }},
			prod{g.dw(3), func() string { return g.attrRef(kSemver) }})
	case kIP:
		return g.oneOf(prod{24, func() string { return "ip(" + pick(g, ipLits) + ")" }},
			prod{g.ew(1), func() string { return "ip(" + pick(g, badIPLits) + ")" }},
			prod{g.bw(g.errMode && g.noDyn == 0, 2), func() string { return "ip(" + g.dynStr(pick(g, badIPLits)) + ")" }})
	case kCIDR:
		return g.oneOf(prod{24, func() string { return "cidr(" + pick(g, cidrLits) + ")" }},
			prod{g.ew(1), func() string { return "cidr(" + pick(g, badCIDRLits) + ")" }},
			prod{g.bw(g.errMode && g.noDyn == 0, 2), func() string { return "cidr(" + g.dynStr(pick(g, badCIDRLits)) + ")" }})
	case kURL:
		return g.oneOf(prod{24, func() string { return "url(" + pick(g, urlLits) + ")" }},
			prod{g.ew(1), func() string { return "url(" + pick(g, badURLLits) + ")" }},
			prod{g.bw(g.errMode && g.noDyn == 0, 2), func() string { return "url(" + g.dynStr(pick(g, badURLLits)) + ")" }})
	case kFormat:
		return "format." + pick(g, formatNames) + "()"
	case kType:
		return g.oneOf(prod{3, func() string {
			return typeIdents[pick(g, []kind{kBool, kInt, kUint, kDouble, kString, kBytes, kNull, kList, kMap, kType, kDuration, kTimestamp})]
		}},
			prod{2, func() string { return "type(" + g.leaf(g.randType(1), d+1) + ")" }})
	case kDyn:
		return g.oneOf(prod{3, func() string { return "dyn(" + g.leaf(g.randType(1), d+1) + ")" }},
			prod{g.dw(4), func() string { return g.attrRef(pick(g, []kind{kBool, kInt, kString, kSemver})) }})
	case kList:
		if g.listAttrs && (t.a.k == kInt || t.a.k == kBool || t.a.k == kString || t.a.k == kSemver) && g.devBias && g.noDyn == 0 && g.chance(0.3) {
			return g.attrRef(kList)
		}
		n := g.intn(4)
		if n == 0 && g.chance(0.5) {
			n = 1
		}
		var es []string
		g.noDyn++
		for range n {
			es = append(es, g.leaf(t.a, d+1))
		}
		g.noDyn--
		return "[" + strings.Join(es, ", ") + "]"
	case kMap:
		if t.a.k == kString && t.b.k == kDyn && g.devBias && g.noDyn == 0 && g.chance(0.6) {
			return "device.attributes[" + g.attrDomainExpr() + "]"
		}
		if t.a.k == kString && t.b.k == kQuantity && g.devBias && g.chance(0.6) {
			var doms []string
			for _, c := range g.dev.caps {
				doms = append(doms, c.domain)
			}
			return "device.capacity[" + g.domainLit(doms) + "]"
		}
		n := g.intn(3)
		var es []string
		seen := map[string]bool{}
		g.noDyn++
		defer func() { g.noDyn-- }()
		for range n {
			k := g.leaf(t.a, d+1)
			if seen[k] && !g.errMode {
				continue
			}
			seen[k] = true
			es = append(es, k+": "+g.leaf(t.b, d+1))
		}
		return "{" + strings.Join(es, ", ") + "}"
	case kOpt:
		return g.oneOf(prod{3, func() string { return "optional.of(" + g.leaf(t.a, d+1) + ")" }},
			prod{2, lit("optional.none()")})
	}
	panic("leaf: " + t.String())
}

// compound returns a non-leaf expression of type t.
func (g *gen) compound(t *typ, d int) string {
	switch t.k {
	case kBool:
		return g.boolExpr(d)
	case kInt:
		return g.intExpr(d)
	case kUint:
		return g.uintExpr(d)
	case kDouble:
		return g.doubleExpr(d)
	case kString:
		return g.stringExpr(d)
	case kBytes:
		return g.oneOf(
			prod{3, func() string { return g.bin(g.sub(tBytes, d), "+", g.sub(tBytes, d)) }},
			prod{3, func() string { return "bytes(" + g.sub(tString, d) + ")" }},
			prod{1, func() string { return "bytes(" + g.sub(tBytes, d) + ")" }},
			prod{2, func() string { return recv(g.sub(listOf(tBytes), d)) + pick(g, []string{".min()", ".max()"}) }},
		)
	case kNull:
		return g.oneOf(prod{1, lit("null")}, prod{1, func() string { return "optional.none().orValue(null)" }})
	case kDuration:
		return g.oneOf(
			prod{3, func() string { return g.bin(g.sub(tDuration, d), pick(g, []string{"+", "-"}), g.sub(tDuration, d)) }},
			prod{2, func() string { return g.bin(g.sub(tTimestamp, d), "-", g.sub(tTimestamp, d)) }},
			prod{2, func() string {
				if g.chance(0.5) {
					return "duration(" + pick(g, durLits) + ")"
				}
				return "duration(" + g.sub(tString, d) + ")"
			}},
			prod{1, func() string { return "duration(" + g.sub(tDuration, d) + ")" }},
			prod{2, func() string {
				return recv(g.sub(listOf(tDuration), d)) + pick(g, []string{".sum()", ".min()", ".max()"})
			}},
		)
	case kTimestamp:
		return g.oneOf(
			prod{3, func() string { return g.bin(g.sub(tTimestamp, d), pick(g, []string{"+", "-"}), g.sub(tDuration, d)) }},
			prod{2, func() string { return g.bin(g.sub(tDuration, d), "+", g.sub(tTimestamp, d)) }},
			prod{2, func() string {
				if g.chance(0.5) {
					return "timestamp(" + pick(g, tsLits) + ")"
				}
				return "timestamp(" + g.sub(tString, d) + ")"
			}},
			prod{2, func() string { return "timestamp(" + g.sub(tInt, d) + ")" }},
			prod{1, func() string { return "timestamp(" + g.sub(tTimestamp, d) + ")" }},
			prod{2, func() string { return recv(g.sub(listOf(tTimestamp), d)) + pick(g, []string{".min()", ".max()"}) }},
		)
	case kQuantity:
		return g.oneOf(
			prod{1, func() string { return "quantity(" + g.sub(tString, d) + ")" }},
			prod{2, func() string { return "quantity(" + pick(g, qtyLits) + ")" }},
			prod{3, func() string {
				return recv(g.sub(tQuantity, d)) + "." + pick(g, []string{"add", "sub"}) + "(" + g.sub(tQuantity, d) + ")"
			}},
			prod{3, func() string {
				return recv(g.sub(tQuantity, d)) + "." + pick(g, []string{"add", "sub"}) + "(" + g.sub(tInt, d) + ")"
			}},
			prod{g.dw(4), g.capRef},
		)
	case kSemver:
		return g.oneOf(
			prod{1, func() string { return "semver(" + g.sub(tString, d) + ")" }},
			prod{1, func() string { return "semver(" + g.sub(tString, d) + ", " + g.sub(tBool, d) + ")" }},
			prod{2, func() string { return "semver(" + pick(g, normSemver) + ", " + g.sub(tBool, d) + ")" }},
			prod{g.dw(3), func() string { return g.attrRef(kSemver) }},
		)
	case kIP:
		return g.oneOf(
			prod{1, func() string { return "ip(" + g.sub(tString, d) + ")" }},
			prod{2, func() string { return "ip(" + pick(g, ipLits) + ")" }},
			prod{2, func() string { return recv(g.sub(tCIDR, d)) + ".ip()" }},
		)
	case kCIDR:
		return g.oneOf(
			prod{1, func() string { return "cidr(" + g.sub(tString, d) + ")" }},
			prod{2, func() string { return "cidr(" + pick(g, cidrLits) + ")" }},
			prod{2, func() string { return recv(g.sub(tCIDR, d)) + ".masked()" }},
		)
	case kURL:
		return g.oneOf(prod{1, func() string { return "url(" + g.sub(tString, d) + ")" }},
			prod{2, func() string { return "url(" + pick(g, urlLits) + ")" }})
	case kFormat:
		return g.oneOf(
			prod{3, func() string { return "format." + pick(g, formatNames) + "()" }},
			prod{2, func() string {
				n := pick(g, formatNames)
				if g.chance(0.2) {
					n = "noSuchFormat"
				}
				return "format.named(" + strconv.Quote(n) + ").value()"
			}},
		)
	case kType:
		return g.oneOf(
			prod{3, func() string { return "type(" + g.sub(g.randType(1), d) + ")" }},
			prod{1, func() string { return "type(type(" + g.sub(g.randType(1), d) + "))" }},
			prod{2, func() string { return g.leaf(tType, d) }},
		)
	case kDyn:
		return g.oneOf(
			prod{3, func() string { return "dyn(" + g.sub(g.randType(1), d) + ")" }},
			prod{g.dw(3), func() string { return g.attrRef(pick(g, []kind{kBool, kInt, kString, kSemver})) }},
			prod{1, func() string {
				return recv(g.sub(listOf(listOf(tInt)), d)) + ".flatten(" + pick(g, []string{"0", "1", "2", "-1"}) + ")[0]"
			}},
		)
	case kList:
		return g.listExpr(t, d)
	case kMap:
		return g.mapExpr(t, d)
	case kOpt:
		return g.optExpr(t, d)
	}
	panic("compound: " + t.String())
}

func (g *gen) boolExpr(d int) string {
	return g.oneOf(
		prod{10, func() string { // equality on any type
			u := g.randType(0)
			return g.bin(g.sub(u, d), pick(g, []string{"==", "!="}), g.sub(u, d))
		}},
		prod{10, func() string { // ordering
			if g.chance(0.45) { // cross-type numeric
				ns := []*typ{tInt, tUint, tDouble}
				return g.bin(g.sub(pick(g, ns), d), pick(g, []string{"<", "<=", ">", ">="}), g.sub(pick(g, ns), d))
			}
			u := pick(g, sortableTypes)
			return g.bin(g.sub(u, d), pick(g, []string{"<", "<=", ">", ">="}), g.sub(u, d))
		}},
		prod{8, func() string { return g.bin(g.sub(tBool, d), pick(g, []string{"&&", "||"}), g.sub(tBool, d)) }},
		prod{6, func() string { // integer-valued function compared with a literal
			return g.bin(g.intExpr(d), pick(g, []string{"==", "!=", "<", "<=", ">", ">="}), pick(g, intLits))
		}},
		prod{3, func() string { return "!" + recv(g.sub(tBool, d)) }},
		prod{4, func() string { // in list / map
			u := g.randType(1)
			if g.chance(0.5) {
				return g.bin(g.sub(u, d), "in", g.sub(listOf(u), d))
			}
			k := pick(g, mapKeyTypes)
			return g.bin(g.sub(k, d), "in", g.sub(mapOf(k, g.randType(1)), d))
		}},
		prod{g.dw(4), func() string { // device membership
			if g.chance(0.5) {
				return g.paren(strconv.Quote(pick(g, append(missingIDs, attrIDs...))) + " in device.attributes[" + g.attrDomainExpr() + "]")
			}
			return g.paren(g.attrDomainExpr() + " in device." + pick(g, []string{"attributes", "capacity"}))
		}},
		prod{g.dw(5), func() string { // has()
			switch g.intn(5) {
			case 0:
				r := g.capRef()
				if strings.HasSuffix(r, "]") { // index form is not allowed in has()
					return "has(device.capacity[" + g.attrDomainExpr() + "]." + pick(g, capIDs) + ")"
				}
				return "has(" + r + ")"
			case 1:
				return "has(device." + pick(g, []string{"driver", "allowMultipleAllocations", "attributes", "capacity"}) + ")"
			}
			r := g.attrRef(kBool)
			if strings.HasSuffix(r, "]") { // index form is not allowed in has()
				return "has(device.attributes[" + g.attrDomainExpr() + "]." + pick(g, attrIDs) + ")"
			}
			return "has(" + r + ")"
		}},
		prod{2, func() string { // has() on a map literal / query
			return "has(" + recv(g.sub(mapOf(tString, g.randType(1)), d)) + "." + pick(g, []string{"a", "x", "model", "count"}) + ")"
		}},
		prod{6, func() string { return g.comprehensionBool(d) }},
		prod{5, func() string { // string predicates
			s := recv(g.sub(tString, d))
			switch g.intn(5) {
			case 0:
				return s + ".startsWith(" + g.sub(tString, d) + ")"
			case 1:
				return s + ".endsWith(" + g.sub(tString, d) + ")"
			case 2:
				return s + ".contains(" + g.sub(tString, d) + ")"
			case 3:
				return s + ".matches(" + g.regex(d) + ")"
			}
			return "matches(" + g.sub(tString, d) + ", " + g.regex(d) + ")"
		}},
		prod{2, func() string { return recv(g.sub(listOf(pick(g, sortableTypes)), d)) + ".isSorted()" }},
		prod{3, func() string {
			u := g.randType(1)
			return "sets." + pick(g, []string{"contains", "equivalent", "intersects"}) + "(" + g.sub(listOf(u), d) + ", " + g.sub(listOf(u), d) + ")"
		}},
		prod{2, func() string {
			u := g.randType(1)
			return recv(g.sub(listOf(u), d)) + ".includes(" + g.sub(u, d) + ")"
		}},
		prod{4, func() string { // is* string validators
			f := pick(g, []string{"isQuantity", "isSemver", "isIP", "isCIDR", "isURL", "ip.isCanonical"})
			arg := g.sub(tString, d)
			if g.chance(0.6) {
				switch f {
				case "isQuantity":
					arg = pick(g, append(qtyLits, badQtyLits...))
				case "isSemver":
					arg = pick(g, append(semverLits, badSemver...))
				case "isIP", "ip.isCanonical":
					arg = pick(g, append(ipLits, badIPLits...))
				case "isCIDR":
					arg = pick(g, append(cidrLits, badCIDRLits...))
				case "isURL":
					arg = pick(g, append(urlLits, badURLLits...))
				}
			}
			if f == "isSemver" && g.chance(0.4) {
				return f + "(" + arg + ", " + g.sub(tBool, d) + ")"
			}
			return f + "(" + arg + ")"
		}},
		prod{3, func() string {
			return recv(g.sub(tIP, d)) + "." + pick(g, []string{"isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast"}) + "()"
		}},
		prod{3, func() string {
			c := recv(g.sub(tCIDR, d))
			switch g.intn(4) {
			case 0:
				return c + ".containsIP(" + g.sub(tIP, d) + ")"
			case 1:
				return c + ".containsIP(" + g.oneOf(prod{3, func() string { return pick(g, append(ipLits, badIPLits...)) }}, prod{1, func() string { return g.sub(tString, d) }}) + ")"
			case 2:
				return c + ".containsCIDR(" + g.sub(tCIDR, d) + ")"
			}
			return c + ".containsCIDR(" + g.oneOf(prod{3, func() string { return pick(g, append(cidrLits, badCIDRLits...)) }}, prod{1, func() string { return g.sub(tString, d) }}) + ")"
		}},
		prod{4, func() string {
			if g.chance(0.3) {
				return recv(g.sub(tQuantity, d)) + ".isInteger()"
			}
			return recv(g.sub(tQuantity, d)) + "." + pick(g, []string{"isGreaterThan", "isLessThan"}) + "(" + g.sub(tQuantity, d) + ")"
		}},
		prod{3, func() string {
			return recv(g.sub(tSemver, d)) + "." + pick(g, []string{"isGreaterThan", "isLessThan"}) + "(" + g.sub(tSemver, d) + ")"
		}},
		prod{2, func() string { return recv(g.sub(optOf(g.randType(1)), d)) + ".hasValue()" }},
		prod{1, func() string { return g.authz(d, "bool") }},
		prod{2, func() string {
			if g.chance(0.5) {
				return "bool(" + g.oneOf(prod{3, func() string {
					return pick(g, []string{`"true"`, `"false"`, `"1"`, `"0"`, `"t"`, `"F"`, `"TRUE"`, `"True"`, `"yes"`, `""`})
				}}, prod{1, func() string { return g.sub(tString, d) }}) + ")"
			}
			return "bool(" + g.sub(tBool, d) + ")"
		}},
		prod{1, func() string { return recv(g.sub(listOf(tBool), d)) + pick(g, []string{".min()", ".max()"}) }},
		prod{2, func() string { // type tests
			u := g.randType(1)
			return g.bin("type("+g.sub(u, d)+")", pick(g, []string{"==", "!="}), g.sub(tType, d))
		}},
		prod{2, func() string { // null comparisons
			switch g.intn(3) {
			case 0:
				return g.bin("dyn("+g.sub(g.randType(1), d)+")", pick(g, []string{"==", "!="}), "null")
			case 1:
				return g.bin("null", "==", "null")
			}
			return g.bin(g.sub(optOf(g.randType(1)), d), pick(g, []string{"==", "!="}), g.sub(optOf(g.randType(1)), d))
		}},
		prod{3, func() string { // format validation
			return recv(g.sub(tFormat, d)) + ".validate(" + g.sub(tString, d) + ")" + pick(g, []string{".hasValue()", ".orValue([]).size() == 0"})
		}},
		prod{g.bw(g.errMode, 1), func() string { // cost blow-up (1000: just over the limit of 1e6)
			n := pick(g, []string{"10", "100", "1000", "2000"})
			return "lists.range(" + n + ").all(x, lists.range(" + n + ").exists(y, x == y))"
		}},
		prod{g.dw(map[bool]int{true: 1, false: 3}[d == 0]), func() string { return g.attrRef(kBool) }},
		prod{g.dw(2), func() string { // common selector idioms
			return g.oneOf(
				prod{1, func() string { return "device.driver == " + strconv.Quote(pick(g, driverPool)) }},
				prod{1, func() string {
					return "device.attributes[" + g.attrDomainExpr() + "].?" + pick(g, attrIDs) + ".orValue(" + g.leaf(pick(g, []*typ{tInt, tString, tBool}), d+1) + ") == " + g.leaf(pick(g, []*typ{tInt, tString, tBool}), d+1)
				}},
				prod{1, func() string {
					return g.capRef() + ".compareTo(quantity(" + pick(g, qtyLits) + ")) " + pick(g, []string{">=", "<", "=="}) + " 0"
				}},
				prod{1, func() string {
					return "device.attributes[" + g.attrDomainExpr() + "].exists(k, v, k.startsWith(" + g.leaf(tString, d+1) + "))"
				}},
				prod{1, func() string {
					return "device.capacity.exists(dom, device.capacity[dom].exists(c, device.capacity[dom][c].isGreaterThan(quantity(" + pick(g, qtyLits) + "))))"
				}},
			)
		}},
	)
}

// dynStr returns a string expression that contains bad but is not a
// compile-time constant (so that conversion errors surface at evaluation,
// not at program instantiation through constant folding).
func (g *gen) dynStr(bad string) string {
	switch g.intn(4) {
	case 0:
		if v := g.varOf(tString); v != "" {
			return "(" + v + " + " + bad + ")"
		}
		return "(" + bad + " + device.driver.substring(0, 0))"
	case 1:
		return "(device.driver.substring(0, 0) + " + bad + ")"
	case 2:
		return "(" + bad + " + device.attributes[device.driver].?model.orValue(\"\").substring(0, 0))"
	}
	return "[" + bad + ", device.driver][0]"
}

// regex returns a pattern argument: mostly literals, sometimes computed.
func (g *gen) regex(d int) string {
	return g.oneOf(prod{8, func() string { return pick(g, regexLits) }},
		// Constant bad patterns fail at compile time: literal validation for
		// matches(), program instantiation (regex precompilation) for find().
		prod{g.bw(g.errMode, 1), func() string { return pick(g, badRegexLits) }},
		prod{g.bw(g.errMode && g.noDyn == 0, 3), func() string { return g.dynStr(pick(g, badRegexLits)) }},
		prod{1, func() string { return g.sub(tString, d) }})
}

func (g *gen) comprehensionBool(d int) string {
	x := g.intn(10)
	// Two-variable forms.
	if x < 4 {
		var rng string
		var vs []scopeVar
		i, v := g.fresh(), ""
		for v = g.fresh(); v == i; v = g.fresh() {
		}
		if g.chance(0.5) {
			e := g.randType(1)
			rng = recv(g.sub(listOf(e), d))
			vs = []scopeVar{{i, tInt}, {v, e}}
		} else {
			k, val := pick(g, mapKeyTypes), g.randType(1)
			rng = recv(g.sub(mapOf(k, val), d))
			vs = []scopeVar{{i, k}, {v, val}}
			if g.devBias && g.chance(0.5) {
				rng = "device.attributes[" + g.attrDomainExpr() + "]"
				vs = []scopeVar{{i, tString}, {v, tDyn}}
			}
		}
		m := pick(g, []string{"all", "exists", "existsOne", "exists_one"})
		body := g.with(vs, func() string { return g.sub(tBool, d) })
		return rng + "." + m + "(" + i + ", " + v + ", " + body + ")"
	}
	var rng string
	var vt *typ
	n := g.fresh()
	switch {
	case x < 8:
		vt = g.randType(1)
		rng = recv(g.sub(listOf(vt), d))
	case x < 9 && g.devBias:
		if g.chance(0.5) {
			rng, vt = "device.attributes", tString
		} else {
			rng, vt = "device.attributes["+g.attrDomainExpr()+"]", tString
		}
	default:
		vt = pick(g, mapKeyTypes)
		rng = recv(g.sub(mapOf(vt, g.randType(1)), d))
	}
	m := pick(g, []string{"all", "exists", "exists_one", "all", "exists"})
	body := g.with([]scopeVar{{n, vt}}, func() string { return g.sub(tBool, d) })
	return rng + "." + m + "(" + n + ", " + body + ")"
}

func (g *gen) authz(d int, want string) string {
	base := "dyn(" + g.leaf(pick(g, []*typ{tString, tInt, tDyn}), d+1) + ")"
	if g.chance(0.3) {
		base += ".serviceAccount(" + strconv.Quote("ns") + ", " + strconv.Quote("sa") + ")"
	}
	var chk string
	if g.chance(0.3) {
		chk = base + ".path(" + strconv.Quote("/healthz") + ").check(\"get\")"
	} else {
		r := base + ".group(" + strconv.Quote(pick(g, []string{"", "apps", "resource.k8s.io"})) + ").resource(\"deployments\")"
		for _, m := range []string{"namespace", "name", "subresource", "fieldSelector", "labelSelector"} {
			if g.chance(0.4) {
				r += "." + m + "(" + strconv.Quote(pick(g, []string{"a", "x=y", "status"})) + ")"
			}
		}
		chk = r + ".check(\"list\")"
	}
	if want == "string" {
		return chk + "." + pick(g, []string{"reason", "error"}) + "()"
	}
	return chk + "." + pick(g, []string{"allowed", "errored"}) + "()"
}

func (g *gen) intExpr(d int) string {
	return g.oneOf(
		prod{8, func() string { return g.bin(g.sub(tInt, d), pick(g, []string{"+", "-", "*"}), g.sub(tInt, d)) }},
		prod{3, func() string {
			rhs := g.sub(tInt, d)
			if g.errMode && g.chance(0.5) {
				rhs = "0"
			}
			return g.bin(g.sub(tInt, d), pick(g, []string{"/", "%"}), rhs)
		}},
		prod{2, func() string { return "-" + recv(g.sub(tInt, d)) }},
		prod{g.ew(1), func() string {
			return g.bin(pick(g, []string{"9223372036854775807", "-9223372036854775808"}), pick(g, []string{"+", "-", "*"}), g.sub(tInt, d))
		}},
		prod{g.ew(1), func() string { return "-9223372036854775808 / -1" }},
		prod{5, func() string { // size
			u := pick(g, []*typ{tString, tBytes, listOf(g.randType(1)), mapOf(pick(g, mapKeyTypes), g.randType(1))})
			if g.chance(0.5) {
				return "size(" + g.sub(u, d) + ")"
			}
			return recv(g.sub(u, d)) + ".size()"
		}},
		prod{4, func() string { // conversions
			u := pick(g, []*typ{tInt, tDouble, tDuration, tString, tTimestamp, tUint})
			if u.k == kString && g.chance(0.5) {
				return "int(" + pick(g, []string{`"42"`, `"-7"`, `"0x10"`, `"1e3"`, `"9223372036854775808"`, `" 1"`, `"abc"`, `"+5"`}) + ")"
			}
			if u.k == kDouble && g.chance(0.5) {
				return "int(" + pick(g, []string{"1.9", "-1.9", "1e19", "-9.3e18", "9223372036854775807.0", "double(\"NaN\")"}) + ")"
			}
			return "int(" + g.sub(u, d) + ")"
		}},
		prod{3, func() string {
			s := recv(g.sub(tString, d))
			f := pick(g, []string{"indexOf", "lastIndexOf"})
			if g.chance(0.4) {
				return s + "." + f + "(" + g.sub(tString, d) + ", " + g.sub(tInt, d) + ")"
			}
			return s + "." + f + "(" + g.sub(tString, d) + ")"
		}},
		prod{2, func() string {
			u := g.randType(1)
			return recv(g.sub(listOf(u), d)) + "." + pick(g, []string{"indexOf", "lastIndexOf"}) + "(" + g.sub(u, d) + ")"
		}},
		prod{7, func() string { // timestamp getters
			f := pick(g, []string{"getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear", "getFullYear", "getHours", "getMilliseconds", "getMinutes", "getMonth", "getSeconds"})
			ts := recv(g.sub(tTimestamp, d))
			if g.chance(0.5) {
				tz := pick(g, tzLits)
				if g.errMode && g.chance(0.5) {
					tz = pick(g, badTzLits)
				} else if g.chance(0.1) {
					tz = g.sub(tString, d)
				}
				return ts + "." + f + "(" + tz + ")"
			}
			return ts + "." + f + "()"
		}},
		prod{2, func() string {
			return recv(g.sub(tDuration, d)) + "." + pick(g, []string{"getHours", "getMinutes", "getSeconds", "getMilliseconds"}) + "()"
		}},
		prod{4, func() string {
			switch g.intn(4) {
			case 0:
				return recv(g.sub(tQuantity, d)) + ".compareTo(" + g.sub(tQuantity, d) + ")"
			case 1:
				if g.chance(0.2) {
					return recv(g.sub(tQuantity, d)) + ".sign()" // declared as a global function
				}
				return "sign(" + g.sub(tQuantity, d) + ")"
			}
			return recv(g.sub(tQuantity, d)) + ".asInteger()"
		}},
		prod{5, func() string {
			s := recv(g.sub(tSemver, d))
			if g.chance(0.3) {
				return s + ".compareTo(" + g.sub(tSemver, d) + ")"
			}
			return s + "." + pick(g, []string{"major", "minor", "patch"}) + "()"
		}},
		prod{2, func() string { return recv(g.sub(tIP, d)) + ".family()" }},
		prod{2, func() string { return recv(g.sub(tCIDR, d)) + ".prefixLength()" }},
		prod{1, func() string {
			return "size(" + recv(g.sub(listOf(listOf(g.randType(1))), d)) + ".flatten(" + pick(g, []string{"0", "1", "2", "-1"}) + "))"
		}},
		prod{3, func() string { return recv(g.sub(listOf(tInt), d)) + pick(g, []string{".sum()", ".min()", ".max()"}) }},
		prod{g.dw(4), func() string { return g.attrRef(kInt) }},
	)
}

func (g *gen) uintExpr(d int) string {
	return g.oneOf(
		prod{6, func() string { return g.bin(g.sub(tUint, d), pick(g, []string{"+", "-", "*"}), g.sub(tUint, d)) }},
		prod{3, func() string {
			rhs := g.sub(tUint, d)
			if g.errMode && g.chance(0.5) {
				rhs = "0u"
			}
			return g.bin(g.sub(tUint, d), pick(g, []string{"/", "%"}), rhs)
		}},
		prod{g.ew(1), func() string { return g.bin("0u", "-", g.sub(tUint, d)) }},
		prod{4, func() string {
			u := pick(g, []*typ{tUint, tDouble, tInt, tString})
			if u.k == kString && g.chance(0.5) {
				return "uint(" + pick(g, []string{`"42"`, `"-1"`, `"18446744073709551616"`, `"0x10"`, `"abc"`, `"7u"`}) + ")"
			}
			if u.k == kDouble && g.chance(0.5) {
				return "uint(" + pick(g, []string{"1.9", "-1.0", "1.8446744073709552e19", "double(\"inf\")", "0.5"}) + ")"
			}
			return "uint(" + g.sub(u, d) + ")"
		}},
		prod{2, func() string { return recv(g.sub(listOf(tUint), d)) + pick(g, []string{".sum()", ".min()", ".max()"}) }},
	)
}

func (g *gen) doubleExpr(d int) string {
	return g.oneOf(
		prod{8, func() string {
			return g.bin(g.sub(tDouble, d), pick(g, []string{"+", "-", "*", "/"}), g.sub(tDouble, d))
		}},
		prod{2, func() string { return "-" + recv(g.sub(tDouble, d)) }},
		prod{4, func() string {
			u := pick(g, []*typ{tDouble, tInt, tString, tUint})
			if u.k == kString && g.chance(0.6) {
				return "double(" + pick(g, []string{`"1.5"`, `"NaN"`, `"inf"`, `"-Infinity"`, `"1e400"`, `"abc"`, `"0x1p-2"`, `" 1"`, `"1_000"`, `"-0"`}) + ")"
			}
			return "double(" + g.sub(u, d) + ")"
		}},
		prod{2, func() string { return recv(g.sub(tQuantity, d)) + ".asApproximateFloat()" }},
		prod{2, func() string {
			return recv(g.sub(listOf(tDouble), d)) + pick(g, []string{".sum()", ".min()", ".max()"})
		}},
	)
}

func (g *gen) stringExpr(d int) string {
	return g.oneOf(
		prod{6, func() string { return g.bin(g.sub(tString, d), "+", g.sub(tString, d)) }},
		prod{5, func() string { // string(x) for every overload
			u := pick(g, []*typ{tString, tBool, tBytes, tDouble, tDuration, tInt, tTimestamp, tUint, tIP, tCIDR})
			return "string(" + g.sub(u, d) + ")"
		}},
		prod{2, func() string { return "string(" + pick(g, []string{`b"\xff"`, `b"abc"`, `b"\xc3\xa9"`}) + ")" }},
		prod{3, func() string {
			return recv(g.sub(tString, d)) + ".charAt(" + g.oneOf(prod{3, func() string { return pick(g, []string{"0", "1", "3", "5"}) }}, prod{1, func() string { return g.sub(tInt, d) }}) + ")"
		}},
		prod{3, func() string {
			s := recv(g.sub(tString, d))
			a := pick(g, []string{"0", "1", "2", "4", "-1"})
			if g.chance(0.5) {
				return s + ".substring(" + a + ")"
			}
			return s + ".substring(" + a + ", " + pick(g, []string{"0", "1", "3", "5", "100"}) + ")"
		}},
		prod{3, func() string {
			s := recv(g.sub(tString, d)) + ".replace(" + g.sub(tString, d) + ", " + g.sub(tString, d)
			if g.chance(0.4) {
				s += ", " + pick(g, []string{"0", "1", "-1", "2"})
			}
			return s + ")"
		}},
		prod{3, func() string {
			return recv(g.sub(tString, d)) + "." + pick(g, []string{"lowerAscii", "upperAscii", "trim"}) + "()"
		}},
		prod{3, func() string {
			l := recv(g.sub(listOf(tString), d))
			if g.chance(0.5) {
				return l + ".join()"
			}
			return l + ".join(" + g.sub(tString, d) + ")"
		}},
		prod{3, func() string { return g.formatCall(d) }},
		prod{1, func() string { return "strings.quote(" + g.sub(tString, d) + ")" }},
		prod{2, func() string { return recv(g.sub(tString, d)) + ".find(" + g.regex(d) + ")" }},
		prod{3, func() string {
			return recv(g.sub(tURL, d)) + "." + pick(g, []string{"getScheme", "getHost", "getHostname", "getPort", "getEscapedPath"}) + "()"
		}},
		prod{2, func() string { return recv(g.sub(listOf(tString), d)) + pick(g, []string{".min()", ".max()"}) }},
		prod{1, func() string { return g.authz(d, "string") }},
		prod{g.dw(3), func() string { return g.attrRef(kString) }},
		prod{g.dw(2), lit("device.driver")},
	)
}

// formatCall builds "<format>".format([args]).
func (g *gen) formatCall(d int) string {
	type clause struct {
		verb string
		ts   []*typ
	}
	clauses := []clause{
		{"%s", []*typ{tString, tInt, tBool, tDouble, tBytes, tUint, listOf(tInt), mapOf(tString, tInt), tDuration, tTimestamp, tNull}},
		{"%d", []*typ{tInt, tUint}},
		{"%f", []*typ{tDouble}},
		{"%.2f", []*typ{tDouble}},
		{"%.0f", []*typ{tDouble}},
		{"%e", []*typ{tDouble}},
		{"%.3e", []*typ{tDouble}},
		{"%b", []*typ{tInt, tUint, tBool}},
		{"%o", []*typ{tInt, tUint}},
		{"%x", []*typ{tInt, tUint, tString, tBytes}},
		{"%X", []*typ{tInt, tUint, tString, tBytes}},
		{"%%", nil},
	}
	if g.errMode || g.chance(0.05) {
		// Mismatched or unsupported clauses (validated at compile time when
		// the format string and argument types are known).
		clauses = append(clauses, clause{"%3d", []*typ{tInt}}, clause{"%q", []*typ{tString}},
			clause{"%d", []*typ{tDouble, tString}}, clause{"%f", []*typ{tInt, tString}}, clause{"%x", []*typ{tDouble}})
	}
	n := g.intn(3)
	var fs []string
	var args []string
	for range n {
		c := pick(g, clauses)
		fs = append(fs, c.verb)
		if c.ts != nil {
			args = append(args, g.sub(pick(g, c.ts), d))
		}
	}
	if g.errMode && g.chance(0.5) && len(args) > 0 {
		args = args[1:] // too few arguments
	}
	f := strings.Join(fs, pick(g, []string{" ", "-", ", "}))
	return recv(strconv.Quote(f)) + ".format([" + strings.Join(args, ", ") + "])"
}

func (g *gen) listExpr(t *typ, d int) string {
	e := t.a
	ps := []prod{
		{4, func() string { return g.bin(g.sub(t, d), "+", g.sub(t, d)) }},
		{3, func() string {
			return recv(g.sub(t, d)) + ".slice(" + pick(g, []string{"0", "1", "2"}) + ", " + pick(g, []string{"0", "1", "2", "3"}) + ")"
		}},
		{2, func() string { return recv(g.sub(t, d)) + "." + pick(g, []string{"reverse", "distinct"}) + "()" }},
		{4, func() string { // map macro from list<u>
			u := g.randType(1)
			v := g.fresh()
			src := recv(g.sub(listOf(u), d))
			if g.chance(0.3) {
				return src + ".map(" + v + ", " + g.with([]scopeVar{{v, u}}, func() string { return g.sub(tBool, d) + ", " + g.sub(e, d) }) + ")"
			}
			return src + ".map(" + v + ", " + g.with([]scopeVar{{v, u}}, func() string { return g.sub(e, d) }) + ")"
		}},
		{2, func() string { // map macro over map keys
			k := pick(g, mapKeyTypes)
			v := g.fresh()
			return recv(g.sub(mapOf(k, g.randType(1)), d)) + ".map(" + v + ", " + g.with([]scopeVar{{v, k}}, func() string { return g.sub(e, d) }) + ")"
		}},
		{3, func() string {
			v := g.fresh()
			return recv(g.sub(t, d)) + ".filter(" + v + ", " + g.with([]scopeVar{{v, e}}, func() string { return g.sub(tBool, d) }) + ")"
		}},
		{3, func() string { // transformList
			i, v := g.fresh(), ""
			for v = g.fresh(); v == i; v = g.fresh() {
			}
			var src string
			var vs []scopeVar
			if g.chance(0.6) {
				u := g.randType(1)
				src = recv(g.sub(listOf(u), d))
				vs = []scopeVar{{i, tInt}, {v, u}}
			} else {
				k, u := pick(g, mapKeyTypes), g.randType(1)
				src = recv(g.sub(mapOf(k, u), d))
				vs = []scopeVar{{i, k}, {v, u}}
			}
			body := g.with(vs, func() string {
				if g.chance(0.4) {
					return g.sub(tBool, d) + ", " + g.sub(e, d)
				}
				return g.sub(e, d)
			})
			return src + ".transformList(" + i + ", " + v + ", " + body + ")"
		}},
		{2, func() string { return "optional.unwrap(" + g.sub(listOf(optOf(e)), d) + ")" }},
		{2, func() string { return recv(g.sub(listOf(optOf(e)), d)) + ".unwrapOpt()" }},
		{2, func() string { return recv(g.sub(listOf(t), d)) + ".flatten()" }},
	}
	if containsSortable(e) {
		ps = append(ps, prod{3, func() string { return recv(g.sub(t, d)) + ".sort()" }})
	}
	ps = append(ps, prod{3, func() string { // sortBy with a key of every sortable type
		v := g.fresh()
		kt := pick(g, sortableTypes)
		return recv(g.sub(t, d)) + ".sortBy(" + v + ", " + g.with([]scopeVar{{v, e}}, func() string { return g.sub(kt, d) }) + ")"
	}})
	switch e.k {
	case kInt:
		ps = append(ps, prod{3, func() string {
			n := pick(g, []string{"0", "1", "3", "5", "-1"})
			if g.chance(0.2) {
				n = g.sub(tInt, d)
			}
			return "lists.range(" + n + ")"
		}})
	case kString:
		ps = append(ps,
			prod{3, func() string {
				s := recv(g.sub(tString, d)) + ".split(" + g.sub(tString, d)
				if g.chance(0.4) {
					s += ", " + pick(g, []string{"0", "1", "2", "-1"})
				}
				return s + ")"
			}},
			prod{3, func() string {
				s := recv(g.sub(tString, d)) + ".findAll(" + g.regex(d)
				if g.chance(0.4) {
					s += ", " + pick(g, []string{"0", "1", "2", "-1"})
				}
				return s + ")"
			}},
			prod{2, func() string {
				return recv(g.sub(tURL, d)) + ".getQuery()[" + pick(g, []string{`"x"`, `"y"`, `"q"`, `"missing"`}) + "]"
			}},
			prod{1, func() string { return recv(g.sub(tFormat, d)) + ".validate(" + g.sub(tString, d) + ").orValue([])" }},
		)
	}
	return g.oneOf(ps...)
}

func containsSortable(t *typ) bool {
	for _, s := range sortableTypes {
		if s.equal(t) {
			return true
		}
	}
	return false
}

func (g *gen) mapExpr(t *typ, d int) string {
	kt, vt := t.a, t.b
	ps := []prod{
		{3, func() string { // transformMap from a list
			i, v := g.fresh(), ""
			for v = g.fresh(); v == i; v = g.fresh() {
			}
			if kt.k == kInt {
				u := g.randType(1)
				return recv(g.sub(listOf(u), d)) + ".transformMap(" + i + ", " + v + ", " + g.with([]scopeVar{{i, tInt}, {v, u}}, func() string {
					if g.chance(0.3) {
						return g.sub(tBool, d) + ", " + g.sub(vt, d)
					}
					return g.sub(vt, d)
				}) + ")"
			}
			u := g.randType(1)
			return recv(g.sub(mapOf(kt, u), d)) + ".transformMap(" + i + ", " + v + ", " + g.with([]scopeVar{{i, kt}, {v, u}}, func() string {
				if g.chance(0.3) {
					return g.sub(tBool, d) + ", " + g.sub(vt, d)
				}
				return g.sub(vt, d)
			}) + ")"
		}},
		{3, func() string { // transformMapEntry
			i, v := g.fresh(), ""
			for v = g.fresh(); v == i; v = g.fresh() {
			}
			var src string
			var vs []scopeVar
			if g.chance(0.5) {
				u := g.randType(1)
				src = recv(g.sub(listOf(u), d))
				vs = []scopeVar{{i, tInt}, {v, u}}
			} else {
				k, u := pick(g, mapKeyTypes), g.randType(1)
				src = recv(g.sub(mapOf(k, u), d))
				vs = []scopeVar{{i, k}, {v, u}}
			}
			body := g.with(vs, func() string {
				entry := "{" + g.sub(kt, d) + ": " + g.sub(vt, d) + "}"
				if g.chance(0.3) {
					return g.sub(tBool, d) + ", " + entry
				}
				return entry
			})
			return src + ".transformMapEntry(" + i + ", " + v + ", " + body + ")"
		}},
	}
	if kt.k == kString && vt.equal(listOf(tString)) {
		ps = append(ps, prod{4, func() string { return recv(g.sub(tURL, d)) + ".getQuery()" }})
	}
	if kt.k == kString && vt.k == kDyn {
		ps = append(ps, prod{g.dw(4), func() string { return "device.attributes[" + g.attrDomainExpr() + "]" }})
	}
	if kt.k == kString && vt.k == kQuantity {
		ps = append(ps, prod{g.dw(4), func() string {
			var doms []string
			for _, c := range g.dev.caps {
				doms = append(doms, c.domain)
			}
			return "device.capacity[" + g.domainLit(doms) + "]"
		}})
	}
	return g.oneOf(ps...)
}

func (g *gen) optExpr(t *typ, d int) string {
	e := t.a
	ps := []prod{
		{3, func() string { return "optional.of(" + g.sub(e, d) + ")" }},
		{2, func() string { return "optional.ofNonZeroValue(" + g.sub(e, d) + ")" }},
		{1, lit("optional.none()")},
		{3, func() string { // map optional index
			k := pick(g, mapKeyTypes)
			return recv(g.sub(mapOf(k, e), d)) + "[?" + g.sub(k, d) + "]"
		}},
		{2, func() string { // list optional index
			return recv(g.sub(listOf(e), d)) + "[?" + g.oneOf(prod{3, func() string { return pick(g, []string{"0", "1", "2", "-1"}) }}, prod{1, func() string { return g.sub(tInt, d) }}) + "]"
		}},
		{2, func() string { // optional field selection on a string-keyed map
			return recv(g.sub(mapOf(tString, e), d)) + ".?" + pick(g, []string{"a", "x", "model", "count", "b"})
		}},
		{2, func() string { // optional list / map receivers
			if g.chance(0.5) {
				return recv(g.sub(optOf(listOf(e)), d)) + pick(g, []string{"[?0]", "[0]", "[?1]", "[1]"})
			}
			k := pick(g, mapKeyTypes)
			return recv(g.sub(optOf(mapOf(k, e)), d)) + "[" + pick(g, []string{"?", ""}) + g.sub(k, d) + "]"
		}},
		{1, func() string { // optional.of(map).?field
			return "optional.of(" + g.sub(mapOf(tString, e), d) + ").?" + pick(g, []string{"a", "x", "model"})
		}},
		{2, func() string { return recv(g.sub(t, d)) + ".or(" + g.sub(t, d) + ")" }},
		{2, func() string {
			u := g.randType(1)
			v := g.fresh()
			return recv(g.sub(optOf(u), d)) + ".optMap(" + v + ", " + g.with([]scopeVar{{v, u}}, func() string { return g.sub(e, d) }) + ")"
		}},
		{2, func() string {
			u := g.randType(1)
			v := g.fresh()
			return recv(g.sub(optOf(u), d)) + ".optFlatMap(" + v + ", " + g.with([]scopeVar{{v, u}}, func() string { return g.sub(t, d) }) + ")"
		}},
		{2, func() string { return recv(g.sub(listOf(e), d)) + "." + pick(g, []string{"first", "last"}) + "()" }},
	}
	if e.k == kDyn {
		ps = append(ps, prod{g.dw(5), func() string {
			return "device.attributes[" + g.attrDomainExpr() + "].?" + pick(g, append(attrIDs, missingIDs...))
		}})
	}
	if e.k == kString {
		ps = append(ps, prod{g.dw(2), lit("device.?driver")})
	}
	if e.k == kFormat {
		ps = append(ps, prod{4, func() string {
			n := pick(g, formatNames)
			if g.chance(0.3) {
				n = pick(g, []string{"noSuchFormat", "DNS1123Label", ""})
			}
			return "format.named(" + strconv.Quote(n) + ")"
		}})
	}
	if e.equal(listOf(tString)) {
		ps = append(ps, prod{4, func() string { return recv(g.sub(tFormat, d)) + ".validate(" + g.sub(tString, d) + ")" }})
	}
	return g.oneOf(ps...)
}

// breakSyntax damages an expression so that it (most likely) fails to parse.
func (g *gen) breakSyntax(s string) string {
	switch g.intn(9) {
	case 0:
		return s + ")"
	case 1:
		return "(" + s
	case 2:
		if len(s) > 2 {
			i := 1 + g.intn(len(s)-1)
			for i < len(s) && (s[i]&0xC0) == 0x80 {
				i++
			}
			return s[:i] + pick(g, []string{" ) ", " , ", " .. ", " ? ", " ] ", " } ", " @ ", " # "}) + s[i:]
		}
		return s + " &&"
	case 3:
		return s + " " + pick(g, []string{"&&", "||", "==", "+", "?", "in"})
	case 4:
		return pick(g, []string{"in(1, [1])", "[1].in(1)", "while", "if (true) true", "let x = 1; x", "1 === 1", "'unterminated", `"bad \q escape"`, "0x", "1.e", "b\"\\xZZ\"", "@in(1, [1])", "true ? false", "!", "device.", "{1: 2", "a.b.c(", "`device`", "1u.2",
			`b"\u00e9" == b""`, `rb"\x" == b""`, "__not_strictly_false__(true)", "_in_(1, [1])", "_+_(1, 2) == 3", "_[_]([true], 0)",
			"_?_:_(true, true, false)", "!_(false)", "-_(1) < 0", "_&&_(true, true)", "@not_strictly_false(true)"})
	case 5:
		return strings.Replace(s, "(", "[", 1)
	case 6:
		return strings.Replace(s, " == ", " = ", 1) + pick(g, []string{"", " = 1"})
	case 7:
		return "device.attributes[\"d\"].`" + pick(g, []string{"a.b", "in", "x/y"}) + "` == 1 && " + s
	}
	return "has(" + s + ")"
}

// ---------------------------------------------------------------------------

// sortedNames returns the keys of m in sorted order.
func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
