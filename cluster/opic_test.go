package cluster_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/opic"
	"github.com/trawl-dev/trawl/politeness"
)

// TestCashReachesOwner: under OPIC, the share of cash a link gives a URL
// that another agent owns travels to that agent, with the URL when the
// URL is new, in a cash note when it is queued already, and the owner
// places it in its own ledger: a new URL joins with its share, a waiting
// one is raised (and so comes out before a URL with less cash), and the
// share for one it took already goes to its virtual page, which hands it
// to the URLs still waiting.
func TestCashReachesOwner(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	opts := func(name string) *cluster.Options {
		return &cluster.Options{Name: name, Crawl: "cash", Lease: time.Second}
	}
	// b joins first, so that a's ring has both from the start.
	b, err := cluster.Join(ctx, rdb, opts("b"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	a, err := cluster.Join(ctx, rdb, opts("a"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Ring().Len() != 2 {
		t.Fatalf("a's ring has %v, want a and b", a.Ring().Agents())
	}
	mo := frontier.MemoryOptions{Strategy: frontier.Priority, Workers: 1, Politeness: politeness.Config{MinDelay: -1, Factor: -1}}
	af, err := a.Frontier(mo)
	if err != nil {
		t.Fatal(err)
	}
	bf, err := b.Frontier(mo)
	if err != nil {
		t.Fatal(err)
	}
	la, lb := opic.NewLedger(0), opic.NewLedger(0)
	af.(opic.Carrier).CarryCash(la)
	bf.(opic.Carrier).CarryCash(lb)
	accepted := make(chan struct{}, 10)
	cluster.SetOnAcceptForTest(bf, func() { accepted <- struct{}{} })
	waitAccept := func(what string) {
		t.Helper()
		select {
		case <-accepted:
		case <-time.After(10 * time.Second):
			t.Fatalf("b took in no stream entry for %s within 10 s", what)
		}
	}

	host := ""
	for i := 0; host == ""; i++ {
		if h := fmt.Sprintf("h%d.test", i); a.Ring().Owner(h) == "b" {
			host = h
		}
	}
	one, two := "http://"+host+"/one", "http://"+host+"/two"
	link := func(u string, share float64) frontier.Request {
		return frontier.Request{URL: u, Depth: 1, Referrer: "http://a.test/", Priority: share}
	}
	// New URLs: they travel to b with their shares, 0.1 each.
	if n, err := af.Push(ctx, link(one, 0.1), link(two, 0.1)); n != 2 || err != nil {
		t.Fatalf("Push of two new URLs = %d, %v; want 2, nil", n, err)
	}
	waitAccept("the new URLs")
	// Another link to two, queued already: a cash note takes its share to b.
	if n, err := af.Push(ctx, link(two, 0.5)); n != 0 || err != nil {
		t.Fatalf("Push of a queued URL = %d, %v; want 0, nil", n, err)
	}
	waitAccept("the cash note")
	if v := la.Virtual(); v != 0 {
		t.Errorf("a's virtual page holds %v of the cash it sent to b, want 0", v)
	}

	take := func(wantURL string, wantCash float64) {
		t.Helper()
		req, err := bf.Next(ctx)
		if err != nil {
			t.Fatalf("b's Next: %v", err)
		}
		cash, importance := lb.Take(req.Priority)
		if req.URL != wantURL || math.Abs(cash-wantCash) > 1e-9 {
			t.Errorf("b handed out %s with cash %v, want %s with %v", req.URL, cash, wantURL, wantCash)
		}
		if importance <= 0 {
			t.Errorf("%s: importance %v, want > 0", req.URL, importance)
		}
		if err := bf.Done(req, frontier.Outcome{Status: 200}); err != nil {
			t.Fatalf("Done: %v", err)
		}
	}
	take(two, 0.6) // 0.1 with the URL, 0.5 in the note: more cash, out first
	// A link to two, which b took already: its share goes to b's virtual
	// page, and from there to the one URL still waiting, one.
	if n, err := af.Push(ctx, link(two, 0.3)); n != 0 || err != nil {
		t.Fatalf("Push of a fetched URL = %d, %v; want 0, nil", n, err)
	}
	waitAccept("the second cash note")
	take(one, 0.1+0.3)
}
