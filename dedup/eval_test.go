package dedup

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/shareddata"
)

// The real-text evaluation. The article texts come from the content-eval
// data set (AGPL v3), read at test time and never copied into the module.

type article struct {
	id, text string
}

func loadArticles(t testing.TB) []article {
	t.Helper()
	truthPath := filepath.Join(shareddata.Dir(t, "content-eval"), "truth.jsonl")
	f, err := os.Open(truthPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []article
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var rec struct {
			ID   string `json:"id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s: %v", truthPath, err)
		}
		out = append(out, article{id: rec.ID, text: rec.Text})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no articles", truthPath)
	}
	return out
}

// The site template every page is wrapped in. Menus, the "most read" list
// and the footer are the same on every page; the ad rotates among several,
// and the clock line and the session link change on every serving.
const (
	tmplHeader   = "Example Daily News\nHome | World | U.S. | Politics | Business | Technology | Science | Health | Sports | Arts | Style | Travel | Opinion | Video | Podcasts\nSubscribe | Log in | Search"
	tmplMostRead = "MOST READ\n1. City council approves new budget after a long night of debate\n2. Five things to know before the markets open on Monday\n3. The best hiking trails within an hour of downtown\n4. Local team clinches the title in overtime thriller\n5. Opinion: why our schools need more librarians, not fewer"
	tmplFooter   = "About us | Contact | Careers | Advertise with us | Terms of Service | Privacy Policy | Cookie Settings | Accessibility | Site Map\n© 2026 Example Daily News Media Group. All rights reserved. This material may not be published, broadcast, rewritten or redistributed without permission."
)

var evalAds = []string{
	"ADVERTISEMENT\nSave 40% on your first year of unlimited digital access. Offer ends Sunday.",
	"ADVERTISEMENT\nRefinance today: rates as low as 5.9% APR. Check your rate in two minutes with no impact on your credit score.",
	"ADVERTISEMENT\nThe new Aurora X5 electric SUV. Book a test drive at a dealer near you.",
	"ADVERTISEMENT\nHolidays in the sun: seven nights from $599 per person, flights included.",
	"ADVERTISEMENT\nLearn a language in three weeks with the app that 20 million people use.",
	"ADVERTISEMENT\nWinter sale now on: up to 60% off coats, boots and knitwear, in store and online.",
}

var evalDays = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// servePage wraps an article in the template. ad, clock and session select
// the variable parts.
func servePage(articleIdx int, body string, ad, clock int, session uint64) string {
	var b strings.Builder
	b.WriteString(tmplHeader)
	fmt.Fprintf(&b, "\n%s, November %d, 2026 %d:%02d %s ET · Updated %d minutes ago\n\n",
		evalDays[clock%7], 1+clock%28, 1+clock%12, (clock*7)%60, []string{"AM", "PM"}[clock%2], 1+clock%59)
	b.WriteString(body)
	fmt.Fprintf(&b, "\n\nShare this story: https://www.example-daily.com/story/%d?sessionid=%016x\n\n", articleIdx, session)
	b.WriteString(evalAds[ad%len(evalAds)])
	b.WriteString("\n\n")
	b.WriteString(tmplMostRead)
	b.WriteString("\n\n")
	b.WriteString(tmplFooter)
	return b.String()
}

var evalReplacements = []string{"however", "reportedly", "yesterday", "several", "officials", "recently", "quickly", "government", "according", "million"}

// changeWords replaces about 1% of the words of body (at least one).
func changeWords(body string, rng *rand.Rand) string {
	fields := strings.Fields(body)
	n := max(1, (len(fields)+50)/100)
	for _, i := range rng.Perm(len(fields))[:min(n, len(fields))] {
		fields[i] = evalReplacements[rng.IntN(len(evalReplacements))]
	}
	return strings.Join(fields, " ")
}

// reflow changes only white space and letter case: an exact duplicate.
func reflow(page string) string {
	return strings.ToUpper(strings.Join(strings.Fields(page), "  \n "))
}

type evalPage struct {
	article int
	variant string // "orig", "ad", "clock", "session", "words", "exact"
	text    string
}

func buildEvalPages(arts []article) []evalPage {
	var pages []evalPage
	for i, a := range arts {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		ad, clock, sess := i%len(evalAds), rng.IntN(1000), rng.Uint64()
		orig := servePage(i, a.text, ad, clock, sess)
		pages = append(pages,
			evalPage{i, "orig", orig},
			evalPage{i, "ad", servePage(i, a.text, ad+1+rng.IntN(len(evalAds)-1), clock, sess)},
			evalPage{i, "clock", servePage(i, a.text, ad, clock+1+rng.IntN(500), sess)},
			evalPage{i, "session", servePage(i, a.text, ad, clock, rng.Uint64())},
			evalPage{i, "words", servePage(i, changeWords(a.text, rng), ad, clock, sess)},
			evalPage{i, "exact", reflow(orig)},
		)
	}
	return pages
}

// evalEnv names the environment variable that makes TestRealTextEval print
// the whole precision/recall table against k and the threshold.
const evalEnv = "DEDUP_EVAL_CURVE"

var nearVariants = []string{"ad", "clock", "session", "words"}

type prCount struct{ tp, fp, fn int }

func (c prCount) precision() float64 {
	if c.tp+c.fp == 0 {
		return 1
	}
	return float64(c.tp) / float64(c.tp+c.fp)
}

func (c prCount) recall() float64 {
	if c.tp+c.fn == 0 {
		return 1
	}
	return float64(c.tp) / float64(c.tp+c.fn)
}

// TestRealTextEval builds, from every article of the content-eval set, a page
// in one site template and five re-servings of it (another ad, another clock
// line, another session link, about 1% of the article's words changed, and a
// copy that differs only in white space and case), and checks that a default
// Detector finds exactly the duplicates: precision >= 0.98 and recall >= 0.95
// for near duplicates, 1 and 1 for exact ones. Negatives are all pairs of
// different articles, minus the few pairs whose article texts are themselves
// near duplicates in the data set (shingle Jaccard >= 0.5), which are left
// out of the count. With DEDUP_EVAL_CURVE=1 it also prints the pair-level
// precision/recall table against k and the Jaccard threshold.
//
// Under the race detector, which slows it tenfold, it evaluates every third
// article only (same bars).
func TestRealTextEval(t *testing.T) {
	arts := loadArticles(t)
	if raceEnabled {
		var sub []article
		for i := 0; i < len(arts); i += 3 {
			sub = append(sub, arts[i])
		}
		t.Logf("race detector on: evaluating %d of %d articles", len(sub), len(arts))
		arts = sub
	}
	pages := buildEvalPages(arts)

	// Article pairs that are near duplicates in the data itself.
	sk := NewSketcher()
	artSketch := make([]Sketch, len(arts))
	for i, a := range arts {
		artSketch[i] = sk.MinHash(a.text)
	}
	ambiguousMemo := map[[2]int]bool{}
	ambiguous := func(a, b int) bool {
		if a > b {
			a, b = b, a
		}
		key := [2]int{a, b}
		v, ok := ambiguousMemo[key]
		if !ok {
			v = exactJaccard(sk.AppendShingles(nil, arts[a].text), sk.AppendShingles(nil, arts[b].text)) >= 0.5
			ambiguousMemo[key] = v
		}
		return v
	}

	// Stream every page through a default Detector: originals first, then
	// the re-servings in random order.
	d := NewDetector()
	id := func(i int) string { return fmt.Sprint(i) }
	order := rand.New(rand.NewPCG(1, 2)).Perm(len(pages))
	sort.SliceStable(order, func(x, y int) bool {
		return pages[order[x]].variant == "orig" && pages[order[y]].variant != "orig"
	})
	var near, exact prCount
	perVariant := map[string]*prCount{}
	for _, v := range nearVariants {
		perVariant[v] = &prCount{}
	}
	for _, pi := range order {
		p := pages[pi]
		m := d.Check(id(pi), p.text)
		ofArticle := -1
		if m.Kind != New {
			var of int
			fmt.Sscan(m.Of, &of)
			ofArticle = pages[of].article
		}
		same := ofArticle == p.article
		switch p.variant {
		case "exact":
			if m.Kind == Exact && same {
				exact.tp++
			} else {
				exact.fn++
				t.Logf("exact copy of article %s: Check = %+v", arts[p.article].id, m)
			}
			continue
		case "orig":
		default:
			c := perVariant[p.variant]
			switch {
			case m.Kind == Near && same:
				near.tp++
				c.tp++
				continue
			case m.Kind == Exact && same:
				// Cannot happen (every re-serving changes some word) but
				// would not be wrong.
				continue
			default:
				near.fn++
				c.fn++
			}
		}
		switch m.Kind {
		case Exact:
			if !same {
				exact.fp++
				t.Logf("page %d (article %s, %s) reported an exact duplicate of article %s", pi, arts[p.article].id, p.variant, arts[ofArticle].id)
			}
		case Near:
			if !same && !ambiguous(p.article, ofArticle) {
				near.fp++
				c := perVariant[p.variant]
				if c != nil {
					c.fp++
				}
				if testing.Verbose() {
					t.Logf("page %d (article %s, %s) reported a near duplicate of article %s, similarity %.2f", pi, arts[p.article].id, p.variant, arts[ofArticle].id, m.Similarity)
				}
			}
		}
	}
	t.Logf("Detector (defaults K=%d, threshold=%.2f): near duplicates precision %.4f recall %.4f (tp %d fp %d fn %d); exact precision %.4f recall %.4f",
		DefaultK, DefaultThreshold, near.precision(), near.recall(), near.tp, near.fp, near.fn, exact.precision(), exact.recall())
	for _, v := range nearVariants {
		c := perVariant[v]
		t.Logf("  %-8s recall %.4f (missed %d of %d)", v, c.recall(), c.fn, c.tp+c.fn)
	}
	if p, r := near.precision(), near.recall(); p < 0.98 || r < 0.95 {
		t.Errorf("near duplicates: precision %.4f, recall %.4f; want >= 0.98 and >= 0.95", p, r)
	}
	if p, r := exact.precision(), exact.recall(); p != 1 || r != 1 {
		t.Errorf("exact duplicates: precision %.4f, recall %.4f; want 1 and 1", p, r)
	}

	if os.Getenv(evalEnv) == "" {
		return
	}
	printCurve(t, arts, pages, ambiguous)
}

// printCurve logs pair-level precision and recall for a grid of k and
// thresholds: a pair is predicted near-duplicate when its simhashes are
// within k and its estimated Jaccard similarity reaches the threshold.
func printCurve(t *testing.T, arts []article, pages []evalPage, ambiguous func(a, b int) bool) {
	t.Helper()
	sk := NewSketcher()
	sigs := make([]Signature, len(pages))
	orig := make([]int, len(arts))
	for i, p := range pages {
		sigs[i] = sk.Sketch(p.text)
		if p.variant == "orig" {
			orig[p.article] = i
		}
	}
	const maxK = 10
	type pair struct {
		d int
		j float64
	}
	var pos, neg []pair
	for i, p := range pages {
		if p.variant == "orig" || p.variant == "exact" {
			continue
		}
		o := sigs[orig[p.article]]
		pos = append(pos, pair{Distance(o.Simhash, sigs[i].Simhash), o.MinHash.Jaccard(sigs[i].MinHash)})
	}
	excluded := 0
	for a := range arts {
		for b := a + 1; b < len(arts); b++ {
			x, y := sigs[orig[a]], sigs[orig[b]]
			dist := Distance(x.Simhash, y.Simhash)
			if dist > maxK {
				continue // never predicted positive in the table
			}
			if ambiguous(a, b) {
				excluded++
				continue
			}
			neg = append(neg, pair{dist, x.MinHash.Jaccard(y.MinHash)})
		}
	}
	t.Logf("%d article pairs within distance %d left out: their texts are near duplicates in the data set", excluded, maxK)
	thresholds := []float64{0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9}
	var b strings.Builder
	fmt.Fprintf(&b, "pair-level precision/recall: %d positive pairs, %d negative pairs (all pairs of different articles)\n", len(pos), len(arts)*(len(arts)-1)/2)
	b.WriteString(" k \\ t ")
	for _, th := range thresholds {
		fmt.Fprintf(&b, "|   %.2f    ", th)
	}
	b.WriteString("\n")
	for k := 0; k <= maxK; k++ {
		fmt.Fprintf(&b, " %2d    ", k)
		for _, th := range thresholds {
			var c prCount
			for _, p := range pos {
				if p.d <= k && p.j >= th {
					c.tp++
				} else {
					c.fn++
				}
			}
			for _, p := range neg {
				if p.d <= k && p.j >= th {
					c.fp++
				}
			}
			fmt.Fprintf(&b, "| %.3f/%.3f ", c.precision(), c.recall())
		}
		b.WriteString("\n")
	}
	t.Log("\n" + b.String())
}

// exactJaccard returns the Jaccard similarity of two multisets of hashes
// taken as sets.
func exactJaccard(a, b []uint64) float64 {
	sa := map[uint64]bool{}
	for _, x := range a {
		sa[x] = true
	}
	sb := map[uint64]bool{}
	inter := 0
	for _, x := range b {
		if !sb[x] {
			sb[x] = true
			if sa[x] {
				inter++
			}
		}
	}
	union := len(sa) + len(sb) - inter
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}
