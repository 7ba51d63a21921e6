package recrawl

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// BenchmarkVisit measures one Planner.Visit on a host of 1,000 pages with
// varied change rates (the cost a crawler pays per fetch).
func BenchmarkVisit(b *testing.B) {
	b.ReportAllocs()
	p := NewPlanner(Policy{Rate: 1})
	rng := rand.New(rand.NewPCG(1, 1))
	hs := make([]History, 1000)
	at := t0
	for i := range hs {
		for range 8 {
			x := rng.Uint64() >> (i % 3 * 30)
			p.Visit("h.test", "http://h.test/p", &hs[i], Visit{At: at, Text: x, Simhash: x})
			at = at.Add(time.Minute)
		}
	}
	i := 0
	for b.Loop() {
		x := rng.Uint64() >> (i % 3 * 30)
		p.Visit("h.test", "http://h.test/p", &hs[i%len(hs)], Visit{At: at, Text: x, Simhash: x})
		at = at.Add(time.Second)
		i++
	}
}

// BenchmarkHistoryBytes reports the memory of one scheduled page's
// history: encoded (what a frontier keeps per page) and decoded (what a
// worker holds during a visit), at a full window of revisits.
func BenchmarkHistoryBytes(b *testing.B) {
	b.ReportAllocs()
	p := NewPlanner(Policy{})
	var h History
	rng := rand.New(rand.NewPCG(2, 2))
	for i := range Window + 8 {
		x := rng.Uint64()
		p.Visit("h.test", "http://h.test/p", &h, Visit{At: t0.Add(time.Duration(i) * 97 * time.Minute), Text: x, Simhash: x, ETag: `"5f2a-63e1c0"`})
	}
	enc, _ := h.MarshalBinary()
	var buf []byte
	for b.Loop() {
		buf, _ = h.AppendBinary(buf[:0])
		var d History
		if err := d.UnmarshalBinary(buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(enc)), "encoded-bytes/page")
	b.ReportMetric(float64(sizeofHistory()), "decoded-bytes/page")
}

// BenchmarkPlannerMemory reports the planner's own memory per scheduled
// page (it keeps none per page: this is its per-host state over pages).
func BenchmarkPlannerMemory(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p := NewPlanner(Policy{})
		const pages = 20_000
		var h History
		for i := range pages {
			h = History{}
			p.Visit("h"+string(rune('a'+i%100))+".test", "http://h.test/d"+string(rune('a'+i%50))+"/p", &h, Visit{At: t0})
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/pages, "planner-bytes/page")
		runtime.KeepAlive(p)
	}
}
