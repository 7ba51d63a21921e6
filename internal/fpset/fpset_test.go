package fpset

import (
	"fmt"
	"math/rand/v2"
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
// already seen), and reports the table's bytes per fingerprint (bytes/fp)
// beside the same for a map[uint64]struct{} (map-bytes/fp, from the heap's
// growth), which the set replaces.
func BenchmarkSet(b *testing.B) {
	for _, n := range []int{10_000, 200_000, 1_000_000} {
		fps := make([]uint64, n)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range fps {
			fps[i] = rng.Uint64()
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var s Set
			for b.Loop() {
				s = Set{}
				for _, fp := range fps {
					s.Add(fp)
				}
				for i, fp := range fps {
					if i%4 == 0 {
						fp ^= 1 // absent
					}
					s.Contains(fp)
				}
			}
			b.ReportMetric(float64(s.Bytes())/float64(n), "bytes/fp")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/op-each")
		})
	}
}
