package topic_test

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/topic"
)

// FuzzScore: any text scores in [0, 1]; ASCII case does not change a
// score; learning counts exactly one document.
func FuzzScore(f *testing.F) {
	f.Add(astronomy)
	f.Add("東京タワー, Москва and Γαλαξίας: नमस्ते")
	f.Add("abc\xffdef\xc0")
	f.Fuzz(func(t *testing.T, text string) {
		s := mustNew(t, "telescope galaxy comet 東京 москва", topic.WithExamples(astronomy))
		check := func(what string, v float64) {
			if math.IsNaN(v) || v < 0 || v > 1 {
				t.Fatalf("%s(%q) = %v, want in [0, 1]", what, text, v)
			}
		}
		score := s.PageScore(text)
		check("PageScore", score)
		check("URLScore", s.URLScore(text))
		check("LinkScore", s.LinkScore(score, text, text))
		if utf8.ValidString(text) {
			if up := s.PageScore(strings.Map(asciiUpper, text)); up != score {
				t.Errorf("PageScore(%q) = %v, but %v with ASCII upper case", text, score, up)
			}
		}
		s.Learn(text)
		if s.Docs() != 1 {
			t.Errorf("Docs() = %d after one Learn, want 1", s.Docs())
		}
		check("PageScore after Learn", s.PageScore(text))
	})
}

func asciiUpper(r rune) rune {
	if 'a' <= r && r <= 'z' {
		return r - 'a' + 'A'
	}
	return r
}
