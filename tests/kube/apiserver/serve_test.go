// schedkit-test-apiserver: a real kube-apiserver v1.35.8 + embedded etcd on
// 127.0.0.1 for schedkit's end-to-end tests. It is this package's test binary
// (build.sh runs `go test -c`), serving from TestServe. See README.md.
//
// Usage:
//
//	schedkit-test-apiserver -dir DIR [-stdin=false] [-- KUBE-APISERVER-FLAG...]
//
// (`-test.run '^TestServe$'` may be given too; with -dir it is implied.)
//
//   - Starts etcd and the kube-apiserver (--authorization-mode=RBAC, static
//     tokens, admission plugins ServiceAccount, TaintNodesByCondition,
//     Priority and StorageObjectInUseProtection disabled) on 127.0.0.1 and
//     free ports. Flags after "--" are passed on to the kube-apiserver.
//   - Writes DIR/admin.kubeconfig (group system:masters),
//     DIR/scheduler.kubeconfig (user system:kube-scheduler), DIR/ca.crt,
//     DIR/address (127.0.0.1:PORT) and DIR/tokens.csv.
//   - Prints one line "ready https://127.0.0.1:PORT" on stdout when /readyz
//     is 200 and namespace default exists. Everything else goes to stderr.
//   - SIGHUP: restarts the kube-apiserver on the same port with the same
//     certificates, tokens and etcd, then prints "ready URL" again.
//   - SIGTERM, SIGINT, or EOF on stdin (unless -stdin=false): stops the
//     kube-apiserver and etcd and exits 0 (a stop during start-up first lets
//     the start finish). A second signal exits at once with status 1.
//   - Exits non-zero if start-up fails or the kube-apiserver dies.
package testapiserver

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

var (
	serveDir   = flag.String("dir", "", "serve mode: state directory (kubeconfigs, ca.crt, address, etcd data)")
	serveStdin = flag.Bool("stdin", true, "serve mode: stop when stdin reaches EOF")
)

// readyOut is where "ready" lines go. In serve mode os.Stdout is pointed at
// stderr so that nothing else (e.g. the test runner's PASS) reaches stdout.
var readyOut io.Writer = os.Stdout

func TestMain(m *testing.M) {
	flag.Parse()
	if *serveDir != "" {
		_ = flag.Set("test.run", "^TestServe$")
		_ = flag.Set("test.timeout", "0")
		readyOut = os.Stdout
		os.Stdout = os.Stderr
	}
	os.Exit(m.Run())
}

func TestServe(t *testing.T) {
	if *serveDir == "" {
		t.Skip("serve mode only (-dir DIR)")
	}

	// stop is cancelled by SIGTERM/SIGINT or stdin EOF; it also aborts a
	// start or restart in progress.
	stop, cancel := context.WithCancel(context.Background())
	defer cancel()
	hup := make(chan os.Signal, 8)
	signal.Notify(hup, syscall.SIGHUP)
	term := make(chan os.Signal, 2)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		sig := <-term
		fmt.Fprintf(os.Stderr, "schedkit-test-apiserver: %v, stopping\n", sig)
		cancel()
		<-term
		fmt.Fprintln(os.Stderr, "schedkit-test-apiserver: second signal, exiting now")
		os.Exit(1)
	}()
	if *serveStdin {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			fmt.Fprintln(os.Stderr, "schedkit-test-apiserver: stdin closed, stopping")
			cancel()
		}()
	}

	srv, err := Start(stop, Options{Dir: *serveDir, ExtraFlags: flag.Args()})
	if err != nil {
		if stop.Err() != nil {
			fmt.Fprintln(os.Stderr, "schedkit-test-apiserver: stopped before ready")
			return
		}
		t.Fatalf("start: %v", err)
	}
	defer func() {
		if err := srv.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	}()
	fmt.Fprintf(readyOut, "ready %s\n", srv.URL)

	for {
		select {
		case <-stop.Done():
			return
		case <-srv.Exited():
			t.Fatalf("kube-apiserver exited: %v", srv.Err())
		case <-hup:
			fmt.Fprintln(os.Stderr, "schedkit-test-apiserver: SIGHUP, restarting kube-apiserver")
			if err := srv.Restart(stop); err != nil {
				if stop.Err() != nil {
					return
				}
				t.Fatalf("restart: %v", err)
			}
			fmt.Fprintf(readyOut, "ready %s\n", srv.URL)
		}
	}
}
