//go:build !trawl_nometrics

package trawlcli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl"
)

func TestObserveFlags(t *testing.T) {
	dir := t.TempDir()
	decisionsPath, reportPath := filepath.Join(dir, "decisions.jsonl"), filepath.Join(dir, "report.html")
	var out, errOut bytes.Buffer
	var scraped, addr string
	p := program()
	// Scrape the endpoint as the crawl starts; the address is on stderr.
	p.Features = []Feature{{Start: func(ctx context.Context, _ *trawl.Crawler) {
		m := regexp.MustCompile(`http://(\S+)/metrics`).FindStringSubmatch(errOut.String())
		if m == nil {
			t.Errorf("no metrics address in %q", errOut.String())
			return
		}
		addr = m[1]
		resp, err := http.Get(m[0])
		if err != nil {
			t.Error(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		scraped = string(body)
	}}}
	code := p.Run(context.Background(), []string{"-demo", "-max-pages", "40", "-progress=false",
		"-metrics", "0", "-decisions", decisionsPath, "-report", reportPath}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}

	// -metrics: on loopback, serving the crawl's metrics, closed after.
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Errorf("-metrics 0 listened on %s, want loopback", addr)
	}
	for _, name := range []string{"trawl_queue_length", "trawl_hosts_waiting", "trawl_pages_fetched_total", "go_goroutines"} {
		if !strings.Contains(scraped, name) {
			t.Errorf("scrape lacks %s:\n%.1500s", name, scraped)
		}
	}
	if conn, err := net.Dial("tcp", addr); err == nil {
		conn.Close()
		t.Errorf("the metrics endpoint %s still accepts connections after the crawl", addr)
	}

	// -decisions: a JSON object per line; a fetched line per page crawled.
	m := regexp.MustCompile(`crawled (\d+) pages`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no summary: %s", out.String())
	}
	crawled, _ := strconv.Atoi(m[1])
	data, err := os.ReadFile(decisionsPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	fetched := 0
	for _, l := range lines {
		var d trawl.Decision
		if err := json.Unmarshal([]byte(l), &d); err != nil || d.Outcome == 0 || d.URL == "" {
			t.Fatalf("bad decision line %q: %v", l, err)
		}
		if d.Outcome == trawl.DecisionFetched {
			fetched++
		}
	}
	if fetched != crawled || crawled == 0 {
		t.Errorf("%d fetched decisions, the summary says %d pages crawled", fetched, crawled)
	}
	if want := "decisions: " + decisionsPath + " (" + strconv.Itoa(len(lines)) + " lines)"; !strings.Contains(out.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, out.String())
	}

	// -report: the HTML file with every chart and table.
	html, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"table-summary", "chart-pages-rate", "chart-bytes-rate", "chart-status", "chart-depth",
		"chart-errors", "chart-duplicates", "chart-skipped", "table-hosts"} {
		if !bytes.Contains(html, []byte(`id="`+id+`"`)) {
			t.Errorf("report lacks #%s", id)
		}
	}
	if !bytes.Contains(html, []byte("testspider crawl of http://h0.test/")) {
		t.Errorf("report title does not name the crawl")
	}
	if !strings.Contains(out.String(), "report: "+reportPath) {
		t.Errorf("summary does not name the report:\n%s", out.String())
	}
}

func TestObserveFlagErrors(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int // 1 when zero
		want string
	}{
		{name: "port in use", args: []string{"-metrics", busy.Addr().String()}, want: "-metrics"},
		{name: "decisions in no directory", args: []string{"-decisions", filepath.Join(notDir, "d.jsonl")}, want: "-decisions"},
		{name: "report in no directory", args: []string{"-report", filepath.Join(notDir, "r.html")}, want: "-report"},
		{name: "unknown outcome", args: []string{"-decisions", filepath.Join(t.TempDir(), "d"), "-decisions-omit", "queued,dup"}, code: 2, want: `unknown outcome "dup"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, append(tt.args, "-demo", "-progress=false")...)
			want := max(tt.code, 1)
			if code != want || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d naming %s", code, stderr, want, tt.want)
			}
		})
	}
}

func TestObserveDecisionsOmit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.jsonl")
	code, _, stderr := run(t, "-demo", "-progress=false", "-max-pages", "20", "-decisions", path, "-decisions-omit", "duplicate-url, not-followed")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"outcome":"fetched"`)) {
		t.Error("no fetched decisions")
	}
	for _, o := range []string{"duplicate-url", "not-followed"} {
		if bytes.Contains(data, []byte(`"outcome":"`+o+`"`)) {
			t.Errorf("%s decisions in the log despite -decisions-omit", o)
		}
	}
}
