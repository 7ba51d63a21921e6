package maintext

import (
	"encoding/json"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// mcMaxJSONLD caps the bytes of JSON-LD read from one page.
const mcMaxJSONLD = 1 << 20

// mcJSONLDBody returns the articleBody strings of the page's JSON-LD
// (schema.org Article, NewsArticle, BlogPosting ...) joined by newlines,
// or "". It reads at most mcMaxJSONLD bytes of script text and visits at
// most mcMaxNodes nodes. Blocks of invalid JSON are skipped.
func mcJSONLDBody(n *html.Node) string {
	var sb strings.Builder
	budget, visited := mcMaxJSONLD, 0
	var rec func(n *html.Node, depth int)
	rec = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil && budget > 0; c = c.NextSibling {
			if visited++; visited > mcMaxNodes {
				return
			}
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == atom.Script {
				if mcIsJSONLD(c) && c.FirstChild != nil && c.FirstChild.Type == html.TextNode {
					src := c.FirstChild.Data
					if len(src) > budget {
						budget = 0
						return
					}
					budget -= len(src)
					// Only a block that may name the key is decoded.
					var v any
					if mcMayNameBody(src) && json.Unmarshal([]byte(src), &v) == nil {
						mcArticleBody(v, &sb, 0)
					}
				}
				continue
			}
			if depth < mcMaxDepth {
				rec(c, depth+1)
			}
		}
	}
	rec(n, 0)
	return sb.String()
}

// mcMayNameBody reports whether JSON text src may hold the key
// articleBody: written so, or with one of its letters written as a \u
// escape (\u0042 for the B). Escapes of other characters (\u00e9, \u0026,
// common in JSON-LD) cannot spell it.
func mcMayNameBody(src string) bool {
	if strings.Contains(src, "articleBody") {
		return true
	}
	for i := 0; ; {
		j := strings.Index(src[i:], `\u00`)
		if j < 0 || i+j+6 > len(src) {
			return false
		}
		i += j + 4
		switch strings.ToLower(src[i : i+2]) {
		case "61", "72", "74", "69", "63", "6c", "65", "42", "6f", "64", "79": // a r t i c l e B o d y
			return true
		}
	}
}

// mcIsJSONLD reports whether script element c holds JSON-LD.
func mcIsJSONLD(c *html.Node) bool {
	for _, at := range c.Attr {
		if at.Key == "type" {
			return strings.EqualFold(strings.TrimSpace(at.Val), "application/ld+json")
		}
	}
	return false
}

// mcArticleBody appends the articleBody strings found in v to sb.
func mcArticleBody(v any, sb *strings.Builder, depth int) {
	if depth > 32 {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "articleBody" {
				sb.WriteString(s)
				sb.WriteByte('\n')
				continue
			}
			mcArticleBody(x, sb, depth+1)
		}
	case []any:
		for _, x := range v {
			mcArticleBody(x, sb, depth+1)
		}
	}
}

// mcEvidence sets, for every block, the share of its words that occur in
// the page's JSON-LD articleBody, when that body is long enough to be
// evidence (at least mcMinEvidence words, most of them found on the page:
// a body that the page does not show, or shows elsewhere, is ignored).
func (w *mcWalker) mcEvidence(body string) {
	words := mcWords(body)
	if len(words) < mcMinEvidence {
		return
	}
	set := make(map[string]bool, len(words))
	for _, x := range words {
		set[x] = true
	}
	shares := make([]float32, len(w.blocks))
	found := make(map[string]bool, len(set))
	for i := range w.blocks {
		b := &w.blocks[i]
		bw := mcWords(string(w.buf[b.start:b.end]))
		if len(bw) == 0 {
			continue
		}
		in := 0
		for _, x := range bw {
			if set[x] {
				in++
				found[x] = true
			}
		}
		shares[i] = float32(in) / float32(len(bw))
	}
	if 2*len(found) < len(set) {
		return
	}
	for i := range w.blocks {
		w.blocks[i].ld = shares[i]
	}
	w.hasLD = true
}

// mcMinEvidence is the fewest words of a JSON-LD articleBody used as
// evidence.
const mcMinEvidence = 30
