package fpset

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

func TestSet(t *testing.T) {
	var s Set
	ref := map[uint64]bool{}
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range 50000 {
		fp := rng.Uint64() % 30000 // many repeats, and 0 now and then
		if got, want := s.Add(fp), !ref[fp]; got != want {
			t.Fatalf("op %d: Add(%d) = %v, want %v", i, fp, got, want)
		}
		ref[fp] = true
		probe := rng.Uint64() % 40000
		if got := s.Contains(probe); got != ref[probe] {
			t.Fatalf("op %d: Contains(%d) = %v, want %v", i, probe, got, ref[probe])
		}
	}
	if s.Len() != len(ref) {
		t.Errorf("Len() = %d, want %d", s.Len(), len(ref))
	}
}

// BenchmarkSet adds n random fingerprints and then looks up as many again
// (three quarters of them present, as a crawl's links mostly repeat URLs
// already seen), in a Set and in the map[uint64]struct{} it replaces, and
// reports the heap each holds per fingerprint (bytes/fp, from the heap's
// growth: the table, or the map's groups).
func BenchmarkSet(b *testing.B) {
	for _, n := range []int{10_000, 147_332, 193_345, 1_000_000} {
		fps := make([]uint64, n)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range fps {
			fps[i] = rng.Uint64()
		}
		b.Run(fmt.Sprintf("impl=fpset/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var perFP float64
			for b.Loop() {
				before := heapInUse()
				var s Set
				for _, fp := range fps {
					s.Add(fp)
				}
				for i, fp := range fps {
					if i%4 == 0 {
						fp ^= 1 // absent
					}
					s.Contains(fp)
				}
				perFP = float64(heapInUse()-before) / float64(n)
				runtime.KeepAlive(&s)
			}
			b.ReportMetric(perFP, "bytes/fp")
		})
		b.Run(fmt.Sprintf("impl=map/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var perFP float64
			for b.Loop() {
				before := heapInUse()
				m := make(map[uint64]struct{})
				for _, fp := range fps {
					m[fp] = struct{}{}
				}
				for i, fp := range fps {
					if i%4 == 0 {
						fp ^= 1
					}
					_ = m[fp]
				}
				perFP = float64(heapInUse()-before) / float64(n)
				runtime.KeepAlive(m)
			}
			b.ReportMetric(perFP, "bytes/fp")
		})
	}
}

// heapInUse returns the bytes of live heap objects after a collection.
func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
