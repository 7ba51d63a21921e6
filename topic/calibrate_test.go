package topic_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/contenteval"
	"github.com/trawl-dev/trawl/internal/shareddata"
	"github.com/trawl-dev/trawl/topic"
)

// calibrationDir is the content-eval data set: real pages with their
// hand-corrected main text (AGPL; read in place, never copied here).

// calTopic is a topic of the threshold calibration: a description as a
// user would write it, and which pages are about it. The labels are the
// pages of sites devoted to the topic, plus pages of other sites judged
// relevant by reading them: for each topic, the 20 other pages that
// scored highest (in one shuffled pass over all 1379 pages) were read and
// those about the topic listed here by their content-eval id (pooling, as
// TREC does; a page outside the pool counts as not relevant).
type calTopic struct {
	name  string
	words string
	sites []string // registrable domains (contenteval.Site) devoted to the topic
	also  []string // content-eval ids of other pages about it
}

var calTopics = []calTopic{
	{"american football", "nfl football quarterback touchdown", []string{"nfl.com"},
		[]string{"R858", "T108", "R859", "R856", "R997", "R857", "T54", "T52"}},
	{"ice hockey", "nhl ice hockey", []string{"nhl.com"}, nil},
	{"real estate", "real estate home sale house prices", []string{"zillow.com"},
		[]string{"212", "T28", "R174"}},
	{"cars", "cars car review driving", []string{"thecarconnection.com"},
		[]string{"T86", "T88", "T99", "T100", "T94", "T95", "T87", "T84", "T91", "T83", "T85", "T93", "T96", "205"}},
	{"online advertising", "adwords online advertising ads campaigns", []string{"adwords.blogspot.com"},
		[]string{"232", "R456", "39", "R671"}},
	{"video games", "video games nintendo console gamers", []string{"kotaku.com", "nintendo.com", "joystiq.com"},
		[]string{"R839", "R826", "R476", "329", "R885", "R840", "R827", "R785", "R820", "R782", "T8"}},
	{"android phones", "android smartphone phones", []string{"androidcommunity.com"},
		[]string{"R847", "R444", "R33", "R141", "352", "R146", "R313", "R120", "120", "R707", "R341", "R342", "T112"}},
	{"health economics", "health care economics insurance medicare", []string{"healthcare-economist.com"},
		[]string{"T80", "T2", "R172", "R429", "R301", "T142", "R90", "R85", "R871"}},
	{"sports science", "sports science running exercise athletes", []string{"sportsscientists.com"},
		[]string{"R247", "R302", "R344"}},
	{"space", "space astronomy nasa planets", []string{"universetoday.com"},
		[]string{"R650", "T175", "30", "222", "R818", "134", "149", "R12", "T179", "T173", "T178"}},
	{"education", "teachers students classroom blogging", []string{"theedublogger.com"},
		[]string{"R258", "R283", "R910", "R24", "R403", "161", "R906"}},
	{"journalism", "journalism newsroom reporters newspapers", []string{"poynter.org"},
		[]string{"272", "R545", "R720", "R217", "R539", "R538"}},
}

// calPasses is how many shuffled orders each split is scored in.
const calPasses = 3

// calScore is one page's score for one topic, and its label.
type calScore struct {
	score    float64
	relevant bool
}

// TestThresholdCalibration calibrates DefaultThreshold on real text: for
// each topic, the pages of one half of the sites (contenteval.Fold) are
// observed in a shuffled order, as a crawl would fetch them (the IDF is
// learned as it goes), and the cut-off that maximizes the F1 of the
// relevance decision, averaged over topics, is chosen on split 0 and
// reported on split 1, then the other way round. Set TRAWL_CONTENT_EVAL=1.
func TestThresholdCalibration(t *testing.T) {
	if os.Getenv("TRAWL_CONTENT_EVAL") != "1" {
		t.Skip("set TRAWL_CONTENT_EVAL=1 to calibrate on shared/data/content-eval")
	}
	docs, err := contenteval.LoadCorpus(contenteval.Dragnet, shareddata.Dir(t, "content-eval"))
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"words", "examples"} {
		t.Run(mode, func(t *testing.T) { calibrate(t, docs, mode) })
	}
}

// calibrate runs the calibration with topics described by their words, or
// by three example pages of the topic (from the same split, left out of
// the scoring).
func calibrate(t *testing.T, docs []contenteval.Doc, mode string) {
	// scores[split][topic] are the topic's scores over the split's pages,
	// every pass.
	var scores [2][][]calScore
	var positives [2][]int
	for split := range 2 {
		var in []*contenteval.Doc
		for i := range docs {
			if contenteval.Fold(docs[i].Site, 2) == split {
				in = append(in, &docs[i])
			}
		}
		for _, tp := range calTopics {
			isRel := func(d *contenteval.Doc) bool {
				return slices.Contains(tp.sites, d.Site) || slices.Contains(tp.also, d.ID)
			}
			var examples []string
			pages := in
			if mode == "examples" {
				// The first three relevant pages of a fixed shuffle are
				// the examples; the rest are scored.
				order := slices.Clone(in)
				rand.New(rand.NewPCG(99, uint64(split))).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				pages = nil
				for _, d := range order {
					if isRel(d) && len(examples) < 3 {
						examples = append(examples, d.Text)
					} else {
						pages = append(pages, d)
					}
				}
			}
			var res []calScore
			pos := 0
			if mode == "examples" && len(examples) < 3 {
				scores[split] = append(scores[split], nil)
				positives[split] = append(positives[split], 0)
				continue
			}
			for pass := range calPasses {
				order := slices.Clone(pages)
				rng := rand.New(rand.NewPCG(uint64(pass), uint64(split)))
				rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				desc, opts := tp.words, []topic.Option(nil)
				if mode == "examples" {
					desc, opts = "", []topic.Option{topic.WithExamples(examples...)}
				}
				s, err := topic.New(desc, opts...)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range order {
					score, _ := s.Observe(d.Text)
					rel := isRel(d)
					if rel && pass == 0 {
						pos++
					}
					res = append(res, calScore{score, rel})
				}
			}
			scores[split] = append(scores[split], res)
			positives[split] = append(positives[split], pos)
		}
		t.Logf("split %d: %d pages of %d sites", split, len(in), countSites(in))
	}

	// macroF1 is the mean over the split's topics (those with at least 5
	// relevant pages) of precision, recall and F1 at cut-off th.
	macro := func(split int, th float64) (p, r, f1 float64, topics int) {
		for i, res := range scores[split] {
			if positives[split][i] < 5 {
				continue
			}
			var tp, fp, fn int
			for _, s := range res {
				switch {
				case s.score >= th && s.relevant:
					tp++
				case s.score >= th:
					fp++
				case s.relevant:
					fn++
				}
			}
			tp1, tr1, tf1 := prf(tp, fp, fn)
			p, r, f1 = p+tp1, r+tr1, f1+tf1
			topics++
		}
		n := float64(topics)
		return p / n, r / n, f1 / n, topics
	}
	var thresholds []float64
	for th := 0.01; th <= 0.4; th += 0.005 {
		thresholds = append(thresholds, th)
	}
	var table strings.Builder
	def := topic.DefaultThreshold
	if mode == "examples" {
		def = topic.DefaultExampleThreshold
	}
	fmt.Fprintf(&table, "| topic given by | tuned on | cut-off | reported on | topics | precision | recall | F1 | F1 at the default %.2f | F1 at 0.2 (the old default) |\n|---|---|---|---|---|---|---|---|---|---|\n", def)
	for tune := range 2 {
		report := 1 - tune
		best, bestF1 := 0.0, -1.0
		for _, th := range thresholds {
			if _, _, f1, _ := macro(tune, th); f1 > bestF1 {
				best, bestF1 = th, f1
			}
		}
		p, r, f1, n := macro(report, best)
		_, _, old, _ := macro(report, 0.2)
		_, _, atDef, _ := macro(report, def)
		fmt.Fprintf(&table, "| %s | split %d (F1 %.3f) | %.3f | split %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f |\n", mode, tune, bestF1, best, report, n, p, r, f1, atDef, old)
	}
	for split := range 2 {
		var b strings.Builder
		for _, th := range []float64{0.03, 0.05, 0.07, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3} {
			p, r, f1, _ := macro(split, th)
			fmt.Fprintf(&b, " %.2f: %.2f/%.2f/%.2f", th, p, r, f1)
		}
		t.Logf("split %d precision/recall/F1 by cut-off:%s", split, b.String())
	}
	t.Logf("\n%s", table.String())
}

func prf(tp, fp, fn int) (p, r, f1 float64) {
	if tp+fp > 0 {
		p = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		r = float64(tp) / float64(tp+fn)
	}
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1
}

func countSites(docs []*contenteval.Doc) int {
	sites := map[string]bool{}
	for _, d := range docs {
		sites[d.Site] = true
	}
	return len(sites)
}
