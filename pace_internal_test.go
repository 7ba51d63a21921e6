package trawl

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// TestPacerRest steps the pacer through the outcomes of contacts: the rule
// named is the one that sets the longest rest.
func TestPacerRest(t *testing.T) {
	defaults := newPacer(politeness.Config{MinDelay: time.Second, Factor: 10, BackoffBase: 2 * time.Second})
	noAdaptive := newPacer(politeness.Config{MinDelay: 250 * time.Millisecond, Factor: -1})
	tests := []struct {
		name  string
		p     pacer
		out   frontier.Outcome
		want  time.Duration
		wantR paceReason
	}{
		{name: "fast answer: the delay", p: defaults, out: frontier.Outcome{Status: 200, Duration: 20 * time.Millisecond}, want: time.Second, wantR: paceDelay},
		{name: "slow answer: adaptive", p: defaults, out: frontier.Outcome{Status: 200, Duration: 300 * time.Millisecond}, want: 3 * time.Second, wantR: paceAdaptive},
		{name: "adaptive off", p: noAdaptive, out: frontier.Outcome{Status: 200, Duration: 300 * time.Millisecond}, want: 250 * time.Millisecond, wantR: paceDelay},
		{name: "Crawl-delay", p: defaults, out: frontier.Outcome{Status: 200, CrawlDelay: 5 * time.Second}, want: 5 * time.Second, wantR: paceCrawlDelay},
		{name: "Crawl-delay capped", p: defaults, out: frontier.Outcome{Status: 200, CrawlDelay: time.Hour}, want: politeness.DefaultMaxCrawlDelay, wantR: paceCrawlDelay},
		{name: "429: back-off", p: defaults, out: frontier.Outcome{Status: http.StatusTooManyRequests}, want: 2*time.Second - 1, wantR: paceBackoff},
		{name: "Retry-After", p: defaults, out: frontier.Outcome{Status: 200, RetryAfter: 30 * time.Second}, want: 30 * time.Second, wantR: paceBackoff},
		{name: "timeout", p: noAdaptive, out: frontier.Outcome{Err: context.DeadlineExceeded}, want: 2*time.Second - 1, wantR: paceBackoff},
		{name: "refused: the delay", p: noAdaptive, out: frontier.Outcome{Err: errors.New("connection refused")}, want: 250 * time.Millisecond, wantR: paceDelay},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := tt.p.rest(&tt.out)
			if why != tt.wantR || got < tt.want-time.Millisecond || got > tt.want+time.Millisecond {
				t.Errorf("rest(%+v) = %v, %d; want %v, %d", tt.out, got, why, tt.want, tt.wantR)
			}
		})
	}
}

// The pacer runs after every contact, on the per-page path: it allocates
// nothing.
func TestPacerAllocatesNothing(t *testing.T) {
	p := newPacer(politeness.Config{MinDelay: time.Second, Factor: 10, BackoffBase: 2 * time.Second})
	outs := []frontier.Outcome{
		{Status: 200, Duration: 300 * time.Millisecond},
		{Status: http.StatusTooManyRequests, Duration: time.Millisecond},
	}
	for _, out := range outs {
		if n := testing.AllocsPerRun(100, func() { p.rest(&out) }); n != 0 {
			t.Errorf("rest(%+v): %v allocations, want 0", out, n)
		}
	}
}
