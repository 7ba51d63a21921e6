package dedup

import "fmt"

// Defaults of the options.
const (
	// DefaultK is the default Hamming distance for near-duplicate candidates.
	DefaultK = 6
	// DefaultThreshold is the default MinHash Jaccard similarity at or above
	// which a candidate is confirmed as a near duplicate. See the package
	// documentation for the measurements behind it.
	DefaultThreshold = 0.75
	// DefaultShingleSize is the default number of words per shingle.
	DefaultShingleSize = 4
	// DefaultSketchSize is the default number of MinHash functions.
	DefaultSketchSize = 128
	// DefaultMinWords is the default number of words below which a text is
	// matched only exactly.
	DefaultMinWords = 10
	// MaxK is the largest Hamming distance an Index or Detector accepts.
	MaxK = 12
)

type config struct {
	k               int
	threshold       float64
	shingleSize     int
	sketchSize      int
	maxEntries      int
	sample          uint64
	simhashShingles bool
	minWords        int
}

func newConfig(opts []Option) config {
	c := config{
		k:           DefaultK,
		threshold:   DefaultThreshold,
		shingleSize: DefaultShingleSize,
		sketchSize:  DefaultSketchSize,
		sample:      1,
		minWords:    DefaultMinWords,
	}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// An Option configures a Detector or a Sketcher. Options are applied in
// order; the last one wins. The functions that make Options panic when given
// an out-of-range value, since that is a programming error.
type Option func(*config)

// WithK sets the Hamming distance within which simhashes of two texts make
// them near-duplicate candidates, from 0 to MaxK. The default is DefaultK (6).
func WithK(k int) Option {
	if k < 0 || k > MaxK {
		panic(fmt.Sprintf("dedup: WithK(%d): k must be between 0 and %d", k, MaxK))
	}
	return func(c *config) { c.k = k }
}

// WithThreshold sets the estimated Jaccard similarity of shingle sets, in
// (0, 1], at or above which a candidate is confirmed as a near duplicate.
// The default is DefaultThreshold (0.75).
func WithThreshold(t float64) Option {
	if !(t > 0 && t <= 1) {
		panic(fmt.Sprintf("dedup: WithThreshold(%v): threshold must be in (0, 1]", t))
	}
	return func(c *config) { c.threshold = t }
}

// WithShingleSize sets the number of consecutive words per shingle, from 1
// to 32. The default is DefaultShingleSize (4).
func WithShingleSize(n int) Option {
	if n < 1 || n > 32 {
		panic(fmt.Sprintf("dedup: WithShingleSize(%d): size must be between 1 and 32", n))
	}
	return func(c *config) { c.shingleSize = n }
}

// WithSketchSize sets the number of MinHash functions per sketch, from 1 to
// 4096. The estimate's standard error is at most 0.5/sqrt(m); each stored
// text costs 4·m bytes. The default is DefaultSketchSize (128).
func WithSketchSize(m int) Option {
	if m < 1 || m > 4096 {
		panic(fmt.Sprintf("dedup: WithSketchSize(%d): size must be between 1 and 4096", m))
	}
	return func(c *config) { c.sketchSize = m }
}

// WithSampleModulus sets p for the "0 mod p" sampling of shingles: only
// shingles whose hash is 0 mod p enter the MinHash sketch, which makes
// sketching p times cheaper and estimates noisier. p = 1 keeps every
// shingle. The default is 1 (short web articles have too few shingles to
// spare). A text none of whose shingles passes the sampling is matched
// only exactly, like a short text.
func WithSampleModulus(p int) Option {
	if p < 1 {
		panic(fmt.Sprintf("dedup: WithSampleModulus(%d): p must be at least 1", p))
	}
	return func(c *config) { c.sample = uint64(p) }
}

// WithSimhashShingles makes simhashes hash shingles instead of single words
// when on is true. The default is false (words), which measured better: see
// the package documentation.
func WithSimhashShingles(on bool) Option {
	return func(c *config) { c.simhashShingles = on }
}

// WithMaxEntries bounds a Detector's memory for endless crawls: it remembers
// at most n texts, forgetting the oldest half at a time (it keeps between
// n/2 and n of the most recent ones). n = 0 means no bound; otherwise n must
// be at least 2. The default is 0.
func WithMaxEntries(n int) Option {
	if n < 0 || n == 1 {
		panic(fmt.Sprintf("dedup: WithMaxEntries(%d): n must be 0 or at least 2", n))
	}
	return func(c *config) { c.maxEntries = n }
}

// WithMinWords sets the number of words below which a Detector matches a
// text only exactly: shorter texts have too few shingles for a meaningful
// similarity, so they are never reported as near duplicates nor used as the
// original of one. The default is DefaultMinWords (10); it is never less than
// the shingle size.
func WithMinWords(n int) Option {
	if n < 0 {
		panic(fmt.Sprintf("dedup: WithMinWords(%d): n must not be negative", n))
	}
	return func(c *config) { c.minWords = n }
}
