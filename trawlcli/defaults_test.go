package trawlcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/fetch"
)

// slowSite is a fetcher for one host whose every answer reports that it
// took an hour: the adaptive delay, when on, rests the host the longest it
// may (1 min) after each fetch. Its home page links to n pages.
type slowSite struct {
	n       int
	fetches atomic.Int64
}

func (f *slowSite) Fetch(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	f.fetches.Add(1)
	resp := &fetch.Response{URL: req.URL, Status: 200, Header: map[string][]string{}, ContentType: "text/html", Charset: "utf-8", Duration: time.Hour}
	switch req.URL.Path {
	case "/robots.txt":
		resp.Status, resp.ContentType, resp.Body = 200, "text/plain", []byte("User-agent: *\nAllow: /\n")
	case "/":
		var b strings.Builder
		for i := range f.n {
			fmt.Fprintf(&b, `<a href="/p%d">page %d</a> `, i, i)
		}
		resp.Body = []byte("<html><head><title>home</title></head><body>" + b.String() + "</body></html>")
	default:
		resp.Body = []byte("<html><head><title>" + req.URL.Path + "</title></head><body>leaf</body></html>")
	}
	return resp, nil
}

// TestDelayTurnsAdaptiveOff: -delay D without -adaptive spaces a host's
// requests by D, however long its fetches take; with -adaptive, or without
// -delay, the adaptive delay (10 × the fetch time, at most 1 min) holds.
// The crawl runs on synctest's fake clock, so the spacing is measured
// exactly and costs no real time.
func TestDelayTurnsAdaptiveOff(t *testing.T) {
	const pages = 4 // the home page and 3 links
	tests := []struct {
		name string
		args []string
		gap  time.Duration // the spacing of a host's requests
	}{
		{name: "delay alone", args: []string{"-delay", "2s"}, gap: 2 * time.Second},
		{name: "delay and adaptive", args: []string{"-delay", "2s", "-adaptive", "10"}, gap: time.Minute},
		{name: "default delay", args: nil, gap: time.Minute},
		{name: "adaptive off", args: []string{"-adaptive", "0"}, gap: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				site := &slowSite{n: pages - 1}
				cmd := &Command{Name: "slowspider", Usage: "test", Crawl: func(ctx context.Context, s *Session) error {
					c, err := trawl.New(append(s.Options(), trawl.WithSeeds(s.Seeds()...), trawl.WithFetcher(site))...)
					if err != nil {
						return err
					}
					return s.Run(ctx, c)
				}}
				var out, errOut bytes.Buffer
				start := time.Now()
				args := append([]string{"-progress=false", "-spill="}, tt.args...)
				if code := cmd.Run(t.Context(), append(args, "http://slow.test/"), &out, &errOut); code != 0 {
					t.Fatalf("exit %d: %s", code, errOut.String())
				}
				took := time.Since(start)
				// Every request after the first (robots.txt) waits one gap;
				// the adaptive rest follows page fetches only, so allow a
				// gap's slack either way.
				n := site.fetches.Load()
				if n < pages+1 {
					t.Fatalf("%d requests, want robots.txt and %d pages at least; summary:\n%s", n, pages, out.String())
				}
				want := time.Duration(n-1) * tt.gap
				if took < want-tt.gap || took > want+tt.gap {
					t.Errorf("%v: %d requests took %v, want %v (%v apart)", tt.args, n, took, want, tt.gap)
				}
			})
		})
	}
}

// TestDelayHelp: -h says what -delay does to the adaptive delay, and how
// -host-concurrency combines with it.
func TestDelayHelp(t *testing.T) {
	_, _, stderr := run(t, "-h")
	for _, want := range []string{
		"giving -delay without -adaptive turns adaptive politeness off",
		"off when -delay is given without -adaptive",
		"at most 1/delay requests a second whatever N is",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-h lacks %q:\n%s", want, stderr)
		}
	}
}

// TestInterrupted: a crawl whose context is cancelled (Ctrl-C under Main)
// stops, says "interrupted" in its summary and exits 0.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var pages atomic.Int64
	cmd := program()
	crawl := cmd.Crawl
	cmd.Crawl = func(ctx context.Context, s *Session) error {
		err := crawl(ctx, s)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Session.Run returned %v, want context.Canceled", err)
		}
		return err
	}
	cmd.Features = []Feature{{Setup: func(*Session) ([]trawl.Option, error) {
		// Ctrl-C after the 5th page.
		return []trawl.Option{trawl.WithEvents(trawl.Events{OnPage: func(context.Context, *trawl.Page) {
			if pages.Add(1) == 5 {
				cancel()
			}
		}})}, nil
	}}}
	var out, errOut bytes.Buffer
	code := cmd.Run(ctx, []string{"-demo", "-progress=false"}, &out, &errOut)
	if code != 0 {
		t.Errorf("exit %d, want 0 after an interruption; stderr %s", code, errOut.String())
	}
	if !strings.HasPrefix(strings.SplitN(out.String(), "\n", 2)[1], "interrupted") {
		t.Errorf("summary does not begin with \"interrupted\":\n%s", out.String())
	}
	var n int
	fmt.Sscanf(out.String()[strings.Index(out.String(), "crawled "):], "crawled %d pages", &n)
	if n < 5 || n >= 200 {
		t.Errorf("crawled %d pages, want the crawl cut short after 5 (the demo web has 200)", n)
	}
}

// TestDemoTemporaryDir: -demo without -out stores in a temporary directory
// and removes it at the end; with -out the pages stay.
func TestDemoTemporaryDir(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	code, stdout, stderr := run(t, "-demo", "-max-pages", "5", "-progress=false")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "a temporary directory removed now") {
		t.Errorf("summary does not say the output is removed:\n%s", stdout)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "testspider-demo-*")); len(left) != 0 {
		t.Errorf("-demo left %v behind", left)
	}
	out := filepath.Join(tmp, "kept")
	if code, _, stderr := run(t, "-demo", "-max-pages", "5", "-progress=false", "-out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "urls.txt")); err != nil {
		t.Errorf("-demo -out: %v", err)
	}
}

// TestFeatureContextAndEvents: features' Events are joined, not replaced
// (two features count pages), and a feature's Context bounds the crawl:
// cancelled after 4 pages it is "interrupted", past its deadline it is
// "stopped at the time limit"; both exit 0.
func TestFeatureContextAndEvents(t *testing.T) {
	var a, b atomic.Int64
	counter := func(n *atomic.Int64, cancel *context.CancelFunc) Feature {
		return Feature{Setup: func(s *Session) ([]trawl.Option, error) {
			s.AddEvents(trawl.Events{OnPage: func(context.Context, *trawl.Page) {
				if n.Add(1) == 4 && cancel != nil {
					(*cancel)()
				}
			}})
			return nil, nil
		}}
	}
	var cancel context.CancelFunc
	cmd := program()
	cmd.Features = []Feature{counter(&a, nil), counter(&b, &cancel), {
		Context: func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel = context.WithCancel(ctx)
			return ctx, cancel
		},
	}}
	var out, errOut bytes.Buffer
	if code := cmd.Run(context.Background(), []string{"-demo", "-progress=false"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if a.Load() != b.Load() || a.Load() < 4 || a.Load() >= 200 {
		t.Errorf("the two features saw %d and %d pages, want the same few (cancelled after 4)", a.Load(), b.Load())
	}
	if !strings.Contains(out.String(), "\ninterrupted: ") {
		t.Errorf("summary does not say interrupted:\n%s", out.String())
	}

	cmd = program()
	cmd.Features = []Feature{{Context: func(ctx context.Context) (context.Context, context.CancelFunc) {
		return context.WithDeadline(ctx, time.Now()) // already passed
	}}}
	out.Reset()
	if code := cmd.Run(context.Background(), []string{"-demo", "-progress=false"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "\nstopped at the time limit: ") || !strings.Contains(out.String(), "crawled 0 pages") {
		t.Errorf("summary of a crawl past its deadline:\n%s", out.String())
	}
}
