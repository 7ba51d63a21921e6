package politeness

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

// step is one call on a Schedule in a step table.
type step struct {
	at    time.Duration // time of the call, from t0
	op    string        // "add", "remove", "next", "done", "cancel", "long", "group"
	host  string        // for add, remove, done, long; for next, the host expected ("" = none)
	out   Outcome       // for done
	wake  time.Duration // for next returning no host: expected wake from t0 (-1 = zero Time)
	err   error         // for done
	long  bool          // for long: what RestsLong should report
	group []string      // for group: what GroupHosts should report, sorted
}

func runSteps(t *testing.T, cfg *Config, steps []step) {
	t.Helper()
	s := NewSchedule(cfg)
	for i, st := range steps {
		now := at(st.at)
		switch st.op {
		case "add":
			s.Add(st.host)
		case "remove":
			s.Remove(st.host)
		case "cancel":
			if err := s.Cancel(st.host, now); !errors.Is(err, st.err) {
				t.Fatalf("step %d: Cancel(%q, +%v) error = %v, want %v", i, st.host, st.at, err, st.err)
			}
		case "done":
			if _, err := s.Done(st.host, now, st.out); !errors.Is(err, st.err) {
				t.Fatalf("step %d: Done(%q, +%v) error = %v, want %v", i, st.host, st.at, err, st.err)
			}
		case "long":
			if got := s.RestsLong(st.host, now); got != st.long {
				t.Fatalf("step %d: RestsLong(%q, +%v) = %v, want %v", i, st.host, st.at, got, st.long)
			}
		case "group":
			got := s.GroupHosts(st.host)
			slices.Sort(got)
			if !slices.Equal(got, st.group) {
				t.Fatalf("step %d: GroupHosts(%q) = %q, want %q", i, st.host, got, st.group)
			}
		case "next":
			host, wake, ok := s.Next(now)
			if st.host != "" {
				if !ok || host != st.host {
					t.Fatalf("step %d: Next(+%v) = %q, %v, want %q", i, st.at, host, ok, st.host)
				}
				continue
			}
			if ok {
				t.Fatalf("step %d: Next(+%v) = %q, want no host", i, st.at, host)
			}
			want := time.Time{}
			if st.wake >= 0 {
				want = at(st.wake)
			}
			if !wake.Equal(want) {
				t.Fatalf("step %d: Next(+%v) wake = %v, want %v", i, st.at, wake, want)
			}
		default:
			t.Fatalf("step %d: unknown op %q", i, st.op)
		}
	}
}

const ms = time.Millisecond

func TestScheduleSteps(t *testing.T) {
	tests := []struct {
		name  string
		cfg   *Config
		steps []step
	}{
		{
			name: "default minimum delay after the fetch ends",
			steps: []step{
				{op: "next", wake: -1},
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "next", wake: -1}, // in flight, nothing else waits
				{at: 100 * ms, op: "done", host: "a", out: Outcome{Duration: 50 * ms}},
				{at: 500 * ms, op: "next", wake: 1100 * ms},
				{at: 1099 * ms, op: "next", wake: 1100 * ms},
				{at: 1100 * ms, op: "next", host: "a"},
			},
		},
		{
			name: "adaptive delay is factor times fetch duration",
			cfg:  &Config{MinDelay: 100 * ms, Factor: 4},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{at: 300 * ms, op: "done", host: "a", out: Outcome{Duration: 300 * ms}},
				{at: 300 * ms, op: "next", wake: 1500 * ms},
				{at: 1500 * ms, op: "next", host: "a"},
			},
		},
		{
			name: "adaptive delay is clamped to MaxDelay",
			cfg:  &Config{MinDelay: 100 * ms, MaxDelay: 2 * time.Second},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "done", host: "a", out: Outcome{Duration: time.Minute}},
				{op: "next", wake: 2 * time.Second},
			},
		},
		{
			name: "robots crawl-delay wins over a smaller minimum",
			cfg:  &Config{MinDelay: 100 * ms},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "done", host: "a", out: Outcome{CrawlDelay: 5 * time.Second}},
				{op: "next", wake: 5 * time.Second},
			},
		},
		{
			name: "retry-after honoured, capped at BackoffMax",
			cfg:  &Config{MinDelay: -1, BackoffMax: time.Minute},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "done", host: "a", out: Outcome{Status: 200, RetryAfter: 30 * time.Second}},
				{op: "next", wake: 30 * time.Second},
				{at: 30 * time.Second, op: "next", host: "a"},
				{at: 30 * time.Second, op: "done", host: "a", out: Outcome{Status: 503, RetryAfter: time.Hour}},
				{at: 30 * time.Second, op: "next", wake: 90 * time.Second},
			},
		},
		{
			name: "crawl-delay capped at 5m by default",
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "done", host: "a", out: Outcome{CrawlDelay: 24 * time.Hour}},
				{op: "next", wake: 5 * time.Minute},
				{at: 5 * time.Minute, op: "next", host: "a"},
			},
		},
		{
			name: "crawl-delay capped at MaxCrawlDelay, custom policies included",
			cfg:  &Config{MaxCrawlDelay: 10 * time.Second, Policy: CrawlDelay()},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "done", host: "a", out: Outcome{CrawlDelay: time.Hour}},
				{op: "next", wake: 10 * time.Second},
				{at: 10 * time.Second, op: "next", host: "a"},
				{at: 10 * time.Second, op: "done", host: "a", out: Outcome{CrawlDelay: 3 * time.Second}},
				{at: 10 * time.Second, op: "next", wake: 13 * time.Second},
			},
		},
		{
			name: "negative MaxCrawlDelay lifts the cap",
			cfg:  &Config{MaxCrawlDelay: -1},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "done", host: "a", out: Outcome{CrawlDelay: 24 * time.Hour}},
				{op: "next", wake: 24 * time.Hour},
			},
		},
		{
			name: "MaxCrawlDelay does not cap Retry-After",
			cfg:  &Config{MaxCrawlDelay: time.Second},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "done", host: "a", out: Outcome{Status: 503, RetryAfter: 8 * time.Minute, CrawlDelay: time.Hour}},
				{op: "next", wake: 8 * time.Minute},
			},
		},
		{
			name: "a host rests long when its next contact is more than MaxDelay away",
			cfg:  &Config{MaxDelay: time.Minute},
			steps: []step{
				{op: "long", host: "a"}, // unknown
				{op: "add", host: "a"},
				{op: "long", host: "a"}, // never contacted
				{op: "next", host: "a"},
				{op: "done", host: "a", out: Outcome{Duration: time.Hour}}, // adaptive, clamped to MaxDelay
				{op: "long", host: "a"},
				{at: time.Minute, op: "next", host: "a"},
				{at: time.Minute, op: "done", host: "a", out: Outcome{CrawlDelay: 2 * time.Minute}},
				{at: time.Minute, op: "long", host: "a", long: true},
				{at: 2*time.Minute - ms, op: "long", host: "a", long: true},
				{at: 2 * time.Minute, op: "long", host: "a"},
				{at: 3 * time.Minute, op: "next", host: "a"},
				{at: 3 * time.Minute, op: "done", host: "a", out: Outcome{Status: 429, RetryAfter: 5 * time.Minute}},
				{at: 3 * time.Minute, op: "long", host: "a", long: true},
			},
		},
		{
			name: "hosts are served in order of next contact",
			cfg:  &Config{MinDelay: -1, Factor: -1},
			steps: []step{
				{op: "add", host: "a"},
				{op: "add", host: "b"},
				{op: "add", host: "c"},
				{op: "next", host: "a"},
				{op: "next", host: "b"},
				{op: "done", host: "b", out: Outcome{CrawlDelay: time.Second}},
				{op: "done", host: "a", out: Outcome{CrawlDelay: 2 * time.Second}},
				{op: "next", host: "c"},
				{op: "next", wake: time.Second},
				{at: 3 * time.Second, op: "next", host: "b"},
				{at: 3 * time.Second, op: "next", host: "a"},
			},
		},
		{
			name: "removed host is not handed out and keeps its timing",
			cfg:  &Config{MinDelay: time.Second},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "done", host: "a"},
				{op: "remove", host: "a"},
				{at: 2 * time.Second, op: "next", wake: -1},
				{at: 500 * ms, op: "add", host: "a"},
				{at: 500 * ms, op: "next", wake: time.Second},
			},
		},
		{
			name: "host concurrency two",
			cfg:  &Config{MinDelay: -1, HostConcurrency: 2},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "next", host: "a"},
				{op: "next", wake: -1},
				{op: "done", host: "a"},
				{op: "next", host: "a"},
			},
		},
		{
			name: "concurrent contacts keep the last delay apart",
			cfg:  &Config{MinDelay: time.Second, HostConcurrency: 2},
			steps: []step{
				{op: "add", host: "a"},
				{op: "next", host: "a"},
				{op: "next", wake: time.Second},
				{at: time.Second, op: "next", host: "a"},
				{at: time.Second, op: "next", wake: -1},
			},
		},
		{
			name: "grouped hosts share one server's politeness",
			cfg: &Config{MinDelay: time.Second, GroupKey: func(h string) string {
				if h == "c" {
					return "10.0.0.2"
				}
				return "10.0.0.1"
			}},
			steps: []step{
				{op: "add", host: "a"},
				{op: "add", host: "b"},
				{op: "add", host: "c"},
				{op: "next", host: "a"},
				{op: "next", host: "c"},
				{op: "next", wake: -1}, // b shares a's server, which is busy
				{op: "done", host: "a"},
				{op: "next", wake: time.Second},
				{at: time.Second, op: "next", host: "b"}, // round robin within the group
			},
		},
		{
			name: "a group rests long as one, and lists its hosts with work",
			cfg:  &Config{GroupKey: func(h string) string { return map[string]string{"a": "ip1", "b": "ip1", "c": "ip2"}[h] }},
			steps: []step{
				{op: "group", host: "a"},
				{op: "add", host: "a"},
				{op: "add", host: "b"},
				{op: "add", host: "c"},
				{op: "group", host: "a", group: []string{"a", "b"}},
				{op: "group", host: "c", group: []string{"c"}},
				{op: "next", host: "a"},
				{op: "done", host: "a", out: Outcome{CrawlDelay: 2 * time.Minute}},
				{op: "long", host: "b", long: true},
				{op: "long", host: "c"},
				{op: "remove", host: "a"},
				{op: "group", host: "b", group: []string{"b"}},
				{op: "group", host: "a", group: []string{"b"}},
			},
		},
		{
			name: "global rate limit",
			cfg:  &Config{MinDelay: -1, Rate: 2},
			steps: []step{
				{op: "add", host: "a"},
				{op: "add", host: "b"},
				{op: "add", host: "c"},
				{op: "next", host: "a"},
				{op: "next", wake: 500 * ms},
				{at: 500 * ms, op: "next", host: "b"},
				{at: 600 * ms, op: "next", wake: 1000 * ms},
				{at: 1000 * ms, op: "next", host: "c"},
			},
		},
		{
			name: "done without a lease",
			steps: []step{
				{op: "done", host: "a", err: ErrNotAcquired},
				{op: "add", host: "a"},
				{op: "done", host: "a", err: ErrNotAcquired},
				{op: "next", host: "a"},
				{op: "done", host: "a"},
				{op: "done", host: "a", err: ErrNotAcquired},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps(t, tt.cfg, tt.steps) })
	}
}

func TestScheduleBackoffSteps(t *testing.T) {
	// With a fixed policy input except the failures count, the delay after
	// n consecutive throttled outcomes lies in [base·2^(n-1)/2, base·2^(n-1)),
	// capped, and drops back to the minimum after a success.
	s := NewSchedule(&Config{MinDelay: time.Second, BackoffBase: 4 * time.Second, BackoffMax: 20 * time.Second, Seed: 1})
	s.Add("a")
	now := t0
	outs := []struct {
		out      Outcome
		min, max time.Duration
	}{
		{out: Outcome{Status: 429}, min: 2 * time.Second, max: 4 * time.Second},
		{out: Outcome{Status: 503}, min: 4 * time.Second, max: 8 * time.Second},
		{out: Outcome{Err: fmt.Errorf("get: %w", context.DeadlineExceeded)}, min: 8 * time.Second, max: 16 * time.Second},
		{out: Outcome{Err: &net.DNSError{IsTimeout: true}}, min: 10 * time.Second, max: 20 * time.Second},
		{out: Outcome{Status: 429}, min: 10 * time.Second, max: 20 * time.Second},
		{out: Outcome{Status: 200}, min: time.Second, max: time.Second},
		{out: Outcome{Status: 429}, min: 2 * time.Second, max: 4 * time.Second},
	}
	for i, o := range outs {
		host, wake, ok := s.Next(now)
		if !ok {
			t.Fatalf("contact %d: Next(%v) found no host (wake %v)", i, now, wake)
		}
		d, err := s.Done(host, now, o.out)
		if err != nil {
			t.Fatalf("contact %d: Done: %v", i, err)
		}
		if d < o.min || d > o.max {
			t.Errorf("contact %d: Done(%+v) delay = %v, want in [%v, %v]", i, o.out, d, o.min, o.max)
		}
		if next, _ := s.NextContact(host); !next.Equal(now.Add(d)) {
			t.Errorf("contact %d: NextContact = %v, want %v", i, next, now.Add(d))
		}
		now = now.Add(d)
	}
}

func TestSchedulePrune(t *testing.T) {
	s := NewSchedule(&Config{MinDelay: time.Second})
	for _, h := range []string{"a", "b", "c"} {
		s.Add(h)
	}
	s.Next(t0) // a
	s.Next(t0) // b
	if _, err := s.Done("a", t0, Outcome{}); err != nil {
		t.Fatal(err)
	}
	s.Remove("a")
	if n := s.Prune(t0); n != 0 {
		t.Errorf("Prune(t0) = %d, want 0 (a rests, b in flight, c waits)", n)
	}
	if n := s.Prune(at(time.Second)); n != 1 {
		t.Errorf("Prune(t0+1s) = %d, want 1", n)
	}
	if got := s.Hosts(); got != 2 {
		t.Errorf("Hosts() = %d, want 2", got)
	}
	if _, ok := s.NextContact("a"); ok {
		t.Errorf("NextContact(a) found a pruned host")
	}
}

func TestScheduleCancel(t *testing.T) {
	cfg := &Config{MinDelay: 100 * ms, Factor: -1}
	runSteps(t, cfg, []step{
		{op: "add", host: "a"},
		{at: 0, op: "next", host: "a"},
		{at: 10 * ms, op: "done", host: "a"},
		// The next contact is due at 110ms; a cancelled grant leaves it so.
		{at: 110 * ms, op: "next", host: "a"},
		{at: 115 * ms, op: "cancel", host: "a"},
		{at: 115 * ms, op: "next", host: "a"},
		{at: 120 * ms, op: "done", host: "a"},
		{at: 150 * ms, op: "next", wake: 220 * ms},
		{at: 150 * ms, op: "cancel", host: "a", err: ErrNotAcquired},
		{at: 150 * ms, op: "cancel", host: "nope", err: ErrNotAcquired},
	})
}

// A Crawl-delay of a day is honoured up to MaxCrawlDelay (5 minutes by
// default); a negative MaxCrawlDelay honours it whole.
func TestScheduleMaxCrawlDelay(t *testing.T) {
	day := Outcome{CrawlDelay: 24 * time.Hour}
	runSteps(t, &Config{MinDelay: 100 * ms, Factor: -1}, []step{
		{op: "add", host: "a"},
		{at: 0, op: "next", host: "a"},
		{at: 10 * ms, op: "done", host: "a", out: day},
		{at: 20 * ms, op: "next", wake: 10*ms + DefaultMaxCrawlDelay},
		{at: 10*ms + DefaultMaxCrawlDelay, op: "next", host: "a"},
	})
	runSteps(t, &Config{MinDelay: 100 * ms, Factor: -1, MaxCrawlDelay: 5 * time.Second}, []step{
		{op: "add", host: "a"},
		{at: 0, op: "next", host: "a"},
		{at: 10 * ms, op: "done", host: "a", out: day},
		{at: 20 * ms, op: "next", wake: 10*ms + 5*time.Second},
	})
	runSteps(t, &Config{MinDelay: 100 * ms, Factor: -1, MaxCrawlDelay: -1}, []step{
		{op: "add", host: "a"},
		{at: 0, op: "next", host: "a"},
		{at: 10 * ms, op: "done", host: "a", out: day},
		{at: 20 * ms, op: "next", wake: 10*ms + 24*time.Hour},
	})
}
