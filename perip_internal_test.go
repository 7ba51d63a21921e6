package trawl

import (
	"context"
	"errors"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// fakeResolver answers from a map, with a TTL of a minute on its clock.
// Its maps are read and written under mu (prime resolves in parallel);
// the test changes them between calls.
type fakeResolver struct {
	mu      sync.Mutex
	now     *time.Time
	answers map[string][]string
	calls   map[string]int
}

func (r *fakeResolver) LookupIP(_ context.Context, host string) ([]netip.Addr, time.Time, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls[host]++
	as, ok := r.answers[host]
	if !ok {
		return nil, time.Time{}, errors.New("no such host")
	}
	var addrs []netip.Addr
	for _, a := range as {
		addrs = append(addrs, netip.MustParseAddr(a))
	}
	return addrs, r.now.Add(time.Minute), nil
}

// The chain of politeness per IP without the crawl's timing: URLs are
// resolved before they are queued, the lowest address is the key, a name
// that does not resolve is its own server (tried again a minute later),
// and a host whose answer expired and changed moves to its new address
// when the fetch after the one whose worker resolved it again ends, as
// the crawler's workers do it: Done, then refresh.
func TestIPKeysMoveHostAfterTTL(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &fakeResolver{now: &now, calls: map[string]int{}, answers: map[string][]string{
		"a.test": {"192.0.2.9", "192.0.2.1"},
		"b.test": {"192.0.2.1"},
	}}
	k := newIPKeys(r)
	k.now = func() time.Time { return now }
	reqs := []frontier.Request{
		{URL: "http://a.test/1"}, {URL: "http://a.test/2"}, {URL: "http://b.test:8080/"}, {URL: "http://nx.test/"},
	}
	k.prime(context.Background(), reqs)
	if reqs[2].Host != "b.test:8080" {
		t.Errorf("prime set Host %q, want b.test:8080", reqs[2].Host)
	}
	for host, want := range map[string]string{"a.test": "192.0.2.1", "b.test:8080": "192.0.2.1", "nx.test": ""} {
		if ip, ok := k.key(host); ip != want || ok != (want != "") {
			t.Errorf("key(%s) = %q, %v, want %q", host, ip, ok, want)
		}
	}
	if r.calls["a.test"] != 1 || r.calls["b.test"] != 1 || r.calls["nx.test"] != 1 {
		t.Errorf("resolutions %v, want one per name", r.calls)
	}
	s := politeness.NewSchedule(&politeness.Config{MinDelay: -1, IPKey: k.key})
	s.Add("a.test")
	if ip, _ := s.IP("a.test"); ip != "192.0.2.1" {
		t.Fatalf("schedule has a.test on %q, want 192.0.2.1", ip)
	}
	host, _, _ := s.Next(now)

	r.answers["a.test"] = []string{"192.0.2.7"}
	if _, err := s.Done(host, now, politeness.Outcome{}); err != nil {
		t.Fatal(err)
	}
	k.refresh(context.Background(), host) // not expired yet
	if ip, _ := k.key("a.test"); ip != "192.0.2.1" {
		t.Errorf("key(a.test) before its TTL = %q, want the old answer", ip)
	}
	now = now.Add(time.Minute)
	host, _, _ = s.Next(now)
	if _, err := s.Done(host, now, politeness.Outcome{}); err != nil {
		t.Fatal(err)
	}
	k.refresh(context.Background(), host) // expired: resolved anew
	if ip, _ := s.IP("a.test"); ip != "192.0.2.1" {
		t.Errorf("the schedule moved a.test to %q before its next contact ended", ip)
	}
	now = now.Add(time.Second) // past the address's delay
	host, _, _ = s.Next(now)
	if _, err := s.Done(host, now, politeness.Outcome{}); err != nil {
		t.Fatal(err)
	}
	if ip, _ := s.IP("a.test"); ip != "192.0.2.7" {
		t.Errorf("after its TTL and its next fetch, the schedule has a.test on %q, want 192.0.2.7", ip)
	}
	// nx.test is tried again once its minute is over, not before.
	k.prime(context.Background(), []frontier.Request{{URL: "http://nx.test/2", Host: "nx.test"}})
	if r.calls["nx.test"] != 2 {
		t.Errorf("nx.test resolved %d times after its minute, want 2", r.calls["nx.test"])
	}
	k.prime(context.Background(), []frontier.Request{{URL: "http://nx.test/3", Host: "nx.test"}})
	if r.calls["nx.test"] != 2 {
		t.Errorf("nx.test resolved %d times within its minute, want 2", r.calls["nx.test"])
	}
}

// A batch naming more hosts than maxPrimed resolves maxPrimed of them.
func TestIPKeysPrimeBound(t *testing.T) {
	now := time.Now()
	r := &fakeResolver{now: &now, calls: map[string]int{}, answers: map[string][]string{}}
	k := newIPKeys(r)
	var reqs []frontier.Request
	for i := range 3 * maxPrimed {
		reqs = append(reqs, frontier.Request{URL: "http://h" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".test/"})
	}
	k.prime(context.Background(), reqs)
	if len(r.calls) != maxPrimed {
		t.Errorf("resolved %d names of %d, want %d", len(r.calls), len(reqs), maxPrimed)
	}
}
