package testapiserver

import (
	"bufio"
	"context"
	"crypto/x509"
	"encoding/pem"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// The serving certificate must verify for https://127.0.0.1:PORT against
// ca.crt alone, without a TLS server name override.
func TestServingCertVerifiesFor127001(t *testing.T) {
	dir := t.TempDir()
	caPEM, err := writeServingCert(dir)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		t.Fatal("ca PEM holds no certificate")
	}
	servingPEM, err := os.ReadFile(filepath.Join(dir, "apiserver.crt"))
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(servingPEM)
	leaf, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"127.0.0.1", "localhost"} {
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: name}); err != nil {
			t.Errorf("serving cert does not verify for %s: %v", name, err)
		}
	}
}

// TestEndToEnd runs this test binary in serve mode as a child process (the
// same way schedkit's C++ tests use schedkit-test-apiserver) and checks the
// files, RBAC, a SIGHUP restart and the stop on stdin EOF.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a kube-apiserver")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()

	cmd := exec.Command(os.Args[0], "-dir", dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "server.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stderr = logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	defer func() {
		_ = cmd.Process.Kill() // no-op once it has exited
		if t.Failed() {
			if b, err := os.ReadFile(logPath); err == nil {
				t.Logf("server log tail:\n%s", tail(string(b), 4000))
			}
		}
	}()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		exited <- cmd.Wait()
	}()

	serverURL := expectReady(t, lines, "")
	u, err := url.Parse(serverURL)
	if err != nil || u.Scheme != "https" || u.Hostname() != "127.0.0.1" {
		t.Fatalf("ready URL %q is not https://127.0.0.1:PORT", serverURL)
	}
	addr, err := os.ReadFile(filepath.Join(dir, "address"))
	if err != nil || strings.TrimSpace(string(addr)) != u.Host {
		t.Fatalf("address file %q (%v) does not match %s", addr, err, u.Host)
	}

	admin := clientFor(t, filepath.Join(dir, "admin.kubeconfig"))
	sched := clientFor(t, filepath.Join(dir, "scheduler.kubeconfig"))

	nsList, err := admin.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("admin lists namespaces: %v", err)
	}
	names := map[string]bool{}
	for _, ns := range nsList.Items {
		names[ns.Name] = true
	}
	if !names["default"] || !names["kube-system"] {
		t.Fatalf("namespaces %v lack default or kube-system", names)
	}

	// The scheduler identity gets the bootstrap system:kube-scheduler role.
	if _, err := sched.CoreV1().Nodes().List(ctx, metav1.ListOptions{}); err != nil {
		t.Errorf("scheduler lists nodes: %v", err)
	}
	if _, err := sched.CoreV1().Pods("").List(ctx, metav1.ListOptions{}); err != nil {
		t.Errorf("scheduler lists pods: %v", err)
	}
	if err := sched.CoreV1().Namespaces().Delete(ctx, "default", metav1.DeleteOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("scheduler deleting a namespace: want Forbidden, got %v", err)
	}

	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	if _, err := admin.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p1", Namespace: "default"},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "registry.invalid/none"}}},
	}
	if _, err := admin.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &v1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: "p1", Namespace: "default"},
		Target:     v1.ObjectReference{Kind: "Node", Name: "n1"},
	}
	if err := sched.CoreV1().Pods("default").Bind(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatalf("scheduler binds a pod: %v", err)
	}

	before, err := sched.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sched.CoreV1().Pods("").Watch(ctx, metav1.ListOptions{ResourceVersion: before.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	// SIGHUP: the watch ends, the same URL becomes ready again, and the same
	// clients keep working against the same etcd.
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	watchEnded := time.After(30 * time.Second)
drain:
	for {
		select {
		case _, ok := <-w.ResultChan():
			if !ok {
				break drain
			}
		case <-watchEnded:
			t.Fatal("watch still open 30 s after SIGHUP")
		}
	}
	expectReady(t, lines, serverURL)

	got, err := sched.CoreV1().Pods("default").Get(ctx, "p1", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("scheduler reads pod after restart: %v", err)
	}
	if got.Spec.NodeName != "n1" {
		t.Errorf("pod lost its binding across the restart: nodeName %q", got.Spec.NodeName)
	}
	after, err := sched.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// resourceVersion is opaque to clients; numerically it is etcd's revision,
	// which must carry on from before the restart.
	if rvBefore, rvAfter := atoi(t, before.ResourceVersion), atoi(t, after.ResourceVersion); rvAfter < rvBefore {
		t.Errorf("resourceVersion went back across the restart: %d -> %d", rvBefore, rvAfter)
	}

	// EOF on stdin stops everything; exit status 0, nothing more on stdout.
	stdin.Close()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("server exit: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("server still running 60 s after stdin EOF")
	}
	for l := range lines {
		t.Errorf("unexpected stdout line %q", l)
	}
	if c, err := net.DialTimeout("tcp", u.Host, time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after stop", u.Host)
	}
	if _, err := os.Stat(filepath.Join(dir, "etcd")); !os.IsNotExist(err) {
		t.Errorf("etcd data left behind: %v", err)
	}
}

func expectReady(t *testing.T, lines <-chan string, wantURL string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("server exited before printing ready")
		}
		u, found := strings.CutPrefix(l, "ready ")
		if !found || (wantURL != "" && u != wantURL) {
			t.Fatalf("stdout line %q, want \"ready %s\"", l, wantURL)
		}
		return u
	case <-time.After(2 * time.Minute):
		t.Fatal("no ready line within 2 minutes")
	}
	return ""
}

func clientFor(t *testing.T, kubeconfig string) *kubernetes.Clientset {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TLSClientConfig.ServerName != "" || cfg.TLSClientConfig.Insecure {
		t.Fatalf("%s overrides TLS verification", kubeconfig)
	}
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("resourceVersion %q: %v", s, err)
	}
	return n
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
