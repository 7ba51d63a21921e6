package content

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/contenteval"
)

const docsEnv = "TRAWL_DOCS_EVAL"

// TestDocTruth checks the truth rules on small hand-written pages of each
// generator's markup: the block is found, the permalink marks and
// navigation named in DocTruth's doc are left out, code keeps its lines.
func TestDocTruth(t *testing.T) {
	tests := []struct {
		gen, page, want string
		ok              bool
	}{
		{"sphinx", `<div class="related" role="navigation">Previous topic</div><div class="body" role="main"><h1>Numbers<a class="headerlink" href="#n">¶</a></h1><p>The numeric tower of abstract base classes.</p><pre>x = 1
    y = 2</pre></div>`,
			"Numbers\nThe numeric tower of abstract base classes.\nx = 1\n    y = 2", true},
		{"docbook", `<body><div class="navheader">Prev Up Next</div><div class="sect1"><h2>SELECT</h2><p>retrieve rows from a table or view</p></div><div class="navfooter">Prev Home Next</div></body>`,
			"SELECT\nretrieve rows from a table or view", true},
		{"publican", `<body><div id="banner"><p id="title">Debian Handbook</p></div><ul class="docnav top"><li>Prev</li></ul><div class="section"><div class="para">APT is the <em>Advanced</em> Package Tool of Debian.</div></div><ul class="docnav"><li>Next</li></ul></body>`,
			"APT is the Advanced Package Tool of Debian.", true},
		{"javadoc", `<header>Skip navigation</header><main role="main"><h2>Method Summary</h2><div class="table-tabs" role="tablist"><button>All Methods</button></div><table><tr><td><code>add(E e)</code></td><td>Appends the element.</td></tr></table></main>`,
			"Method Summary\nadd(E e)\nAppends the element.", true},
		{"rustdoc", `<section id="main-content"><h1>Struct Vec<span class="out-of-band"><a class="srclink">source</a> · [−]</span></h1><details><summary class="hideme"><span>Expand description</span></summary><p>A contiguous growable array type.</p></details><h2><a class="anchor" href="#e">§</a>Examples</h2></section>`,
			"Struct Vec\nA contiguous growable array type.\nExamples", true},
		{"mdbook", `<nav>Table of contents</nav><main><h1><a class="header" href="#x">Data Types</a></h1><p>Every value in Rust is of a certain data type.</p></main><nav class="nav-wrapper">Next</nav>`,
			"Data Types\nEvery value in Rust is of a certain data type.", true},
		{"mdbook", `<main><p>Redirecting to... <a href="x">x</a></p></main>`, "", false},
		{"javadoc", `<body><p>No main element here, though it has words enough.</p></body>`, "", false},
	}
	for _, tt := range tests {
		got, ok := DocTruth(tt.gen, []byte(tt.page))
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("DocTruth(%s, %.40q...) = %q, %v; want %q, %v", tt.gen, tt.page, got, ok, tt.want, tt.ok)
		}
	}
}

// TestDocs scores the main-text finders on the documentation corpus, by
// generator, by site and, for the Debian Handbook, by language. Opt-in:
//
//	cd bench && TRAWL_DOCS_EVAL=1 go test -run 'TestDocs$' -v ./content
//
// TRAWL_DOCS_EVAL=all also scores go-trafilatura and go-readability (much
// slower); TRAWL_DOCS_SCALE=0.2 takes a fifth of the default sample;
// TRAWL_DOCS_WORST=n lists each generator's n pages of lowest recall.
// When the packages are not installed the test skips, or fails when CI is
// set.
func TestDocs(t *testing.T) {
	mode := os.Getenv(docsEnv)
	if mode == "" {
		t.Skipf("set %s=1 (or all) to score the finders on the documentation corpus", docsEnv)
	}
	scale := 1.0
	if s := os.Getenv("TRAWL_DOCS_SCALE"); s != "" {
		var err error
		if scale, err = strconv.ParseFloat(s, 64); err != nil {
			t.Fatal(err)
		}
	}
	pages, err := BuildDocs(DocSites(), scale)
	if errors.Is(err, fs.ErrNotExist) {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	fs := finders()[:1]
	if mode == "all" {
		fs = finders()[:4]
		fs = slices.Delete(fs, 1, 2) // go-trafilatura with its fallback only
	}
	worstN, _ := strconv.Atoi(os.Getenv("TRAWL_DOCS_WORST"))
	type key struct{ finder, group string }
	tallies := map[key]*docTally{}
	add := func(f, g string, p, r, f1 float64) {
		k := key{f, g}
		if tallies[k] == nil {
			tallies[k] = &docTally{}
		}
		tallies[k].add(p, r, f1)
	}
	type low struct {
		id   string
		r, p float64
	}
	worst := map[string][]low{}
	for _, pg := range pages {
		b, err := os.ReadFile(pg.Path)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(pg.URL)
		tt := contenteval.Tokens(pg.Text)
		for i, f := range fs {
			p, r, f1, ok := contenteval.ScoreTokens(f.find(b, u), tt)
			if !ok {
				continue
			}
			add(f.name, "gen "+pg.Generator, p, r, f1)
			add(f.name, "site "+pg.Site, p, r, f1)
			add(f.name, "all", p, r, f1)
			if pg.Generator == "publican" {
				add(f.name, "lang "+pg.Lang, p, r, f1)
			}
			if i == 0 && worstN > 0 {
				worst[pg.Generator] = append(worst[pg.Generator], low{pg.ID, r, p})
			}
		}
	}
	var groups []string
	for k := range tallies {
		if k.finder == fs[0].name {
			groups = append(groups, k.group)
		}
	}
	sort.Strings(groups)
	var sb strings.Builder
	fmt.Fprintf(&sb, "documentation corpus: %d pages (scale %g); bag-of-words P/R/F1 macro-averaged over pages; R<0.8: pages keeping less than 0.8 of the truth's words\n", len(pages), scale)
	for _, f := range fs {
		fmt.Fprintf(&sb, "%s\n| group | pages | P | R | F1 | R<0.8 |\n|---|---|---|---|---|---|\n", f.name)
		for _, g := range groups {
			if a := tallies[key{f.name, g}]; a != nil {
				p, r, f1 := a.prf()
				fmt.Fprintf(&sb, "| %s | %d | %.3f | %.3f | %.3f | %d |\n", g, a.n, p, r, f1, a.low)
			}
		}
	}
	for gen, ls := range worst {
		slices.SortFunc(ls, func(a, b low) int {
			if a.r != b.r {
				if a.r < b.r {
					return -1
				}
				return 1
			}
			return strings.Compare(a.id, b.id)
		})
		fmt.Fprintf(&sb, "lowest recall, %s:\n", gen)
		for _, l := range ls[:min(worstN, len(ls))] {
			fmt.Fprintf(&sb, "  R %.3f P %.3f %s\n", l.r, l.p, l.id)
		}
	}
	t.Log("\n" + sb.String())
}

// docTally macro-averages P, R and F1 over pages.
type docTally struct {
	n, low      int
	sp, sr, sf1 float64
}

func (a *docTally) add(p, r, f1 float64) {
	a.n++
	a.sp, a.sr, a.sf1 = a.sp+p, a.sr+r, a.sf1+f1
	if r < 0.8 {
		a.low++
	}
}

func (a *docTally) prf() (p, r, f1 float64) {
	n := float64(max(a.n, 1))
	return a.sp / n, a.sr / n, a.sf1 / n
}
