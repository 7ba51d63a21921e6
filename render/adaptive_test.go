package render

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/fetch"
)

// TestAdaptivePlan steps one group through sampling, a static decision,
// a recheck that gains, and rendering from then on; no browser.
func TestAdaptivePlan(t *testing.T) {
	a := newAdaptive(Adaptive{Sample: 2, Recheck: 3})
	type step struct {
		render, compare bool
		gain            bool // recorded when compare
	}
	steps := []step{
		{render: true, compare: true},    // sample 1
		{render: true, compare: true},    // sample 2: decided static
		{render: false}, {render: false}, // static
		{render: true, compare: true, gain: true}, // third page since: recheck, gains
		{render: true}, {render: true}, {render: true}, // rendered, no more comparing
	}
	for i, s := range steps {
		r, c := a.plan("h/app")
		if r != s.render || c != s.compare {
			t.Fatalf("page %d: plan = render %v, compare %v; want %v, %v", i+1, r, c, s.render, s.compare)
		}
		if c {
			a.record("h/app", s.gain)
		}
	}
}

func TestAdaptiveGains(t *testing.T) {
	u, _ := url.Parse("http://h.test/app/x")
	static := `<html><body><a href="/a">a</a><p>Some text here.</p></body></html>`
	tests := []struct {
		name, dom string
		want      bool
	}{
		{name: "same", dom: static, want: false},
		{name: "new link", dom: `<html><body><a href="/a">a</a><a href="/b">b</a><p>Some text here.</p></body></html>`, want: true},
		{name: "new image only", dom: `<html><body><a href="/a">a</a><img src="/i.png"><p>Some text here.</p></body></html>`, want: false},
		{name: "much more text", dom: `<html><body><a href="/a">a</a><p>Some text here.</p><p>` + fmt.Sprintf("%0300d", 0) + `</p></body></html>`, want: true},
	}
	a := newAdaptive(Adaptive{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := a.gains(&fetch.Response{URL: u, Body: []byte(static)}, []byte(tt.dom)); got != tt.want {
				t.Errorf("gains = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestAdaptiveRendersWhereItPays: on a host whose /docs/ pages are static
// and whose /app/ pages are built by a script, the adaptive fetcher
// renders /docs/ pages only while sampling, and every /app/ page; the
// script's links are found on each /app/ page.
func TestAdaptiveRendersWhereItPays(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if strings.HasPrefix(r.URL.Path, "/app/") {
			fmt.Fprintf(w, `<html><body><div id=root></div><script>document.getElementById("root").innerHTML = '<a href="%s/next">next</a>';</script></body></html>`, r.URL.Path)
			return
		}
		fmt.Fprintf(w, `<html><body><a href="%s/next">next</a><p>static page</p></body></html>`, r.URL.Path)
	}))
	defer srv.Close()
	f := newFetcher(t, loopback(t, nil, nil), Options{Settle: 50 * time.Millisecond, Adaptive: &Adaptive{Sample: 2}})
	for i := range 6 {
		for _, dir := range []string{"docs", "app"} {
			resp, err := get(t, f, fmt.Sprintf("%s/%s/p%d", srv.URL, dir, i))
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf(`href="/%s/p%d/next"`, dir, i); !contains(resp.Body, want) {
				t.Errorf("/%s/p%d: body lacks %s", dir, i, want)
			}
		}
	}
	if st := f.Stats(); st.Rendered != 2+6 || st.Static != 4 || st.Gained != 1 {
		t.Errorf("Stats = %+v; want 8 rendered (2 docs samples, 6 app), 4 static, 1 gain", st)
	}
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }
