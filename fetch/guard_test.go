package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sync/atomic"
	"testing"
)

func TestIsPrivate(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		// IPv4 special-purpose blocks that are not globally reachable.
		{addr: "0.0.0.0", want: true},
		{addr: "0.1.2.3", want: true},
		{addr: "10.1.2.3", want: true},
		{addr: "100.64.0.1", want: true},
		{addr: "100.127.255.255", want: true},
		{addr: "127.0.0.1", want: true},
		{addr: "127.255.255.254", want: true},
		{addr: "169.254.169.254", want: true},
		{addr: "172.16.0.1", want: true},
		{addr: "172.31.255.255", want: true},
		{addr: "192.0.0.1", want: true},
		{addr: "192.0.0.9", want: true},
		{addr: "192.0.2.1", want: true},
		{addr: "192.88.99.1", want: true},
		{addr: "192.168.1.1", want: true},
		{addr: "198.18.0.1", want: true},
		{addr: "198.19.255.255", want: true},
		{addr: "198.51.100.7", want: true},
		{addr: "203.0.113.9", want: true},
		{addr: "224.0.0.1", want: true},
		{addr: "239.255.255.250", want: true},
		{addr: "240.0.0.1", want: true},
		{addr: "255.255.255.255", want: true},
		// Their neighbours, and ordinary public addresses, stay allowed.
		{addr: "8.8.8.8", want: false},
		{addr: "1.1.1.1", want: false},
		{addr: "93.184.216.34", want: false},
		{addr: "9.255.255.255", want: false},
		{addr: "11.0.0.0", want: false},
		{addr: "100.63.255.255", want: false},
		{addr: "100.128.0.0", want: false},
		{addr: "172.15.255.255", want: false},
		{addr: "172.32.0.0", want: false},
		{addr: "192.0.1.1", want: false},
		{addr: "192.0.3.1", want: false},
		{addr: "192.88.98.1", want: false},
		{addr: "198.17.255.255", want: false},
		{addr: "198.20.0.0", want: false},
		{addr: "223.255.255.255", want: false},
		{addr: "192.31.196.1", want: false}, // AS112, globally reachable
		{addr: "192.175.48.1", want: false}, // AS112 direct delegation
		{addr: "192.52.193.1", want: false}, // AMT, globally reachable
		{addr: "2606:4700::1111", want: false},
		{addr: "2606:2800:220:1::1", want: false},
		{addr: "2a00:1450:4001:80b::200e", want: false},
		{addr: "2620:4f:8000::1", want: false}, // AS112 direct delegation
		{addr: "2001:200::1", want: false},     // just past 2001::/23
		{addr: "2001:4860:4860::8888", want: false},
		{addr: "2606:4700::1111%eth0", want: false},
		// IPv6 outside 2000::/3.
		{addr: "::", want: true},
		{addr: "::1", want: true},
		{addr: "fe80::1", want: true},
		{addr: "fe80::1%eth0", want: true},
		{addr: "fc00::1", want: true},
		{addr: "fd12:3456::1", want: true},
		{addr: "ff02::1", want: true},
		{addr: "ff0e::1", want: true},
		{addr: "100::1", want: true},  // discard-only
		{addr: "5f00::1", want: true}, // SRv6 SIDs
		{addr: "4000::1", want: true}, // unassigned
		{addr: "1fff:ffff::1", want: true},
		// Non-global blocks inside 2000::/3.
		{addr: "2001:db8::1", want: true},
		{addr: "2001:db8:ffff::1", want: true},
		{addr: "3fff::1", want: true},
		{addr: "3fff:fff::1", want: true},
		{addr: "3fff:1000::1", want: false},                        // past 3fff::/20
		{addr: "2001::1", want: true},                              // Teredo
		{addr: "2001:0:4136:e378:8000:63bf:f7f7:f7f7", want: true}, // Teredo, global server and client 8.8.8.8: refused too
		{addr: "2001:0:4136:e378:8000:63bf:80ff:fffe", want: true}, // Teredo, client 127.0.0.1
		{addr: "2001:2::1", want: true},                            // benchmarking
		{addr: "2001:10::1", want: true},                           // ORCHID
		{addr: "2001:1::1", want: true},                            // PCP anycast
		{addr: "2001:1ff:ffff::1", want: true},
		// IPv6 forms that embed an IPv4 address.
		{addr: "::ffff:127.0.0.1", want: true},
		{addr: "::ffff:10.0.0.1", want: true},
		{addr: "::ffff:8.8.8.8", want: false},
		{addr: "::7f00:1", want: true},           // IPv4-compatible 127.0.0.1
		{addr: "::808:808", want: true},          // IPv4-compatible 8.8.8.8: deprecated, refused
		{addr: "64:ff9b::7f00:1", want: true},    // NAT64 of 127.0.0.1
		{addr: "64:ff9b::a9fe:a9fe", want: true}, // NAT64 of 169.254.169.254
		{addr: "64:ff9b::a00:1", want: true},     // NAT64 of 10.0.0.1
		{addr: "64:ff9b::808:808", want: false},  // NAT64 of 8.8.8.8: allowed
		{addr: "64:ff9b::1:808:808", want: true}, // inside 64:ff9b::/64 but not the /96
		{addr: "64:ff9b:1::808:808", want: true}, // local-use NAT64
		{addr: "2002:7f00:1::", want: true},      // 6to4 of 127.0.0.1
		{addr: "2002:a9fe:a9fe::1", want: true},  // 6to4 of 169.254.169.254
		{addr: "2002:c0a8:101::1", want: true},   // 6to4 of 192.168.1.1
		{addr: "2002:808:808::1", want: false},   // 6to4 of 8.8.8.8
		{addr: "2002:ffff:ffff::1", want: true},  // 6to4 of 255.255.255.255
	}
	for _, tt := range tests {
		if got := isPrivate(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("isPrivate(%s) = %v, want %v", tt.addr, got, tt.want)
		}
		if got := refIsPrivate(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("refIsPrivate(%s) = %v, want %v (the fuzz reference disagrees with the table)", tt.addr, got, tt.want)
		}
	}
	if !isPrivate(netip.Addr{}) {
		t.Error("isPrivate(zero Addr) = false, want true")
	}
}

// refRule is one row of the reference guard: the verdict for addresses in
// prefix, unless a longer prefix also holds them.
type refRule struct {
	prefix  string
	verdict string // "allow", "refuse", or "v4@N": judge the IPv4 address at byte N
}

// refRules restates the guard's rule as a longest-prefix-match table, for
// FuzzIsPrivate.
var refRules = []refRule{
	{"0.0.0.0/0", "allow"},
	{"0.0.0.0/8", "refuse"},
	{"10.0.0.0/8", "refuse"},
	{"100.64.0.0/10", "refuse"},
	{"127.0.0.0/8", "refuse"},
	{"169.254.0.0/16", "refuse"},
	{"172.16.0.0/12", "refuse"},
	{"192.0.0.0/24", "refuse"},
	{"192.0.2.0/24", "refuse"},
	{"192.88.99.0/24", "refuse"},
	{"192.168.0.0/16", "refuse"},
	{"198.18.0.0/15", "refuse"},
	{"198.51.100.0/24", "refuse"},
	{"203.0.113.0/24", "refuse"},
	{"224.0.0.0/4", "refuse"},
	{"240.0.0.0/4", "refuse"},

	{"::/0", "refuse"},
	{"::ffff:0:0/96", "v4@12"},
	{"64:ff9b::/96", "v4@12"},
	{"2000::/3", "allow"},
	{"2001::/23", "refuse"},
	{"2001:db8::/32", "refuse"},
	{"2002::/16", "v4@2"},
	{"3fff::/20", "refuse"},
}

// refIsPrivate is a slow, table-driven statement of isPrivate.
func refIsPrivate(a netip.Addr) bool {
	if !a.IsValid() {
		return true
	}
	a = a.WithZone("")
	best, verdict := -1, ""
	for _, r := range refRules {
		p := netip.MustParsePrefix(r.prefix)
		if p.Contains(a) && p.Bits() > best {
			best, verdict = p.Bits(), r.verdict
		}
	}
	switch verdict {
	case "allow":
		return false
	case "v4@12", "v4@2":
		at := 12
		if verdict == "v4@2" {
			at = 2
		}
		b := a.As16()
		return refIsPrivate(netip.AddrFrom4([4]byte(b[at : at+4])))
	}
	return true
}

func FuzzIsPrivate(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "::7f00:1", "2001:db8::1",
		"3fff::1", "2001::1", "::ffff:8.8.8.8", "2606:4700::1111", "64:ff9b::808:808", "198.18.0.1", "255.255.255.255",
		"::ffff:10.0.0.1", "fe80::1", "64:ff9b:1::808:808", "2002:c0a8:101::1", "2002:808:808::1", "3fff:1000::1", "2001:200::1"} {
		b := netip.MustParseAddr(s).As16()
		f.Add(b[:])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 16 {
			b = append(b, make([]byte, 16-len(b))...)
		}
		a6 := netip.AddrFrom16([16]byte(b[:16]))
		if got, want := isPrivate(a6), refIsPrivate(a6); got != want {
			t.Fatalf("isPrivate(%s) = %v, reference says %v", a6, got, want)
		}
		v4 := [4]byte(b[:4])
		a4 := netip.AddrFrom4(v4)
		if got, want := isPrivate(a4), refIsPrivate(a4); got != want {
			t.Fatalf("isPrivate(%s) = %v, reference says %v", a4, got, want)
		}
		// The IPv6 forms that carry an IPv4 address agree with it; the
		// deprecated IPv4-compatible form is always refused.
		p := isPrivate(a4)
		for _, form := range [][16]byte{
			{10: 0xff, 11: 0xff, 12: v4[0], 13: v4[1], 14: v4[2], 15: v4[3]},
			{1: 0x64, 2: 0xff, 3: 0x9b, 12: v4[0], 13: v4[1], 14: v4[2], 15: v4[3]},
			{0: 0x20, 1: 0x02, 2: v4[0], 3: v4[1], 4: v4[2], 5: v4[3], 6: b[4], 7: b[5], 15: b[6]},
		} {
			if a := netip.AddrFrom16(form); isPrivate(a) != p {
				t.Fatalf("isPrivate(%s) = %v, but isPrivate(%s) = %v", a, isPrivate(a), a4, p)
			}
		}
		if compat := netip.AddrFrom16([16]byte{12: v4[0], 13: v4[1], 14: v4[2], 15: v4[3]}); !isPrivate(compat) {
			t.Fatalf("isPrivate(%s) = false, want true (IPv4-compatible)", compat)
		}
	})
}

// fakeConn is a connection whose remote address is chosen by the test.
type fakeConn struct {
	net.Conn
	remote net.Addr
	closed atomic.Bool
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.remote }
func (c *fakeConn) Close() error         { c.closed.Store(true); return nil }

func TestDialCustomChecksFirst(t *testing.T) {
	resolve := map[string][]string{
		"public.test":  {"8.8.8.8", "2606:4700::1111"},
		"private.test": {"8.8.8.8", "10.0.0.1"},
		"nat64.test":   {"64:ff9b::7f00:1"},
	}
	tests := []struct {
		name      string
		addr      string
		remote    string // the remote address of the custom dialer's connection
		allow     bool   // AllowPrivateNetworks
		wantCalls int32
		wantErr   error
	}{
		{name: "IPv4 loopback literal", addr: "127.0.0.1:80", remote: "127.0.0.1:80", wantErr: ErrPrivateAddress},
		{name: "IPv6 loopback literal", addr: "[::1]:443", remote: "[::1]:443", wantErr: ErrPrivateAddress},
		{name: "NAT64 literal", addr: "[64:ff9b::a9fe:a9fe]:80", remote: "8.8.8.8:80", wantErr: ErrPrivateAddress},
		{name: "metadata literal", addr: "169.254.169.254:80", remote: "8.8.8.8:80", wantErr: ErrPrivateAddress},
		{name: "name with one private address", addr: "private.test:80", remote: "8.8.8.8:80", wantErr: ErrPrivateAddress},
		{name: "name resolving to NAT64 loopback", addr: "nat64.test:80", remote: "8.8.8.8:80", wantErr: ErrPrivateAddress},
		{name: "public name", addr: "public.test:80", remote: "8.8.8.8:80", wantCalls: 1},
		{name: "public literal", addr: "8.8.8.8:80", remote: "8.8.8.8:80", wantCalls: 1},
		{name: "virtual name, public connection", addr: "virtual.test:80", remote: "8.8.4.4:80", wantCalls: 1},
		{name: "virtual name, loopback connection", addr: "virtual.test:80", remote: "127.0.0.1:80", wantCalls: 1, wantErr: ErrPrivateAddress},
		{name: "public name, loopback connection", addr: "public.test:80", remote: "127.0.0.1:80", wantCalls: 1, wantErr: ErrPrivateAddress},
		{name: "private allowed", addr: "127.0.0.1:80", remote: "127.0.0.1:80", allow: true, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			var conn *fakeConn
			o := &Options{
				AllowPrivateNetworks: tt.allow,
				DNSCacheTTL:          -1,
				DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
					calls.Add(1)
					conn = &fakeConn{remote: net.TCPAddrFromAddrPort(netip.MustParseAddrPort(tt.remote))}
					return conn, nil
				},
			}
			d := newDialer(o.withDefaults())
			d.lookupNetIP = func(ctx context.Context, network, host string) ([]netip.Addr, error) {
				var out []netip.Addr
				for _, s := range resolve[host] {
					out = append(out, netip.MustParseAddr(s))
				}
				if out == nil {
					return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
				}
				return out, nil
			}
			c, err := d.DialContext(context.Background(), "tcp", tt.addr)
			if got := calls.Load(); got != tt.wantCalls {
				t.Errorf("DialContext(%q) called the custom dialer %d times, want %d", tt.addr, got, tt.wantCalls)
			}
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || c != nil {
					t.Fatalf("DialContext(%q) = (%v, %v), want (nil, %v)", tt.addr, c, err, tt.wantErr)
				}
				if conn != nil && !conn.closed.Load() {
					t.Errorf("DialContext(%q): the refused connection was not closed", tt.addr)
				}
				return
			}
			if err != nil || c == nil {
				t.Fatalf("DialContext(%q) = (%v, %v), want a connection", tt.addr, c, err)
			}
		})
	}
}

// TestFetchCustomDialerNeverCalledForPrivate goes through Fetch: a private
// literal never reaches the custom dialer, so the server sees nothing.
func TestFetchCustomDialerNeverCalledForPrivate(t *testing.T) {
	var hits atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer ts.Close()
	var calls atomic.Int32
	f := New(&Options{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		calls.Add(1)
		return net.Dial(network, addr)
	}})
	defer f.CloseIdleConnections()
	u, _ := url.Parse(ts.URL + "/secret")
	if _, err := f.Fetch(context.Background(), &Request{URL: u}); !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("Fetch(%s) err = %v, want ErrPrivateAddress", u, err)
	}
	if _, err := f.Get(context.Background(), u); !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("Get(%s) err = %v, want ErrPrivateAddress", u, err)
	}
	if calls.Load() != 0 || hits.Load() != 0 {
		t.Errorf("custom dialer called %d times, server hit %d times; want 0 and 0", calls.Load(), hits.Load())
	}
}
