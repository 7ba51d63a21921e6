package store

import (
	"crypto/sha1"
	"fmt"
	"runtime"
	"testing"
)

func sumOf(i int) [20]byte { return sha1.Sum(fmt.Appendf(nil, "payload %d", i)) }

// The index finds the first response of a payload, and, bounded, forgets
// the digests it has remembered longest, one for each new one.
func TestRevisitIndex(t *testing.T) {
	for _, limit := range []int{-1, 0, 1, 3, 10} {
		x := newRevisitIndex(limit)
		const n = 10
		for i := range n {
			if _, seen := x.firstOrAdd(revisitKey(sumOf(i), "h0.test"), revisitRef{uri: fmt.Sprint(i), date: int64(i)}); seen {
				t.Fatalf("limit %d: payload %d seen before it was added", limit, i)
			}
		}
		// Newest first: the remembered ones are all looked up before the
		// first that is not (which is then added, forgetting another).
		for i := n - 1; i >= 0; i-- {
			first, seen := x.firstOrAdd(revisitKey(sumOf(i), "h0.test"), revisitRef{uri: "later"})
			// Unbounded (limit <= 0) everything is remembered; bounded, the
			// last limit added are (looking one up adds nothing).
			if want := limit <= 0 || i >= n-limit; seen != want {
				t.Errorf("limit %d: payload %d remembered %v, want %v", limit, i, seen, want)
			} else if seen && (first.uri != fmt.Sprint(i) || first.date != int64(i)) {
				t.Errorf("limit %d: payload %d refers to %q at %d", limit, i, first.uri, first.date)
			}
		}
		if limit > 0 && len(x.first) > limit {
			t.Errorf("limit %d: %d digests remembered", limit, len(x.first))
		}
	}
}

// A payload is one per host: the same digest on another host (or port) is
// not seen before.
func TestRevisitIndexPerHost(t *testing.T) {
	x := newRevisitIndex(0)
	x.firstOrAdd(revisitKey(sumOf(1), "a.test"), revisitRef{uri: "http://a.test/"})
	for _, host := range []string{"b.test", "a.test:8080", "a.test.b.test"} {
		if first, seen := x.firstOrAdd(revisitKey(sumOf(1), host), revisitRef{uri: "http://" + host + "/"}); seen {
			t.Errorf("payload of a.test seen on %s: refers to %s", host, first.uri)
		}
	}
	if first, seen := x.firstOrAdd(revisitKey(sumOf(1), "a.test"), revisitRef{}); !seen || first.uri != "http://a.test/" {
		t.Errorf("payload of a.test on a.test again: seen %v, refers to %q", seen, first.uri)
	}
}

// BenchmarkRevisitIndex measures the heap an entry takes, URL included
// (a 60-byte URL), for 100,000 distinct payloads.
func BenchmarkRevisitIndex(b *testing.B) {
	const n = 100_000
	sums := make([][20]byte, n)
	uris := make([]string, n)
	for i := range n {
		sums[i] = sumOf(i)
		uris[i] = fmt.Sprintf("http://www.example.com/section/articles/2026/11/%011d", i)
	}
	clear(uris) // the index's copies are the only ones left
	var perEntry float64
	for b.Loop() {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		x := newRevisitIndex(DefaultMaxRevisitDigests)
		for i := range n {
			uri := fmt.Sprintf("http://www.example.com/section/articles/2026/11/%011d", i)
			x.firstOrAdd(revisitKey(sums[i], uri[7:22]), revisitRef{uri: uri, date: int64(i)})
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		perEntry = float64(m1.HeapAlloc-m0.HeapAlloc) / n
		runtime.KeepAlive(x)
	}
	b.ReportMetric(perEntry, "heap-B/entry")
}
