package frontier

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

func TestEntrySize(t *testing.T) {
	if got := unsafe.Sizeof(entry{}); got > 64 {
		t.Errorf("unsafe.Sizeof(entry{}) = %d, want at most 64", got)
	}
	if got := unsafe.Sizeof(block{}); got > 8192 {
		t.Errorf("unsafe.Sizeof(block{}) = %d, want at most 8192 (one size class)", got)
	}
}

// TestEntryData checks that an entry gives back the URL, anchor and Data it
// was made from, in each of joinData's layouts, and that the common case
// (no anchor, no Data) is the URL string itself.
func TestEntryData(t *testing.T) {
	big := strings.Repeat("\x00\xff", MaxData/2)
	tests := []struct {
		name, url, anchor, data, wantAnchor string
	}{
		{name: "no anchor", url: "http://a.test/x", anchor: "", wantAnchor: ""},
		{name: "anchor", url: "http://a.test/x", anchor: "Next page", wantAnchor: "Next page"},
		{name: "anchor with NUL", url: "http://a.test/x", anchor: "a\x00b", wantAnchor: "a\uFFFDb"},
		{name: "URL with NUL", url: "http://a.test/\x00", anchor: "", wantAnchor: ""},
		{name: "URL with NUL and anchor", url: "http://a.test/\x00\x00", anchor: "text", wantAnchor: "text"},
		{name: "data", url: "http://a.test/x", data: "meta", wantAnchor: ""},
		{name: "data with NULs", url: "http://a.test/x", data: "\x00m\x00", wantAnchor: ""},
		{name: "anchor and data", url: "http://a.test/x", anchor: "Next", data: "{\"k\":1}", wantAnchor: "Next"},
		{name: "all with NULs", url: "http://a.test/\x00", anchor: "a\x00", data: "\x00\x00\x00\x00\x00\x00\x00\x00\x00", wantAnchor: "a\uFFFD"},
		{name: "largest data", url: "http://a.test/x", anchor: "y", data: big, wantAnchor: "y"},
		{name: "empty URL", url: "", data: "d", wantAnchor: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var data []byte
			if tt.data != "" {
				data = []byte(tt.data)
			}
			e := entry{data: joinData(tt.url, tt.anchor, data), host: &hostInfo{name: "a.test"}}
			if data != nil {
				data[0] ^= 1 // the entry keeps its own copy
			}
			r := e.request()
			if r.URL != tt.url || r.Anchor != tt.wantAnchor || string(r.Data) != tt.data {
				t.Errorf("request() = URL %q, Anchor %q, Data %q; want %q, %q, %q", r.URL, r.Anchor, r.Data, tt.url, tt.wantAnchor, tt.data)
			}
			if tt.data == "" && r.Data != nil {
				t.Errorf("request().Data = %q, want nil", r.Data)
			}
		})
	}
	url := "http://a.test/plain"
	if got := joinData(url, "", nil); unsafe.StringData(got) != unsafe.StringData(url) {
		t.Error("joinData(url, \"\", nil) copied the URL, want the URL string itself")
	}
}

// TestPrioQueueModel checks the heap order and the position index that
// Boost relies on, under random pushes, pops and removals.
func TestPrioQueueModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	pos := map[uint64]slot{}
	q := prioQueue{pos: pos}
	live := map[uint64]float64{}
	for i := range 5000 {
		switch op := rng.IntN(3); {
		case op == 0 || len(live) == 0:
			fp := uint64(i + 1)
			p := rng.Float64()
			q.push(entry{fp: fp, prio: p})
			live[fp] = p
		case op == 1:
			e := q.pop()
			for _, p := range live {
				if p > e.prio {
					t.Fatalf("op %d: pop() = priority %v, but %v is queued", i, e.prio, p)
				}
			}
			delete(live, e.fp)
		default:
			for fp := range live { // any one
				s := pos[fp]
				if e := q.remove(int(s.index)); e.fp != fp {
					t.Fatalf("op %d: remove(pos[%d]) removed %d", i, fp, e.fp)
				}
				delete(live, fp)
				break
			}
		}
		if len(pos) != len(live) || q.len() != len(live) {
			t.Fatalf("op %d: %d positions, %d items, want %d", i, len(pos), q.len(), len(live))
		}
		for fp, s := range pos {
			if q.items[s.index].fp != fp {
				t.Fatalf("op %d: pos[%d] = %d, which holds %d", i, fp, s.index, q.items[s.index].fp)
			}
		}
	}
}
