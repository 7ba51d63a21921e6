package disk

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
)

// The revisit schedule survives Close and Open: the URLs, their times and
// their states come back; one due while the frontier was closed is handed
// out at once, a later one at its time; the seen set still drops them at
// Push.
func TestRevisitsSurviveReopen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		ctx := context.Background()
		f := open(t, dir, testOptions())
		var reqs []frontier.Request
		for i := range 4 {
			reqs = append(reqs, frontier.Request{URL: fmt.Sprintf("http://h%d.test/p", i%2) + fmt.Sprint(i), Depth: 1, Anchor: "a"})
		}
		f.Push(ctx, reqs...)
		start := time.Now()
		for i := range 4 {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out := frontier.Outcome{Status: 200}
			if i < 3 {
				out.Revisit = start.Add(time.Duration(i+1) * time.Hour)
				out.State = []byte("state " + r.URL)
			}
			if err := f.Done(r, out); err != nil {
				t.Fatal(err)
			}
		}
		if n := f.Revisits(); n != 3 {
			t.Fatalf("Revisits() = %d, want 3", n)
		}
		f.Close()
		time.Sleep(90 * time.Minute) // the first revisit falls due while closed

		f = open(t, dir, testOptions())
		defer f.Close()
		if n, q := f.Revisits(), f.Len(); n != 3 || q != 0 {
			t.Fatalf("reopened: Revisits() = %d, Len() = %d, want 3 and 0", n, q)
		}
		if added, _ := f.Push(ctx, reqs...); added != 0 {
			t.Errorf("reopened: Push of the scheduled URLs added %d", added)
		}
		seen := map[string]bool{}
		for i := range 3 {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if string(r.State) != "state "+r.URL || r.Anchor != "a" || seen[r.URL] {
				t.Errorf("revisit %d: %s state %q anchor %q (seen before: %v)", i, r.URL, r.State, r.Anchor, seen[r.URL])
			}
			seen[r.URL] = true
			if want := start.Add(time.Duration(i+1) * time.Hour); time.Now().Before(want) {
				t.Errorf("revisit of %s at %v, before its time %v", r.URL, time.Since(start), want.Sub(start))
			}
			f.Done(r, frontier.Outcome{Status: 410})
		}
		if _, err := f.Next(ctx); err != frontier.ErrEmpty {
			t.Errorf("Next after the revisits: %v, want ErrEmpty", err)
		}
	})
}
