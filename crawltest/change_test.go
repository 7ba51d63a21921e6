package crawltest

import (
	"context"
	"io"
	"net/http"
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
