package contenteval

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/trawl-dev/trawl/fetch"
)

// The two corpora.
const (
	Dragnet  = "dragnet"  // shared/data/content-eval: hand-corrected main text, bag-of-words F1
	Snippets = "snippets" // shared/data/content-eval-snippets: must/must-not snippets
)

// Doc is one page of either corpus, with the site it comes from.
type Doc struct {
	Corpus  string   // Dragnet or Snippets
	ID      string   // Dragnet id, or the snippet case's file name
	URL     string   // may be empty (some Dragnet pages)
	Site    string   // registrable domain of URL (see Site), never empty
	Split   string   // Dragnet's train/test split; "" for Snippets
	Text    string   // Dragnet truth
	With    []string // Snippets: must appear
	Without []string // Snippets: must not appear
}

// snippetCase is one line of cases.jsonl.
type snippetCase struct {
	URL     string   `json:"url"`
	File    string   `json:"file"`
	With    []string `json:"with"`
	Without []string `json:"without"`
}

// LoadCorpus reads corpus name (Dragnet or Snippets) from dir and gives
// every page a site key. When the corpus is absent the error wraps
// os.ErrNotExist. Dragnet pages without a URL get the site that most of
// their absolute links point to (a page's own host dominates its links),
// so that pages of one site still land in one fold.
func LoadCorpus(name, dir string) ([]Doc, error) {
	switch name {
	case Dragnet:
		pages, err := Load(dir)
		if err != nil {
			return nil, err
		}
		docs := make([]Doc, 0, len(pages))
		for _, p := range pages {
			d := Doc{Corpus: Dragnet, ID: p.ID, URL: p.URL, Split: p.Split, Text: p.Text, Site: Site(p.URL)}
			if d.Site == "" {
				b, err := HTML(dir, p.ID)
				if err != nil {
					return nil, err
				}
				d.Site = linkSite(b)
			}
			if d.Site == "" {
				d.Site = "page:" + p.ID
			}
			docs = append(docs, d)
		}
		return docs, nil
	case Snippets:
		f, err := os.Open(filepath.Join(dir, "cases.jsonl"))
		if err != nil {
			return nil, fmt.Errorf("contenteval: %w", err)
		}
		defer f.Close()
		var docs []Doc
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var c snippetCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				return nil, fmt.Errorf("contenteval: cases.jsonl: %w", err)
			}
			d := Doc{Corpus: Snippets, ID: c.File, URL: c.URL, With: c.With, Without: c.Without, Site: Site(c.URL)}
			if d.Site == "" {
				d.Site = "page:" + c.File
			}
			docs = append(docs, d)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("contenteval: %w", err)
		}
		return docs, nil
	}
	return nil, fmt.Errorf("contenteval: unknown corpus %q", name)
}

// DocHTML returns d's HTML decoded to UTF-8, as trawl's fetcher would.
func DocHTML(dir string, d Doc) ([]byte, error) {
	if d.Corpus == Dragnet {
		return HTML(dir, d.ID)
	}
	f, err := os.Open(filepath.Join(dir, d.ID))
	if err != nil {
		return nil, fmt.Errorf("contenteval: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("contenteval: %s: %w", d.ID, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("contenteval: %s: %w", d.ID, err)
	}
	enc, _ := fetch.DetermineEncoding(raw, "")
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return bytes.ToValidUTF8(raw, []byte("\uFFFD")), nil
	}
	return out, nil
}

// Site returns the registrable domain (eTLD+1, lowercase) of rawURL, or ""
// when it has no host.
func Site(rawURL string) string {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Hostname() == "" {
		return ""
	}
	h := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if s, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return s
	}
	return h
}

var absLink = regexp.MustCompile(`(?i)href\s*=\s*["']?(https?://[^"'\s>]+)`)

// linkSite returns the site most absolute links of page b point to.
func linkSite(b []byte) string {
	count := make(map[string]int)
	best, n := "", 0
	for _, m := range absLink.FindAllSubmatch(b, 5000) {
		s := Site(string(m[1]))
		if s == "" {
			continue
		}
		count[s]++
		if count[s] > n {
			best, n = s, count[s]
		}
	}
	return best
}

// Fold returns the fold (0..k-1) of site: a stable hash, so every page of
// a site is in the same fold in every run.
func Fold(site string, k int) int {
	h := fnv.New32a()
	h.Write([]byte(site))
	return int(h.Sum32() % uint32(k))
}

// Tally accumulates one corpus's metric over pages: for Dragnet the
// macro-averaged bag-of-words P/R/F1 (pages with an empty truth skipped),
// for Snippets the micro P/R/F1 over all snippets (see each README).
type Tally struct {
	Pages             int
	sumP, sumR, sumF1 float64
	scored            int
	tp, fp, fn        int
}

// Add scores pred on d.
func (t *Tally) Add(d Doc, pred string) {
	t.AddTokens(d, pred, nil)
}

// AddTokens is Add with d's truth tokenized by Tokens (nil: tokenize
// here), for scoring many predictions on one page.
func (t *Tally) AddTokens(d Doc, pred string, truth map[string]int) {
	t.AddScore(ScorePage(d, pred, truth))
}

// PageScore is one page's part of its corpus's metric: on a Dragnet page
// its P, R and F1 (OK false when the truth is empty: the page is not
// scored), on a snippet page its snippet counts.
type PageScore struct {
	P, R, F1   float64
	OK         bool
	TP, FN, FP int
}

// ScorePage scores pred on d, with d's truth tokenized by Tokens (nil:
// tokenize here). A caller that tries many predictions on one page keeps
// the scores and sums them with AddScore.
func ScorePage(d Doc, pred string, truth map[string]int) PageScore {
	if d.Corpus == Dragnet {
		if truth == nil {
			truth = Tokens(d.Text)
		}
		p, r, f1, ok := ScoreTokens(pred, truth)
		return PageScore{P: p, R: r, F1: f1, OK: ok}
	}
	tp, fn, fp := ScoreSnippets(pred, d.With, d.Without)
	return PageScore{TP: tp, FN: fn, FP: fp}
}

// AddScore adds one page's score.
func (t *Tally) AddScore(s PageScore) {
	t.Pages++
	if s.OK {
		t.sumP += s.P
		t.sumR += s.R
		t.sumF1 += s.F1
		t.scored++
	}
	t.tp += s.TP
	t.fn += s.FN
	t.fp += s.FP
}

// Merge adds u's counts to t.
func (t *Tally) Merge(u Tally) {
	t.Pages += u.Pages
	t.sumP += u.sumP
	t.sumR += u.sumR
	t.sumF1 += u.sumF1
	t.scored += u.scored
	t.tp += u.tp
	t.fp += u.fp
	t.fn += u.fn
}

// PRF returns precision, recall and F1.
func (t Tally) PRF() (p, r, f1 float64) {
	if t.scored > 0 {
		n := float64(t.scored)
		return t.sumP / n, t.sumR / n, t.sumF1 / n
	}
	if t.tp+t.fp > 0 {
		p = float64(t.tp) / float64(t.tp+t.fp)
	}
	if t.tp+t.fn > 0 {
		r = float64(t.tp) / float64(t.tp+t.fn)
	}
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1
}

// ScoreSnippets counts, with whitespace collapsed on both sides, the with
// snippets found in pred (tp) and missing (fn), and the without snippets
// found (fp).
func ScoreSnippets(pred string, with, without []string) (tp, fn, fp int) {
	pc := collapse(pred)
	for _, s := range with {
		if strings.Contains(pc, collapse(s)) {
			tp++
		} else {
			fn++
		}
	}
	for _, s := range without {
		if strings.Contains(pc, collapse(s)) {
			fp++
		}
	}
	return tp, fn, fp
}

// collapse replaces every run of white space with one space and trims.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
