package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func evalOne(t *testing.T, expr string, dev string) Output {
	t.Helper()
	o, err := getOracle()
	if err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf(`{"id": 7, "expression": %q, "device": %s}`, expr, dev)
	return o.evalLine([]byte(line), evalOptions{})
}

func valueOne(t *testing.T, expr string, dev string) Output {
	t.Helper()
	o, err := getOracle()
	if err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf(`{"id": 7, "expression": %q, "device": %s}`, expr, dev)
	return o.evalLine([]byte(line), evalOptions{valueMode: true})
}

func TestSchedulerFeatures(t *testing.T) {
	// v1.37.2 defaults: DRAConsumableCapacity beta (on), DRAListTypeAttributes alpha (off).
	f := schedulerCELFeatures()
	if !f.EnableConsumableCapacity || f.EnableListTypeAttributes {
		t.Fatalf("unexpected default features %+v", f)
	}
}

// TestEvalHandWritten pins what upstream actually returns for a handful of
// expressions through GetOrCompile + DeviceMatches.
func TestEvalHandWritten(t *testing.T) {
	const devX = `{"driver": "x"}`
	const devAttrs = `{"driver": "x", "allowMultipleAllocations": true,
		"attributes": {"a": {"int": 3}, "s": {"string": "gpu"}, "v": {"version": "1.2.3"}, "b": {"bool": true}, "y/c": {"int": 1}, "l": {"ints": [1, 2]}},
		"capacity": {"mem": {"value": "2Gi"}}}`
	tests := []struct {
		expr, dev   string
		compileKind string // "" = compile ok
		result      *bool
		evalKind    string
	}{
		{`device.driver == "x"`, devX, "", ptrTo(true), ""},
		{`device.driver == "y"`, devX, "", ptrTo(false), ""},
		// Unknown domains yield an empty map, so this is a missing key, not a missing domain.
		{`device.attributes["d"].missing`, devX, "", nil, "no_such_key"},
		{`device.attributes["x"].missing`, devAttrs, "", nil, "no_such_key"},
		{`device.capacity["x"].missing.isInteger()`, devAttrs, "", nil, "no_such_key"},
		// A dyn (attribute) result is accepted by the output type check and
		// converted to bool by DeviceMatches.
		{`device.attributes["x"].b`, devAttrs, "", ptrTo(true), ""},
		{`device.attributes["x"].a`, devAttrs, "", nil, "result_not_bool"},
		{`device.attributes["x"].a > 2 && device.attributes["y"].c == 1`, devAttrs, "", ptrTo(true), ""},
		{`device.attributes["x"].s > 2`, devAttrs, "", nil, "no_such_overload"},
		{`device.attributes["x"].v.isGreaterThan(semver("1.2.0"))`, devAttrs, "", ptrTo(true), ""},
		{`device.capacity["x"].mem.compareTo(quantity("1Gi")) > 0`, devAttrs, "", ptrTo(true), ""},
		{`device.allowMultipleAllocations`, devAttrs, "", ptrTo(true), ""},
		{`device.allowMultipleAllocations`, devX, "", ptrTo(false), ""},
		{`has(device.attributes["x"].a) && !has(device.attributes["x"].zz)`, devAttrs, "", ptrTo(true), ""},
		{`"s" in device.attributes["x"] && "x" in device.attributes && !("z" in device.capacity)`, devAttrs, "", ptrTo(true), ""},
		{`device.attributes["x"].?zz.orValue(5) == 5`, devAttrs, "", ptrTo(true), ""},
		// List-type attributes are always part of the stored-expression
		// environment (the feature gate only affects NewExpressions).
		{`device.attributes["x"].l.exists(e, e == 2)`, devAttrs, "", ptrTo(true), ""},
		{`cel.bind(d, device.attributes[device.driver], d.a + d.y == 3)`, devAttrs, "", nil, "no_such_key"},
		// Runtime errors.
		{`1 / 0 == 1`, devX, "", nil, "division_by_zero"},
		{`device.attributes["x"].a % 0 == 1`, devAttrs, "", nil, "modulus_by_zero"},
		{`9223372036854775807 + device.attributes["x"].a > 0`, devAttrs, "", nil, "overflow"},
		{`[1, 2][device.attributes["x"].a] == 1`, devAttrs, "", nil, "index_out_of_range"},
		{`device.driver.matches("(" + device.driver)`, devX, "", nil, "bad_regex"},
		{`quantity(device.driver).isInteger()`, devX, "", nil, "invalid_quantity"},
		{`lists.range(2000).all(x, lists.range(2000).exists(y, x == y))`, devX, "", nil, "cost_limit"},
		{`device.attributes["x"].a == 1`, `{"driver": "x", "attributes": {"a": {"version": "1.2"}}}`, "", nil, "invalid_device"},
		// Compile errors.
		{`1 +`, devX, "syntax", nil, ""},
		{`device.driver + 1 == "x"`, devX, "no_matching_overload", nil, ""},
		{`"abc"`, devX, "result_type", nil, ""},
		{`nope == 1`, devX, "undeclared_reference", nil, ""},
		{`device.nope == 1`, devX, "undefined_field", nil, ""},
		{`device.driver.matches("(")`, devX, "literal_validation", nil, ""},
		{`duration("1x") > duration("1s")`, devX, "literal_validation", nil, ""},
		// Constant folding (cel.OptOptimize) evaluates conversions of
		// constants and constant regex patterns while planning the program.
		{`int("abc") == 1`, devX, "instantiation:type_conversion", nil, ""},
		{`"x".find("(") == ""`, devX, "instantiation:bad_regex", nil, ""},
		{`uint(-1) == 1u`, devX, "instantiation:overflow", nil, ""},
		// Deprecated aliases are runtime-only.
		{`__not_strictly_false__(true)`, devX, "undeclared_reference", nil, ""},
		{`_in_(1, [1])`, devX, "undeclared_reference", nil, ""},
		{`in(1, [1])`, devX, "syntax", nil, ""},
		// Quantity.sign is declared as a global function only.
		{`sign(quantity("-1")) == -1`, devX, "", ptrTo(true), ""},
		{`quantity("-1").sign() == -1`, devX, "no_matching_overload", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			out := evalOne(t, tc.expr, tc.dev)
			b, _ := json.Marshal(out)
			if tc.compileKind != "" {
				if out.Compile != "error" || out.CompileErrorKind != tc.compileKind {
					t.Fatalf("want compile error kind %q, got %s", tc.compileKind, b)
				}
				return
			}
			if out.Compile != "ok" {
				t.Fatalf("want compile ok, got %s", b)
			}
			if out.Cost == nil && tc.evalKind != "invalid_device" {
				t.Errorf("no cost reported: %s", b)
			}
			if tc.evalKind != "" {
				if out.EvalErrorKind != tc.evalKind || out.Result != nil {
					t.Fatalf("want eval error kind %q, got %s", tc.evalKind, b)
				}
				return
			}
			if out.EvalError != "" || out.Result == nil || *out.Result != *tc.result {
				t.Fatalf("want result %v, got %s", *tc.result, b)
			}
		})
	}
}

func TestValueCanonical(t *testing.T) {
	const dev = `{"driver": "x", "attributes": {"v": {"version": "1.2.3"}}, "capacity": {"m": {"value": "1536Mi"}}}`
	tests := []struct{ expr, want string }{
		{`1 + 2`, `{"type":"int","value":3}`},
		{`-9223372036854775808`, `{"type":"int","value":-9223372036854775808}`},
		{`18446744073709551615u`, `{"type":"uint","value":18446744073709551615}`},
		{`1.0 / 3.0`, `{"type":"double","value":"0.3333333333333333"}`},
		{`-1.0 / 0.0`, `{"type":"double","value":"-Inf"}`},
		{`1e100`, `{"type":"double","value":"1e+100"}`},
		{`"a" + "é"`, `{"type":"string","value":"aé"}`},
		{`b"\xff\x00a"`, `{"type":"bytes","value":"/wBh"}`},
		{`null`, `{"type":"null"}`},
		{`duration("1h1.5s")`, `{"type":"duration","value":"3601.5s"}`},
		{`timestamp("2023-06-15T12:00:00.5+02:00")`, `{"type":"timestamp","value":"2023-06-15T10:00:00.5Z"}`},
		{`[1, 2]`, `{"type":"list","value":[{"type":"int","value":1},{"type":"int","value":2}]}`},
		{`{"b": true, "a": false}`, `{"type":"map","value":[{"key":{"type":"string","value":"a"},"value":{"type":"bool","value":false}},{"key":{"type":"string","value":"b"},"value":{"type":"bool","value":true}}]}`},
		{`optional.of(1)`, `{"type":"optional","value":{"type":"int","value":1}}`},
		{`optional.none()`, `{"type":"optional"}`},
		{`type(1)`, `{"type":"type","value":"int"}`},
		{`device.capacity["x"].m`, `{"type":"kubernetes.Quantity","value":"1536Mi"}`},
		{`device.attributes["x"].v`, `{"type":"kubernetes.Semver","value":"1.2.3"}`},
		{`ip("::1")`, `{"type":"net.IP","value":"::1"}`},
		{`cidr("10.0.0.1/8").masked()`, `{"type":"net.CIDR","value":"10.0.0.0/8"}`},
		{`url("https://example.com/a?b=c")`, `{"type":"kubernetes.URL","value":"https://example.com/a?b=c"}`},
		{`device.attributes["nope"]`, `{"type":"map","value":[]}`},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			out := valueOne(t, tc.expr, dev)
			if out.Value == nil {
				b, _ := json.Marshal(out)
				t.Fatalf("no value: %s", b)
			}
			got, _ := json.Marshal(out.Value)
			if string(got) != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestRunEvalKeepsOrder(t *testing.T) {
	var in bytes.Buffer
	for i := range 200 {
		fmt.Fprintf(&in, `{"id": %d, "expression": "device.driver.size() == %d", "device": {"driver": "%s"}}`+"\n", i, i%7, strings.Repeat("a", i%7))
	}
	in.WriteString("this is not json\n")
	var out bytes.Buffer
	if err := runEval(&in, &out, evalOptions{workers: 8}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 201 {
		t.Fatalf("got %d lines", len(lines))
	}
	for i, l := range lines[:200] {
		var o Output
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatal(err)
		}
		if o.ID != int64(i) || o.Result == nil || !*o.Result {
			t.Fatalf("line %d: %s", i, l)
		}
	}
	if !strings.Contains(lines[200], "input_error") {
		t.Fatalf("bad input not reported: %s", lines[200])
	}
}

func TestGenDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	if err := runGen(&a, 42, 0, 300); err != nil {
		t.Fatal(err)
	}
	if err := runGen(&b, 42, 0, 300); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatal("gen is not deterministic")
	}
	// Line i does not depend on n or on the start id.
	if err := runGen(&c, 42, 100, 50); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.String(), c.String()) {
		t.Fatal("gen -start 100 -n 50 is not a slice of gen -n 300")
	}
	var d bytes.Buffer
	if err := runGen(&d, 43, 0, 300); err != nil {
		t.Fatal(err)
	}
	if a.String() == d.String() {
		t.Fatal("different seeds give the same output")
	}
	// Every line is valid input for eval.
	for _, l := range strings.Split(strings.TrimSpace(a.String()), "\n") {
		var in Input
		if err := json.Unmarshal([]byte(l), &in); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
	}
}

// TestCoverage asserts that 20,000 expressions of seed 1 exercise every
// callable function, every overload (with a unique static resolution) and
// every macro of the environment.
func TestCoverage(t *testing.T) {
	n := 20000
	if testing.Short() {
		t.Skip("coverage run skipped in -short mode")
	}
	rep, err := runCoverage(1, n, 0)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep.write(&buf, false)
	t.Log("\n" + buf.String())
	if m := rep.missingFunctions(); len(m) > 0 {
		t.Errorf("functions never exercised: %v", m)
	}
	if m := rep.missingOverloads(); len(m) > 0 {
		t.Errorf("overloads never exercised: %v", m)
	}
	if m := rep.missingMacros(); len(m) > 0 {
		t.Errorf("macros never exercised: %v", m)
	}
	// The disabled aliases really are uncallable.
	for name := range rep.Unreachable {
		out := evalOne(t, name+"(true)", `{"driver": "x"}`)
		if out.Compile != "error" {
			t.Errorf("%s(true) compiled", name)
		}
	}
	if rep.CompileError*100/rep.Expressions > 20 {
		t.Errorf("too many compile errors: %d of %d", rep.CompileError, rep.Expressions)
	}
}

func TestClassify(t *testing.T) {
	for msg, want := range map[string]string{
		"no such key: x":   "no_such_key",
		"no such overload": "no_such_overload",
		"division by zero": "division_by_zero",
		"modulus by zero":  "modulus_by_zero",
		"integer overflow": "overflow",
		"operation cancelled: actual cost limit exceeded": "cost_limit",
		"something new": "other",
	} {
		if got := classifyRuntime(msg); got != want {
			t.Errorf("classifyRuntime(%q) = %q, want %q", msg, got, want)
		}
	}
	if got := classifyCompile("compilation failed: ERROR: <input>:1:4: Syntax error: x\n | 1 +"); got != "syntax" {
		t.Errorf("got %q", got)
	}
}

func TestREADMEErrorKinds(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	const begin, end = "<!-- error-kinds:begin -->\n", "<!-- error-kinds:end -->"
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("README.md lacks the error-kinds markers")
	}
	if got := s[i+len(begin) : j]; got != kindsMarkdown() {
		t.Fatal("README.md error-kind tables are stale: replace the text between the markers with the output of `celoracle kinds`")
	}
}
