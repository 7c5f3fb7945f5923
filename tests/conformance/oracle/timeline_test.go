package main

import (
	"bytes"
	"os"
	"path/filepath"
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
	// One each: third is tried once, and nothing after its batch frees room.
	if out.Summary.Attempts != 3 {
		t.Errorf("attempts = %d, want 3", out.Summary.Attempts)
	}
	if got := podByName(t, out, "second"); got.Status != "Scheduled" || deref(got.Node) != "only" {
		t.Errorf("second: %s on %s, want Scheduled on only", got.Status, deref(got.Node))
	}
	if got := podByName(t, out, "third"); got.Status != "Unschedulable" {
		t.Errorf("third: %s, want Unschedulable", got.Status)
	}
}

// writeTimeline writes a timeline file into a test's temporary directory.
func writeTimeline(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "timeline.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The queue's clock moves to each batch's instant (schedkit-perf's
// workload_file_test has the same two cases). x is tried at 1 and y at 2.1,
// so their 1 s backoffs end in the windows of 2 s and 3 s. When a's deletion
// at 3.5 requeues them, only x's is over: x goes to activeQ, binds, and y
// preempts it. At 4.5 both are over, and y's priority puts it first.
func TestTimelineClockBackoff(t *testing.T) {
	for _, c := range []struct {
		deleteAt  string
		wantX     string
		wantBinds int
	}{
		{"3.5", "Preempted", 3},
		{"4.5", "Unschedulable", 2},
	} {
		tl := writeTimeline(t, `{"batches": [{"at": 0, "create": ["default/a"]}, {"at": 1, "create": ["default/x"]},
			{"at": 2.1, "create": ["default/y"]}, {"at": `+c.deleteAt+`, "delete": ["default/a"]}]}`)
		out, _ := runJSON(t, "--throughput", "--cluster", "testdata/timeline/backoff.yaml", "--timeline", tl)
		if got := podByName(t, out, "x"); got.Status != c.wantX {
			t.Errorf("a deleted at %s: x %s, want %s", c.deleteAt, got.Status, c.wantX)
		}
		if got := podByName(t, out, "y"); got.Status != "Scheduled" {
			t.Errorf("a deleted at %s: y %s, want Scheduled", c.deleteAt, got.Status)
		}
		if out.Summary.Binds != c.wantBinds {
			t.Errorf("a deleted at %s: binds = %d, want %d", c.deleteAt, out.Summary.Binds, c.wantBinds)
		}
	}
}

// big fits nowhere and small's binding wakes no one; the 30-second flush
// retries big once it has waited over 5 minutes (the tick at 330 s), so
// only a batch after that sees big's second attempt.
func TestTimelineClockLeftover(t *testing.T) {
	for _, c := range []struct {
		smallAt      string
		wantAttempts int
	}{{"200", 2}, {"400", 3}} {
		tl := writeTimeline(t, `{"batches": [{"at": 0, "create": ["default/big"]}, {"at": `+c.smallAt+`, "create": ["default/small"]}]}`)
		out, _ := runJSON(t, "--throughput", "--cluster", "testdata/timeline/leftover.yaml", "--timeline", tl)
		if out.Summary.Attempts != c.wantAttempts {
			t.Errorf("small at %s: attempts = %d, want %d", c.smallAt, out.Summary.Attempts, c.wantAttempts)
		}
		if got := podByName(t, out, "small"); got.Status != "Scheduled" {
			t.Errorf("small at %s: %s, want Scheduled", c.smallAt, got.Status)
		}
	}
}

// A batch with afterAttempts comes before the next attempt once that many
// have run, even with pods left to pop, and not before; nodes come and go
// with it. gone is deleted after c's attempt, which binds there (a batch
// applied early would leave c nowhere to go); extra is created after a's,
// so c binds there on its first attempt (a batch applied only when the
// queue ran dry would cost c a failed attempt first).
func TestTimelineAfterAttempts(t *testing.T) {
	tl := writeTimeline(t, `{"batches": [{"at": 0.2, "afterAttempts": 1, "deleteNodes": ["gone"]}]}`)
	out, _ := runJSON(t, "--throughput", "--cluster", "testdata/timeline/churn-delete.yaml", "--timeline", tl)
	if got := podByName(t, out, "c"); got.Status != "Scheduled" || deref(got.Node) != "gone" {
		t.Errorf("node gone deleted after one attempt: c %s on %s, want Scheduled on gone", got.Status, deref(got.Node))
	}
	if got := podByName(t, out, "a"); got.Status != "Scheduled" || deref(got.Node) != "only" {
		t.Errorf("a %s on %s, want Scheduled on only", got.Status, deref(got.Node))
	}
	if out.Summary.Nodes != 2 {
		t.Errorf("nodes = %d, want 2 at the start", out.Summary.Nodes)
	}

	tl = writeTimeline(t, `{"batches": [{"at": 0.2, "afterAttempts": 1, "createNodes": ["extra"]}]}`)
	out, _ = runJSON(t, "--throughput", "--cluster", "testdata/timeline/churn-create.yaml", "--timeline", tl)
	if got := podByName(t, out, "c"); got.Status != "Scheduled" || deref(got.Node) != "extra" {
		t.Errorf("node extra created after one attempt: c %s on %s, want Scheduled on extra", got.Status, deref(got.Node))
	}
	// Created before c's first attempt, not after c failed for want of it.
	if out.Summary.Attempts != 2 || out.Summary.Nodes != 1 {
		t.Errorf("attempts = %d, nodes = %d; want 2 and 1 (extra held back)", out.Summary.Attempts, out.Summary.Nodes)
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
		{[]string{"--throughput", "--cluster", "testdata/timeline/cluster.yaml", "--timeline",
			writeTimeline(t, `{"batches": [{"afterAttempts": -1}]}`)}, "batches[0].afterAttempts: -1 is negative"},
		{[]string{"--throughput", "--cluster", "testdata/timeline/cluster.yaml", "--timeline",
			writeTimeline(t, `{"batches": [{}, {"createNodes": ["a/b"]}]}`)}, `batches[1]: "a/b" is not a node name`},
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
