package maintext

import (
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// The straightforward definitions of the class-name tests, which the
// fast ones must agree with on every input.

func refPosToken(t string) bool {
	for _, p := range [...]string{"article", "content", "entry", "post", "story", "main", "body", "text", "hentry", "blog"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func refCompoundNeg(t string) bool {
	for _, p := range [...]string{"post", "entry", "article", "story"} {
		if len(t) > len(p) && t[:len(p)] == p && strings.HasPrefix(t[len(p):], "meta") {
			return true
		}
	}
	return false
}

func refHiddenClass(v string) bool {
	for len(v) > 0 {
		i := strings.IndexAny(v, " \t\n\r\f")
		f := v
		if i >= 0 {
			f, v = v[:i], v[i+1:]
		} else {
			v = ""
		}
		f = strings.TrimPrefix(f, "!")
		if len(f) < 4 || len(f) > 18 {
			continue
		}
		for _, h := range [...]string{"hidden", "sr-only", "screen-reader-text", "visually-hidden", "visuallyhidden",
			"screenreader", "screen-reader-only", "element-invisible", "d-none", "hide"} {
			if strings.EqualFold(f, h) {
				return true
			}
		}
	}
	return false
}

func refCaptionClass(v string) bool {
	v = strings.ToLower(v[:min(len(v), 256)])
	return strings.Contains(v, "caption") || strings.Contains(v, "legend")
}

// hintCases are class values, tokens and names on the edges of the tests:
// prefixes, case, Unicode letters that fold to ASCII ones (long s, Kelvin
// sign, dotted capital I), invalid UTF-8, separators.
var hintCases = []string{
	"", "a", "post", "postmeta", "postmetadata", "entrymeta", "articlemeta", "storymeta", "postmet", "meta",
	"article", "articles", "content", "entry", "post", "story", "main", "body", "text", "hentry", "blog", "blogroll",
	"bod", "tex", "xpost", "hidden", "HIDDEN", "!hidden", "hide", "hid", "d-none", "sr-only", "ſr-only", "SR-ONLY",
	"screen-reader-text", "screen-reader-textx", "visually-hidden", "visuallyhidden", "element-invisible",
	"foo hidden", "foo\thidden", "foo\fhide bar", "foo\vhidden", "hidden\u00a0x", "\u212ade", "hi\u212Ade",
	"caption", "CAPTION", "img__caption", "figcaption", "capt\u0130on", "CAPT\u0130ON", "legend", "LEGEND",
	"l\u0130gend", "cap\xfftion", "\xffcaption", strings.Repeat("x", 250) + "caption", strings.Repeat("x", 252) + "legend",
	"entry-content hidden", "post-meta",
}

func TestHintFastPathsAgree(t *testing.T) {
	cases := append([]string(nil), hintCases...)
	// And random strings over an alphabet rich in the letters and
	// separators that matter.
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "e", "i", "n", "o", "p", "s", "t", "c", "d", "h", "l", "g", "y", "r", "m", "-", "!", " ", "\t",
		"A", "I", "N", "S", "ſ", "\u212a", "\u0130", "\xff", "post", "meta", "hidden", "caption", "legend", "sr-only", "hide"}
	for range 20000 {
		var sb strings.Builder
		for range rng.IntN(12) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, sb.String())
	}
	for _, v := range cases {
		if got, want := mcPosToken(v), refPosToken(v); got != want {
			t.Errorf("mcPosToken(%q) = %v, want %v", v, got, want)
		}
		if got, want := mcCompoundNeg(v), refCompoundNeg(v); got != want {
			t.Errorf("mcCompoundNeg(%q) = %v, want %v", v, got, want)
		}
		if got, want := mcHiddenClass(v), refHiddenClass(v); got != want {
			t.Errorf("mcHiddenClass(%q) = %v, want %v", v, got, want)
		}
		c := &html.Node{Type: html.ElementNode, Data: "div", Attr: []html.Attribute{{Key: "class", Val: v}}}
		if got, want := mcCaptionClass(c), refCaptionClass(v); got != want {
			t.Errorf("mcCaptionClass(%q) = %v, want %v", v, got, want)
		}
	}
}
