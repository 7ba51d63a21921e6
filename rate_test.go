package trawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/extract"
)

// TestPerSecond: Politeness.PerSecond holds a host to that many requests a
// second (a request starts at least 1/PerSecond after the previous one
// ended), and Stats.Pace says the delay set it, not the adaptive delay.
func TestPerSecond(t *testing.T) {
	var mu sync.Mutex
	var starts []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		starts = append(starts, time.Now())
		mu.Unlock()
		if r.URL.Path == "/" {
			for i := range 5 {
				fmt.Fprintf(w, `<a href="/p%d">p</a>`, i)
			}
			return
		}
		fmt.Fprint(w, "<p>page</p>")
	}))
	defer srv.Close()
	c, err := trawl.New(trawl.WithSeeds(srv.URL+"/"), trawl.WithAllowPrivateNetworks(true), trawl.WithUserAgent(testUA),
		trawl.WithFollow(extract.Navigation), // links only: no sitemap guess
		trawl.WithPoliteness(trawl.Politeness{PerSecond: 20}))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	if len(starts) < 7 { // robots.txt, the home page, 5 pages
		t.Fatalf("%d requests, want 7", len(starts))
	}
	for i := 1; i < len(starts); i++ {
		if gap := starts[i].Sub(starts[i-1]); gap < 50*time.Millisecond {
			t.Errorf("requests %d and %d %v apart, want at least 50ms (20 a second)", i-1, i, gap)
		}
	}
	st := c.Stats()
	if st.Pace.Delay != int64(len(starts)) || st.Pace.Adaptive+st.Pace.CrawlDelay+st.Pace.Backoff != 0 {
		t.Errorf("Pace %+v, want all %d rests set by the delay", st.Pace, len(starts))
	}
	if st.Pace.Longest != 50*time.Millisecond {
		t.Errorf("Pace.Longest = %v, want 50ms", st.Pace.Longest)
	}
}

// TestPerSecondOptions: PerSecond and Delay are one setting: both in one
// Politeness is refused, a later one replaces an earlier other.
func TestPerSecondOptions(t *testing.T) {
	tests := []struct {
		name string
		opts []trawl.Option
		want string // in New's error; "" for none
	}{
		{name: "both", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{PerSecond: 4, Delay: time.Second})}, want: "give one"},
		{name: "negative", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{PerSecond: -1})}, want: "positive"},
		{name: "delay then rate", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{Delay: time.Second}), trawl.WithPoliteness(trawl.Politeness{PerSecond: 4})}},
		{name: "rate then delay", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{PerSecond: 4}), trawl.WithPoliteness(trawl.Politeness{Delay: time.Second})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := trawl.New(append([]trawl.Option{trawl.WithSeeds("http://a.test/")}, tt.opts...)...)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("New = %v, want no error", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("New = %v, want an error saying %q", err, tt.want)
			}
		})
	}
}
