package trawlcli

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// -recrawl with -duration: the crawl keeps revisiting the demo web's pages
// (conditional GETs, some answered 304) until the time limit, which ends it
// with exit status 0; the summary reports the revisits.
func TestRecrawlFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"-demo", "-progress=false", "-delay", "0", "-recrawl", "-recrawl-min", "1s", "-duration", "3s"}
	if code := program().Run(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if strings.Contains(out.String(), "HEAD probes") {
		t.Errorf("HEAD probes reported without -recrawl-head:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "stopped at the time limit: ") {
		t.Errorf("summary does not say the time limit ended the crawl:\n%s", out.String())
	}
	m := regexp.MustCompile(`recrawl: (\d+) revisits \((\d+) answered 304`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no recrawl line in the summary:\n%s", out.String())
	}
	revisits, _ := strconv.Atoi(m[1])
	notModified, _ := strconv.Atoi(m[2])
	if revisits == 0 || notModified == 0 {
		t.Errorf("%d revisits, %d 304s in 3 s with -recrawl-min 1s; want both > 0:\n%s", revisits, notModified, out.String())
	}
	// The budget line: with -delay 0 each host allows a fetch a
	// millisecond, and the one-second floor leaves most of it idle.
	b := regexp.MustCompile(`recrawl: revisit budget ([\d.]+) fetches/s on (\d+) hosts, planned ([\d.]+), used ([\d.]+)`).FindStringSubmatch(out.String())
	if b == nil {
		t.Fatalf("no revisit budget line in the summary:\n%s", out.String())
	}
	budget, _ := strconv.ParseFloat(b[1], 64)
	planned, _ := strconv.ParseFloat(b[3], 64)
	if budget <= 0 || planned <= 0 || planned >= budget {
		t.Errorf("revisit budget %g/s, planned %g/s with -delay 0 -recrawl-min 1s; want 0 < planned < budget:\n%s", budget, planned, out.String())
	}
}

func TestRecrawlFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-recrawl", "-recrawl-policy", "fastest"},
		{"-duration", "-1s"},
		{"-recrawl", "-recrawl-min", "0"},
		{"-recrawl", "-recrawl-min", "2h", "-recrawl-max", "1h"},
	} {
		var out, errOut bytes.Buffer
		if code := program().Run(context.Background(), append([]string{"-demo", "-progress=false"}, args...), &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut.String())
		}
	}
}

// -recrawl-head: revisits start with HEAD probes, most of which find the
// demo web's pages unchanged; the summary reports them. Without it, no
// HEAD line.
func TestRecrawlHeadFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"-demo", "-progress=false", "-delay", "0", "-recrawl", "-recrawl-head", "-recrawl-min", "1s", "-duration", "3s"}
	if code := program().Run(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	m := regexp.MustCompile(`recrawl: (\d+) HEAD probes, (\d+) of them saved a GET`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no HEAD probe line in the summary:\n%s", out.String())
	}
	probes, _ := strconv.Atoi(m[1])
	saved, _ := strconv.Atoi(m[2])
	if probes == 0 || saved == 0 || saved > probes {
		t.Errorf("%d HEAD probes, %d saved a GET in 3 s with -recrawl-min 1s; want both > 0, saved ≤ probes:\n%s", probes, saved, out.String())
	}
}
