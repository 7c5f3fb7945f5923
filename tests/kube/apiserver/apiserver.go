// Package testapiserver runs a real kube-apiserver (k8s.io/kubernetes v1.35.8,
// built from source) on top of an embedded etcd inside the current process,
// both listening on 127.0.0.1 only. It exists for schedkit's end-to-end tests:
// the C++ scheduler talks to it over HTTPS exactly as it would to a cluster.
//
// The command-line wrapper around this package (the test binary
// schedkit-test-apiserver) is described in serve_test.go and README.md.
//
// Layout of the state directory (Options.Dir):
//
//	admin.kubeconfig      user "admin", group system:masters (full access)
//	scheduler.kubeconfig  user "system:kube-scheduler" (bootstrap RBAC role)
//	ca.crt                CA that signed the serving certificate
//	address               "127.0.0.1:PORT" of the kube-apiserver
//	tokens.csv            the static token file given to the kube-apiserver
//	pki/                  serving cert/key and service-account signing key
//	etcd/                 etcd data (removed again by Stop)
//
// Nothing else runs: no controllers, no kubelet, no scheduler.
package testapiserver

import (
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"
	"go.etcd.io/etcd/server/v3/embed"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	certutil "k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
	"k8s.io/kubernetes/cmd/kube-apiserver/app/options"
)

// apiServerInstances numbers the kube-apiservers this process starts.
var apiServerInstances atomic.Int64

// DisabledAdmissionPlugins is the list upstream's scheduler integration tests
// disable (test/integration/util.InitTestAPIServer in k8s.io/kubernetes
// v1.35.8): nothing here runs the service-account controller, and taints,
// priority and PVC protection would otherwise be added by admission.
var DisabledAdmissionPlugins = []string{"ServiceAccount", "TaintNodesByCondition", "Priority", "StorageObjectInUseProtection"}

// SchedulerUser is the user name the scheduler kubeconfig authenticates as.
// The bootstrap RBAC policy binds the system:kube-scheduler and
// system:volume-scheduler ClusterRoles to it.
const SchedulerUser = "system:kube-scheduler"

const (
	startTimeout   = 120 * time.Second // machine has 2 cores and may be busy
	stopTimeout    = 90 * time.Second  // > the 60 s shutdown timeout
	relistenWindow = 15 * time.Second
)

func init() {
	// Starting the server again in the same process applies the same logging
	// configuration a second time; tolerate that instead of failing.
	logsapi.ReapplyHandling = logsapi.ReapplyHandlingIgnoreUnchanged
}

// Options configures Start.
type Options struct {
	// Dir holds the state described in the package comment. Required; it is
	// created if missing. pki/ and etcd/ inside it are recreated on Start.
	Dir string
	// ExtraFlags are kube-apiserver flags appended after the built-in ones
	// (a later scalar flag wins; list flags such as
	// --disable-admission-plugins are extended).
	ExtraFlags []string
}

// Server is a running etcd + kube-apiserver pair. Its methods must be called
// from one goroutine at a time.
type Server struct {
	Dir                 string
	Address             string // 127.0.0.1:PORT
	URL                 string // https://127.0.0.1:PORT
	CAFile              string
	AdminKubeconfig     string
	SchedulerKubeconfig string
	AdminToken          string
	SchedulerToken      string

	port     int
	etcd     *embed.Etcd
	apiFlags []string

	cancel  context.CancelFunc // stops the running kube-apiserver
	ready   bool               // the running kube-apiserver passed waitReady
	exited  chan struct{}      // closed when the running kube-apiserver returned
	exitErr error              // valid once exited is closed
}

// Start brings up etcd and the kube-apiserver and returns once /readyz is 200
// and namespace "default" exists. ctx only bounds the start-up; cancel it to
// abort a start in progress.
func Start(ctx context.Context, o Options) (_ *Server, err error) {
	if o.Dir == "" {
		return nil, errors.New("testapiserver: Options.Dir is required")
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, err
	}
	s := &Server{
		Dir:                 dir,
		CAFile:              filepath.Join(dir, "ca.crt"),
		AdminKubeconfig:     filepath.Join(dir, "admin.kubeconfig"),
		SchedulerKubeconfig: filepath.Join(dir, "scheduler.kubeconfig"),
	}
	defer func() {
		if err != nil {
			s.Stop()
		}
	}()

	pki := filepath.Join(dir, "pki")
	for _, d := range []string{pki, filepath.Join(dir, "etcd")} {
		if err := os.RemoveAll(d); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(pki, 0o700); err != nil {
		return nil, err
	}

	// Hold the API port from the start; the same port is reused on Restart.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.port = ln.Addr().(*net.TCPAddr).Port
	s.Address = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	s.URL = "https://" + s.Address

	caPEM, err := writeServingCert(pki)
	if err != nil {
		ln.Close()
		return nil, err
	}
	saKey, err := keyutil.MakeEllipticPrivateKeyPEM()
	if err == nil {
		err = os.WriteFile(filepath.Join(pki, "sa.key"), saKey, 0o600)
	}
	if err == nil {
		err = s.writeClientFiles(caPEM)
	}
	if err != nil {
		ln.Close()
		return nil, err
	}

	etcdURL, err := s.startEtcd()
	if err != nil {
		ln.Close()
		return nil, err
	}

	s.apiFlags = append([]string{
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(s.port),
		"--tls-cert-file=" + filepath.Join(pki, "apiserver.crt"),
		"--tls-private-key-file=" + filepath.Join(pki, "apiserver.key"),
		"--etcd-servers=" + etcdURL,
		"--service-cluster-ip-range=10.0.0.0/16",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + filepath.Join(pki, "sa.key"),
		"--service-account-signing-key-file=" + filepath.Join(pki, "sa.key"),
		"--token-auth-file=" + filepath.Join(dir, "tokens.csv"),
		"--authorization-mode=RBAC",
		"--disable-admission-plugins=" + strings.Join(DisabledAdmissionPlugins, ","),
		// 127.0.0.1 is not a valid endpoint for the "kubernetes" Service;
		// the reconciler would only log errors.
		"--endpoint-reconciler-type=none",
		// End open watches as soon as shutdown starts (and wait at most this
		// long for them); with the default 0 an open watch holds a stop or
		// restart for the full 60 s request timeout.
		"--shutdown-watch-termination-grace-period=2s",
	}, o.ExtraFlags...)

	if err := s.startAPIServer(ln); err != nil {
		return nil, err
	}
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Restart stops the kube-apiserver and starts a new one on the same port with
// the same certificates, tokens and etcd, and waits until it is ready.
// Open connections (watches included) are closed by the old instance.
func (s *Server) Restart(ctx context.Context) error {
	if err := s.stopAPIServer(); err != nil {
		return err
	}
	ln, err := listenAgain(ctx, s.Address)
	if err != nil {
		return err
	}
	if err := s.startAPIServer(ln); err != nil {
		return err
	}
	return s.waitReady(ctx)
}

// Exited is closed when the kube-apiserver stops for any reason; Err then
// tells why. After Restart it refers to the new instance.
func (s *Server) Exited() <-chan struct{} { return s.exited }

// Err is the kube-apiserver's exit error, once Exited is closed.
func (s *Server) Err() error { return s.exitErr }

// Stop tears down the kube-apiserver, then etcd, and removes the etcd data.
// It is safe to call more than once.
func (s *Server) Stop() error {
	var errs []error
	if err := s.stopAPIServer(); err != nil {
		errs = append(errs, err)
	}
	if s.etcd != nil {
		s.etcd.Close()
		s.etcd = nil
		if err := os.RemoveAll(filepath.Join(s.Dir, "etcd")); err != nil {
			errs = append(errs, err)
		}
	}
	return utilerrors.NewAggregate(errs)
}

// writeServingCert creates a throwaway CA and a serving certificate for
// 127.0.0.1/localhost signed by it, and returns the CA in PEM.
func writeServingCert(pki string) ([]byte, error) {
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("127.0.0.1",
		[]net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")},
		[]string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"})
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(pki, "apiserver.crt"), certPEM, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(pki, "apiserver.key"), keyPEM, 0o600); err != nil {
		return nil, err
	}
	// The generated file holds the leaf first, then the CA; keep only the CA.
	var ca []byte
	for rest := certPEM; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, err
		}
		if c.IsCA {
			ca = append(ca, pem.EncodeToMemory(b)...)
		}
	}
	if len(ca) == 0 {
		return nil, errors.New("generated serving certificate has no CA")
	}
	return ca, nil
}

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// writeClientFiles writes tokens.csv, ca.crt, address and both kubeconfigs.
func (s *Server) writeClientFiles(caPEM []byte) error {
	var err error
	if s.AdminToken, err = randomToken(); err != nil {
		return err
	}
	if s.SchedulerToken, err = randomToken(); err != nil {
		return err
	}
	// token,user,uid[,"group1,group2"]
	tokens := fmt.Sprintf("%s,admin,admin,\"system:masters\"\n%s,%s,%s\n",
		s.AdminToken, s.SchedulerToken, SchedulerUser, SchedulerUser)
	if err := os.WriteFile(filepath.Join(s.Dir, "tokens.csv"), []byte(tokens), 0o600); err != nil {
		return err
	}
	if err := os.WriteFile(s.CAFile, caPEM, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "address"), []byte(s.Address+"\n"), 0o644); err != nil {
		return err
	}
	for _, k := range []struct{ path, user, token string }{
		{s.AdminKubeconfig, "admin", s.AdminToken},
		{s.SchedulerKubeconfig, "scheduler", s.SchedulerToken},
	} {
		cfg := clientcmdapi.NewConfig()
		cfg.Clusters["schedkit-test"] = &clientcmdapi.Cluster{Server: s.URL, CertificateAuthorityData: caPEM}
		cfg.AuthInfos[k.user] = &clientcmdapi.AuthInfo{Token: k.token}
		cfg.Contexts[k.user] = &clientcmdapi.Context{Cluster: "schedkit-test", AuthInfo: k.user}
		cfg.CurrentContext = k.user
		if err := clientcmd.WriteToFile(*cfg, k.path); err != nil {
			return err
		}
	}
	return nil
}

func freeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// startEtcd runs a single-member etcd with client and peer URLs on
// 127.0.0.1 and returns its client URL.
func (s *Server) startEtcd() (string, error) {
	clientPort, err := freeLoopbackPort()
	if err != nil {
		return "", err
	}
	peerPort, err := freeLoopbackPort()
	if err != nil {
		return "", err
	}
	loopback := func(port int) []url.URL {
		return []url.URL{{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}}
	}
	cfg := embed.NewConfig()
	cfg.Name = "schedkit-test"
	cfg.Dir = filepath.Join(s.Dir, "etcd")
	cfg.UnsafeNoFsync = true // test data only; never survives a crash anyway
	cfg.ListenClientUrls = loopback(clientPort)
	cfg.AdvertiseClientUrls = loopback(clientPort)
	cfg.ListenPeerUrls = loopback(peerPort)
	cfg.AdvertisePeerUrls = loopback(peerPort)
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.LogLevel = "error"
	cfg.LogOutputs = []string{"stderr"}

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return "", fmt.Errorf("starting etcd: %w", err)
	}
	s.etcd = e
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		return "", fmt.Errorf("etcd failed: %w", err)
	case <-time.After(startTimeout):
		return "", errors.New("etcd did not become ready")
	}
	return cfg.AdvertiseClientUrls[0].String(), nil
}

// startAPIServer builds kube-apiserver options from s.apiFlags the way the
// kube-apiserver command does, serves on ln and runs in the background.
func (s *Server) startAPIServer(ln net.Listener) (err error) {
	defer func() {
		if err != nil {
			ln.Close()
		}
	}()
	opts := options.NewServerRunOptions()
	fs := pflag.NewFlagSet("kube-apiserver", pflag.ContinueOnError)
	for _, f := range opts.Flags().FlagSets {
		fs.AddFlagSet(f)
	}
	if err := fs.Parse(s.apiFlags); err != nil {
		return fmt.Errorf("kube-apiserver flags: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("kube-apiserver flags: unexpected arguments %q", fs.Args())
	}
	registry := opts.GenericServerRunOptions.ComponentGlobalsRegistry
	if err := registry.Set(); err != nil {
		return err
	}
	if err := logsapi.ValidateAndApply(opts.Logs, utilfeature.DefaultFeatureGate); err != nil {
		return err
	}
	// Serve on our listener; --secure-port only documents the port then.
	opts.SecureServing.Listener = ln
	// Since v1.37 kube-apiserver reserves a process-wide informer name and
	// never releases it when it stops: each instance here (a restart, or a
	// second server in one process) takes a name of its own.
	informerName, err := cache.NewInformerName(fmt.Sprintf("kube-apiserver-%d", apiServerInstances.Add(1)))
	if err != nil {
		return err
	}
	opts.InformerName = informerName

	ctx, cancel := context.WithCancel(context.Background())
	completed, err := opts.Complete(ctx)
	if err == nil {
		if errs := completed.Validate(); len(errs) > 0 {
			err = utilerrors.NewAggregate(errs)
		}
	}
	if err != nil {
		cancel()
		return fmt.Errorf("kube-apiserver options: %w", err)
	}

	exited := make(chan struct{})
	s.cancel, s.exited, s.exitErr, s.ready = cancel, exited, nil, false
	go func() {
		err := app.Run(ctx, completed)
		if err == nil && ctx.Err() == nil {
			err = errors.New("kube-apiserver returned unexpectedly")
		}
		s.exitErr = err
		close(exited)
	}()
	return nil
}

func (s *Server) stopAPIServer() error {
	if s.cancel == nil {
		return nil
	}
	if !s.ready {
		// Cancelling the kube-apiserver while its post-start hooks still run
		// makes a hook fail, and a failed hook exits the process (klog.Fatal).
		// So a stop requested during start-up waits for the start to finish.
		_ = s.waitReady(context.Background())
	}
	s.cancel()
	s.cancel = nil
	select {
	case <-s.exited:
		if s.exitErr != nil {
			klog.ErrorS(s.exitErr, "kube-apiserver stopped with an error")
		}
		return nil
	case <-time.After(stopTimeout):
		return errors.New("kube-apiserver did not stop in time")
	}
}

// listenAgain binds addr again, retrying briefly in case the port is still
// held by a closing listener.
func listenAgain(ctx context.Context, addr string) (net.Listener, error) {
	deadline := time.Now().Add(relistenWindow)
	for {
		ln, err := net.Listen("tcp", addr)
		if err == nil {
			return ln, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("re-binding %s: %w", addr, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitReady polls through the admin kubeconfig (so it also checks the CA and
// token written for clients) until /readyz is 200 and namespace "default"
// exists.
func (s *Server) waitReady(ctx context.Context) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", s.AdminKubeconfig)
	if err != nil {
		return err
	}
	cfg.Timeout = 5 * time.Second
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-s.exited:
			return fmt.Errorf("kube-apiserver exited during start: %w", s.exitErr)
		case <-ctx.Done():
			return fmt.Errorf("waiting for kube-apiserver: %w", ctx.Err())
		case <-tick.C:
		}
		code := 0
		client.CoreV1().RESTClient().Get().AbsPath("/readyz").Do(ctx).StatusCode(&code)
		if code != 200 {
			continue
		}
		if _, err := client.CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{}); err == nil {
			s.ready = true
			return nil
		}
	}
}
