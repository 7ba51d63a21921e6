package trawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/frontier"
)

// TestDecisionQueuedComesFirst checks that a URL's DecisionQueued is
// recorded before the decision about its fetch, even when another worker
// takes the URL from the frontier and fetches it while the push that
// queued it is still recording: here the recorder of DecisionQueued waits
// until a worker has taken the URL. Before the decisions were ordered, a URL on
// another host could be recorded as fetched (or failed) and then as
// queued, and a decision log read in order said it was never fetched.
func TestDecisionQueuedComesFirst(t *testing.T) {
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "<html><body><p>b</p></body></html>")
	}))
	defer b.Close()
	target := b.URL + "/page"
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `<html><body><a href="%s">b</a></body></html>`, target)
	}))
	defer a.Close()

	taken := make(chan struct{}) // closed when a worker takes the URL
	var once, once2 sync.Once
	recorded := make(chan struct{}) // closed when a decision other than queued comes
	var (
		mu  sync.Mutex
		got []trawl.Outcome
	)
	c, err := trawl.New(
		trawl.WithSeeds(a.URL+"/"),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithWorkers(4),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithFrontier(func(opts frontier.MemoryOptions) (frontier.Frontier, error) {
			return &takeSignal{Memory: frontier.NewMemory(&opts), url: target, taken: func() { once.Do(func() { close(taken) }) }}, nil
		}),
		trawl.WithEvents(trawl.Events{OnDecision: func(_ context.Context, d trawl.Decision) {
			if d.URL != target {
				return
			}
			if d.Outcome == trawl.DecisionQueued {
				select {
				case <-taken:
				case <-time.After(10 * time.Second): // a bound, should no worker take it
					t.Error("no worker took the queued URL")
				}
				// Give the worker that took it the chance to record its
				// decisions first. With the decisions ordered it cannot,
				// and this waits out its bound: a wait for something that
				// must not happen has no signal to end it.
				select {
				case <-recorded:
				case <-time.After(time.Second):
				}
			} else {
				once2.Do(func() { close(recorded) })
			}
			mu.Lock()
			got = append(got, d.Outcome)
			mu.Unlock()
		}}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) < 2 || got[0] != trawl.DecisionQueued || got[len(got)-1] != trawl.DecisionFetched {
		t.Errorf("decisions about %s, in the order recorded: %v; want queued first, fetched last", target, got)
	}
}

// takeSignal is a memory frontier that calls taken when a worker takes
// url from it, before the worker records anything about it.
type takeSignal struct {
	*frontier.Memory
	url   string
	taken func()
}

func (f *takeSignal) Next(ctx context.Context) (frontier.Request, error) {
	r, err := f.Memory.Next(ctx)
	if err == nil && r.URL == f.url {
		f.taken()
	}
	return r, err
}
