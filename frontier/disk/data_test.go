package disk

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/internal/wire"
	"github.com/trawl-dev/trawl/politeness"
)

// dataOf is the Data the tests push with rawURL: binary, with NUL bytes.
func dataOf(rawURL string) []byte { return append([]byte{0, 0xff, 0}, rawURL...) }

// drainData hands out every request of f, done at once, and returns each
// URL's Data (as a string, "" for none).
func drainData(t *testing.T, f *Frontier) map[string]string {
	t.Helper()
	got := map[string]string{}
	for {
		r, err := f.Next(context.Background())
		if errors.Is(err, frontier.ErrEmpty) {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, twice := got[r.URL]; twice {
			t.Errorf("%s handed out twice", r.URL)
		}
		got[r.URL] = string(r.Data)
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDataSurvivesReopen checks that Request.Data comes back after Close
// and Open for URLs queued, leased at Close, returned with Retry (Data
// kept) or Requeue with Outcome.Data (replaced), and waiting for a
// revisit with Outcome.Data.
func TestDataSurvivesReopen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		dir := t.TempDir()
		f := open(t, dir, testOptions())
		pushed := append(reqs("a.test", 0, 3), reqs("b.test", 0, 3)...)
		want := map[string]string{}
		for i := range pushed {
			if i != 1 { // one without Data
				pushed[i].Data = dataOf(pushed[i].URL)
			}
			want[pushed[i].URL] = string(pushed[i].Data)
		}
		if _, err := f.Push(ctx, pushed...); err != nil {
			t.Fatal(err)
		}
		// Four hand-outs, one per host at a time: a Retry keeping the
		// Data, a Requeue replacing it, a revisit replacing it, and one
		// still leased at Close.
		var revisit string
		for i := range 4 {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out := frontier.Outcome{Status: 200}
			switch i {
			case 0:
				out.Status, out.Retry = 503, true
			case 1:
				out.Requeue, out.Data = true, []byte("requeued "+r.URL)
				want[r.URL] = string(out.Data)
			case 2:
				out.Revisit, out.Data = time.Now().Add(time.Hour), []byte("revisit "+r.URL)
				revisit = r.URL
				want[r.URL] = string(out.Data)
			case 3:
				continue // leased at Close
			}
			if err := f.Done(r, out); err != nil {
				t.Fatal(err)
			}
		}
		f.Close()
		time.Sleep(2 * time.Hour) // the revisit falls due while closed

		f = open(t, dir, testOptions())
		defer f.Close()
		got := drainData(t, f)
		if len(got) != len(want) {
			t.Errorf("after reopen handed out %d URLs, want %d", len(got), len(want))
		}
		for u, w := range want {
			if g, ok := got[u]; ok && g != w {
				t.Errorf("after reopen %s has Data %q, want %q", u, g, w)
			}
		}
		if _, ok := got[revisit]; !ok {
			t.Errorf("the revisit of %s was not handed out", revisit)
		}
	})
}

// TestDataSurvivesCrash checks that the Data of URLs made durable (by
// Flush, or a Done) comes back after a crash, for queued and leased URLs
// alike.
func TestDataSurvivesCrash(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := &Options{SyncInterval: -1, Politeness: politeness.Config{MinDelay: -1}}
	f, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	pushed := reqs("a.test", 0, 4)
	want := map[string]string{}
	for i := range pushed {
		pushed[i].Data = dataOf(pushed[i].URL)
		want[pushed[i].URL] = string(pushed[i].Data)
	}
	if _, err := f.Push(ctx, pushed...); err != nil {
		t.Fatal(err)
	}
	r, err := f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Done(r, frontier.Outcome{Status: 503, Retry: true, Data: []byte("after retry")}); err != nil {
		t.Fatal(err) // synced
	}
	want[r.URL] = "after retry"
	if _, err := f.Next(ctx); err != nil { // leased at the crash
		t.Fatal(err)
	}
	crash(t, f)

	f, err = Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := drainData(t, f)
	if len(got) != len(want) {
		t.Errorf("after a crash handed out %v, want the %d URLs pushed", got, len(want))
	}
	for u, w := range want {
		if g := got[u]; g != w {
			t.Errorf("after a crash %s has Data %q, want %q", u, g, w)
		}
	}
}

// TestEntryCodec checks that entries round-trip with and without state and
// Data, and that records written before Data existed (ending after the
// anchor, or after the state) still decode.
func TestEntryCodec(t *testing.T) {
	base := entry{url: "http://a.test/x", host: "a.test", referrer: "http://a.test/", anchor: "x",
		prio: 2.5, depth: 3, retries: 1, redirects: 2}
	for _, tt := range []struct{ name, state, data string }{
		{name: "plain"},
		{name: "state", state: "s"},
		{name: "data", data: "\x00d\x00"},
		{name: "state and data", state: "s", data: "d"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := base
			e.state, e.data = tt.state, tt.data
			got, err := decodeEntry(e.encode(nil))
			if err != nil || got != e {
				t.Errorf("decodeEntry(encode(%+v)) = %+v, %v", e, got, err)
			}
		})
	}
	// The format before Data: no trailing field, or the state alone.
	old := func(state string) []byte {
		b := binary.AppendVarint(nil, 3)
		b = binary.AppendVarint(b, 1)
		b = binary.AppendVarint(b, 2)
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(2.5))
		for _, s := range []string{"http://a.test/x", "a.test", "http://a.test/", "x"} {
			b = wire.AppendString(b, s)
		}
		if state != "" {
			b = wire.AppendString(b, state)
		}
		return b
	}
	for _, state := range []string{"", "s"} {
		want := base
		want.state = state
		if got, err := decodeEntry(old(state)); err != nil || got != want {
			t.Errorf("decodeEntry(record without Data, state %q) = %+v, %v; want %+v", state, got, err, want)
		}
	}
	withData := base
	withData.data = "d"
	if _, err := decodeEntry(append(withData.encode(nil), 1, 'z')); err == nil {
		t.Error("decodeEntry of a record with bytes after the Data = nil error, want one")
	}
}
