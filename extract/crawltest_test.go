package extract_test

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/extract"
)

// TestCrawltestConstructs holds the extractor to crawltest's ground truth:
// for every construct resource (pages, the style sheet, the script, the
// header responses) the references Links (with Speculative and Scripts),
// CSSLinks, ScriptLinks and HeaderLinks find are exactly the references
// of extract's kinds, each with its kind; and none is a URL a form or a
// script POSTs to (form-post, js-post) or one only running a script
// reaches (js-only: a browser is needed). It logs the construct counts by
// outcome, the found / not found / needs a browser column of the package
// doc's table.
func TestCrawltestConstructs(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Hosts: 1, PagesPerHost: 5, LinkConstructs: true})
	opts := &extract.Options{Speculative: true, Scripts: true}
	found := map[string]int{}
	for _, u := range web.ConstructURLs() {
		truth := web.References(u)
		if truth == nil {
			continue // a target
		}
		got := constructRefs(t, web.Client(), u, opts)
		var want []string
		never := map[string]string{}
		for _, r := range truth {
			if _, err := extract.ParseKind(r.Kind); err != nil {
				never[r.URL] = r.Kind + " " + r.Construct
				found[r.Kind+" (not fetched)"]++
				continue
			}
			want = append(want, r.Kind+" "+r.URL)
			found[r.Kind]++
		}
		slices.Sort(want)
		want = slices.Compact(want)
		for _, g := range got {
			if _, u, _ := strings.Cut(g, " "); never[u] != "" {
				t.Errorf("%s: found %s, which is %s", u, g, never[u])
			}
		}
		if missing, extra := setDiff(want, got), setDiff(got, want); len(missing)+len(extra) > 0 {
			t.Errorf("%s:\n\tnot found: %q\n\tnot in the ground truth: %q", u, missing, extra)
		}
	}
	t.Logf("ground-truth references by kind: %v", found)
}

// constructRefs returns the distinct "kind URL" references extract finds
// in the response at u, sorted.
func constructRefs(t *testing.T, client *http.Client, u string, opts *extract.Options) []string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	client = &http.Client{Transport: client.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	base, _ := url.Parse(u)
	links := extract.HeaderLinks(resp.Header, resp.StatusCode, base, opts)
	ct := resp.Header.Get("Content-Type")
	switch {
	case len(links) > 0:
		// A header response: its body references nothing.
	case strings.HasPrefix(ct, "text/html"):
		doc, err := extract.Links(bytes.NewReader(body), base, opts)
		if err != nil {
			t.Fatal(err)
		}
		links = doc.Links
	case strings.HasPrefix(ct, "text/css"):
		links = extract.CSSLinks(body, base, opts)
	case strings.HasPrefix(ct, "application/javascript"):
		links = extract.ScriptLinks(body, base, opts)
	}
	var out []string
	for _, l := range links {
		out = append(out, l.Kind.String()+" "+l.URL)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// setDiff returns the elements of a not in b.
func setDiff(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}
