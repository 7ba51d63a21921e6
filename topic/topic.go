package topic

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// ErrEmptyTopic is returned by New when neither the description nor the
// examples contain a single term.
var ErrEmptyTopic = errors.New("topic: the topic has no terms")

// Defaults of New, measured on crawltest's topic-labelled web (see the
// package documentation).
const (
	// DefaultPageWeight is α in LinkScore: the weight of the source page.
	DefaultPageWeight = 0.3
	// DefaultAnchorWeight is β in LinkScore: the weight of the anchor text.
	DefaultAnchorWeight = 0.5
	// DefaultURLWeight is γ in LinkScore: the weight of the URL's words.
	DefaultURLWeight = 0.2
	// DefaultThreshold is the cosine at or above which a page is relevant
	// to a topic described by words alone.
	DefaultThreshold = 0.07
	// DefaultExampleThreshold is the cut-off when the topic is described
	// by example pages as well (WithExamples): their many terms raise
	// every cosine.
	DefaultExampleThreshold = 0.15
	// DefaultPrior is the IDF prior's strength in pseudo-documents.
	DefaultPrior = 10
)

// Classifier decides whether a fetched page is relevant to the topic: a
// user's own model in place of the default (TF-IDF cosine ≥ threshold). It
// is given the page's text, the same text Observe or Relevant was given.
// Relevant must be safe for concurrent use.
type Classifier interface {
	Relevant(text string) bool
}

// ClassifierFunc adapts a function to a Classifier.
type ClassifierFunc func(text string) bool

// Relevant returns f(text).
func (f ClassifierFunc) Relevant(text string) bool { return f(text) }

// Option configures a Scorer.
type Option func(*config)

type config struct {
	examples          []string
	page, anchor, url float64
	threshold         float64
	thresholdSet      bool
	prior             float64
	classifier        Classifier
}

// WithExamples adds example pages' text to the topic: each example, like
// the description, contributes one unit-length vector of its terms'
// (sublinear) frequencies. Default: none.
func WithExamples(texts ...string) Option {
	texts = append([]string(nil), texts...)
	return func(c *config) { c.examples = texts }
}

// WithWeights sets the weights of LinkScore's formula: page for the cosine
// of the source page, anchor for the link's anchor text, url for the words
// of its URL. They must not be negative and must not all be 0; they are
// scaled to sum to 1, so link scores stay in [0, 1]. Default 0.3, 0.5, 0.2.
func WithWeights(page, anchor, url float64) Option {
	return func(c *config) { c.page, c.anchor, c.url = page, anchor, url }
}

// WithThreshold sets the cosine at or above which the default classifier
// calls a page relevant. Default DefaultThreshold (0.07) for a topic given
// by words alone, DefaultExampleThreshold (0.15) with WithExamples: both
// calibrated on real pages (see the package documentation).
func WithThreshold(t float64) Option {
	return func(c *config) { c.threshold, c.thresholdSet = t, true }
}

// WithPrior sets the strength of the IDF prior, in pseudo-documents: the
// scorer starts as if it had seen n documents, each containing every term
// with probability one half, so that all terms weigh the same until the
// crawl has taught it which are common. Must be positive. Default 10.
func WithPrior(n float64) Option {
	return func(c *config) { c.prior = n }
}

// WithClassifier replaces the default relevance decision (cosine ≥
// threshold) by c. Scores, and so the crawl order, are unchanged. Default:
// none.
func WithClassifier(c Classifier) Option { return func(cfg *config) { cfg.classifier = c } }

// Table of document frequencies: two rows of hashed counters (a count-min
// sketch), so memory stays fixed however large the crawl's vocabulary.
const (
	dfBits = 17
	dfSize = 1 << dfBits
	dfMask = dfSize - 1
)

// Scorer scores text, links and URLs by their similarity to one topic,
// with TF-IDF weights whose IDF it learns from the crawl. Create one with
// New. A Scorer is safe for concurrent use: learning updates atomic
// counters and scoring reads them (and caches the topic vector's norm
// under a short lock). It holds a fixed 1 MiB table and must not be copied.
type Scorer struct {
	topic      map[uint64]float64 // term -> weight (sum of unit vectors)
	terms      []termWeight       // the same, for iteration
	page       float64
	anchor     float64
	url        float64
	threshold  float64
	prior      float64
	classifier Classifier
	bags       bags

	docs   atomic.Int64
	normMu sync.Mutex
	norm   topicNorm // the last topicNorm2
	df     [2][dfSize]atomic.Uint32
}

// New returns a Scorer for the topic described by description (words, a
// sentence, a page: its terms all count) and by the examples given with
// WithExamples. It returns an error wrapping ErrEmptyTopic when they hold
// no term, and an error for invalid options.
func New(description string, opts ...Option) (*Scorer, error) {
	c := config{page: DefaultPageWeight, anchor: DefaultAnchorWeight, url: DefaultURLWeight,
		threshold: DefaultThreshold, prior: DefaultPrior}
	for _, o := range opts {
		o(&c)
	}
	if !c.thresholdSet && len(c.examples) > 0 {
		c.threshold = DefaultExampleThreshold
	}
	sum := c.page + c.anchor + c.url
	switch {
	case c.page < 0 || c.anchor < 0 || c.url < 0 || !(sum > 0) || math.IsInf(sum, 0):
		return nil, fmt.Errorf("topic: weights %v, %v, %v: want non-negative and not all 0", c.page, c.anchor, c.url)
	case !(c.prior > 0) || math.IsInf(c.prior, 0):
		return nil, fmt.Errorf("topic: prior %v: want a positive number", c.prior)
	case math.IsNaN(c.threshold):
		return nil, fmt.Errorf("topic: threshold is NaN")
	}
	s := &Scorer{
		topic: make(map[uint64]float64),
		page:  c.page / sum, anchor: c.anchor / sum, url: c.url / sum,
		threshold: c.threshold, prior: c.prior, classifier: c.classifier,
	}
	for _, text := range append([]string{description}, c.examples...) {
		b := s.bags.get(text)
		var norm float64
		for _, t := range b.terms {
			w := tfWeight(t.tf)
			norm += w * w
		}
		norm = math.Sqrt(norm)
		for _, t := range b.terms {
			s.topic[t.h] += tfWeight(t.tf) / norm
		}
		s.bags.put(b)
	}
	if len(s.topic) == 0 {
		return nil, fmt.Errorf("topic: description and %d examples: %w", len(c.examples), ErrEmptyTopic)
	}
	for h, q := range s.topic {
		s.terms = append(s.terms, termWeight{h: h, q: q})
	}
	// A fixed order makes the norm's floating-point sum reproducible.
	slices.SortFunc(s.terms, func(a, b termWeight) int { return cmp.Compare(a.h, b.h) })
	return s, nil
}

// termWeight is a topic term and its weight.
type termWeight struct {
	h uint64
	q float64
}

// tfWeight is the sublinear term frequency weight 1 + ln(tf).
func tfWeight(tf int) float64 {
	if tf == 1 {
		return 1
	}
	return 1 + math.Log(float64(tf))
}

// slots returns the two counter indexes of term h.
func slots(h uint64) (uint64, uint64) {
	// splitmix64's finalizer spreads FNV's bits over the whole word.
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h & dfMask, (h >> 32) & dfMask
}

// idf is the inverse document frequency of term h after docs documents:
// ln((N + P) / (df + P/2)), with df capped at N (hash collisions can only
// raise a counter).
func (s *Scorer) idf(h uint64, docs float64) float64 {
	i, j := slots(h)
	df := float64(min(s.df[0][i].Load(), s.df[1][j].Load()))
	df = min(df, docs)
	return math.Log((docs + s.prior) / (df + s.prior/2))
}

// Learn counts text as one more document of the crawl: each of its terms'
// document frequency goes up by one. Call it once per fetched page, with
// the text that is scored (usually the page's main text).
func (s *Scorer) Learn(text string) {
	b := s.bags.get(text)
	s.learn(b)
	s.bags.put(b)
}

func (s *Scorer) learn(b *bag) {
	for _, t := range b.terms {
		i, j := slots(t.h)
		s.df[0][i].Add(1)
		s.df[1][j].Add(1)
	}
	s.docs.Add(1)
}

// Docs returns how many documents Learn (or Observe) has counted.
func (s *Scorer) Docs() int64 { return s.docs.Load() }

// cosine returns the cosine similarity of the topic and b's TF-IDF vectors,
// in [0, 1].
func (s *Scorer) cosine(b *bag) float64 {
	if len(b.terms) == 0 {
		return 0
	}
	docs := float64(s.docs.Load())
	var dot, norm float64
	for _, t := range b.terms {
		idf := s.idf(t.h, docs)
		w := tfWeight(t.tf) * idf
		norm += w * w
		if q, ok := s.topic[t.h]; ok {
			dot += w * q * idf
		}
	}
	if dot == 0 {
		return 0
	}
	return min(dot/math.Sqrt(norm*s.topicNorm2(docs)), 1)
}

// topicNorm2 returns the squared norm of the topic's TF-IDF vector after
// docs documents. It changes only when a document is learned, so the last
// value is kept.
func (s *Scorer) topicNorm2(docs float64) float64 {
	s.normMu.Lock()
	c := s.norm
	s.normMu.Unlock()
	if c.valid && c.docs == docs {
		return c.norm2
	}
	var norm2 float64
	for _, t := range s.terms {
		w := t.q * s.idf(t.h, docs)
		norm2 += w * w
	}
	s.normMu.Lock()
	s.norm = topicNorm{valid: true, docs: docs, norm2: norm2}
	s.normMu.Unlock()
	return norm2
}

// topicNorm is the topic vector's squared norm after docs documents.
type topicNorm struct {
	valid       bool
	docs, norm2 float64
}

// PageScore returns the cosine similarity, in [0, 1], of the topic and
// text as TF-IDF vectors. text is usually a page's main text, but any text
// will do (LinkScore scores anchor texts with it).
func (s *Scorer) PageScore(text string) float64 {
	b := s.bags.get(text)
	defer s.bags.put(b)
	return s.cosine(b)
}

// URLScore returns the cosine similarity, in [0, 1], of the topic and the
// words of rawURL: its host and path split at every character that is not
// a letter or a digit (scheme, query and fragment are left out).
func (s *Scorer) URLScore(rawURL string) float64 { return s.PageScore(urlWords(rawURL)) }

// LinkScore returns the priority of a link, in [0, 1]:
//
//	α·pageScore + β·cos(topic, anchor) + γ·cos(topic, URL words)
//
// where pageScore is PageScore (or Observe's score) of the page the link
// was found on, computed once per page by the caller, and α, β, γ are the
// weights (WithWeights; default 0.3, 0.5, 0.2). A pageScore outside [0, 1]
// moves the result outside it as well.
func (s *Scorer) LinkScore(pageScore float64, anchor, rawURL string) float64 {
	score := s.page * pageScore
	if s.anchor > 0 && anchor != "" {
		score += s.anchor * s.PageScore(anchor)
	}
	if s.url > 0 && rawURL != "" {
		score += s.url * s.URLScore(rawURL)
	}
	return score
}

// Relevant reports whether text is relevant to the topic: the classifier's
// answer if one was given with WithClassifier, else PageScore(text) ≥ the
// threshold.
func (s *Scorer) Relevant(text string) bool {
	if s.classifier != nil {
		return s.classifier.Relevant(text)
	}
	return s.PageScore(text) >= s.threshold
}

// Observe is Learn, PageScore and Relevant on one fetched page's text,
// tokenizing it once: the text is counted as a document, then scored.
func (s *Scorer) Observe(text string) (score float64, relevant bool) {
	b := s.bags.get(text)
	s.learn(b)
	score = s.cosine(b)
	s.bags.put(b)
	if s.classifier != nil {
		return score, s.classifier.Relevant(text)
	}
	return score, score >= s.threshold
}
