package main

import (
	"bytes"
	"strings"
	"testing"
)

// --timeline holds pods back until their batch and deletes through the API:
// "second" only fits once "first" is deleted, "third" never fits beside it.
func TestTimelineBatches(t *testing.T) {
	out, _ := runJSON(t, "--throughput", "--cluster", "testdata/timeline/cluster.yaml",
		"--timeline", "testdata/timeline/timeline.json")
	if out.Summary.Binds != 2 {
		t.Errorf("binds = %d, want 2 (first, then second after first's deletion)", out.Summary.Binds)
	}
	if got := podByName(t, out, "second"); got.Status != "Scheduled" || deref(got.Node) != "only" {
		t.Errorf("second: %s on %s, want Scheduled on only", got.Status, deref(got.Node))
	}
	if got := podByName(t, out, "third"); got.Status != "Unschedulable" {
		t.Errorf("third: %s, want Unschedulable", got.Status)
	}
}

func TestTimelineBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--cluster", "testdata/timeline/cluster.yaml", "--timeline", "testdata/timeline/timeline.json"}, "--timeline needs --throughput"},
		{[]string{"--throughput", "--cluster", "testdata/timeline/cluster.yaml", "--timeline", "testdata/timeline/absent.json"}, "absent.json"},
		{[]string{"--throughput", "--cluster", "testdata/timeline/cluster.yaml", "--timeline", "testdata/timeline/cluster.yaml"}, "--timeline"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%v) = %d, want 2; stderr: %s", c.args, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("run(%v): stderr %q does not name %q", c.args, stderr.String(), c.want)
		}
	}
}
