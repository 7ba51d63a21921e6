package trawlcli

import (
	"strings"
	"testing"
)

// TestPerIPFlags: -per-ip crawls polite per IP address too (on the -demo
// web every host is on 127.0.0.1 and its names resolve through the web),
// and the summary says the IP's share; -ip-delay or -ip-concurrency
// without -per-ip, or out of range, are refused.
func TestPerIPFlags(t *testing.T) {
	code, stdout, stderr := run(t, "-demo", "-per-ip", "-ip-delay", "5ms", "-delay", "10ms", "-max-pages", "12")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "each IP address 1 in flight, a 5ms gap (-per-ip)") {
		t.Errorf("summary does not give the IP's politeness:\n%s", stdout)
	}
	for _, args := range [][]string{
		{"-ip-delay", "1s", "http://a.test/"},
		{"-ip-concurrency", "2", "http://a.test/"},
		{"-per-ip", "-ip-delay", "-1s", "http://a.test/"},
		{"-per-ip", "-ip-concurrency", "0", "http://a.test/"},
	} {
		if code, _, stderr := run(t, args...); code != 2 || !strings.Contains(stderr, "-ip-") {
			t.Errorf("%v: exit %d, %q; want 2", args, code, stderr)
		}
	}
}
