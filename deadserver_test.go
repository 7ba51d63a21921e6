package trawl_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/robots"
)

// A crawl of a server that is not there fails, and says why: its
// robots.txt is unreachable, which is an error for the URL (not a denial
// by robots.txt), and a crawl whose every seed failed returns an error.
// Seeds that normalize to one URL count once.
func TestDeadServerFails(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close() // nothing listens there now: connections are refused
	_, port, _ := net.SplitHostPort(dead)
	var decisions []trawl.Decision
	c, err := trawl.New(
		trawl.WithSeeds("http://127.0.0.1:"+port+"/", "http://127.1:"+port+"/"), // one seed, written twice
		trawl.WithUserAgent(testUA),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithEvents(trawl.Events{OnDecision: func(_ context.Context, d trawl.Decision) { decisions = append(decisions, d) }}),
	)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(t.Context())
	if err == nil || !strings.Contains(err.Error(), "every seed (1) failed") || !errors.Is(err, robots.ErrUnreachable) {
		t.Errorf("Run = %v, want an error saying every seed (1) failed, wrapping robots.ErrUnreachable", err)
	}
	st := c.Stats()
	if st.Robots.Denied != 0 || st.Errors.Kinds["robots-unreachable"] != 1 {
		t.Errorf("Robots.Denied %d, Errors.Kinds %v; want no denial and one robots-unreachable error", st.Robots.Denied, st.Errors.Kinds)
	}
	for _, d := range decisions {
		if d.Outcome == trawl.DecisionRobots {
			t.Errorf("%s decided %s: a dead server is not a robots.txt denial", d.URL, d.Outcome)
		}
	}
}
