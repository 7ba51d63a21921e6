package dedup

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// benchLargeEnv names the environment variable that enables the 10M
// fingerprint index benchmarks (they are also run when -bench names "10M").
const benchLargeEnv = "DEDUP_BENCH_10M"

// benchText returns about size bytes of English-like text: words of varied
// length and case with punctuation and line breaks.
func benchText(size int) string {
	rng := rand.New(rand.NewPCG(3, 4))
	vocab := make([]string, 5000)
	for i := range vocab {
		n := 1 + rng.IntN(9)
		var b strings.Builder
		for range n {
			b.WriteByte(byte('a' + rng.IntN(26)))
		}
		vocab[i] = b.String()
	}
	var b strings.Builder
	for b.Len() < size {
		w := vocab[min(rng.IntN(len(vocab)), rng.IntN(len(vocab)))] // skewed like real text
		if rng.IntN(12) == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
		switch rng.IntN(15) {
		case 0:
			b.WriteString(", ")
		case 1:
			b.WriteString(".\n")
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func BenchmarkSketcher(b *testing.B) {
	for _, size := range []int{1 << 10, 10 << 10, 100 << 10} {
		text := benchText(size)
		s := NewSketcher()
		b.Run(fmt.Sprintf("Simhash/%dKB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				s.Simhash(text)
			}
		})
		b.Run(fmt.Sprintf("MinHash/%dKB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				s.MinHash(text)
			}
		})
		b.Run(fmt.Sprintf("Sketch/%dKB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				s.Sketch(text)
			}
		})
		b.Run(fmt.Sprintf("ContentFingerprint/%dKB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				ContentFingerprint(text)
			}
		})
	}
}

func BenchmarkURLFingerprint(b *testing.B) {
	u := "https://www.example.com/news/2026/11/22/city-council-votes-on-bike-lanes?page=2"
	b.ReportAllocs()
	b.SetBytes(int64(len(u)))
	for b.Loop() {
		URLFingerprint(u)
	}
}

// largeIndexWanted reports whether the 10M benchmarks were asked for.
func largeIndexWanted() bool {
	if os.Getenv(benchLargeEnv) != "" {
		return true
	}
	f := flag.Lookup("test.bench")
	return f != nil && strings.Contains(f.Value.String(), "10M")
}

// BenchmarkIndex measures queries and inserts on an Index holding n random
// fingerprints, for k = 3 (the Manku et al. setting) and k = 6 (the
// Detector's default). Half of the queries are within k of a stored
// fingerprint. B/fp is the memory the Index holds per stored fingerprint.
func BenchmarkIndex(b *testing.B) {
	sizes := []struct {
		name string
		n    int
	}{{"1M", 1 << 20}, {"10M", 10 << 20}}
	for _, k := range []int{3, 6} {
		for _, sz := range sizes {
			b.Run(fmt.Sprintf("k=%d/n=%s", k, sz.name), func(b *testing.B) {
				if sz.n > 1<<20 && !largeIndexWanted() {
					b.Skipf("set %s=1 or name 10M in -bench to run the 10M benchmarks", benchLargeEnv)
				}
				rng := rand.New(rand.NewPCG(uint64(k), uint64(sz.n)))
				x := NewIndex(k)
				stored := make([]Fingerprint, 0, 1<<16)
				for i := 0; i < sz.n; i++ {
					fp := Fingerprint(rng.Uint64())
					x.Add(fp)
					if len(stored) < cap(stored) {
						stored = append(stored, fp)
					}
				}
				queries := make([]Fingerprint, 1<<16)
				for i := range queries {
					if i%2 == 0 {
						queries[i] = flipBits(rng, stored[rng.IntN(len(stored))], rng.IntN(k+1))
					} else {
						queries[i] = Fingerprint(rng.Uint64())
					}
				}
				bytesPerFP := float64(x.Bytes()) / float64(x.Len())
				b.Run("Query", func(b *testing.B) {
					b.ReportAllocs()
					var buf []Fingerprint
					i := 0
					for b.Loop() {
						buf = x.Query(queries[i&(len(queries)-1)], buf[:0])
						i++
					}
					b.ReportMetric(bytesPerFP, "B/fp")
				})
				b.Run("QueryParallel", func(b *testing.B) {
					b.ReportAllocs()
					b.RunParallel(func(pb *testing.PB) {
						var buf []Fingerprint
						i := rand.IntN(len(queries))
						for pb.Next() {
							buf = x.Query(queries[i&(len(queries)-1)], buf[:0])
							i++
						}
					})
				})
				b.Run("Add", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						x.Add(Fingerprint(rng.Uint64()))
					}
					b.ReportMetric(float64(x.Bytes())/float64(x.Len()), "B/fp")
				})
			})
		}
	}
}

func BenchmarkDetectorCheck(b *testing.B) {
	texts := make([]string, 1024)
	total := 0
	for i := range texts {
		texts[i] = articleText(uint64(i), 300+i%700)
		total += len(texts[i])
	}
	d := NewDetector()
	b.ReportAllocs()
	b.SetBytes(int64(total / len(texts)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := rand.IntN(len(texts))
		for pb.Next() {
			d.Check("x", texts[i%len(texts)])
			i++
		}
	})
}
