// Command schedkit-gen writes random, valid cluster scenarios for the
// conformance harness: one directory per scenario, holding JSON Lists that
// schedkit-sim and schedkit-oracle read with --cluster DIR.
//
//	schedkit-gen --seed S --count N [--start I] --out DIR
//
// Scenario (S, I) is always the same, whatever --count and --start are: it
// lands in DIR/S-I/. See tests/conformance/README.md for what is covered.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	var (
		seed  = flag.Uint64("seed", 1, "scenario seed")
		count = flag.Int("count", 1, "number of scenarios")
		start = flag.Int("start", 0, "index of the first scenario")
		out   = flag.String("out", "", "output directory (one subdirectory per scenario)")
	)
	flag.Parse()
	if *out == "" || *count < 0 || *start < 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: schedkit-gen --seed S --count N [--start I] --out DIR")
		os.Exit(2)
	}
	for i := *start; i < *start+*count; i++ {
		dir := filepath.Join(*out, fmt.Sprintf("%d-%d", *seed, i))
		if err := writeScenario(dir, Generate(*seed, i)); err != nil {
			fmt.Fprintf(os.Stderr, "schedkit-gen: %v\n", err)
			os.Exit(1)
		}
	}
}

// writeScenario writes each file of the scenario, replacing the directory.
func writeScenario(dir string, s *Scenario) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range s.Files {
		data, err := listJSON(f.Items)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", dir, f.Name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name), data, 0o644); err != nil {
			return err
		}
	}
	if s.Config != nil {
		// Not *.json/*.yaml: --cluster DIR must not read it.
		if err := os.WriteFile(filepath.Join(dir, configFile), s.Config, 0o644); err != nil {
			return err
		}
	}
	if s.FeatureGates != "" {
		if err := os.WriteFile(filepath.Join(dir, gatesFile), []byte(s.FeatureGates+"\n"), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "scenario.txt"), []byte(s.Summary), 0o644)
}

// listJSON renders objects as an indented `kind: List`, without the nulls
// that Go's encoding of unset metav1.Time fields produces.
func listJSON(items []any) ([]byte, error) {
	var cleaned []any
	for _, it := range items {
		raw, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		cleaned = append(cleaned, clean(v, ""))
	}
	doc := map[string]any{"apiVersion": "v1", "kind": "List", "items": cleaned}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// clean drops null values, the empty objects Go emits for unset struct
// fields whose emptiness means nothing ("status", "resources", "metadata",
// "spec", ...) and the zero Node status structs the generator never sets.
// Empty selectors ({}) are kept: they mean "everything".
func clean(v any, field string) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if e == nil || k == "daemonEndpoints" || k == "nodeInfo" { // never set; zero structs
				continue
			}
			c := clean(e, k)
			if m, ok := c.(map[string]any); ok && len(m) == 0 {
				switch k {
				case "status", "resources", "metadata", "securityContext", "spec":
					continue
				}
			}
			out[k] = c
		}
		return out
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			out = append(out, clean(e, field))
		}
		return out
	}
	return v
}
