package dedup

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomText returns n words drawn from a vocabulary of vocab synthetic words.
func randomText(rng *rand.Rand, n, vocab int) []string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", rng.IntN(vocab))
	}
	return words
}

// editText returns a copy of words with a fraction f of them replaced and a
// few inserted and deleted.
func editText(rng *rand.Rand, words []string, f float64, vocab int) []string {
	out := make([]string, 0, len(words)+8)
	for _, w := range words {
		r := rng.Float64()
		switch {
		case r < f*0.8:
			out = append(out, fmt.Sprintf("w%d", rng.IntN(vocab)))
		case r < f*0.9:
			// deleted
		case r < f:
			out = append(out, w, fmt.Sprintf("w%d", rng.IntN(vocab)))
		default:
			out = append(out, w)
		}
	}
	return out
}

// TestMinHashEstimate checks the MinHash estimate against the exact Jaccard
// similarity of the shingle sets on random pairs spanning the whole range of
// similarity. With 128 hash functions the estimate is binomial with standard
// error sqrt(J(1-J)/128) <= 0.044, so a ±0.1 band holds with probability
// >= 97.6% per pair (it is a 2.26σ band at J = 0.5): the test requires at
// least 97% of pairs inside it, none outside ±0.2 (4.5σ), and no bias.
func TestMinHashEstimate(t *testing.T) {
	for _, p := range []int{1, 3} {
		t.Run(fmt.Sprintf("p=%d", p), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(42, uint64(p)))
			s := NewSketcher(WithSampleModulus(p))
			pairs := 400
			if raceEnabled {
				pairs = 100
			}
			inside, sumErr, maxErr := 0, 0.0, 0.0
			for i := 0; i < pairs; i++ {
				a := randomText(rng, 100+rng.IntN(1500), 3000)
				b := editText(rng, a, rng.Float64(), 3000)
				ta, tb := strings.Join(a, " "), strings.Join(b, " ")
				exact := exactJaccard(s.AppendShingles(nil, ta), s.AppendShingles(nil, tb))
				est := s.MinHash(ta).Jaccard(s.MinHash(tb))
				e := est - exact
				sumErr += e
				maxErr = max(maxErr, math.Abs(e))
				if math.Abs(e) <= 0.1 {
					inside++
				}
			}
			frac, bias := float64(inside)/float64(pairs), sumErr/float64(pairs)
			t.Logf("p=%d: %.1f%% of %d pairs within ±0.1, mean error %+.4f, max |error| %.3f", p, 100*frac, pairs, bias, maxErr)
			if frac < 0.97 {
				t.Errorf("%.1f%% of estimates within ±0.1 of the exact Jaccard, want >= 97%%", 100*frac)
			}
			if maxErr > 0.2 {
				t.Errorf("max |estimate - exact| = %.3f, want <= 0.2", maxErr)
			}
			if math.Abs(bias) > 0.01 {
				t.Errorf("mean error %+.4f, want within ±0.01", bias)
			}
		})
	}
}

func TestSketchJaccardEdgeCases(t *testing.T) {
	a := MinHash("one two three four five six")
	tests := []struct {
		name string
		s, u Sketch
		want float64
	}{
		{name: "same", s: a, u: a, want: 1},
		{name: "empty", s: nil, u: nil, want: 0},
		{name: "one empty", s: a, u: nil, want: 0},
		{name: "different sizes", s: a, u: a[:64], want: 0},
		{name: "disjoint", s: a, u: MinHash("seven eight nine ten eleven twelve"), want: 0},
	}
	for _, tt := range tests {
		if got := tt.s.Jaccard(tt.u); got != tt.want {
			t.Errorf("%s: Jaccard = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := MinHash("one two three"); got != nil {
		t.Errorf("MinHash(3 words) = %v, want nil (no 4-word shingle)", got)
	}
	if got := len(NewSketcher(WithShingleSize(1), WithSketchSize(16)).MinHash("x")); got != 16 {
		t.Errorf("len(MinHash) with WithSketchSize(16) = %d, want 16", got)
	}
}

func TestShinglesAndSampling(t *testing.T) {
	s := NewSketcher(WithShingleSize(3))
	got := s.AppendShingles(nil, "a rose is a rose is a rose")
	// 8 words, 6 shingles, only 3 distinct: "a rose is", "rose is a", "is a rose".
	if len(got) != 6 {
		t.Fatalf("AppendShingles: %d shingles, want 6", len(got))
	}
	if got[0] != got[3] || got[1] != got[4] || got[2] != got[5] || got[0] == got[1] || got[1] == got[2] {
		t.Errorf("AppendShingles(a rose is a rose is a rose) = %#x, want the pattern ABCABC", got)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	text := strings.Join(randomText(rng, 20000, 50000), " ")
	all := len(NewSketcher().AppendShingles(nil, text))
	for _, p := range []int{2, 5, 16} {
		kept := len(NewSketcher(WithSampleModulus(p)).AppendShingles(nil, text))
		want := float64(all) / float64(p)
		if math.Abs(float64(kept)-want) > 5*math.Sqrt(want) {
			t.Errorf("WithSampleModulus(%d) kept %d of %d shingles, want about %.0f", p, kept, all, want)
		}
	}
}

func TestSimhash(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	base := randomText(rng, 800, 5000)
	text := strings.Join(base, " ")
	if got := Simhash(""); got != 0 {
		t.Errorf("Simhash(\"\") = %#x, want 0", got)
	}
	if a, b := Simhash(text), Simhash(strings.ToUpper(strings.Join(base, "\n\t "))); a != b {
		t.Errorf("Simhash differs for a case and white-space variant: %#x vs %#x", a, b)
	}
	for _, features := range []bool{false, true} {
		s := NewSketcher(WithSimhashShingles(features))
		h := s.Simhash(text)
		near, far := 0, 0
		const trials = 50
		for i := 0; i < trials; i++ {
			near += Distance(h, s.Simhash(strings.Join(editText(rng, base, 0.01, 5000), " ")))
			far += Distance(h, s.Simhash(strings.Join(randomText(rng, 800, 5000), " ")))
		}
		nearAvg, farAvg := float64(near)/trials, float64(far)/trials
		if nearAvg > 6 || farAvg < 24 || farAvg > 40 {
			t.Errorf("shingles=%v: mean distance to a 1%%-edited copy %.1f (want <= 6), to an unrelated text %.1f (want 24..40)", features, nearAvg, farAvg)
		}
	}
}

func TestSimhashTermFrequency(t *testing.T) {
	// A word repeated many times dominates the simhash: TF weighting.
	heavy := strings.Repeat("alpha ", 50) + "beta gamma delta"
	want := Fingerprint(hashWord("alpha"))
	if got := Simhash(heavy); got != want {
		t.Errorf("Simhash(50×alpha + 3 words) = %#x, want the hash of alpha %#x", got, want)
	}
	if got := Simhash("solo"); got != Fingerprint(hashWord("solo")) {
		t.Errorf("Simhash(solo) = %#x, want the hash of the word %#x", got, hashWord("solo"))
	}
}

func hashWord(w string) uint64 {
	h, _ := appendWordHashes(nil, nil, w)
	return h[0]
}
