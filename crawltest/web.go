package crawltest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// ErrUnknownHost is returned (wrapped) by Web.DialContext for any address
// that is not one of the web's hosts.
var ErrUnknownHost = errors.New("crawltest: unknown host")

// ErrClosed is returned (wrapped) by Web.DialContext after Close.
var ErrClosed = errors.New("crawltest: web closed")

// Web is a synthetic web served on loopback. Create one with NewWeb or
// NewTestWeb and stop it with Close; a zero Web is not usable. Reach it
// through DialContext, Client or (with Options.LoopbackIPs) plain URLs; ask
// it for the ground truth (Reachable, Depths, Disallowed, Page, …) and for
// the requests it received (Log). All methods are safe for concurrent use,
// and the ground-truth methods keep working after Close.
type Web struct {
	opts   Options
	hosts  []hostInfo
	byName map[string]int // host name, and in LoopbackIPs mode "ip:port"
	addrs  []string       // listener address of each host
	byAddr map[string]int // listener address → host (LoopbackIPs mode)
	ips    []netip.Addr   // address of each host (Options.AddressOf); nil: 127.0.0.1 or the authority's

	srv       *http.Server
	listeners []net.Listener
	pipes     *pipeListener // Options.InMemory
	transport *http.Transport
	client    *http.Client
	done      chan struct{}
	serveWG   sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	mu       sync.Mutex
	idle     *sync.Cond
	closed   bool
	handlers int
	conns    int
	tooMany  map[int]int // /fault/429 requests per host

	logMu  sync.Mutex
	reqs   []Request
	logGen int

	login logins // Options.Login's sessions

	truthMu sync.Mutex
	reach   map[string]*reachability
	bufs    sync.Pool // *bytes.Buffer for rendering
	// Construct targets (Options.LinkConstructs): path and query as
	// referenced, and the paths served.
	ctargets     []string
	ctargetPaths map[string]bool
	bombMu       sync.Mutex
	bomb         []byte // one gzip member of 1 MiB of spaces
}

// NewWeb starts a web on loopback. A nil opts means the defaults.
func NewWeb(opts *Options) (*Web, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	w := &Web{
		opts:    o,
		byName:  make(map[string]int, o.Hosts),
		done:    make(chan struct{}),
		tooMany: make(map[int]int),
		reach:   make(map[string]*reachability),
	}
	w.idle = sync.NewCond(&w.mu)
	w.bufs.New = func() any { return new(bytes.Buffer) }
	w.hosts = make([]hostInfo, o.Hosts)
	for i := range w.hosts {
		w.hosts[i] = w.makeHost(i)
		w.byName[w.hosts[i].name] = i
	}
	if o.InMemory {
		w.pipes = newPipeListener()
		w.listeners = append(w.listeners, w.pipes)
		for range w.hosts {
			w.addrs = append(w.addrs, pipeAddr{}.String())
		}
	} else if o.LoopbackIPs {
		w.byAddr = make(map[string]int, o.Hosts)
		for i := range w.hosts {
			ip := "127.0." + strconv.Itoa(1+i/254) + "." + strconv.Itoa(1+i%254)
			l, err := net.Listen("tcp", ip+":0")
			if err != nil {
				w.closeListeners()
				return nil, fmt.Errorf("crawltest: listen on %s: %w", ip, err)
			}
			w.listeners = append(w.listeners, l)
			a := l.Addr().String()
			w.addrs = append(w.addrs, a)
			w.byAddr[a] = i
			w.byName[a] = i
			w.hosts[i].authority = a
		}
	} else if o.AddressOf != nil {
		if err := w.listenShared(); err != nil {
			return nil, err
		}
	} else {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("crawltest: listen: %w", err)
		}
		w.listeners = append(w.listeners, l)
		for range w.hosts {
			w.addrs = append(w.addrs, l.Addr().String())
		}
	}
	if o.LinkConstructs {
		w.ctargets, w.ctargetPaths = w.constructTargets()
	}
	w.srv = &http.Server{
		Handler:           handler{w},
		ErrorLog:          log.New(io.Discard, "", 0),
		ReadHeaderTimeout: time.Minute,
		ConnState:         w.connState,
	}
	w.transport = &http.Transport{
		DialContext:         w.DialContext,
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     time.Minute,
	}
	w.client = &http.Client{
		Transport:     w.transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	for _, l := range w.listeners {
		w.serveWG.Add(1)
		go func() {
			defer w.serveWG.Done()
			w.srv.Serve(l)
		}()
	}
	return w, nil
}

// listenShared opens one listener per address Options.AddressOf names.
func (w *Web) listenShared() error {
	byNum := map[int]string{}
	w.ips = make([]netip.Addr, len(w.hosts))
	for i := range w.hosts {
		n := w.opts.AddressOf(i)
		if n < 0 || n >= maxHosts {
			w.closeListeners()
			return fmt.Errorf("crawltest: AddressOf(%d) = %d, out of range [0, %d)", i, n, maxHosts)
		}
		ip := netip.AddrFrom4([4]byte{127, 0, byte(1 + n/254), byte(1 + n%254)})
		a, ok := byNum[n]
		if !ok {
			l, err := net.Listen("tcp", ip.String()+":0")
			if err != nil {
				w.closeListeners()
				return fmt.Errorf("crawltest: listen on %s: %w", ip, err)
			}
			w.listeners = append(w.listeners, l)
			a = l.Addr().String()
			byNum[n] = a
		}
		w.addrs = append(w.addrs, a)
		w.ips[i] = ip
	}
	return nil
}

// LookupNetIP resolves a host name of the web to the address its host is
// served on, with the signature of net.Resolver.LookupNetIP, for a
// crawler's resolver (fetch.Options.LookupNetIP): with Options.AddressOf,
// the host's own 127.0.x.y; with LoopbackIPs, the address in its
// authority; otherwise 127.0.0.1, the one listener every host shares.
// An IP literal resolves to itself. Any other name fails with a
// *net.DNSError whose IsNotFound is true, as does a network of "ip6": the
// web has IPv4 addresses only. It never touches the network or DNS.
func (w *Web) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	notFound := &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	if network == "ip6" {
		return nil, notFound
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	i, ok := w.byName[strings.TrimSuffix(strings.ToLower(host), ".")]
	switch {
	case !ok:
		return nil, notFound
	case w.ips != nil:
		return []netip.Addr{w.ips[i]}, nil
	case w.byAddr != nil:
		ap, err := netip.ParseAddrPort(w.addrs[i])
		if err != nil {
			return nil, notFound
		}
		return []netip.Addr{ap.Addr()}, nil
	}
	return []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1})}, nil
}

// NewTestWeb is NewWeb for tests and benchmarks: it fails tb on error and
// closes the web when the test ends (tb.Cleanup).
func NewTestWeb(tb testing.TB, opts *Options) *Web {
	tb.Helper()
	w, err := NewWeb(opts)
	if err != nil {
		tb.Fatalf("crawltest.NewWeb: %v", err)
	}
	tb.Cleanup(func() { w.Close() })
	return w
}

func (w *Web) closeListeners() {
	for _, l := range w.listeners {
		l.Close()
	}
}

func (w *Web) connState(_ net.Conn, s http.ConnState) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch s {
	case http.StateNew:
		w.conns++
	case http.StateClosed, http.StateHijacked:
		w.conns--
		w.idle.Broadcast()
	}
}

// Close stops the web: it closes the listeners and every connection, wakes
// every request still being served (slow, hanging and endless responses
// end at once) and returns when all goroutines the web started have
// exited. It is safe to call more than once; later calls return the first
// call's result.
func (w *Web) Close() error {
	w.closeOnce.Do(func() {
		w.mu.Lock()
		w.closed = true
		w.mu.Unlock()
		close(w.done)
		w.transport.CloseIdleConnections()
		w.closeErr = w.srv.Close()
		w.serveWG.Wait()
		w.mu.Lock()
		for w.handlers > 0 || w.conns > 0 {
			w.idle.Wait()
		}
		w.mu.Unlock()
		w.transport.CloseIdleConnections()
	})
	return w.closeErr
}

// Hosts returns the host names, h0.test … h{N-1}.test. They are the keys of
// the maps the Log returns, also in LoopbackIPs mode.
func (w *Web) Hosts() []string {
	s := make([]string, len(w.hosts))
	for i, h := range w.hosts {
		s[i] = h.name
	}
	return s
}

// Seeds returns one start URL per host: its home page, such as
// "http://h3.test/" (or "http://127.0.0.4:41234/" in LoopbackIPs mode).
func (w *Web) Seeds() []string {
	s := make([]string, len(w.hosts))
	for i := range w.hosts {
		s[i] = w.pageURL(i, 0)
	}
	return s
}

// DialContext connects to the web. It routes every host name of the web
// (whatever port addr names; URLs without a port use 80), and in
// LoopbackIPs mode each host's "127.0.x.y:port", to the web's listener. It
// never touches the network or DNS for any other address: those fail with
// an error wrapping ErrUnknownHost (and after Close every address fails
// with ErrClosed). Use it as the DialContext of an
// http.Transport to point a real HTTP client at the web.
func (w *Web) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, fmt.Errorf("crawltest: dial %s %s: unsupported network: %w", network, addr, ErrUnknownHost)
	}
	select {
	case <-w.done:
		return nil, fmt.Errorf("crawltest: dial %s: %w", addr, ErrClosed)
	default:
	}
	i, ok := w.byName[strings.ToLower(addr)]
	if !ok {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		i, ok = w.byName[strings.ToLower(host)]
		if !ok || strings.HasPrefix(host, "127.") {
			return nil, fmt.Errorf("crawltest: dial %s: %w", addr, ErrUnknownHost)
		}
	}
	if w.pipes != nil {
		return w.pipes.dial(ctx)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", w.addrs[i])
}

// Client returns an HTTP client that reaches the web through DialContext.
// It does not follow redirects (it returns the 3xx response), has no
// timeout (use a request context) and asks for gzip transparently, like
// http.DefaultClient. Close closes its idle connections. Every call returns
// the same client.
func (w *Web) Client() *http.Client { return w.client }

// handler serves the web; it is a separate type so that Web itself is not
// an http.Handler.
type handler struct{ w *Web }

func (h handler) ServeHTTP(rw http.ResponseWriter, r *http.Request) { h.w.serveHTTP(rw, r) }

// enter registers a running handler unless the web is closed.
func (w *Web) enter() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.handlers++
	return true
}

func (w *Web) leave() {
	w.mu.Lock()
	w.handlers--
	w.idle.Broadcast()
	w.mu.Unlock()
}

// hostOf returns the host a request is for: by its Host header, else (in
// LoopbackIPs mode) by the address it arrived on.
func (w *Web) hostOf(r *http.Request) (int, bool) {
	host := strings.ToLower(r.Host)
	if i, ok := w.byName[host]; ok {
		return i, true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		if i, ok := w.byName[h]; ok && !strings.HasPrefix(h, "127.") {
			return i, true
		}
	}
	if w.byAddr != nil {
		if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			i, ok := w.byAddr[a.String()]
			return i, ok
		}
	}
	return 0, false
}

// localAddr returns the address r arrived on, "ip:port".
func localAddr(r *http.Request) string {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		return a.String()
	}
	return ""
}

// recorder records what a handler sent.
type recorder struct {
	http.ResponseWriter
	status int
	n      int64
	none   bool // no response was sent (hang, reset)
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.n += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (w *Web) serveHTTP(rw http.ResponseWriter, r *http.Request) {
	if !w.enter() {
		return
	}
	defer w.leave()
	start := time.Now()
	target := r.RequestURI
	if !strings.HasPrefix(target, "/") {
		target = r.URL.RequestURI()
	}
	h, known := w.hostOf(r)
	req := Request{
		Start:      start,
		Method:     r.Method,
		Path:       target,
		RemoteAddr: r.RemoteAddr,
		LocalAddr:  localAddr(r),
		UserAgent:  r.UserAgent(),
	}
	authority := strings.ToLower(r.Host)
	if known {
		req.Host = w.hosts[h].name
		authority = w.hosts[h].authority
	} else {
		req.Host = authority
		if hh, _, err := net.SplitHostPort(authority); err == nil {
			req.Host = hh
		}
	}
	req.URL, _ = normalizeURL("http://" + authority + target)
	idx := w.logBegin(req)
	rec := &recorder{ResponseWriter: rw}
	defer func() {
		status := rec.status
		if status == 0 && !rec.none {
			status = http.StatusOK
		}
		w.logEnd(idx, time.Now(), status, rec.n)
	}()
	if d := w.opts.Latency; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if !known {
		http.Error(rec, "crawltest: unknown host "+r.Host, http.StatusMisdirectedRequest)
		return
	}
	if p := cleanPath(r.URL.Path); w.opts.Login && strings.HasPrefix(p, accountPrefix) {
		w.account(rec, r, h, p)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		rec.Header().Set("Allow", "GET, HEAD")
		http.Error(rec, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.route(rec, r, h)
}
