package fetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/singleflight"
)

// dialer resolves through a small TTL cache and refuses private addresses.
type dialer struct {
	allowPrivate bool
	allow        []netip.Prefix // Options.AllowNetworks
	hosts        hostList       // Options.AllowHosts
	hostNet      net.Dialer     // for the hosts: private addresses allowed
	ttl          time.Duration
	now          func() time.Time
	custom       func(ctx context.Context, network, addr string) (net.Conn, error)
	net          net.Dialer
	lookupNetIP  func(ctx context.Context, network, host string) ([]netip.Addr, error)

	group singleflight.Group
	mu    sync.Mutex
	cache map[string]dnsEntry

	proxies sync.Map // host:port of proxies Options.Proxy named (see proxyFunc)
}

type dnsEntry struct {
	addrs   []netip.Addr
	expires time.Time
}

// maxDNSEntries bounds the cache; when full, expired entries are dropped and,
// if that is not enough, the whole cache is reset (cheap and rare).
const maxDNSEntries = 100_000

func newDialer(o Options) *dialer {
	d := &dialer{
		allowPrivate: o.AllowPrivateNetworks,
		allow:        o.AllowNetworks,
		hosts:        newHostList(o.AllowHosts),
		ttl:          o.DNSCacheTTL,
		now:          o.Now,
		custom:       o.DialContext,
		lookupNetIP:  o.LookupNetIP,
		cache:        make(map[string]dnsEntry),
	}
	if d.lookupNetIP == nil {
		d.lookupNetIP = net.DefaultResolver.LookupNetIP
	}
	d.net = net.Dialer{Timeout: o.DialTimeout, KeepAlive: 30 * time.Second}
	d.hostNet = d.net
	// Control sees the address actually dialled, after resolution.
	control := func(private bool) func(network, address string, _ syscall.RawConn) error {
		return func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", ErrPrivateAddress, address)
			}
			if d.refusedAs(ap.Addr(), private) {
				return fmt.Errorf("%w: %s", ErrPrivateAddress, ap.Addr())
			}
			return nil
		}
	}
	d.net.Control = control(d.allowPrivate)
	d.hostNet.Control = control(true)
	return d
}

// hostList is Options.AllowHosts: names, and suffixes for "*." patterns.
type hostList struct {
	names    map[string]bool
	suffixes []string // ".example.org" for "*.example.org"
}

func newHostList(hosts []string) hostList {
	var l hostList
	for _, h := range hosts {
		h = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(h), "."))
		if rest, ok := strings.CutPrefix(h, "*."); ok {
			l.suffixes = append(l.suffixes, "."+rest)
			continue
		}
		if l.names == nil {
			l.names = make(map[string]bool)
		}
		l.names[h] = true
	}
	return l
}

// allows reports whether the list names host (a name, not an address).
func (l hostList) allows(host string) bool {
	if l.names == nil && l.suffixes == nil {
		return false
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if l.names[host] {
		return true
	}
	for _, s := range l.suffixes {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	return false
}

// refusedAs reports whether the guard refuses a: an address in
// Options.AllowNetworks never is; otherwise, with private,
// only the link-local and cloud metadata addresses (isMetadata) are, and
// without it every address isPrivate names.
//
// private stands in for AllowPrivateNetworks: it is true as well for a host
// Options.AllowHosts names.
func (d *dialer) refusedAs(a netip.Addr, private bool) bool {
	a = a.Unmap()
	for _, p := range d.allow {
		if p.Contains(a) {
			return false
		}
	}
	if private {
		return isMetadata(a)
	}
	return isPrivate(a)
}

// DialContext dials addr ("host:port").
func (d *dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if d.isProxy(addr) {
		return d.dialProxy(ctx, network, addr)
	}
	if d.custom != nil {
		return d.dialCustom(ctx, network, addr)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	dialer := &d.net
	if d.hosts.allows(host) {
		dialer = &d.hostNet
	}
	if _, err := netip.ParseAddr(host); err == nil || d.ttl < 0 {
		return dialer.DialContext(ctx, network, addr)
	}
	addrs, err := d.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	var firstErr error
	for _, a := range addrs {
		conn, err := dialer.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, firstErr
}

// dialCustom dials through Options.DialContext. Unless private networks are
// allowed, addr is checked before the custom dialer sees it, so that a
// refused address is never contacted (no connection attempt, no timing to
// observe): an IP literal is checked as it is; a name is resolved through
// the DNS cache and refused if any of its addresses is. A name that does not
// resolve (a virtual host only the custom dialer knows) is passed on. In
// every case the remote address of the connection returned is checked too.
func (d *dialer) dialCustom(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	private := d.allowPrivate || d.hosts.allows(host)
	if err := d.precheck(ctx, host, private); err != nil {
		return nil, err
	}
	conn, err := d.custom(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if ap, err := netip.ParseAddrPort(conn.RemoteAddr().String()); err == nil && d.refusedAs(ap.Addr(), private) ||
		err != nil && !private {
		conn.Close()
		return nil, fmt.Errorf("%w: %s", ErrPrivateAddress, conn.RemoteAddr())
	}
	return conn, nil
}

// precheck refuses host before dialing when it is, or resolves to, a
// refused address (private in the place of AllowPrivateNetworks).
func (d *dialer) precheck(ctx context.Context, host string, private bool) error {
	if a, err := netip.ParseAddr(host); err == nil {
		if d.refusedAs(a, private) {
			return fmt.Errorf("%w: %s", ErrPrivateAddress, a)
		}
		return nil
	}
	if private && d.allowPrivate {
		// Only metadata addresses are refused: the connection's remote
		// address tells, without a DNS lookup of a name the custom dialer
		// may be the only one to know. (A host AllowHosts names is looked
		// up: it is a real name, and its metadata address is refused
		// before any connection.)
		return nil
	}
	addrs, err := d.lookup(ctx, host)
	if err != nil {
		return nil // unknown to DNS: the custom dialer may know it
	}
	for _, a := range addrs {
		if d.refusedAs(a, private) {
			return fmt.Errorf("%w: %s resolves to %s", ErrPrivateAddress, host, a)
		}
	}
	return nil
}

func (d *dialer) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	e, err := d.lookupEntry(ctx, host)
	return e.addrs, err
}

// lookupEntry resolves host through the cache, and returns its entry: the
// addresses and when they expire.
func (d *dialer) lookupEntry(ctx context.Context, host string) (dnsEntry, error) {
	if d.ttl < 0 {
		addrs, err := d.lookupNetIP(ctx, "ip", host)
		return dnsEntry{addrs: addrs, expires: d.now()}, err
	}
	now := d.now()
	d.mu.Lock()
	e, ok := d.cache[host]
	d.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e, nil
	}
	v, err, _ := d.group.Do(host, func() (any, error) {
		addrs, err := d.lookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
		e := dnsEntry{addrs: addrs, expires: now.Add(d.ttl)}
		d.mu.Lock()
		if len(d.cache) >= maxDNSEntries {
			for k, e := range d.cache {
				if !now.Before(e.expires) {
					delete(d.cache, k)
				}
			}
			if len(d.cache) >= maxDNSEntries {
				clear(d.cache)
			}
		}
		d.cache[host] = e
		d.mu.Unlock()
		return e, nil
	})
	if err != nil {
		return dnsEntry{}, err
	}
	return v.(dnsEntry), nil
}
