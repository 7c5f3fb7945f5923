package main

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
)

// Functions whose declaration is disabled (decls.DisableDeclaration) have a
// runtime binding but are invisible to the type checker: no source text can
// call them ("undeclared reference"), so they are excluded from the coverage
// requirement. In cel-go v0.29.2 these are the deprecated aliases
//
//	in                      (in_list, in_map; also a reserved word)
//	_in_                    (in_list, in_map)
//	__not_strictly_false__  (__not_strictly_false__)
//
// The overloads in_list/in_map stay required: they are reached through @in
// (`a in b`). An overload that only a disabled function declares is excluded.
// Operator functions (_+_, !_, _[_], @in, @not_strictly_false, cel.@mapInsert,
// @sortByAssociatedKeys, ...) are declared normally and are reached through
// operators and macro expansions, never by name.
const disabledReason = "declaration disabled in cel-go (runtime-only deprecated alias): calling it is an undeclared reference"

func unreachableFunctions(env *cel.Env) map[string]string {
	out := map[string]string{}
	for name, f := range env.Functions() {
		if f.IsDeclarationDisabled() {
			out[name] = disabledReason
		}
	}
	return out
}

// declaredFunction is one function of the environment.
type declaredFunction struct {
	Name      string             `json:"name"`
	Overloads []declaredOverload `json:"overloads"`
}

type declaredOverload struct {
	ID     string   `json:"id"`
	Member bool     `json:"member"`
	Args   []string `json:"args"`
	Result string   `json:"result"`
}

type declaredMacro struct {
	Key      string `json:"key"` // name:argcount:receiver
	Name     string `json:"name"`
	Args     int    `json:"args"`
	Receiver bool   `json:"receiver"`
}

func declaredFunctions(env *cel.Env) []declaredFunction {
	fns := env.Functions()
	var out []declaredFunction
	for _, name := range sortedNames(fns) {
		df := declaredFunction{Name: name}
		for _, o := range fns[name].OverloadDecls() {
			do := declaredOverload{ID: o.ID(), Member: o.IsMemberFunction(), Result: o.ResultType().String()}
			for _, a := range o.ArgTypes() {
				do.Args = append(do.Args, a.String())
			}
			df.Overloads = append(df.Overloads, do)
		}
		out = append(out, df)
	}
	return out
}

func declaredMacros(env *cel.Env) []declaredMacro {
	var out []declaredMacro
	for _, m := range env.Macros() {
		out = append(out, declaredMacro{Key: m.MacroKey(), Name: m.Function(), Args: m.ArgCount(), Receiver: m.IsReceiverStyle()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// exprUse is what one compiled expression exercises.
type exprUse struct {
	functions map[string]bool // function names called (any resolution)
	overloads map[string]bool // overload ids statically resolved (exactly one candidate)
	ambiguous map[string]bool // function names with >1 candidate overloads somewhere
	macros    map[string]bool // macro keys used
}

// trackingEnv is the scheduler environment plus macro call tracking, which
// only adds bookkeeping to the parser output.
func (o *oracle) trackingEnv() (*cel.Env, error) {
	return o.env.Extend(cel.EnableMacroCallTracking())
}

func analyze(env *cel.Env, expr string) (*exprUse, error) {
	ast, iss := env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		return nil, iss.Err()
	}
	native := ast.NativeRep()
	u := &exprUse{functions: map[string]bool{}, overloads: map[string]bool{}, ambiguous: map[string]bool{}, macros: map[string]bool{}}
	refs := native.ReferenceMap()
	celast.PostOrderVisit(native.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() != celast.CallKind {
			return
		}
		call := e.AsCall()
		u.functions[call.FunctionName()] = true
		if r, ok := refs[e.ID()]; ok {
			if len(r.OverloadIDs) == 1 {
				u.overloads[r.OverloadIDs[0]] = true
			} else if len(r.OverloadIDs) > 1 {
				u.ambiguous[call.FunctionName()] = true
			}
		}
	}))
	for _, m := range native.SourceInfo().MacroCalls() {
		if m.Kind() != celast.CallKind {
			continue
		}
		c := m.AsCall()
		u.macros[fmt.Sprintf("%s:%d:%v", c.FunctionName(), len(c.Args()), c.IsMemberFunction())] = true
	}
	return u, nil
}

// coverageReport is the result of "coverage".
type coverageReport struct {
	Expressions  int
	CompileOK    int
	CompileError int
	EvalError    int
	True, False  int
	DeviceRefs   int

	Functions        []declaredFunction
	Unreachable      map[string]string
	Macros           []declaredMacro
	FunctionHits     map[string]int // expressions (compile ok, evaluated) calling the function
	OverloadHits     map[string]int
	MacroHits        map[string]int
	AmbiguousCalls   map[string]int
	CompileErrorKind map[string]int
	EvalErrorKind    map[string]int
	IntentCompileErr map[string]int // intent -> compile errors
	IntentCount      map[string]int
}

func (r *coverageReport) missingFunctions() []string {
	var out []string
	for _, f := range r.Functions {
		if r.FunctionHits[f.Name] == 0 {
			if _, ok := r.Unreachable[f.Name]; !ok {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

// allOverloadIDs returns the distinct overload ids of callable functions.
func (r *coverageReport) allOverloadIDs() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range r.Functions {
		if _, ok := r.Unreachable[f.Name]; ok {
			continue
		}
		for _, o := range f.Overloads {
			if !seen[o.ID] {
				seen[o.ID] = true
				out = append(out, o.ID)
			}
		}
	}
	sort.Strings(out)
	return out
}

func (r *coverageReport) missingOverloads() []string {
	var out []string
	for _, id := range r.allOverloadIDs() {
		if r.OverloadHits[id] == 0 {
			out = append(out, id)
		}
	}
	return out
}

func (r *coverageReport) missingMacros() []string {
	var out []string
	for _, m := range r.Macros {
		if r.MacroHits[m.Key] == 0 {
			out = append(out, m.Key)
		}
	}
	return out
}

// runCoverage generates n expressions for seed, runs each through the
// scheduler path and records what the compile-ok ones exercise.
func runCoverage(seed uint64, n int, workers int) (*coverageReport, error) {
	o, err := getOracle()
	if err != nil {
		return nil, err
	}
	tenv, err := o.trackingEnv()
	if err != nil {
		return nil, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	listAttrs := o.features.EnableListTypeAttributes
	rep := &coverageReport{
		Functions: declaredFunctions(o.env), Macros: declaredMacros(o.env), Unreachable: unreachableFunctions(o.env),
		FunctionHits: map[string]int{}, OverloadHits: map[string]int{}, MacroHits: map[string]int{},
		AmbiguousCalls: map[string]int{}, CompileErrorKind: map[string]int{}, EvalErrorKind: map[string]int{},
		IntentCompileErr: map[string]int{}, IntentCount: map[string]int{},
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	ids := make(chan int64, 256)
	var firstErr error
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range ids {
				line := generateOne(seed, id, listAttrs)
				out := o.evalMatch(Input{ID: id, Expression: line.Expression, Device: line.Device}, false, 1)
				var use *exprUse
				var aerr error
				if out.Compile == "ok" {
					use, aerr = analyze(tenv, line.Expression)
				}
				mu.Lock()
				rep.Expressions++
				rep.IntentCount[line.Intent]++
				if strings.Contains(line.Expression, "device") {
					rep.DeviceRefs++
				}
				switch {
				case out.Compile != "ok":
					rep.CompileError++
					rep.CompileErrorKind[out.CompileErrorKind]++
					rep.IntentCompileErr[line.Intent]++
				default:
					rep.CompileOK++
					if out.EvalError != "" {
						rep.EvalError++
						rep.EvalErrorKind[out.EvalErrorKind]++
					} else if *out.Result {
						rep.True++
					} else {
						rep.False++
					}
					if aerr != nil && firstErr == nil {
						firstErr = fmt.Errorf("expression %d compiled in the scheduler path but not in the tracking env: %v", id, aerr)
					}
					if use != nil {
						for f := range use.functions {
							rep.FunctionHits[f]++
						}
						for ov := range use.overloads {
							rep.OverloadHits[ov]++
						}
						for m := range use.macros {
							rep.MacroHits[m]++
						}
						for f := range use.ambiguous {
							rep.AmbiguousCalls[f]++
						}
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		ids <- int64(i)
	}
	close(ids)
	wg.Wait()
	return rep, firstErr
}

func pct(a, b int) string {
	if b == 0 {
		return "0.0%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

func (r *coverageReport) write(w io.Writer, verbose bool) {
	fmt.Fprintf(w, "expressions: %d (referencing device: %s)\n", r.Expressions, pct(r.DeviceRefs, r.Expressions))
	fmt.Fprintf(w, "compile error: %d (%s)\n", r.CompileError, pct(r.CompileError, r.Expressions))
	fmt.Fprintf(w, "eval error:    %d (%s)\n", r.EvalError, pct(r.EvalError, r.Expressions))
	fmt.Fprintf(w, "true:          %d (%s)\n", r.True, pct(r.True, r.Expressions))
	fmt.Fprintf(w, "false:         %d (%s)\n", r.False, pct(r.False, r.Expressions))
	fmt.Fprintf(w, "intent (count / compile errors):")
	for _, k := range sortedNames(r.IntentCount) {
		fmt.Fprintf(w, " %s=%d/%d", k, r.IntentCount[k], r.IntentCompileErr[k])
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "compile error kinds:")
	for _, k := range sortedNames(r.CompileErrorKind) {
		fmt.Fprintf(w, " %s=%d", k, r.CompileErrorKind[k])
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "eval error kinds:")
	for _, k := range sortedNames(r.EvalErrorKind) {
		fmt.Fprintf(w, " %s=%d", k, r.EvalErrorKind[k])
	}
	fmt.Fprintln(w)

	nOv := len(r.allOverloadIDs())
	missF, missO, missM := r.missingFunctions(), r.missingOverloads(), r.missingMacros()
	fmt.Fprintf(w, "functions: %d declared, %d unreachable by design, %d exercised, %d missing\n",
		len(r.Functions), len(r.Unreachable), len(r.Functions)-len(r.Unreachable)-len(missF), len(missF))
	fmt.Fprintf(w, "overloads: %d declared by callable functions (distinct ids), %d exercised with a unique static resolution, %d missing\n", nOv, nOv-len(missO), len(missO))
	fmt.Fprintf(w, "macros:    %d declared, %d exercised, %d missing\n", len(r.Macros), len(r.Macros)-len(missM), len(missM))
	for _, name := range sortedNames(r.Unreachable) {
		fmt.Fprintf(w, "unreachable function %s: %s\n", name, r.Unreachable[name])
	}
	for _, f := range missF {
		fmt.Fprintf(w, "MISSING function %s\n", f)
	}
	for _, o := range missO {
		fmt.Fprintf(w, "MISSING overload %s\n", o)
	}
	for _, m := range missM {
		fmt.Fprintf(w, "MISSING macro %s\n", m)
	}
	if verbose {
		for _, f := range r.Functions {
			fmt.Fprintf(w, "function %-28s hits %6d", f.Name, r.FunctionHits[f.Name])
			for _, o := range f.Overloads {
				fmt.Fprintf(w, " %s=%d", o.ID, r.OverloadHits[o.ID])
			}
			fmt.Fprintln(w)
		}
		for _, m := range r.Macros {
			fmt.Fprintf(w, "macro %-24s hits %6d\n", m.Key, r.MacroHits[m.Key])
		}
	}
}
