package crawltest

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
)

// With AddressOf, hosts keep their names and share the addresses it
// gives: LookupNetIP resolves each name to its address, requests reach
// that address's listener (Request.LocalAddr), which routes them by Host
// header, and the log groups them per address.
func TestAddressOf(t *testing.T) {
	// Hosts 0-3 share address 0 (127.0.1.1); hosts 4 and 5 have their own.
	w := NewTestWeb(t, &Options{Hosts: 6, PagesPerHost: 5, AddressOf: func(i int) int { return max(i-3, 0) }})
	ctx := context.Background()
	want := []string{"127.0.1.1", "127.0.1.1", "127.0.1.1", "127.0.1.1", "127.0.1.2", "127.0.1.3"}
	for i, name := range w.Hosts() {
		addrs, err := w.LookupNetIP(ctx, "ip", name)
		if err != nil || len(addrs) != 1 || addrs[0].String() != want[i] {
			t.Errorf("LookupNetIP(%s) = %v, %v, want [%s]", name, addrs, err, want[i])
		}
	}
	if s := w.Seeds()[4]; s != "http://h4.test/" {
		t.Errorf("Seeds()[4] = %q, want the name kept", s)
	}
	for _, name := range []string{"example.com", "h6.test", "localhost"} {
		var dnsErr *net.DNSError
		if _, err := w.LookupNetIP(ctx, "ip", name); !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
			t.Errorf("LookupNetIP(%s) = %v, want a not-found *net.DNSError", name, err)
		}
	}
	if _, err := w.LookupNetIP(ctx, "ip6", "h0.test"); err == nil {
		t.Errorf("LookupNetIP(ip6, h0.test) succeeded on an IPv4-only web")
	}
	for _, s := range w.Seeds() {
		resp, b := get(t, w.Client(), s)
		if resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte("Home of h")) {
			t.Errorf("GET %s = %d", s, resp.StatusCode)
		}
	}
	log := w.Log()
	for _, r := range log.Requests() {
		i := w.byName[r.Host]
		if r.IP() != want[i] {
			t.Errorf("request for %s reached %s, want %s", r.Host, r.LocalAddr, want[i])
		}
	}
	byIP := log.MaxInFlightBy(Request.IP)
	if len(byIP) != 3 || byIP["127.0.1.1"] != 1 {
		t.Errorf("MaxInFlightBy(IP) = %v, want 3 addresses, one request at a time each", byIP)
	}
	if gaps := log.MinGapBy(Request.IP); len(gaps) != 1 || gaps["127.0.1.1"] <= 0 {
		t.Errorf("MinGapBy(IP) = %v, want a gap for the one address with several requests", gaps)
	}
	// Without AddressOf every name is on 127.0.0.1.
	plain := NewTestWeb(t, &Options{Hosts: 2, PagesPerHost: 5})
	if addrs, err := plain.LookupNetIP(ctx, "ip", "h1.test"); err != nil || addrs[0].String() != "127.0.0.1" {
		t.Errorf("LookupNetIP(h1.test) without AddressOf = %v, %v, want [127.0.0.1]", addrs, err)
	}
	if _, err := NewWeb(&Options{Hosts: 2, AddressOf: func(int) int { return -1 }}); err == nil {
		t.Errorf("NewWeb with AddressOf out of range succeeded")
	}
}
