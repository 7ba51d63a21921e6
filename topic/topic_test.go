package topic_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl/topic"
)

const (
	astronomy = "The telescope showed a galaxy and a comet in orbit near the planet. " +
		"A nebula, a quasar and a supernova: the cosmos in one eclipse."
	cooking = "Simmer the garlic and onion in butter, then roast. The pastry dough " +
		"needs flour and a hot oven; a spice and some vinegar in the saucepan."
)

func mustNew(t testing.TB, description string, opts ...topic.Option) *topic.Scorer {
	t.Helper()
	s, err := topic.New(description, opts...)
	if err != nil {
		t.Fatalf("New(%q): %v", description, err)
	}
	return s
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name        string
		description string
		opts        []topic.Option
		empty       bool // want ErrEmptyTopic
	}{
		{name: "empty description", description: "", empty: true},
		{name: "punctuation only", description: "-- !? ...", empty: true},
		{name: "empty examples", description: " ", opts: []topic.Option{topic.WithExamples("", "...")}, empty: true},
		{name: "negative weight", description: "comet", opts: []topic.Option{topic.WithWeights(-1, 1, 1)}},
		{name: "zero weights", description: "comet", opts: []topic.Option{topic.WithWeights(0, 0, 0)}},
		{name: "NaN weight", description: "comet", opts: []topic.Option{topic.WithWeights(math.NaN(), 1, 1)}},
		{name: "zero prior", description: "comet", opts: []topic.Option{topic.WithPrior(0)}},
		{name: "NaN threshold", description: "comet", opts: []topic.Option{topic.WithThreshold(math.NaN())}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := topic.New(tt.description, tt.opts...)
			if err == nil || s != nil {
				t.Fatalf("New(%q) = %v, %v; want an error", tt.description, s, err)
			}
			if got := errors.Is(err, topic.ErrEmptyTopic); got != tt.empty {
				t.Errorf("New(%q) error %q: errors.Is(ErrEmptyTopic) = %v, want %v", tt.description, err, got, tt.empty)
			}
			if !strings.HasPrefix(err.Error(), "topic: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestPageScore(t *testing.T) {
	s := mustNew(t, "telescope galaxy comet orbit nebula")
	tests := []struct {
		name     string
		text     string
		min, max float64
	}{
		{name: "empty", text: "", min: 0, max: 0},
		{name: "no shared term", text: cooking, min: 0, max: 0},
		{name: "the description itself", text: "Telescope, GALAXY, comet, orbit, nebula.", min: 0.999, max: 1},
		{name: "on topic", text: astronomy, min: 0.3, max: 0.9},
		{name: "one word", text: "comet", min: 0.4, max: 0.5}, // 1/sqrt(5)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.PageScore(tt.text); got < tt.min || got > tt.max {
				t.Errorf("PageScore(%q) = %v, want in [%v, %v]", tt.text, got, tt.min, tt.max)
			}
		})
	}
}

// TestLearnIDF: a word in every page learned loses its weight, so a text
// that shares only that word with the topic scores less and less.
func TestLearnIDF(t *testing.T) {
	s := mustNew(t, "the galaxy")
	before := s.PageScore("the")
	for range 200 {
		s.Learn("the market and the bond " + cooking)
	}
	after := s.PageScore("the")
	if s.Docs() != 200 {
		t.Errorf("Docs() = %d, want 200", s.Docs())
	}
	if !(before > 0.5) || !(after < 0.1) {
		t.Errorf("PageScore(%q) = %v before and %v after learning 200 pages with it: want > 0.5, then < 0.1", "the", before, after)
	}
	if got := s.PageScore("galaxy"); !(got > 0.99) {
		t.Errorf("PageScore(%q) = %v after learning, want > 0.99 (the only informative topic word)", "galaxy", got)
	}
}

func TestLinkScore(t *testing.T) {
	s := mustNew(t, "galaxy comet telescope", topic.WithWeights(2, 1, 1)) // α = 0.5, β = γ = 0.25
	const (
		anchor = "The comet and the galaxy"
		rawURL = "https://sky.example/telescope/galaxy-comet.html?id=1"
	)
	want := 0.5*0.4 + 0.25*s.PageScore(anchor) + 0.25*s.URLScore(rawURL)
	if got := s.LinkScore(0.4, anchor, rawURL); math.Abs(got-want) > 1e-12 {
		t.Errorf("LinkScore(0.4, %q, %q) = %v, want %v", anchor, rawURL, got, want)
	}
	if got := s.URLScore(rawURL); !(got > 0.5) {
		t.Errorf("URLScore(%q) = %v, want > 0.5", rawURL, got)
	}
	if got := s.URLScore("https://galaxy.example/?q=galaxy+comet+telescope"); got > s.URLScore("https://galaxy.example/") {
		t.Errorf("URLScore counts the query: %v", got)
	}
	on := s.LinkScore(0, "A new comet seen", "http://a.example/p/1")
	off := s.LinkScore(0, "Read more", "http://a.example/p/2")
	if !(on > off) || off != 0 {
		t.Errorf("LinkScore on-topic anchor = %v, off-topic = %v; want on > off = 0", on, off)
	}
	if got := s.LinkScore(1, anchor, rawURL); got < 0 || got > 1 {
		t.Errorf("LinkScore(1, ...) = %v, want in [0, 1]", got)
	}
}

func TestExamples(t *testing.T) {
	s := mustNew(t, "", topic.WithExamples(astronomy, "Another comet crossed the orbit of the lunar satellite."))
	if a, c := s.PageScore("galaxy and meteor and comet"), s.PageScore("garlic and butter and flour"); !(a > c) {
		t.Errorf("topic from astronomy examples: PageScore(astronomy words) = %v ≤ PageScore(cooking words) = %v", a, c)
	}
}

func TestRelevant(t *testing.T) {
	t.Run("threshold", func(t *testing.T) {
		s := mustNew(t, "telescope galaxy comet orbit nebula", topic.WithThreshold(0.3))
		if !s.Relevant(astronomy) || s.Relevant(cooking) {
			t.Errorf("Relevant(astronomy) = %v, Relevant(cooking) = %v; want true, false", s.Relevant(astronomy), s.Relevant(cooking))
		}
		score, rel := s.Observe(astronomy)
		if !rel || score != s.PageScore(astronomy) {
			t.Errorf("Observe(astronomy) = %v, %v; want PageScore %v, true", score, rel, s.PageScore(astronomy))
		}
	})
	t.Run("classifier", func(t *testing.T) {
		var calls int
		c := topic.ClassifierFunc(func(text string) bool { calls++; return strings.Contains(text, "oven") })
		s := mustNew(t, "telescope galaxy", topic.WithClassifier(c))
		if s.Relevant(astronomy) || !s.Relevant(cooking) {
			t.Errorf("with a classifier: Relevant(astronomy) = %v, Relevant(cooking) = %v; want the classifier's false, true", s.Relevant(astronomy), s.Relevant(cooking))
		}
		if score, rel := s.Observe(cooking); !rel || score != 0 {
			t.Errorf("Observe(cooking) = %v, %v; want 0 (the TF-IDF score), true (the classifier)", score, rel)
		}
		if calls != 3 {
			t.Errorf("classifier called %d times, want 3", calls)
		}
	})
}

// TestConcurrent learns and scores from many goroutines (run with -race).
func TestConcurrent(t *testing.T) {
	s := mustNew(t, "telescope galaxy comet")
	var wg sync.WaitGroup
	const workers, pages = 8, 50
	for i := range workers {
		wg.Go(func() {
			for j := range pages {
				text := astronomy
				if (i+j)%2 == 0 {
					text = cooking
				}
				score, _ := s.Observe(text)
				if l := s.LinkScore(score, "comet", "http://x.example/galaxy"); l < 0 || l > 1 {
					t.Errorf("LinkScore = %v, want in [0, 1]", l)
				}
			}
		})
	}
	wg.Wait()
	if got := s.Docs(); got != workers*pages {
		t.Errorf("Docs() = %d, want %d", got, workers*pages)
	}
}

func TestScoringAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	s := mustNew(t, "telescope galaxy comet")
	s.Observe(astronomy) // warm the pool
	if n := testing.AllocsPerRun(100, func() { s.PageScore(astronomy) }); n != 0 {
		t.Errorf("PageScore allocates %v times per call, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { s.LinkScore(0.5, "The comet", "https://a.example/galaxy/1") }); n != 0 {
		t.Errorf("LinkScore allocates %v times per call, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { s.Observe(astronomy) }); n != 0 {
		t.Errorf("Observe allocates %v times per call, want 0", n)
	}
}

// TestDefaultThresholds: a topic given by words alone calls a page
// relevant from DefaultThreshold on, one given by examples from
// DefaultExampleThreshold on, and WithThreshold overrides either. Texts
// with more and more off-topic words spread the scores across both
// cut-offs.
func TestDefaultThresholds(t *testing.T) {
	filler := strings.Fields("garlic butter flour onion oven pastry dough simmer roast pepper salt sugar cream whisk")
	texts := make([]string, 0, 400)
	for n := range 400 {
		words := []string{"comet galaxy"}
		for i := range n {
			words = append(words, filler[i%len(filler)]+strconv.Itoa(i))
		}
		texts = append(texts, strings.Join(words, " "))
	}
	tests := []struct {
		name string
		s    *topic.Scorer
		cut  float64
	}{
		{name: "words", s: mustNew(t, "telescope galaxy comet orbit nebula"), cut: topic.DefaultThreshold},
		{name: "examples", s: mustNew(t, "", topic.WithExamples(astronomy)), cut: topic.DefaultExampleThreshold},
		{name: "words and examples", s: mustNew(t, "telescope", topic.WithExamples(astronomy)), cut: topic.DefaultExampleThreshold},
		{name: "examples, WithThreshold", s: mustNew(t, "", topic.WithExamples(astronomy), topic.WithThreshold(0.1)), cut: 0.1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var below, above bool // a text scored within 0.03 under and over the cut-off
			for _, text := range texts {
				score := tt.s.PageScore(text)
				if got := tt.s.Relevant(text); got != (score >= tt.cut) {
					t.Errorf("score %.3f: Relevant = %v, want %v (cut-off %v)", score, got, !got, tt.cut)
				}
				below = below || (score < tt.cut && score > tt.cut-0.03)
				above = above || (score >= tt.cut && score < tt.cut+0.03)
			}
			if !below || !above {
				t.Errorf("no scores close to the cut-off %v on both sides (below %v, above %v): the test texts need changing", tt.cut, below, above)
			}
		})
	}
}
