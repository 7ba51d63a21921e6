package trawlcli

import (
	"regexp"
	"strings"
	"testing"
)

// TestRateFlag: -rate R holds each host to R requests a second (a 1/R gap,
// the adaptive delay off), and the summary says the rate and what rested
// the hosts; -rate with -delay, or not positive, is refused.
func TestRateFlag(t *testing.T) {
	srv := brokenSite(t, 0)
	code, stdout, stderr := run(t, "-allow-private", "-rate", "20", srv.URL+"/")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "politeness: each host ≤20 req/s, 1 in flight: a 50ms gap after each response") || strings.Contains(stdout, "-adaptive") {
		t.Errorf("summary does not give the rate, or keeps the adaptive delay:\n%s", stdout)
	}
	m := regexp.MustCompile(`after (\d+) of (\d+) requests the host rested for the delay;`).FindStringSubmatch(stdout)
	if m == nil || m[1] != m[2] || m[1] == "0" {
		t.Errorf("summary does not say the delay rested the host after every request:\n%s", stdout)
	}
	for _, args := range [][]string{{"-rate", "0", "http://a.test/"}, {"-rate", "4", "-delay", "1s", "http://a.test/"}} {
		if code, _, stderr := run(t, args...); code != 2 || !strings.Contains(stderr, "-rate") {
			t.Errorf("%v: exit %d, %q; want 2", args, code, stderr)
		}
	}
}

// TestDescribePace: the words for the flags' politeness.
func TestDescribePace(t *testing.T) {
	for _, tc := range []struct {
		p    pace
		want string
	}{
		{describePace(1e9, 10, 1), "≤1 req/s, 1 in flight|a 1s gap after each response (-delay, or -rate), longer after a slow response: 10 × its time (-adaptive)"},
		{describePace(250e6, 0, 4), "≤4 req/s, 4 in flight|a 250ms gap after each response (-delay, or -rate)"},
		{describePace(0, 0, 2), "unlimited, 2 in flight|no delay (-delay 0)"},
	} {
		if got := tc.p.rate + "|" + tc.p.why; got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
