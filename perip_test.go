package trawl_test

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
)

// TestPerIP: eight hosts share one address (virtual hosting) next to four
// on addresses of their own. Polite per IP, the crawl never has two
// requests in flight to the shared address and leaves at least the IP
// delay between the end of one and the start of the next, although the IP
// delay is shorter than the host delay; each host keeps its own delay;
// and every reachable page is fetched. Hosts whose names do not resolve
// (h9 and h10 here) are crawled polite by host alone.
func TestPerIP(t *testing.T) {
	const (
		hostDelay = 40 * time.Millisecond
		ipDelay   = 25 * time.Millisecond
	)
	web := crawltest.NewTestWeb(t, &crawltest.Options{
		Seed: 5, Hosts: 12, PagesPerHost: 8,
		AddressOf: func(i int) int { return max(i-7, 0) }, // h0-h7 on 127.0.1.1
	})
	var mu sync.Mutex
	lookups := map[string]int{}
	resolve := func(ctx context.Context, network, host string) ([]netip.Addr, error) {
		mu.Lock()
		lookups[host]++
		mu.Unlock()
		if host == "h9.test" || host == "h10.test" {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		return web.LookupNetIP(ctx, network, host)
	}
	_, _, err := crawl(t, web,
		trawl.WithPoliteness(trawl.Politeness{Delay: hostDelay, PerIP: true, IPDelay: ipDelay}),
		trawl.WithFetchOptions(fetch.Options{LookupNetIP: resolve}))
	if err != nil {
		t.Fatal(err)
	}
	log := web.Log()
	if missing, _ := diff(log.FetchedPages(), web.Reachable(testUA)); len(missing) > 0 {
		t.Errorf("%d reachable pages not fetched, e.g. %v", len(missing), first(missing, 5))
	}
	shared := log.Filter(func(r crawltest.Request) bool { return r.IP() == "127.0.1.1" })
	if shared.Len() < 8*8 {
		t.Fatalf("%d requests to the shared address, want at least 64: too few to mean anything", shared.Len())
	}
	if g := shared.MinGapBy(crawltest.Request.IP)["127.0.1.1"]; g < ipDelay {
		t.Errorf("shared address: smallest gap between requests %v, want ≥ the IP delay %v", g, ipDelay)
	}
	if n := log.MaxInFlightBy(crawltest.Request.IP)["127.0.1.1"]; n != 1 {
		t.Errorf("shared address: %d requests in flight at once, want 1", n)
	}
	for host, g := range log.MinGap() {
		if g < hostDelay {
			t.Errorf("host %s: smallest gap %v, want ≥ the host delay %v", host, g, hostDelay)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, h := range web.Hosts() {
		if lookups[h] == 0 {
			t.Errorf("%s never resolved", h)
		}
	}
	for name := range lookups {
		if !strings.HasSuffix(name, ".test") {
			t.Errorf("resolved %q, which is not a host of the web", name)
		}
	}
}

// TestPerIPResolvesAgainAfterTTL: with a DNS cache whose answers expire
// at once, every fetch's worker resolves its host again after it
// released it (so a host whose address changed would move).
func TestPerIPResolvesAgainAfterTTL(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 2, Hosts: 2, PagesPerHost: 6, AddressOf: func(int) int { return 0 }})
	var mu sync.Mutex
	lookups := 0
	resolve := func(ctx context.Context, network, host string) ([]netip.Addr, error) {
		mu.Lock()
		lookups++
		mu.Unlock()
		return web.LookupNetIP(ctx, network, host)
	}
	_, _, err := crawl(t, web,
		trawl.WithPoliteness(trawl.Politeness{PerIP: true, IPDelay: trawl.NoDelay}),
		trawl.WithFetchOptions(fetch.Options{LookupNetIP: resolve, DNSCacheTTL: -1}))
	if err != nil {
		t.Fatal(err)
	}
	if n, fetched := lookups, web.Log().Len(); n < fetched {
		t.Errorf("%d resolutions for %d fetches, want one after each fetch at least", n, fetched)
	}
	if n := web.Log().MaxInFlightBy(crawltest.Request.IP)["127.0.1.1"]; n != 1 {
		t.Errorf("%d requests in flight at once to the one address, want 1", n)
	}
}

func TestPerIPOptions(t *testing.T) {
	tests := []struct {
		name string
		opts []trawl.Option
		want string // in New's error; "" for none
	}{
		{name: "on", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{PerIP: true, IPDelay: time.Second, IPConcurrency: 2})}},
		{name: "no IP delay", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{PerIP: true, IPDelay: trawl.NoDelay})}},
		{name: "merged", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{PerIP: true}), trawl.WithPoliteness(trawl.Politeness{IPDelay: time.Second})}},
		{name: "IP delay without PerIP", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{IPDelay: time.Second})}, want: "only with PerIP"},
		{name: "negative IP delay", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{PerIP: true, IPDelay: -time.Second})}, want: "IPDelay must not be negative"},
		{name: "negative IP concurrency", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{PerIP: true, IPConcurrency: -1})}, want: "IPConcurrency must not be negative"},
		{name: "a fetcher that does not resolve", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{PerIP: true}), trawl.WithFetcher(plainFetcher{})}, want: "trawl.IPResolver"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := trawl.New(append([]trawl.Option{trawl.WithSeeds("https://example.com/")}, tt.opts...)...)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("New: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("New: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// plainFetcher is a fetcher that resolves nothing.
type plainFetcher struct{}

func (plainFetcher) Fetch(context.Context, *fetch.Request) (*fetch.Response, error) {
	return nil, &fetch.Error{Err: fetch.ErrPrivateAddress}
}
