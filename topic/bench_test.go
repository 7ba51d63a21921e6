package topic_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/topic"
)

// page returns a text of n words, about one word in four from the topic.
func page(n int) string {
	words := strings.Fields(astronomy + " " + cooking + " the a of and market bond equity")
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[(i*7)%len(words)])
		if i%13 == 0 {
			b.WriteString(strconv.Itoa(i))
		}
	}
	return b.String()
}

func benchScorer(b *testing.B) *topic.Scorer {
	b.Helper()
	s := mustNew(b, "telescope galaxy comet orbit nebula", topic.WithExamples(astronomy))
	for range 100 {
		s.Learn(page(300))
	}
	return s
}

func BenchmarkPageScore(b *testing.B) {
	for _, n := range []int{10, 300, 3000} {
		b.Run(strconv.Itoa(n)+"words", func(b *testing.B) {
			s, text := benchScorer(b), page(n)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				s.PageScore(text)
			}
		})
	}
}

func BenchmarkLinkScore(b *testing.B) {
	s := benchScorer(b)
	const anchor, rawURL = "Comet and the galaxy 123", "http://h3.test/astronomy/comet-galaxy-123.html"
	b.SetBytes(int64(len(anchor) + len(rawURL)))
	b.ReportAllocs()
	for b.Loop() {
		s.LinkScore(0.5, anchor, rawURL)
	}
}

func BenchmarkObserve(b *testing.B) {
	for _, n := range []int{300, 3000} {
		b.Run(strconv.Itoa(n)+"words", func(b *testing.B) {
			s, text := benchScorer(b), page(n)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				s.Observe(text)
			}
		})
	}
}

// BenchmarkObserveParallel: many crawler workers learning and scoring at once.
func BenchmarkObserveParallel(b *testing.B) {
	s, text := benchScorer(b), page(300)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			score, _ := s.Observe(text)
			s.LinkScore(score, "Comet and the galaxy", "http://h3.test/p/1.html")
		}
	})
}
