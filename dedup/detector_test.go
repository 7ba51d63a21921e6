package dedup

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// articleText returns a deterministic pseudo-article of n words.
func articleText(seed uint64, n int) string {
	return strings.Join(randomText(rand.New(rand.NewPCG(seed, 99)), n, 20000), " ")
}

func TestDetectorCheck(t *testing.T) {
	a := articleText(1, 300)
	b := articleText(2, 300)
	aEdited := strings.Replace(a, " ", " inserted ", 1) // one word added
	template := "Home News Sport Weather Contact us Privacy policy Terms of use"
	steps := []struct {
		id, text string
		want     Match
	}{
		{id: "a", text: a, want: Match{Kind: New}},
		{id: "b", text: b, want: Match{Kind: New}},
		{id: "a-upper", text: strings.ToUpper(a), want: Match{Kind: Exact, Of: "a", Similarity: 1}},
		{id: "a-spaces", text: "\n" + strings.ReplaceAll(a, " ", "\t  ") + "\n", want: Match{Kind: Exact, Of: "a", Similarity: 1}},
		{id: "a-edited", text: aEdited, want: Match{Kind: Near, Of: "a"}},
		{id: "a-edited-again", text: aEdited, want: Match{Kind: Exact, Of: "a-edited", Similarity: 1}},
		{id: "c", text: template + " " + articleText(3, 40), want: Match{Kind: New}},
		{id: "d", text: template + " " + articleText(4, 40), want: Match{Kind: New}},
	}
	d := NewDetector()
	for _, st := range steps {
		got := d.Check(st.id, st.text)
		if got.Kind != st.want.Kind || got.Of != st.want.Of {
			t.Fatalf("Check(%q) = %+v, want %+v", st.id, got, st.want)
		}
		switch got.Kind {
		case Near:
			if got.Similarity < DefaultThreshold || got.Similarity > 1 {
				t.Errorf("Check(%q).Similarity = %v, want in [%v, 1]", st.id, got.Similarity, DefaultThreshold)
			}
		default:
			if got.Similarity != st.want.Similarity {
				t.Errorf("Check(%q).Similarity = %v, want %v", st.id, got.Similarity, st.want.Similarity)
			}
		}
	}
	// Exact duplicates are not recorded.
	if got, want := d.Len(), 5; got != want {
		t.Errorf("Len() = %d, want %d", got, want)
	}
}

func TestDetectorPrefersMostSimilar(t *testing.T) {
	base := randomText(rand.New(rand.NewPCG(5, 5)), 400, 20000)
	edit := func(every int) string {
		w := append([]string(nil), base...)
		for i := 0; i < len(w); i += every {
			w[i] = "changed"
		}
		return strings.Join(w, " ")
	}
	d := NewDetector(WithK(MaxK), WithThreshold(0.3))
	d.Check("far", edit(25))
	d.Check("close", edit(200))
	if got := d.Check("base", strings.Join(base, " ")); got.Kind != Near || got.Of != "close" {
		t.Errorf("Check(base) = %+v, want Near of close (the more similar)", got)
	}
}

func TestDetectorShortTexts(t *testing.T) {
	tests := []struct {
		name     string
		opts     []Option
		original string
		copy     string
		want     Kind
	}{
		{name: "empty then blank", original: "", copy: " \n\t", want: Exact},
		{name: "punctuation only", original: "!!!", copy: "!!!", want: Exact},
		{name: "short exact", original: "Breaking: markets fall", copy: "BREAKING:  markets fall", want: Exact},
		{name: "short near is not near", original: "one two three four five six seven eight nine", copy: "one two three four five six seven eight ten", want: New},
		{name: "fewer words than a shingle", opts: []Option{WithMinWords(0)}, original: "a b c", copy: "a b d", want: New},
		{name: "long enough with lower MinWords", opts: []Option{WithMinWords(5), WithK(MaxK), WithThreshold(0.5)},
			original: "one two three four five six seven eight nine", copy: "one two three four five six seven eight nine ten", want: Near},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDetector(tt.opts...)
			if got := d.Check("original", tt.original); got.Kind != New {
				t.Fatalf("Check(original %q) = %+v, want New", tt.original, got)
			}
			got := d.Check("copy", tt.copy)
			if got.Kind != tt.want {
				t.Errorf("Check(copy %q) after %q = %+v, want %v", tt.copy, tt.original, got, tt.want)
			}
			if got.Kind != New && got.Of != "original" {
				t.Errorf("Check(copy %q).Of = %q, want original", tt.copy, got.Of)
			}
		})
	}
}

func TestDetectorMaxEntries(t *testing.T) {
	d := NewDetector(WithMaxEntries(10))
	texts := make([]string, 30)
	for i := range texts {
		texts[i] = articleText(uint64(100+i), 200)
		if got := d.Check(fmt.Sprint(i), texts[i]); got.Kind != New {
			t.Fatalf("Check(%d) = %+v, want New", i, got)
		}
		if n := d.Len(); n > 10 {
			t.Fatalf("after %d texts Len() = %d, want <= 10", i+1, n)
		}
	}
	if n := d.Len(); n < 5 {
		t.Errorf("Len() = %d, want >= 5 (the newest half at least)", n)
	}
	// The newest texts are remembered, the oldest forgotten.
	if got := d.Check("again-29", texts[29]); got.Kind != Exact || got.Of != "29" {
		t.Errorf("Check(copy of text 29) = %+v, want Exact of 29", got)
	}
	if got := d.Check("near-28", texts[28]+" extra"); got.Kind != Near || got.Of != "28" {
		t.Errorf("Check(near copy of text 28) = %+v, want Near of 28", got)
	}
	if got := d.Check("again-0", texts[0]); got.Kind != New {
		t.Errorf("Check(copy of text 0) = %+v, want New (forgotten)", got)
	}
}

// TestDetectorConcurrent checks many goroutines at once: every original
// must come out New exactly once per text and every copy as a duplicate.
func TestDetectorConcurrent(t *testing.T) {
	const n = 40
	d := NewDetector()
	texts := make([]string, n)
	for i := range texts {
		texts[i] = articleText(uint64(1000+i), 150)
	}
	var wg sync.WaitGroup
	results := make([][]Match, 4)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, text := range texts {
				if g%2 == 1 {
					text = strings.ToUpper(text)
				}
				results[g] = append(results[g], d.Check(fmt.Sprintf("%d/%d", g, i), text))
			}
		}()
	}
	wg.Wait()
	for i := range texts {
		news := 0
		for g := range results {
			switch results[g][i].Kind {
			case New:
				news++
			case Near:
				t.Errorf("text %d, goroutine %d: %+v, want New or Exact", i, g, results[g][i])
			}
		}
		if news != 1 {
			t.Errorf("text %d: %d goroutines got New, want exactly 1", i, news)
		}
	}
}

func TestKindString(t *testing.T) {
	tests := []struct {
		k    Kind
		want string
	}{
		{k: New, want: "new"},
		{k: Exact, want: "exact"},
		{k: Near, want: "near"},
		{k: Kind(12), want: "Kind(12)"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(tt.k), got, tt.want)
		}
	}
}

func TestOptionPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{name: "WithK(-1)", f: func() { WithK(-1) }},
		{name: "WithK(13)", f: func() { WithK(13) }},
		{name: "WithThreshold(0)", f: func() { WithThreshold(0) }},
		{name: "WithThreshold(1.5)", f: func() { WithThreshold(1.5) }},
		{name: "WithThreshold(NaN)", f: func() { WithThreshold(nan()) }},
		{name: "WithShingleSize(0)", f: func() { WithShingleSize(0) }},
		{name: "WithSketchSize(0)", f: func() { WithSketchSize(0) }},
		{name: "WithSampleModulus(0)", f: func() { WithSampleModulus(0) }},
		{name: "WithMaxEntries(1)", f: func() { WithMaxEntries(1) }},
		{name: "WithMinWords(-1)", f: func() { WithMinWords(-1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", tt.name)
				}
			}()
			tt.f()
		})
	}
}

func nan() float64 {
	zero := 0.0
	return zero / zero
}
