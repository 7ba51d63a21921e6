package fetch

import (
	"context"
	"net"
	"net/http"
	"net/url"
)

// proxyFunc wraps Options.Proxy: when it names a proxy for a request and
// private networks are not allowed, the request's own host must pass the
// guard (see Options.Proxy), and the proxy's address is remembered as one
// the user chose, so that dialing it is not refused.
func (d *dialer) proxyFunc(fn func(*http.Request) (*url.URL, error)) func(*http.Request) (*url.URL, error) {
	return func(r *http.Request) (*url.URL, error) {
		pu, err := fn(r)
		if err != nil || pu == nil {
			return pu, err
		}
		host := r.URL.Hostname()
		if err := d.precheck(r.Context(), host, d.allowPrivate || d.hosts.allows(host)); err != nil {
			return nil, err
		}
		d.proxies.Store(proxyAddr(pu), true)
		return pu, nil
	}
}

// proxyAddr returns the host:port the transport dials for proxy pu.
func proxyAddr(pu *url.URL) string {
	port := pu.Port()
	if port == "" {
		switch pu.Scheme {
		case "https":
			port = "443"
		case "socks5", "socks5h":
			port = "1080"
		default:
			port = "80"
		}
	}
	return net.JoinHostPort(pu.Hostname(), port)
}

// isProxy reports whether addr is a proxy Options.Proxy named.
func (d *dialer) isProxy(addr string) bool {
	_, ok := d.proxies.Load(addr)
	return ok
}

// dialProxy dials a proxy the user named, without the guard: its address
// is the user's choice (often a local one), and the guard has checked the
// target host instead.
func (d *dialer) dialProxy(ctx context.Context, network, addr string) (net.Conn, error) {
	if d.custom != nil {
		return d.custom(ctx, network, addr)
	}
	plain := net.Dialer{Timeout: d.net.Timeout, KeepAlive: d.net.KeepAlive}
	return plain.DialContext(ctx, network, addr)
}
