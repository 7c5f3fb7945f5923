package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// OpportunisticBatching engages only when every PreFilter/Filter/PreScore/
// Score plugin signs the pod: PodTopologySpread without default constraints,
// identical pods. Six equal nodes, twelve equal pods: the first cycle scores
// all nodes, the following ones take the batch's hint, and the spread stays
// even (two pods a node).
func TestBatchStatsHintsUsed(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "scheduler.conf")
	write := func(path, data string) {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(conf, `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
`)
	var docs []string
	for i := 1; i <= 6; i++ {
		docs = append(docs, fmt.Sprintf(`apiVersion: v1
kind: Node
metadata: {name: n%d, labels: {kubernetes.io/hostname: n%d}}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
  capacity: {cpu: "4", memory: 8Gi, pods: "110"}`, i, i))
	}
	for i := 0; i < 12; i++ {
		docs = append(docs, fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: p%02d, namespace: default, labels: {app: web}}
spec:
  containers:
  - name: c
    image: busybox
    resources: {requests: {cpu: 500m, memory: 512Mi}}`, i))
	}
	cluster := filepath.Join(dir, "cluster")
	if err := os.Mkdir(cluster, 0o755); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(cluster, "cluster.yaml"), strings.Join(docs, "\n---\n")+"\n")

	args := []string{"--cluster", cluster, "--config", conf, "--tie-break", "name", "--explain", "--batch-stats"}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("run(%v) = %d, stderr: %s", args, code, stderr.String())
	}
	m := regexp.MustCompile(`^batch: hints-used=(\d+) hints-not-used=(\d+) flushes=\{[a-z_:0-9,]*\}\n$`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("stderr %q is not one --batch-stats line", stderr.String())
	}
	// The batch state expires after 500ms of wall-clock time, so a slow
	// machine may get fewer hints, but not none.
	if used, _ := strconv.Atoi(m[1]); used == 0 {
		t.Errorf("no hint used: %s", stderr.String())
	}
	var out Output
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	perNode := map[string]int{}
	for _, p := range out.Pods {
		if p.Status != "Scheduled" {
			t.Fatalf("%s: %s (%s)", p.Name, p.Status, p.Message)
		}
		perNode[deref(p.Node)]++
	}
	for i := 1; i <= 6; i++ {
		if n := perNode[fmt.Sprintf("n%d", i)]; n != 2 {
			t.Errorf("pods per node %v, want 2 on each", perNode)
			break
		}
	}
	// The first pod is scored against all nodes: lowest name on the tie.
	if p := podByName(t, out, "p00"); deref(p.Node) != "n1" || len(*p.Scores) != 6 {
		t.Errorf("p00 on %s with %d scored nodes, want n1 and 6", deref(p.Node), len(*p.Scores))
	}
}
