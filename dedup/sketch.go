package dedup

import "math/bits"

// Sketch is a MinHash sketch of a set of shingles: element i is the top 32
// bits of the minimum, over the set, of the i-th hash function. The fraction
// of positions at which two sketches of the same size agree estimates the
// Jaccard similarity of the two sets, with standard error at most
// 0.5/sqrt(len). An empty (nil) Sketch stands for a text without shingles.
type Sketch []uint32

// Jaccard returns the estimated Jaccard similarity of the shingle sets that s
// and t were computed from: the fraction of positions where they agree. It
// returns 0 if either sketch is empty or their lengths differ (sketches from
// Sketchers with different sketch sizes are not comparable).
func (s Sketch) Jaccard(t Sketch) float64 {
	if len(s) == 0 || len(s) != len(t) {
		return 0
	}
	t = t[:len(s)]
	same := 0
	for i, v := range s {
		if v == t[i] {
			same++
		}
	}
	return float64(same) / float64(len(s))
}

// Signature holds everything a Sketcher computes from one text.
type Signature struct {
	// Exact is ContentFingerprint(text).
	Exact Fingerprint
	// Simhash is the 64-bit simhash of the text's words (or shingles, see
	// WithSimhashShingles).
	Simhash Fingerprint
	// MinHash is the MinHash sketch of the text's sampled shingles, or nil if
	// the text has no shingle.
	MinHash Sketch
	// Words is the number of words in the text.
	Words int
	// Shingles is the number of shingles that passed the 0 mod p sampling
	// (with repetitions).
	Shingles int
}

// A Sketcher computes fingerprints, simhashes and MinHash sketches of texts
// with one configuration, reusing its buffers between calls so that Sketch
// allocates only the returned MinHash sketch. The zero Sketcher is not
// usable; call NewSketcher. A Sketcher is not safe for concurrent use: give
// each goroutine its own (a Detector keeps a pool of them).
type Sketcher struct {
	cfg   config
	seeds []uint64 // MinHash: h_i(x) = top 32 bits of (x ^ seeds[i]) * mults[i]
	mults []uint64
	words []uint64
	shing []uint64
	buf   []byte
	mins  []uint32
}

// NewSketcher returns a Sketcher configured by opts. It uses WithShingleSize,
// WithSketchSize, WithSampleModulus and WithSimhashShingles and ignores the
// Detector-only options.
func NewSketcher(opts ...Option) *Sketcher {
	cfg := newConfig(opts)
	return newSketcher(cfg)
}

func newSketcher(cfg config) *Sketcher {
	s := &Sketcher{
		cfg:   cfg,
		seeds: make([]uint64, cfg.sketchSize),
		mults: make([]uint64, cfg.sketchSize),
		mins:  make([]uint32, cfg.sketchSize),
	}
	// The hash functions are fixed forever: splitmix64 from a constant seed.
	state := uint64(0x7472_6177_6c64_6475) // "trawldedu"
	for i := range s.seeds {
		s.seeds[i] = splitmix64(&state)
		s.mults[i] = splitmix64(&state) | 1
	}
	return s
}

// splitmix64 advances state and returns the next output of Vigna's
// SplitMix64 generator.
func splitmix64(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// shingleHash combines the word hashes of one shingle, in order, into one
// well-mixed 64-bit value.
func shingleHash(ws []uint64) uint64 {
	h := uint64(len(ws)) * 0x9e3779b97f4a7c15
	for _, w := range ws {
		h = bits.RotateLeft64((h^w)*0xbf58476d1ce4e5b9, 29)
	}
	h ^= h >> 32
	h *= 0x94d049bb133111eb
	return h ^ (h >> 29)
}

// sampled reports whether a shingle hash passes the 0 mod p sampling
// (Broder's "keep the shingles whose hash is 0 mod p"), tested on the high
// half of the hash.
func (s *Sketcher) sampled(h uint64) bool {
	return s.cfg.sample <= 1 || (h>>32)%s.cfg.sample == 0
}

// scan fills s.words (and s.shing, the sampled shingles) from text.
func (s *Sketcher) scan(text string) {
	s.words, s.buf = appendWordHashes(s.words[:0], s.buf, text)
	s.shing = s.shing[:0]
	n := s.cfg.shingleSize
	for i := 0; i+n <= len(s.words); i++ {
		if h := shingleHash(s.words[i : i+n]); s.sampled(h) {
			s.shing = append(s.shing, h)
		}
	}
}

// Sketch computes the Signature of text. Only the returned MinHash sketch is
// newly allocated; the caller owns it.
func (s *Sketcher) Sketch(text string) Signature {
	sig := Signature{Exact: ContentFingerprint(text)}
	s.scan(text)
	sig.Words = len(s.words)
	sig.Shingles = len(s.shing)
	if s.cfg.simhashShingles {
		sig.Simhash = simhash(s.allShingles())
	} else {
		sig.Simhash = simhash(s.words)
	}
	if len(s.shing) > 0 {
		sig.MinHash = make(Sketch, len(s.mins))
		s.minhash(sig.MinHash, s.shing)
	}
	return sig
}

// allShingles returns every shingle (ignoring sampling), reusing s.shing's
// spare capacity only when sampling is off.
func (s *Sketcher) allShingles() []uint64 {
	if s.cfg.sample <= 1 {
		return s.shing
	}
	n := s.cfg.shingleSize
	all := make([]uint64, 0, max(0, len(s.words)-n+1))
	for i := 0; i+n <= len(s.words); i++ {
		all = append(all, shingleHash(s.words[i:i+n]))
	}
	return all
}

// Simhash returns the simhash of text's words (or shingles, per
// WithSimhashShingles), like Sketch(text).Simhash but without computing a
// MinHash sketch.
func (s *Sketcher) Simhash(text string) Fingerprint {
	s.scan(text)
	if s.cfg.simhashShingles {
		return simhash(s.allShingles())
	}
	return simhash(s.words)
}

// MinHash returns the MinHash sketch of text's sampled shingles, or nil if
// it has none.
func (s *Sketcher) MinHash(text string) Sketch {
	s.scan(text)
	if len(s.shing) == 0 {
		return nil
	}
	sk := make(Sketch, len(s.mins))
	s.minhash(sk, s.shing)
	return sk
}

// AppendShingles appends the hashes of text's sampled shingles, in text
// order and with repetitions, to dst. The MinHash sketch of a text is a
// sketch of exactly this set.
func (s *Sketcher) AppendShingles(dst []uint64, text string) []uint64 {
	s.scan(text)
	return append(dst, s.shing...)
}

// minhash writes the sketch of set into out (len(out) == sketch size). It
// hashes four shingles per pass over the hash functions, which keeps them in
// registers and quarters the loads and stores of the sketch.
func (s *Sketcher) minhash(out Sketch, set []uint64) {
	for i := range out {
		out[i] = ^uint32(0)
	}
	seeds, mults := s.seeds[:len(out)], s.mults[:len(out)]
	for len(set) >= 4 {
		x0, x1, x2, x3 := set[0], set[1], set[2], set[3]
		set = set[4:]
		for i := range out {
			sd, m := seeds[i], mults[i]
			v := min(uint32(((x0^sd)*m)>>32), uint32(((x1^sd)*m)>>32),
				uint32(((x2^sd)*m)>>32), uint32(((x3^sd)*m)>>32))
			if v < out[i] {
				out[i] = v
			}
		}
	}
	for _, x := range set {
		for i := range out {
			if v := uint32(((x ^ seeds[i]) * mults[i]) >> 32); v < out[i] {
				out[i] = v
			}
		}
	}
}

// simhash is Charikar's simhash of a multiset of 64-bit feature hashes, each
// occurrence weighing 1 (so each distinct feature weighs its term
// frequency): bit b of the result is set when more than half of the
// occurrences have bit b set.
func simhash(features []uint64) Fingerprint {
	var ones [64]int32
	for _, h := range features {
		for b := range ones {
			ones[b] += int32(h >> uint(b) & 1)
		}
	}
	var fp uint64
	n := int32(len(features))
	for b, c := range ones {
		if 2*c > n {
			fp |= 1 << uint(b)
		}
	}
	return Fingerprint(fp)
}

// Simhash returns the 64-bit simhash of text's words with the default
// configuration. Use a Sketcher to reuse buffers or to hash shingles.
func Simhash(text string) Fingerprint {
	return NewSketcher().Simhash(text)
}

// MinHash returns the MinHash sketch of text's shingles with the default
// configuration (4-word shingles, 128 hash functions, no sampling), or nil if
// text has fewer words than a shingle. Use a Sketcher to reuse buffers.
func MinHash(text string) Sketch {
	return NewSketcher().MinHash(text)
}
