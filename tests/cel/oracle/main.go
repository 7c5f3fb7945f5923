// Command celoracle is the upstream (Go) side of the differential check of
// schedkit's C++ CEL evaluator for DRA device selectors. See README.md.
//
//	celoracle gen -seed S -n N            random expressions + devices (JSON lines)
//	celoracle eval                        scheduler path: compile + DeviceMatches
//	celoracle value                       same environment, value of any type
//	celoracle coverage -seed S -n N       functions/overloads/macros exercised
//	celoracle functions                   the environment's functions and macros (JSON)
//	celoracle refs                        per input line: called functions, resolved overloads, macros
//	celoracle kinds                       the error-kind classification tables (Markdown)
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

func usage() {
	fmt.Fprintf(os.Stderr, `usage: celoracle <command> [flags]

commands:
  gen -seed S -n N [-start I]   write N random expressions with devices as JSON lines
  eval [-estimate] [-j W] [-repeat R]  read JSON lines, evaluate like the scheduler (DeviceMatches)
  value [-j W] [-repeat R]      read JSON lines, print the value of any type
  coverage -seed S -n N [-v]    report exercised functions/overloads/macros; exit 1 if incomplete
  functions                     print declared functions and macros as JSON
  refs                          read JSON lines, print the overloads/macros each expression resolves to
  kinds                         print the error-kind tables (Markdown)

common flags:
  -feature-gates A=true,B=false  kube feature gates (default: k8s v1.37.2 defaults)
`)
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	gates := fs.String("feature-gates", "", "kube feature gates, e.g. DRAListTypeAttributes=true")
	seed := fs.Uint64("seed", 1, "random seed (gen, coverage)")
	n := fs.Int("n", 1000, "number of expressions (gen, coverage)")
	start := fs.Int64("start", 0, "first id (gen)")
	workers := fs.Int("j", 0, "worker goroutines (default GOMAXPROCS)")
	estimate := fs.Bool("estimate", false, "eval: also report the estimated max cost (CompileCELExpression with Options{})")
	verbose := fs.Bool("v", false, "coverage: per-function hit counts")
	repeat := fs.Int("repeat", 5, "eval/value: evaluations per input (inputs costing > 100000 are evaluated once); differing outcomes are flagged \"nondeterministic\"")
	if err := fs.Parse(args); err != nil {
		os.Exit(2)
	}
	if err := setFeatureGates(*gates); err != nil {
		fmt.Fprintln(os.Stderr, "celoracle:", err)
		os.Exit(2)
	}
	var err error
	switch cmd {
	case "gen":
		err = runGen(os.Stdout, *seed, *start, *n)
	case "eval":
		err = runEval(os.Stdin, os.Stdout, evalOptions{estimate: *estimate, workers: *workers, repeat: *repeat})
	case "value":
		err = runEval(os.Stdin, os.Stdout, evalOptions{valueMode: true, workers: *workers, repeat: *repeat})
	case "coverage":
		var rep *coverageReport
		rep, err = runCoverage(*seed, *n, *workers)
		if rep != nil {
			rep.write(os.Stdout, *verbose)
			if err == nil && len(rep.missingFunctions()) > 0 {
				err = fmt.Errorf("%d declared functions never exercised", len(rep.missingFunctions()))
			}
		}
	case "functions":
		err = runFunctions(os.Stdout)
	case "refs":
		err = runRefs(os.Stdin, os.Stdout)
	case "kinds":
		_, err = io.WriteString(os.Stdout, kindsMarkdown())
	case "help", "-h", "--help":
		usage()
		return
	default:
		usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "celoracle:", err)
		os.Exit(1)
	}
}

func runGen(w io.Writer, seed uint64, start int64, n int) error {
	f := schedulerCELFeatures()
	bw := bufio.NewWriterSize(w, 1<<20)
	for i := start; i < start+int64(n); i++ {
		if _, err := bw.Write(marshalLine(generateOne(seed, i, f.EnableListTypeAttributes))); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func runFunctions(w io.Writer) error {
	o, err := getOracle()
	if err != nil {
		return err
	}
	out := struct {
		Features    any                `json:"features"`
		Functions   []declaredFunction `json:"functions"`
		Macros      []declaredMacro    `json:"macros"`
		Unreachable map[string]string  `json:"unreachable_functions"`
	}{o.features, declaredFunctions(o.env), declaredMacros(o.env), unreachableFunctions(o.env)}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func runRefs(r io.Reader, w io.Writer) error {
	o, err := getOracle()
	if err != nil {
		return err
	}
	tenv, err := o.trackingEnv()
	if err != nil {
		return err
	}
	type refsLine struct {
		ID        int64    `json:"id"`
		Error     string   `json:"error,omitempty"`
		Functions []string `json:"functions,omitempty"`
		Overloads []string `json:"overloads,omitempty"`
		Ambiguous []string `json:"ambiguous,omitempty"`
		Macros    []string `json:"macros,omitempty"`
	}
	br := bufio.NewReaderSize(r, 1<<20)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	for {
		line, rerr := br.ReadBytes('\n')
		if len(line) > 0 {
			var in Input
			out := refsLine{}
			if err := json.Unmarshal(line, &in); err != nil {
				out.Error = err.Error()
			} else {
				out.ID = in.ID
				u, err := analyze(tenv, in.Expression)
				if err != nil {
					out.Error = err.Error()
				} else {
					out.Functions, out.Overloads = sortedNames(u.functions), sortedNames(u.overloads)
					out.Ambiguous, out.Macros = sortedNames(u.ambiguous), sortedNames(u.macros)
				}
			}
			if _, err := bw.Write(marshalLine(out)); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}
