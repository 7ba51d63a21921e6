package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"
)

// The guard with an allow list and with AllowPrivateNetworks: metadata
// addresses stay refused unless named; a prefix lets its addresses through
// and no others. The dial hook records what would be dialed; nothing is
// dialed for real.
func TestGuardAllowNetworks(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		addr    string
		allowed bool
	}{
		{name: "private: metadata refused", opts: Options{AllowPrivateNetworks: true}, addr: "169.254.169.254:80"},
		{name: "private: IPv6 metadata refused", opts: Options{AllowPrivateNetworks: true}, addr: "[fd00:ec2::254]:80"},
		{name: "private: link-local refused", opts: Options{AllowPrivateNetworks: true}, addr: "169.254.1.1:80"},
		{name: "private: Alibaba metadata refused", opts: Options{AllowPrivateNetworks: true}, addr: "100.100.100.200:80"},
		{name: "private: loopback allowed", opts: Options{AllowPrivateNetworks: true}, addr: "127.0.0.1:80", allowed: true},
		{name: "private: RFC 1918 allowed", opts: Options{AllowPrivateNetworks: true}, addr: "10.0.0.1:80", allowed: true},
		{name: "metadata named", opts: Options{AllowPrivateNetworks: true, AllowNetworks: []netip.Prefix{netip.MustParsePrefix("169.254.169.254/32")}}, addr: "169.254.169.254:80", allowed: true},
		{name: "prefix: loopback allowed", opts: Options{AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, addr: "127.0.0.2:80", allowed: true},
		{name: "prefix: other private refused", opts: Options{AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, addr: "10.0.0.1:80"},
		{name: "prefix: metadata refused", opts: Options{AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, addr: "169.254.169.254:80"},
		{name: "default: loopback refused", addr: "127.0.0.1:80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dialed []string
			o := tt.opts
			o.DialContext = func(_ context.Context, _, addr string) (net.Conn, error) {
				dialed = append(dialed, addr)
				return nil, errors.New("no network in tests")
			}
			d := newDialer(o)
			_, err := d.DialContext(context.Background(), "tcp", tt.addr)
			refused := errors.Is(err, ErrPrivateAddress)
			if refused == tt.allowed || (len(dialed) > 0) != tt.allowed {
				t.Errorf("dial %s: err %v, dialed %v; want allowed %v", tt.addr, err, dialed, tt.allowed)
			}
		})
	}
}

// The guard with AllowHosts: a named host (or one under a "*." pattern)
// may resolve to a private address, another name resolving to the same
// address may not, and a named host still never reaches a metadata
// address. Names resolve through a stub; connections are real, to a
// listener on loopback.
func TestGuardAllowHosts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	resolve := map[string]string{
		"intranet.test": "127.0.0.1", "other.test": "127.0.0.1", "a.corp.test": "127.0.0.1",
		"corp.test": "127.0.0.1", "meta.test": "169.254.169.254",
	}
	lookup := func(_ context.Context, _, host string) ([]netip.Addr, error) {
		if a, ok := resolve[strings.ToLower(strings.TrimSuffix(host, "."))]; ok {
			return []netip.Addr{netip.MustParseAddr(a)}, nil
		}
		return nil, errors.New("no such host")
	}
	allow := []string{"intranet.test", "*.corp.test", "meta.test"}
	tests := []struct {
		host    string
		allowed bool
	}{
		{"intranet.test", true},
		{"INTRANET.test.", true},
		{"other.test", false}, // same address, not named
		{"a.corp.test", true},
		{"corp.test", false}, // "*." names what is under it only
		{"meta.test", false}, // named, but metadata stays refused
		{"127.0.0.1", false}, // an address is not a name
	}
	for _, custom := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("custom=%v/%s", custom, tt.host), func(t *testing.T) {
				o := Options{AllowHosts: allow}
				dialed := false
				if custom {
					// A custom dialer that resolves as the stub does and
					// connects to the listener: the guard checks the name
					// first and the connection's address after.
					o.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
						dialed = true
						h, _, _ := net.SplitHostPort(addr)
						ip := h
						if as, err := lookup(ctx, "ip", h); err == nil {
							ip = as[0].String()
						}
						if ip != "127.0.0.1" {
							return nil, fmt.Errorf("test dialer: %s is not the listener", ip)
						}
						var d net.Dialer
						return d.DialContext(ctx, network, ln.Addr().String())
					}
				}
				d := newDialer(o.withDefaults())
				d.lookupNetIP = lookup
				conn, err := d.DialContext(context.Background(), "tcp", net.JoinHostPort(tt.host, port))
				if conn != nil {
					conn.Close()
				}
				if tt.allowed && err != nil {
					t.Errorf("dial %s: %v, want a connection", tt.host, err)
				}
				if !tt.allowed && !errors.Is(err, ErrPrivateAddress) {
					t.Errorf("dial %s: err %v, want ErrPrivateAddress", tt.host, err)
				}
				if custom && tt.host == "other.test" && dialed {
					t.Errorf("the custom dialer was called for %s, which the guard refuses before dialing", tt.host)
				}
			})
		}
	}
}
