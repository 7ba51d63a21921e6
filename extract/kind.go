package extract

import "fmt"

// Kind says what a reference is for, so that a crawler can choose what to
// follow: pages (Navigation, Frame, Redirect, Form), discovery documents
// (Sitemap, Feed), a page's subresources (Embed, Style) and tracking
// beacons (Ping); and two kinds that are inferred rather than declared
// (Inferred): Speculative, URL-looking strings where markup does not
// promise a reference, and Script, URLs a static reading of JavaScript
// finds. The zero Kind is not a valid kind; every Link and RawLink has one
// of the constants below. The package doc lists which construct gives
// which Kind.
type Kind uint8

const (
	Navigation Kind = iota + 1 // a/area[href], SVG a[href|xlink:href], link rel=next/prev/alternate (non-feed)/canonical, blockquote/q/del/ins[cite], img[longdesc], meta content-location (document links)
	Frame                      // frame[src], iframe[src]
	Redirect                   // meta http-equiv=refresh; HTTP Location (3xx and 201), Refresh, Content-Location headers
	Form                       // form[action] with method GET (or none), button/input[formaction] of a GET form, isindex[action]
	Sitemap                    // a sitemap URL (robots.txt Sitemap:, sitemap index entries, link rel=sitemap)
	Feed                       // link rel=alternate type=application/rss+xml|application/atom+xml (and feed URLs in sitemaps)
	Embed                      // img[src|srcset|lowsrc|dynsrc], picture/source[src|srcset], audio/video/track[src], video[poster], embed[src], object[data|codebase], applet[code|codebase|archive], script[src], input[src], link rel=icon/preload/prefetch/manifest/modulepreload, body/table/td[background], SVG image/use/script[href|xlink:href], CSS url()
	Style                      // link rel=stylesheet, CSS @import (a style sheet: fetched in archive mode and parsed for more references)
	Ping                       // a[ping] (tracking beacons: never followed by default)

	// Speculative is a URL-looking string where the markup promises no
	// reference (Heritrix's "speculative" links), found only with
	// Options.Speculative: URLs in page text, HTML comments (IE conditional
	// comments included), the DOCTYPE's system identifier, meta[content]
	// (CSP report-uri, msapplication-*, og:image ...), param[value],
	// img/source/iframe[data-src|data-srcset|data-original|data-lazy-src],
	// links inside <noscript>, and the <base href> itself.
	Speculative

	// Script is a URL a static reading of JavaScript finds, found only with
	// Options.Scripts: in inline <script>, on* attributes, javascript:
	// URLs, and fetched scripts (ScriptLinks). Nothing is executed.
	Script
)

// Inferred reports whether k is a kind whose URLs are guessed from text
// or code rather than declared by markup: Speculative and Script. They
// may not exist; a crawler follows them only when asked.
func (k Kind) Inferred() bool { return k == Speculative || k == Script }

var kindNames = [...]string{
	Navigation:  "navigation",
	Frame:       "frame",
	Redirect:    "redirect",
	Form:        "form",
	Sitemap:     "sitemap",
	Feed:        "feed",
	Embed:       "embed",
	Style:       "style",
	Ping:        "ping",
	Speculative: "speculative",
	Script:      "script",
}

// String returns the kind's name: "navigation", "frame", "redirect",
// "form", "sitemap", "feed", "embed", "style", "ping", "speculative" or
// "script"; "Kind(N)" for a value that is none of these.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind returns the Kind named s, the inverse of String (for flags
// and configuration); it fails for any other string. Names are matched
// exactly, in lower case.
func ParseKind(s string) (Kind, error) {
	for k, name := range kindNames {
		if name != "" && name == s {
			return Kind(k), nil
		}
	}
	return 0, fmt.Errorf("extract: unknown link kind %q", s)
}

// MarshalText returns the kind's name, as String does.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name, as ParseKind does.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err == nil {
		*k = v
	}
	return err
}
