package extract_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/internal/shareddata"
)

// TestInferredEval measures how many URLs Options.Speculative and
// Options.Scripts add per page, and how many of them are false, on real
// pages: the Python documentation served on loopback (every page the
// documentation links, each inferred same-site URL checked with a GET: a
// 404 is a false URL) and the content-evaluation corpora (pages saved
// without their sites: the URLs are counted, and a fixed random sample is
// printed for judging by hand). Opt-in (TRAWL_INFERRED_EVAL=1): it reads
// ../shared/data and needs nginx on 127.0.2.1; the figures are in the
// package doc.
//
//	TRAWL_INFERRED_EVAL=1 go test -run TestInferredEval -v ./extract
func TestInferredEval(t *testing.T) {
	if os.Getenv("TRAWL_INFERRED_EVAL") == "" {
		t.Skip("opt-in: TRAWL_INFERRED_EVAL=1")
	}
	opts := &extract.Options{Speculative: true, Scripts: true}
	t.Run("python-docs", func(t *testing.T) { pythonDocsEval(t, opts) })
	for _, corpus := range []string{"content-eval", "content-eval-snippets"} {
		t.Run(corpus, func(t *testing.T) { corpusEval(t, corpus, opts) })
	}
}

func pythonDocsEval(t *testing.T, opts *extract.Options) {
	const site = "http://127.0.2.1/"
	client := &http.Client{Timeout: 10 * time.Second}
	if _, err := client.Head(site); err != nil {
		t.Skipf("no Python docs on %s: %v", site, err)
	}
	status := map[string]int{}
	check := func(u string) int {
		if s, ok := status[u]; ok {
			return s
		}
		resp, err := client.Get(u)
		s := 0
		if err == nil {
			s = resp.StatusCode
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		status[u] = s
		return s
	}
	seen := map[string]bool{site: true}
	queue := []string{site}
	var pages, spec, script, offsite, bad int
	var falseURLs []string
	hosts := map[string]int{}
	for len(queue) > 0 && pages < 5000 {
		u := queue[0]
		queue = queue[1:]
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			continue
		}
		pages++
		base, _ := url.Parse(u)
		doc, err := extract.Links(bytes.NewReader(body), base, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range doc.Links {
			onSite := strings.HasPrefix(l.URL, site)
			if !l.Kind.Inferred() {
				if onSite && (l.Kind == extract.Navigation || l.Kind == extract.Frame) && !seen[l.URL] {
					if i := strings.IndexAny(l.URL, "?#"); i < 0 {
						seen[l.URL] = true
						queue = append(queue, l.URL)
					}
				}
				continue
			}
			if l.Kind == extract.Script {
				script++
			} else {
				spec++
			}
			if !onSite {
				offsite++
				if lu, err := url.Parse(l.URL); err == nil {
					hosts[l.Kind.String()+" "+l.Tag+" "+lu.Host]++
				}
				continue
			}
			if s := check(l.URL); s != 200 {
				bad++
				falseURLs = append(falseURLs, fmt.Sprintf("%d %s %s (on %s)", s, l.Kind, l.URL, u))
			}
		}
	}
	t.Logf("%d pages: %d speculative, %d script URLs (%.2f per page); %d off-site (unverified); %d same-site URLs that do not answer 200 (%.3f per page)",
		pages, spec, script, float64(spec+script)/float64(pages), offsite, bad, float64(bad)/float64(pages))
	sort.Strings(falseURLs)
	for _, f := range falseURLs[:min(len(falseURLs), 20)] {
		t.Log("  false:", f)
	}
	var hs []string
	for h, n := range hosts {
		hs = append(hs, fmt.Sprintf("%5d %s", n, h))
	}
	slices.Sort(hs)
	slices.Reverse(hs)
	for _, h := range hs[:min(len(hs), 25)] {
		t.Log("  off-site:", h)
	}
}

func corpusEval(t *testing.T, corpus string, opts *extract.Options) {
	dir := filepath.Join(shareddata.Dir(t, corpus), "pages")
	files, err := filepath.Glob(filepath.Join(dir, "*.html.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pages in %s: %v", dir, err)
	}
	base, _ := url.Parse("http://page.example/dir/page.html")
	var spec, script, withAny int
	byTag := map[string]int{}
	var all []string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(zr)
		doc, err := extract.Links(bytes.NewReader(page), base, opts)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range doc.Links {
			if !l.Kind.Inferred() {
				continue
			}
			n++
			if l.Kind == extract.Script {
				script++
			} else {
				spec++
			}
			byTag[l.Kind.String()+" "+l.Tag]++
			all = append(all, fmt.Sprintf("%-11s %-11s %s  [%s]", l.Kind, l.Tag, l.URL, filepath.Base(f)))
		}
		if n > 0 {
			withAny++
		}
	}
	t.Logf("%s: %d pages, %d with inferred URLs; %d speculative, %d script (%.1f per page)",
		corpus, len(files), withAny, spec, script, float64(spec+script)/float64(len(files)))
	var tags []string
	for k, v := range byTag {
		tags = append(tags, fmt.Sprintf("%6d %s", v, k))
	}
	slices.Sort(tags)
	slices.Reverse(tags)
	for _, s := range tags[:min(len(tags), 16)] {
		t.Log(s)
	}
	r := rand.New(rand.NewPCG(35, 35))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	for _, s := range all[:min(len(all), 100)] {
		t.Log("  sample:", s)
	}
}
