package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	f := &focused{stderr: &errb}
	args = append([]string{"-progress=false", "-out", t.TempDir()}, args...)
	code = f.command().Run(context.Background(), args, &out, &errb)
	// The summary's relevant count is the crawler's Stats.Pages.Relevant, from
	// Page.Relevant; it must agree with the spider's own count.
	if m := harvestLine.FindStringSubmatch(out.String()); m != nil {
		if rel, _ := strconv.ParseInt(m[2], 10, 64); rel != f.relevant.Load() {
			t.Errorf("Stats.Pages.Relevant %d, the scorer judged %d pages relevant", rel, f.relevant.Load())
		}
	}
	return code, out.String(), errb.String()
}

var harvestLine = regexp.MustCompile(`harvest rate: ([0-9.]+) \((\d+) relevant of (\d+) pages fetched\)`)

func TestDemo(t *testing.T) {
	code, out, errOut := run(t, "-demo", "-max-pages", "60", "-harvest-every", "20")
	if code != 0 {
		t.Fatalf("exit status %d, stderr:\n%s", code, errOut)
	}
	m := harvestLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no harvest line in the summary:\n%s", out)
	}
	rel, _ := strconv.Atoi(m[2])
	pages, _ := strconv.Atoi(m[3])
	if pages < 50 || pages > 60 || rel == 0 {
		t.Errorf("harvest %d of %d pages, want some relevant of about 60", rel, pages)
	}
	if !strings.Contains(out, `topic: "`+demoTopic+`"`) {
		t.Errorf("summary does not name the demo topic:\n%s", out)
	}
	if n := strings.Count(errOut, "harvest "); n != 3 {
		t.Errorf("stderr has %d harvest lines, want 3 (every 20 pages):\n%s", n, errOut)
	}
}

func TestTopicFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "topic.txt")
	if err := os.WriteFile(file, []byte("Simmer the garlic in butter; roast the onion; flour and dough for the pastry."), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "-demo", "-max-pages", "20", "-topic-file", file)
	if code != 0 {
		t.Fatalf("exit status %d, stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out, "example "+file) || harvestLine.FindString(out) == "" {
		t.Errorf("summary lacks the topic file or the harvest:\n%s", out)
	}
}

func TestBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no topic", args: []string{"http://example.com/"}, want: "no topic"},
		{name: "empty topic", args: []string{"-topic", "...", "http://example.com/"}, want: "no terms"},
		{name: "bad scope", args: []string{"-topic", "x", "-scope", "galaxy", "http://example.com/"}, want: "-scope"},
		{name: "bad threshold", args: []string{"-topic", "x", "-threshold", "2", "http://example.com/"}, want: "-threshold"},
		{name: "bad order", args: []string{"-topic", "x", "-order", "dfs", "http://example.com/"}, want: "-order"},
		{name: "missing file", args: []string{"-topic-file", "/nonexistent/topic.txt", "http://example.com/"}, want: "-topic-file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := run(t, tt.args...)
			if code != 2 || !strings.Contains(errOut, tt.want) {
				t.Errorf("Run(%q) = %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
			}
		})
	}
}

// TestOrder: -order bfs crawls breadth first and still scores pages, so
// its harvest is the baseline the topic order beats on the demo web (two
// crawls of each order, summed: concurrent crawls vary).
func TestOrder(t *testing.T) {
	relevant := func(order string) int {
		sum := 0
		for range 2 {
			code, out, errOut := run(t, "-demo", "-max-pages", "40", "-harvest-every", "0", "-order", order)
			if code != 0 {
				t.Fatalf("-order %s: exit status %d, stderr:\n%s", order, code, errOut)
			}
			m := harvestLine.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("-order %s: no harvest line:\n%s", order, out)
			}
			n, _ := strconv.Atoi(m[2])
			sum += n
		}
		return sum
	}
	topic, bfs := relevant("topic"), relevant("bfs")
	t.Logf("relevant pages in two crawls of 40: topic order %d, breadth first %d", topic, bfs)
	if topic <= bfs {
		t.Errorf("topic order found %d relevant pages, breadth first %d: want more", topic, bfs)
	}
}
