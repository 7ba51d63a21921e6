package maintext

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/contenteval"
)

// docsHeldOut names, per generator of the documentation corpus, the
// weights that switch off the rules designed by looking at that
// generator's pages: its held-out figure is Extract without them, with
// every rule designed on the other generators. (Two small rules cannot be
// switched off and are in every figure: a heading's own anchor link is no
// link, from mdBook pages, and the label of an open disclosure is no
// text, from rustdoc pages.)
var docsHeldOut = map[string]func(*mcWeights){
	"javadoc":  func(wt *mcWeights) { wt.mainWiden, wt.anchorIDs, wt.shortMain = 0, 0, 0 },
	"rustdoc":  func(wt *mcWeights) { wt.mainWiden = 0 },
	"mdbook":   func(wt *mcWeights) { wt.stubWords = 0 },
	"publican": func(wt *mcWeights) { wt.textBoxes, wt.textBoxSame = 0, 0 },
	"sphinx":   func(wt *mcWeights) { wt.anchorIDs = 0 },
	"docbook":  func(*mcWeights) {},
}

// TestMainTextDocs scores Extract on the documentation corpus that
// bench/content builds (its truth.jsonl, named by TRAWL_DOCS_CORPUS), by
// generator, with all rules and with the rules designed on that
// generator's pages switched off (docsHeldOut): the figure a generator
// gets from rules chosen on the others. Opt-in:
//
//	cd bench && go run ./content/docscorpus -out /tmp/docs-corpus
//	TRAWL_DOCS_CORPUS=/tmp/docs-corpus go test -run 'TestMainTextDocs$' -v ./maintext
func TestMainTextDocs(t *testing.T) {
	dir := os.Getenv("TRAWL_DOCS_CORPUS")
	if dir == "" {
		t.Skip("set TRAWL_DOCS_CORPUS to the directory docscorpus wrote")
	}
	f, err := os.Open(filepath.Join(dir, "truth.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type tally struct {
		n               int
		p, r, f1        float64
		hp, hr, hf1     float64
		low, heldOutLow int
	}
	byGen := map[string]*tally{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var pg struct{ Generator, Path, Text string }
		if err := json.Unmarshal(sc.Bytes(), &pg); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(pg.Path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			continue
		}
		tt := contenteval.Tokens(pg.Text)
		w := mcSegment(doc)
		pred, _ := w.mainText(w.title)
		p, r, f1, ok := contenteval.ScoreTokens(pred, tt)
		if !ok {
			continue
		}
		off := docsHeldOut[pg.Generator]
		if off == nil {
			t.Fatalf("generator %q has no held-out rule list", pg.Generator)
		}
		w.wt = mcDefaultWeights()
		off(&w.wt)
		w.resolveHints()
		hpred, _ := w.mainText(w.title)
		hp, hr, hf1, _ := contenteval.ScoreTokens(hpred, tt)
		a := byGen[pg.Generator]
		if a == nil {
			a = &tally{}
			byGen[pg.Generator] = a
		}
		a.n++
		a.p, a.r, a.f1 = a.p+p, a.r+r, a.f1+f1
		a.hp, a.hr, a.hf1 = a.hp+hp, a.hr+hr, a.hf1+hf1
		if r < 0.8 {
			a.low++
		}
		if hr < 0.8 {
			a.heldOutLow++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var gens []string
	for g := range byGen {
		gens = append(gens, g)
	}
	sort.Strings(gens)
	var sb strings.Builder
	sb.WriteString("| generator | pages | P | R | F1 | R<0.8 | held out: P | R | F1 | R<0.8 |\n|---|---|---|---|---|---|---|---|---|---|\n")
	var mr, mhr float64
	for _, g := range gens {
		a := byGen[g]
		n := float64(a.n)
		fmt.Fprintf(&sb, "| %s | %d | %.3f | %.3f | %.3f | %d | %.3f | %.3f | %.3f | %d |\n", g, a.n, a.p/n, a.r/n, a.f1/n, a.low, a.hp/n, a.hr/n, a.hf1/n, a.heldOutLow)
		mr += a.r / n / float64(len(gens))
		mhr += a.hr / n / float64(len(gens))
	}
	fmt.Fprintf(&sb, "mean recall over generators: %.3f; held out: %.3f\n", mr, mhr)
	t.Log("\n" + sb.String())
}
