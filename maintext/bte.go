package maintext

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/internal/htmltext"
)

// bteMaxTokens caps the number of tokens (tags plus words) BTE considers.
// Tokens after the cap are ignored, which bounds memory to a few bytes per
// token whatever the input.
const bteMaxTokens = 1 << 21

// BTEWindow solves the Body Text Extraction optimisation of Finn, Kushmerick
// and Smyth ("Fact or fiction: content classification for digital
// libraries", 2001) on a token sequence, where isTag[k] reports whether token
// k is a tag (b_k = 1) or a word (b_k = 0).
//
// It returns the half-open window [start, end) that maximises
//
//	T(i, j) = Σ_{k<i} b_k + Σ_{i≤k≤j} (1 − b_k) + Σ_{k>j} b_k
//
// over all 0 ≤ i ≤ j < N, with start = i and end = j+1: the tags before the
// window, plus the words inside it, plus the tags after it. Writing
// P(k) = Σ_{m<k} b_k and W(k) = k − P(k) for the prefix counts of tags and
// words, T(i, j) = [P(i) − W(i)] + [W(j+1) − P(j+1)] + P(N), so a single
// pass that keeps the best prefix term seen so far finds the optimum in
// O(N) time and O(1) extra space (the quadratic search of the paper is not
// needed). Among equal optima the one with the smallest end, then the
// smallest start, is returned. For an empty sequence it returns (0, 0);
// otherwise end > start.
func BTEWindow(isTag []bool) (start, end int) {
	if len(isTag) == 0 {
		return 0, 0
	}
	// prefix tracks P(k) − W(k) as k advances; at k = 0 both counts are 0.
	prefix := 0
	bestPrefix, bestPrefixAt := 0, 0
	bestScore := 0
	start, end = 0, 1
	first := true
	for k, tag := range isTag {
		// Candidate windows end at token k; the start ranges over 0..k, and
		// bestPrefix holds max_{i≤k} P(i) − W(i).
		if prefix > bestPrefix {
			bestPrefix, bestPrefixAt = prefix, k
		}
		if tag {
			prefix++
		} else {
			prefix--
		}
		// Now prefix = P(k+1) − W(k+1); the window's score, less the
		// constant P(N), is bestPrefix − prefix.
		if score := bestPrefix - prefix; first || score > bestScore {
			bestScore, start, end, first = score, bestPrefixAt, k+1, false
		}
	}
	return start, end
}

// BTE returns the main text of the HTML page read from r by Finn et al.'s
// Body Text Extraction, the classic "textbook" content-block finder: the
// page becomes a sequence of tokens, each tag (start, end or self-closing
// tag, comment or doctype) a tag token and each whitespace-separated word of
// text a word token, and the contiguous window chosen by [BTEWindow] (most
// tags outside, most words inside) is the main content. Text inside script,
// style, noscript and template elements is ignored; their tags still count.
// The words of the window are returned separated by single spaces, with a
// blank line wherever a block-level tag (p, div, li, h1, br, ...) separates
// two words.
//
// BTE is simple and fast but tends to cut articles that contain markup-heavy
// parts and to take in boilerplate that sits close to the article; [Extract]
// does better. It is kept as a baseline and for callers that want a
// DOM-free finder.
//
// The input is expected to be UTF-8 (as delivered by trawl's fetcher; wrap
// other encodings with golang.org/x/net/html/charset.NewReader); invalid
// bytes come out as U+FFFD, so the result is always valid UTF-8. Work is
// bounded: at most 8 MiB are read from r and at most 2,097,152 tokens are
// considered; the rest is ignored. The only error is one returned by r,
// wrapped.
func BTE(r io.Reader) (string, error) {
	z := html.NewTokenizer(io.LimitReader(r, mcMaxInput))
	var (
		isTag   []bool
		text    []byte  // words, back to back
		wordEnd []int32 // end offset in text of each word
		breakAt []bool  // a block tag precedes the word
		skip    int     // depth inside elements whose text is not visible (htmltext.Hidden)
		pending bool    // a block tag was seen since the last word
	)
	for len(isTag) < bteMaxTokens {
		tt := z.Next()
		if tt == html.ErrorToken {
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return "", fmt.Errorf("maintext: bte: %w", err)
			}
			break
		}
		switch tt {
		case html.TextToken:
			if skip > 0 {
				continue
			}
			for w := range bytes.FieldsSeq(z.Text()) {
				if len(isTag) >= bteMaxTokens {
					break
				}
				isTag = append(isTag, false)
				text = mcAppendValid(text, w)
				wordEnd = append(wordEnd, int32(len(text)))
				breakAt = append(breakAt, pending)
				pending = false
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if htmltext.Hidden(a) {
				switch {
				case tt == html.StartTagToken:
					skip++
				case tt == html.EndTagToken && skip > 0:
					skip--
				}
			}
			if mcIsBlock(a) || a == atom.Br {
				pending = true
			}
			isTag = append(isTag, true)
		default: // comments, doctypes
			isTag = append(isTag, true)
		}
	}
	start, end := BTEWindow(isTag)
	// Map the token window to word indexes.
	var out []byte
	word := 0
	for k := 0; k < end; k++ {
		if isTag[k] {
			continue
		}
		if k >= start {
			lo := int32(0)
			if word > 0 {
				lo = wordEnd[word-1]
			}
			switch {
			case len(out) == 0:
			case breakAt[word]:
				out = append(out, '\n', '\n')
			default:
				out = append(out, ' ')
			}
			out = append(out, text[lo:wordEnd[word]]...)
		}
		word++
	}
	return string(out), nil
}

// mcAppendValid appends s to dst, replacing invalid UTF-8 with U+FFFD.
func mcAppendValid(dst, s []byte) []byte {
	if utf8.Valid(s) {
		return append(dst, s...)
	}
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if r == utf8.RuneError && n == 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
		} else {
			dst = append(dst, s[:n]...)
		}
		s = s[n:]
	}
	return dst
}
