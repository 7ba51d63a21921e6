package extract

import (
	"net/http"
	"strings"
)

// Robots holds page-level robots directives from <meta name="robots">, an
// agent-specific <meta name="BOTNAME"> or X-Robots-Tag headers. Each field
// is a restriction; the zero Robots allows everything. When directives
// conflict ("index, noindex") the restriction wins, as the major search
// engines do. A Robots is a plain value, safe to share.
type Robots struct {
	NoIndex   bool // noindex or none: do not store or index the page
	NoFollow  bool // nofollow or none: do not follow the page's links
	NoArchive bool // noarchive: do not keep a cached copy
	NoSnippet bool // nosnippet: do not show a text snippet
}

// Merge returns the union of the restrictions in r and o.
func (r Robots) Merge(o Robots) Robots {
	return Robots{
		NoIndex:   r.NoIndex || o.NoIndex,
		NoFollow:  r.NoFollow || o.NoFollow,
		NoArchive: r.NoArchive || o.NoArchive,
		NoSnippet: r.NoSnippet || o.NoSnippet,
	}
}

// ParseRobots parses the content of a robots meta tag or one X-Robots-Tag
// header value: a comma-separated, case-insensitive list of directives
// (index, noindex, follow, nofollow, none, all, noarchive, nosnippet ...).
// Unknown directives and directives with values (max-snippet:20,
// unavailable_after: date) are ignored.
//
// A directive list may start with an agent prefix, "googlebot: noindex";
// the directives after the prefix, up to the next prefix, apply only to
// that agent and count only when it equals botName (case-insensitive).
// Directives before any prefix apply to every agent. An empty botName
// matches no prefix.
func ParseRobots(content string, botName string) Robots {
	var r Robots
	applies := true
	for item := range strings.SplitSeq(content, ",") {
		item = strings.TrimSpace(item)
		if i := strings.IndexByte(item, ':'); i >= 0 {
			name := strings.TrimSpace(item[:i])
			if !directiveWithValue(name) {
				// An agent prefix: "bot: directive".
				applies = botName != "" && strings.EqualFold(name, botName)
				item = strings.TrimSpace(item[i+1:])
			}
		}
		if !applies {
			continue
		}
		switch strings.ToLower(item) {
		case "noindex":
			r.NoIndex = true
		case "nofollow":
			r.NoFollow = true
		case "none":
			r.NoIndex, r.NoFollow = true, true
		case "noarchive", "nocache":
			r.NoArchive = true
		case "nosnippet":
			r.NoSnippet = true
		}
	}
	return r
}

// directiveWithValue reports names of robots directives that take a value
// after a colon, so that "max-snippet: 20" is not read as an agent prefix.
func directiveWithValue(name string) bool {
	for _, d := range [...]string{"max-snippet", "max-image-preview", "max-video-preview", "unavailable_after", "indexifembedded"} {
		if strings.EqualFold(name, d) {
			return true
		}
	}
	return false
}

// RobotsFromHeader combines every X-Robots-Tag value in h with
// ParseRobots. A nil header yields the zero Robots.
func RobotsFromHeader(h http.Header, botName string) Robots {
	var r Robots
	for _, v := range h.Values("X-Robots-Tag") {
		r = r.Merge(ParseRobots(v, botName))
	}
	return r
}
