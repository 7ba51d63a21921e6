package fetch_test

import (
	"context"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/fetch"
)

// LookupIP answers through the fetcher's DNS cache: one resolution per
// name per TTL, expiry reported, IP literals as they are, failures not
// cached.
func TestLookupIP(t *testing.T) {
	now := time.Unix(1000, 0)
	calls := map[string]int{}
	answer := "192.0.2.1"
	f := fetch.New(&fetch.Options{
		DNSCacheTTL: time.Minute,
		Now:         func() time.Time { return now },
		LookupNetIP: func(ctx context.Context, network, host string) ([]netip.Addr, error) {
			calls[host]++
			if host == "nx.test" {
				return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
			}
			return []netip.Addr{netip.MustParseAddr(answer)}, nil
		},
	})
	ctx := context.Background()
	for range 3 {
		addrs, expires, err := f.LookupIP(ctx, "a.test")
		if err != nil || len(addrs) != 1 || addrs[0].String() != "192.0.2.1" || !expires.Equal(now.Add(time.Minute)) {
			t.Fatalf("LookupIP(a.test) = %v, %v, %v, want [192.0.2.1], +1m", addrs, expires, err)
		}
	}
	if calls["a.test"] != 1 {
		t.Errorf("3 lookups of a cached name resolved it %d times, want 1", calls["a.test"])
	}
	now = now.Add(time.Minute)
	answer = "192.0.2.2"
	if addrs, _, _ := f.LookupIP(ctx, "a.test"); len(addrs) != 1 || addrs[0].String() != "192.0.2.2" {
		t.Errorf("LookupIP(a.test) after its TTL = %v, want the new answer 192.0.2.2", addrs)
	}
	for range 2 {
		if _, _, err := f.LookupIP(ctx, "nx.test"); err == nil {
			t.Errorf("LookupIP(nx.test) succeeded")
		}
	}
	if calls["nx.test"] != 2 {
		t.Errorf("failed lookups resolved %d times for 2 calls, want 2 (not cached)", calls["nx.test"])
	}
	for _, lit := range []string{"198.51.100.7", "[2001:db8::1]", "2001:db8::1"} {
		addrs, expires, err := f.LookupIP(ctx, lit)
		if err != nil || len(addrs) != 1 || !expires.IsZero() {
			t.Errorf("LookupIP(%q) = %v, %v, %v, want the address itself, never expiring", lit, addrs, expires, err)
		}
	}
	if len(calls) != 2 {
		t.Errorf("resolver called for %v, want only the two names", calls)
	}
}
