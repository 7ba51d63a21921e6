package topic

import (
	"slices"
	"strings"
	"testing"
)

// terms returns the term hashes of s.
func terms(s string) []uint64 {
	var out []uint64
	eachTerm(s, func(h uint64) { out = append(out, h) })
	return out
}

func TestEachTerm(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // the terms, each written as its own lower-case word
	}{
		{name: "empty", in: "", want: nil},
		{name: "punctuation only", in: " ,.;-- !?", want: nil},
		{name: "ascii", in: "Hello, World!", want: []string{"hello", "world"}},
		{name: "digits", in: "route 66 and A4", want: []string{"route", "66", "and", "a4"}},
		{name: "apostrophe splits", in: "don't", want: []string{"don", "t"}},
		{name: "latin accents", in: "ÉCOLE école", want: []string{"école", "école"}},
		{name: "greek", in: "Γαλαξίας", want: []string{"γαλαξίας"}},
		{name: "cyrillic", in: "Москва, МОСКВА", want: []string{"москва", "москва"}},
		{name: "devanagari marks stay in the word", in: "नमस्ते दुनिया", want: []string{"नमस्ते", "दुनिया"}},
		{name: "han one term per character", in: "東京タワー", want: []string{"東", "京", "タ", "ワ", "ー"}},
		{name: "han next to latin", in: "go言語", want: []string{"go", "言", "語"}},
		{name: "invalid utf8 separates", in: "abc\xffdef", want: []string{"abc", "def"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := terms(tt.in)
			var want []uint64
			for _, w := range tt.want {
				ts := terms(w)
				if len(ts) != 1 {
					t.Fatalf("test word %q has %d terms, want 1", w, len(ts))
				}
				want = append(want, ts[0])
			}
			if !slices.Equal(got, want) {
				t.Errorf("terms(%q) = %d terms %v, want %q", tt.in, len(got), got, tt.want)
			}
		})
	}
}

func TestTermsDistinguishWords(t *testing.T) {
	words := strings.Fields("the a of galaxy galaxies orbit orbits σ ς 1 11 111 ab ba")
	seen := map[uint64]string{}
	for _, w := range words {
		h := terms(w)[0]
		if other, dup := seen[h]; dup {
			t.Errorf("terms(%q) = terms(%q)", w, other)
		}
		seen[h] = w
	}
}

func TestURLWords(t *testing.T) {
	tests := []struct{ in, want string }{
		{in: "https://www.example.com/sport/football-league.html?id=3#top", want: "www.example.com/sport/football-league.html"},
		{in: "http://h1.test/", want: "h1.test/"},
		{in: "/relative/path?q", want: "/relative/path"},
		{in: "", want: ""},
	}
	for _, tt := range tests {
		if got := urlWords(tt.in); got != tt.want {
			t.Errorf("urlWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
