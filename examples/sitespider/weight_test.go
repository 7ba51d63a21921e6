package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestWeight pins what a newcomer downloads and compiles (issue 34, point
// 9): the modules that sitespider, which has every trawlcli feature built
// in, and a program importing only trawl build from, and that none of
// their packages outside the standard library has C to compile (pebble's
// DataDog/zstd did). A module added to either list must be chosen on
// purpose: update this test and "What trawl pulls in" in the README with
// what it costs.
func TestWeight(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the go command is needed: %v", err)
		}
		t.Skipf("no go command on PATH (%v): cannot list the build's modules", err)
	}
	list := func(format, pkg string) []string {
		t.Helper()
		out, err := exec.Command(gocmd, "list", "-deps", "-f", format, pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		var lines []string
		for l := range strings.Lines(string(out)) {
			if l = strings.TrimSpace(l); l != "" && !slices.Contains(lines, l) {
				lines = append(lines, l)
			}
		}
		slices.Sort(lines)
		return lines
	}
	const modules = `{{if not .Standard}}{{with .Module}}{{.Path}}{{end}}{{end}}`
	core := []string{
		"github.com/andybalholm/cascadia",
		"github.com/antchfx/xpath",
		"github.com/bits-and-blooms/bitset",
		"github.com/cespare/xxhash/v2",
		"github.com/klauspost/compress",
		"github.com/mmcdole/gofeed",
		"github.com/mmcdole/goxpp/v2",
		"github.com/nlnwa/whatwg-url",
		"github.com/tdewolff/parse/v2",
		"github.com/trawl-dev/trawl",
		"golang.org/x/net",
		"golang.org/x/sync",
		"golang.org/x/text",
		"golang.org/x/time",
	}
	spider := append(slices.Clone(core),
		// store: WARC
		"github.com/nlnwa/gowarc", "github.com/google/uuid", "github.com/pkg/errors",
		"github.com/prometheus/prometheus", "golang.org/x/sys",
		// frontier/disk (-state)
		"go.etcd.io/bbolt",
		// render (-render)
		"github.com/chromedp/cdproto", "github.com/chromedp/chromedp", "github.com/go-json-experiment/json",
		// metrics (-metrics)
		"github.com/prometheus/client_golang", "github.com/prometheus/client_model",
		"github.com/prometheus/common", "github.com/prometheus/procfs",
		"github.com/beorn7/perks", "github.com/munnerz/goautoneg", "google.golang.org/protobuf",
		// antchfx/xpath is in core (Element.XPath)
	)
	slices.Sort(spider)
	if got := list(modules, "github.com/trawl-dev/trawl"); !slices.Equal(got, core) {
		t.Errorf("a program importing only trawl builds from %d modules:\n%s\nwant %d:\n%s", len(got), strings.Join(got, "\n"), len(core), strings.Join(core, "\n"))
	}
	if got := list(modules, "."); !slices.Equal(got, spider) {
		t.Errorf("sitespider builds from %d modules:\n%s\nwant %d:\n%s", len(got), strings.Join(got, "\n"), len(spider), strings.Join(spider, "\n"))
	}
	if cgo := list(`{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}`, "."); len(cgo) > 0 {
		t.Errorf("packages with C in sitespider's build: %v", cgo)
	}
}
