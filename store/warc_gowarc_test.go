package store_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/nlnwa/gowarc"

	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/store"
)

// TestWARCValidatedByGowarc reads every record the store writes with
// gowarc's own reader, strictly validating (syntax, the fields each record
// type requires, Content-Length, the block and payload digests), as a
// check of the records the store serializes itself (response and request)
// next to those gowarc builds (warcinfo, revisit, metadata).
func TestWARCValidatedByGowarc(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{
		Seed: 7, Hosts: 2, PagesPerHost: 20, Now: func() time.Time { return fixedClock },
		Faults: crawltest.Faults{RedirectChain: 2, ServerErrors: true},
	})
	dir, w := crawlToWARC(t, web, &store.WARCOptions{Outlinks: true})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	types := map[string]int{}
	for _, path := range warcFiles(t, dir) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(f)
		u := gowarc.NewUnmarshaler(gowarc.WithStrictValidation())
		for n := 0; ; n++ {
			rec, _, v, err := u.Unmarshal(br)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: record %d: %v", path, n, err)
			}
			if err := rec.ValidateDigest(v); err != nil || len(*v) > 0 {
				t.Fatalf("%s: record %d (%s %s): %v %v", path, n, rec.Type(), rec.WarcHeader().Get(gowarc.WarcTargetURI), err, v)
			}
			types[rec.Type().String()]++
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
		}
		f.Close()
	}
	records, revisits := w.Records()
	if got := int64(types["response"] + types["revisit"] + types["request"] + types["metadata"]); got != records {
		t.Errorf("gowarc read %d records (%v), the store wrote %d", got, types, records)
	}
	for _, typ := range []string{"warcinfo", "response", "request", "metadata"} {
		if types[typ] == 0 {
			t.Errorf("no %s record read (%v)", typ, types)
		}
	}
	if int64(types["revisit"]) != revisits {
		t.Errorf("%d revisits read, %d written", types["revisit"], revisits)
	}
}
