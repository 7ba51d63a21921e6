// Package contenteval reads the main-content evaluation set
// (shared/data/content-eval: real pages with hand-corrected main text) and
// scores extracted text with its metric, for the evaluation tests of
// package maintext and the comparison in bench/content. The data is AGPL and
// stays outside the module: callers pass its directory.
package contenteval

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/trawl-dev/trawl/fetch"
)

// Page is one line of truth.jsonl.
type Page struct {
	ID    string `json:"id"`
	URL   string `json:"url"`   // may be empty; taken from the page, not verified
	Text  string `json:"text"`  // the hand-corrected main text
	Split string `json:"split"` // "train" or "test"
}

// Load reads dir/truth.jsonl. When the data set is absent the error wraps
// os.ErrNotExist, so tests can skip.
func Load(dir string) ([]Page, error) {
	f, err := os.Open(filepath.Join(dir, "truth.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("contenteval: %w", err)
	}
	defer f.Close()
	var pages []Page
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var p Page
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("contenteval: truth.jsonl: %w", err)
		}
		pages = append(pages, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("contenteval: %w", err)
	}
	return pages, nil
}

// HTML returns page id's HTML decoded to UTF-8, as trawl's fetcher would
// (charset from BOM or <meta>; undecodable bytes replaced).
func HTML(dir, id string) ([]byte, error) {
	f, err := os.Open(filepath.Join(dir, "pages", id+".html.gz"))
	if err != nil {
		return nil, fmt.Errorf("contenteval: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("contenteval: %s: %w", id, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("contenteval: %s: %w", id, err)
	}
	enc, _ := fetch.DetermineEncoding(raw, "")
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return bytes.ToValidUTF8(raw, []byte("\uFFFD")), nil
	}
	return out, nil
}

// tokens is the metric's tokenizer: lowercase, split at runs of characters
// that are neither letters nor digits, as a multiset.
func tokens(s string) map[string]int {
	m := make(map[string]int)
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		m[w]++
	}
	return m
}

// Score returns the bag-of-words precision, recall and F1 of pred against
// truth, as the data set's README defines them; ok is false when truth has
// no tokens (such pages are skipped). An empty prediction scores 0.
func Score(pred, truth string) (p, r, f1 float64, ok bool) {
	return ScoreTokens(pred, Tokens(truth))
}

// Tokens returns the metric's token multiset of s, for ScoreTokens.
func Tokens(s string) map[string]int { return tokens(s) }

// ScoreTokens is Score with the truth already tokenized by Tokens (tt is
// only read), for scoring many predictions against one truth.
func ScoreTokens(pred string, tt map[string]int) (p, r, f1 float64, ok bool) {
	pt := tokens(pred)
	np, nt, shared := 0, 0, 0
	for _, c := range tt {
		nt += c
	}
	if nt == 0 {
		return 0, 0, 0, false
	}
	for w, c := range pt {
		np += c
		shared += min(c, tt[w])
	}
	if np == 0 {
		return 0, 0, 0, true
	}
	p, r = float64(shared)/float64(np), float64(shared)/float64(nt)
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1, true
}
