package crawltest

import (
	"context"
	"io"
	"math"
	"net/http"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// In a synctest bubble, an in-memory web serves changing pages with the
// rates ChangeRate gives, honest validators, and versions that follow the
// fake clock; Changes lists the change times the answers reflect.
func TestChangingPagesInMemory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rate := func(h, id int) float64 {
			if id%2 == 1 {
				return 1.0 / 600 // every 10 minutes
			}
			return 0
		}
		web := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 8, InMemory: true, ChangeRate: rate})
		start := time.Now()
		pages := web.Pages()
		get := func(u, etag string) (int, string) {
			req, _ := http.NewRequestWithContext(context.Background(), "GET", u, nil)
			if etag != "" {
				req.Header.Set("If-None-Match", etag)
			}
			resp, err := web.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode, resp.Header.Get("ETag")
		}
		changing := 0
		for _, u := range pages {
			info, _ := web.Page(u)
			if info.DuplicateOf != "" || info.NearDuplicateOf != "" {
				continue
			}
			_, etag := get(u, "")
			fetched := time.Now()
			time.Sleep(15 * time.Minute)
			changes, ok := web.Changes(u, fetched, time.Now())
			if !ok {
				t.Fatalf("Changes(%s): not a page", u)
			}
			status, _ := get(u, etag)
			switch {
			case info.ChangeRate == 0 && (status != http.StatusNotModified || len(changes) != 0):
				t.Errorf("%s never changes: status %d, %d changes", u, status, len(changes))
			case len(changes) > 0 && status != http.StatusOK:
				t.Errorf("%s changed at %v: conditional GET answered %d, want 200", u, changes, status)
			case len(changes) == 0 && status != http.StatusNotModified:
				t.Errorf("%s did not change: conditional GET answered %d, want 304", u, status)
			}
			if info.ChangeRate > 0 {
				changing++
				if info.ChangeRate != 1.0/600 {
					t.Errorf("%s: ChangeRate %g, want %g", u, info.ChangeRate, 1.0/600)
				}
				all, _ := web.Changes(u, start, start.Add(100*time.Hour))
				if n := len(all); n < 450 || n > 750 {
					t.Errorf("%s: %d changes in 100 h at 6 an hour, want about 600", u, n)
				}
			}
		}
		if changing == 0 {
			t.Fatal("no changing page checked")
		}
	})
}

// TestFreshness: Web.Freshness averages, over the pages fetched before
// the window, the time each copy is fresh (from a fetch to the page's next
// change or next fetch); a page that never changes is fresh throughout, a
// page found inside the window is left out, and a second fetch renews the
// copy.
func TestFreshness(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rate := func(h, id int) float64 {
			if id == 1 {
				return 1.0 / 600 // every 10 minutes
			}
			return 0
		}
		web := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 8, InMemory: true, ChangeRate: rate})
		get := func(u string) {
			resp, err := web.Client().Get(u)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		var changing, still string
		for _, u := range web.Pages() {
			info, _ := web.Page(u)
			if info.DuplicateOf != "" || info.NearDuplicateOf != "" {
				continue
			}
			switch {
			case info.ChangeRate > 0 && changing == "":
				changing = u
			case info.ChangeRate == 0 && still == "" && u != web.Seeds()[0]:
				still = u
			}
		}
		if changing == "" || still == "" {
			t.Fatalf("no changing page (%q) or still page (%q)", changing, still)
		}
		get(changing)
		get(still)
		t0 := time.Now()
		time.Sleep(time.Minute)
		from := time.Now()
		time.Sleep(20 * time.Minute)
		get(changing) // renewed in the middle of the window
		mid := time.Now()
		get(web.Seeds()[0]) // found late: not measured
		time.Sleep(20 * time.Minute)
		end := time.Now()

		fresh, pages := web.Freshness(from, end)
		if len(pages) != 2 || !slices.Contains(pages, changing) || !slices.Contains(pages, still) {
			t.Fatalf("measured pages %v, want %s and %s", pages, changing, still)
		}
		// The changing page's copies: from t0 to its first change after t0
		// (clipped to the window), then from mid to its first change after.
		freshFor := func(fetched, until time.Time) time.Duration {
			if ch, _ := web.Changes(changing, fetched, until); len(ch) > 0 {
				until = ch[0]
			}
			a := max(fetched.UnixNano(), from.UnixNano())
			return time.Duration(max(until.UnixNano()-a, 0))
		}
		window := end.Sub(from)
		want := (window.Seconds() + (freshFor(t0, mid) + freshFor(mid, end)).Seconds()) / (2 * window.Seconds())
		if math.Abs(fresh-want) > 1e-9 {
			t.Errorf("Freshness = %.6f, want %.6f", fresh, want)
		}
		if fresh <= 0.5 || fresh > 1 {
			t.Errorf("Freshness = %.3f: the still page alone is fresh half the time", fresh)
		}
		if f, p := web.Freshness(end, end.Add(time.Hour)); len(p) != 3 || f <= 0 {
			t.Errorf("Freshness after the crawl = %.3f over %v, want the three pages, some fresh", f, p)
		}
	})
}
