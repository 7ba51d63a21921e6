package extract

import (
	"strings"

	"github.com/trawl-dev/trawl/internal/ascii"
)

// Rel is a set of link relation types from a rel attribute, one bit per
// recognised value. Values the package does not know are ignored. The zero
// Rel is the empty set. A Rel is a plain value, safe to share.
type Rel uint16

// Recognised rel values. Matching is ASCII case-insensitive, as HTML requires.
const (
	RelNofollow   Rel = 1 << iota // rel=nofollow: do not follow or pass ranking
	RelSponsored                  // rel=sponsored: paid or advertising link
	RelUGC                        // rel=ugc: user-generated content
	RelCanonical                  // rel=canonical: preferred URL of this page
	RelAlternate                  // rel=alternate: translation, feed or other version
	RelNext                       // rel=next: next page of a series
	RelPrev                       // rel=prev (or its synonym "previous")
	RelNoopener                   // rel=noopener
	RelNoreferrer                 // rel=noreferrer
	RelExternal                   // rel=external: leads off the site
)

var relNames = [...]string{"nofollow", "sponsored", "ugc", "canonical", "alternate", "next", "prev", "noopener", "noreferrer", "external"}

// String returns the set as space-separated rel values in bit order, as they
// could appear in a rel attribute, for example "nofollow ugc".
func (r Rel) String() string {
	var b strings.Builder
	for i, name := range relNames {
		if r&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(name)
		}
	}
	return b.String()
}

// ParseRel returns the set of recognised values in a rel attribute value,
// a list of tokens separated by ASCII whitespace.
func ParseRel(value string) Rel {
	r, _ := parseRel([]byte(value))
	return r
}

// relClass is what the rel values of a <link> element (or a Link header)
// say about the kind of its target, beyond the Rel bits.
type relClass uint8

const (
	relStyle   relClass = 1 << iota // stylesheet
	relEmbed                        // icon, preload, prefetch, modulepreload, manifest ...: a subresource
	relSitemap                      // sitemap
	relOrigin                       // dns-prefetch, preconnect: an origin to connect to, not a resource
)

// parseRel parses a rel attribute without allocating. class reports the
// values that make a <link> element a subresource, a sitemap or an
// origin rather than a page link: <link rel="alternate stylesheet"> is a
// style sheet, not an alternate version of the page.
func parseRel(b []byte) (r Rel, class relClass) {
	for len(b) > 0 {
		i := 0
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		j := i
		for j < len(b) && !isSpace(b[j]) {
			j++
		}
		tok := b[i:j]
		b = b[j:]
		if len(tok) == 0 || len(tok) > 32 {
			continue
		}
		var low [32]byte
		n := copy(low[:], tok)
		lowerASCII(low[:n])
		switch string(low[:n]) {
		case "nofollow":
			r |= RelNofollow
		case "sponsored":
			r |= RelSponsored
		case "ugc":
			r |= RelUGC
		case "canonical":
			r |= RelCanonical
		case "alternate":
			r |= RelAlternate
		case "next":
			r |= RelNext
		case "prev", "previous":
			r |= RelPrev
		case "noopener":
			r |= RelNoopener
		case "noreferrer":
			r |= RelNoreferrer
		case "external":
			r |= RelExternal
		case "stylesheet":
			class |= relStyle
		case "icon", "apple-touch-icon", "apple-touch-icon-precomposed", "apple-touch-startup-image",
			"mask-icon", "fluid-icon", "preload", "prefetch", "modulepreload", "manifest":
			class |= relEmbed
		case "sitemap":
			class |= relSitemap
		case "dns-prefetch", "preconnect":
			class |= relOrigin
		}
	}
	return r, class
}

// linkKind returns the Kind of a <link> element or Link header target
// with the given rel values and type, and false for one that references
// no resource: an origin hint (dns-prefetch, preconnect) or no rel at all.
// A style sheet wins over a subresource, which wins over a sitemap;
// rel=alternate with a feed type is a feed; every other relation
// (canonical, alternate, next, prev, author, license, search ...) is a
// document: Navigation.
func linkKind(rel []byte, class relClass, r Rel, typ []byte) (Kind, bool) {
	switch {
	case class&relStyle != 0:
		return Style, true
	case class&relEmbed != 0:
		return Embed, true
	case class&relSitemap != 0:
		return Sitemap, true
	case class&relOrigin != 0 || len(trimSpace(rel)) == 0:
		return 0, false
	case r&RelAlternate != 0 && isFeedType(typ):
		return Feed, true
	}
	return Navigation, true
}

// isFeedType reports the media types of feeds: RSS, Atom, RDF (RSS 1.0)
// and JSON Feed, parameters ignored.
func isFeedType(t []byte) bool {
	for i, c := range t {
		if c == ';' {
			t = t[:i]
			break
		}
	}
	t = trimSpace(t)
	return ascii.EqualFold(t, "application/rss+xml") || ascii.EqualFold(t, "application/atom+xml") ||
		ascii.EqualFold(t, "application/rdf+xml") || ascii.EqualFold(t, "application/feed+json")
}

// isSpace reports ASCII whitespace as HTML defines it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}
