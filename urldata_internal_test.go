package trawl

import (
	"bytes"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/frontier"
)

func TestURLDataRoundTrip(t *testing.T) {
	info := &SitemapInfo{LastMod: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ChangeFreq: "weekly", Priority: 0.8}
	tests := []struct {
		name string
		in   urlData
	}{
		{name: "empty", in: urlData{}},
		{name: "sitemap", in: urlData{sitemap: 1}},
		{name: "index entry", in: urlData{sitemap: 2}},
		{name: "info", in: urlData{info: info}},
		{name: "info without priority", in: urlData{info: &SitemapInfo{ChangeFreq: "never", Priority: -1}}},
		{name: "meta", in: urlData{meta: map[string]string{"a": "1", "": "empty key", "ü": strings.Repeat("x", 300)}}},
		{name: "all", in: urlData{sitemap: 2, info: info, meta: map[string]string{"k": "v"}, getNext: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.in.encode()
			if err != nil {
				t.Fatal(err)
			}
			if tt.in.empty() != (b == nil) {
				t.Errorf("encode = %x: empty data must encode to nil, other data to bytes", b)
			}
			got, err := decodeURLData(b)
			if err != nil {
				t.Fatal(err)
			}
			if got.sitemap != tt.in.sitemap || got.getNext != tt.in.getNext || !maps.Equal(got.meta, tt.in.meta) ||
				(got.info == nil) != (tt.in.info == nil) || (got.info != nil && *got.info != *tt.in.info) {
				t.Errorf("decode(encode(%+v)) = %+v", tt.in, got)
			}
		})
	}
}

func TestURLDataBounds(t *testing.T) {
	big := urlData{meta: map[string]string{"k": strings.Repeat("x", frontier.MaxData)}}
	if _, err := big.encode(); !errors.Is(err, errMetaTooLarge) {
		t.Errorf("encode of %d bytes of metadata: err = %v, want errMetaTooLarge", frontier.MaxData, err)
	}
	for _, bad := range [][]byte{{9}, {dataVersion}, {dataVersion, flagMeta, 200}, {dataVersion, flagMeta, 1, 5, 'a'},
		{dataVersion, flagInfo, 0, 0, 99}} {
		if _, err := decodeURLData(bad); err == nil {
			t.Errorf("decodeURLData(%x) = nil error, want one", bad)
		}
	}
}

// FuzzURLData checks that any bytes decode without panicking, and that
// what decodes encodes back to bytes that decode to the same data.
func FuzzURLData(f *testing.F) {
	b, _ := (&urlData{sitemap: 2, meta: map[string]string{"k": "v"}, info: &SitemapInfo{ChangeFreq: "daily", Priority: 0.5}}).encode()
	f.Add(b)
	f.Add([]byte{dataVersion, flagSitemap})
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := decodeURLData(b)
		if err != nil {
			return
		}
		again, err := d.encode()
		if err != nil {
			return // metadata may not fit once re-encoded with sorted keys: fine
		}
		d2, err := decodeURLData(again)
		if err != nil {
			t.Fatalf("re-encoded data does not decode: %v", err)
		}
		again2, _ := d2.encode()
		if !bytes.Equal(again, again2) {
			t.Errorf("encoding not stable: %x then %x", again, again2)
		}
	})
}

// Every outcome and reason has a name of its own, which reads back.
func TestDecisionNames(t *testing.T) {
	seen := map[string]bool{}
	for o := Outcome(1); o < outcomeEnd; o++ {
		var back Outcome
		if name := o.String(); name == "" || seen[name] || back.UnmarshalText([]byte(name)) != nil || back != o {
			t.Errorf("outcome %d: name %q is empty, repeated, or does not read back (%v)", o, name, back)
		}
		seen[o.String()] = true
	}
	clear(seen) // a reason may share an outcome's name ("duplicate-content")
	for r := Reason(1); r < reasonEnd; r++ {
		var back Reason
		if name := r.String(); name == "" || seen[name] || back.UnmarshalText([]byte(name)) != nil || back != r {
			t.Errorf("reason %d: name %q is empty, repeated, or does not read back (%v)", r, name, back)
		}
		seen[r.String()] = true
	}
}

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{{"short", 10, "short"}, {"abcdef", 3, "abc…"}, {"aé", 2, "a…"}, {"ééé", 4, "éé…"}} {
		if got := clip(tt.s, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

// An ETag longer than maxETag is not kept, so it is not sent back either.
func TestKeptETag(t *testing.T) {
	if got := keptETag(`"abc"`); got != `"abc"` {
		t.Errorf("keptETag of a short ETag = %q", got)
	}
	if got := keptETag(`"` + strings.Repeat("x", 900<<10) + `"`); got != "" {
		t.Errorf("keptETag of a 900 KB ETag kept %d bytes", len(got))
	}
}
