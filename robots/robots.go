package robots

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trawl-dev/trawl/internal/ascii"
)

// Limits applied by Parse. They bound the memory and the matching work a
// hostile robots.txt can cause; see "Security considerations" in the package
// documentation.
const (
	// MaxLineLength is the number of bytes of one line that Parse reads; the
	// rest of a longer line is ignored (Google's reference parser keeps
	// 8*2083-1 bytes, and its LineTooLong test vectors depend on it).
	MaxLineLength = 8*2083 - 1

	// MaxRules is the number of allow and disallow rules Parse keeps from one
	// file; later rule lines are ignored.
	MaxRules = 50_000

	// MaxUserAgents is the number of user-agent lines whose names Parse
	// records from one file; later names are ignored, so the groups they
	// start apply to no crawler.
	MaxUserAgents = 10_000

	// MaxSitemaps is the number of distinct Sitemap URLs Parse keeps.
	MaxSitemaps = 10_000

	// MaxCrawlDelay is the largest Crawl-delay Parse reports; larger values
	// are clamped to it.
	MaxCrawlDelay = 24 * time.Hour
)

// mode distinguishes parsed rules from the two constant verdicts.
type mode uint8

const (
	modeParsed mode = iota
	modeAllowAll
	modeDisallowAll
)

// Rules is a parsed robots.txt file: groups of allow and disallow rules keyed
// by user-agent product token, plus Sitemap lines. Obtain one from Parse,
// AllowAll, DisallowAll or a Cache.
//
// A Rules value is immutable once built and safe for concurrent use by
// multiple goroutines.
type Rules struct {
	mode   mode
	groups []group
	agents []agentGroups // by lower-case product token, sorted

	global      []int32 // groups naming "*"
	sitemaps    []string
	size        int64 // approximate retained bytes, for the Cache's memory bound
	unreachable bool  // a Cache's DisallowAll for an unreachable robots.txt
}

// agentGroups lists the groups that name one product token. A sorted slice
// rather than a map: most files name a few agents, and a map would take
// several hundred bytes of every cached file.
type agentGroups struct {
	name   string // lower case
	groups []int32
}

// group is one group of RFC 9309 §2.1: consecutive user-agent lines and the
// rules that follow them.
type group struct {
	rules      []rule // sorted: priority descending, Allow before Disallow on ties
	crawlDelay time.Duration
	hasDelay   bool
}

// AllowAll returns Rules that allow every URL. A Cache returns it when
// robots.txt is unavailable (RFC 9309 §2.3.1.3, status 400-499).
func AllowAll() *Rules { return &Rules{mode: modeAllowAll, size: 64} }

// DisallowAll returns Rules that disallow every URL except /robots.txt. A Cache
// returns it when robots.txt is unreachable (RFC 9309 §2.3.1.4: server or
// network errors).
func DisallowAll() *Rules { return &Rules{mode: modeDisallowAll, size: 64} }

// Unreachable reports whether r is the complete disallow a Cache keeps
// because the host's robots.txt was unreachable (RFC 9309 §2.3.1.4: a 5xx,
// a 429, a network error), rather than rules the host published: a crawler
// then reports the URLs it cannot fetch as failures, not as denials.
func (r *Rules) Unreachable() bool { return r != nil && r.unreachable }

// Parse parses a robots.txt body. It never fails: lines it does not
// understand are ignored one by one and never void the rest of the file, so
// the error is always nil (it is there so that a future limit can report
// itself without an API change).
//
// Parse follows RFC 9309 and, where the RFC is silent, Google's reference
// parser: lines end at CR, LF or CRLF; a UTF-8 byte order mark (or a prefix of
// one) at the start is skipped; '#' starts a comment; keys are matched
// case-insensitively by prefix and a few common typos are accepted
// ("useragent", "user agent", "dissallow", "dissalow", "disalow", "diasllow",
// "disallaw", "site-map"); a missing colon is tolerated when the line has
// exactly two words. Rules before the first user-agent line belong to no group
// and are ignored. Blank lines, Sitemap, Crawl-delay and unknown lines do not
// end a group; a user-agent line that follows a rule starts a new one.
//
// The body is not retained.
func Parse(body []byte) (*Rules, error) {
	p := parser{
		r:      &Rules{},
		agents: make(map[string][]int32),
		cur:    -1,
		seenSM: make(map[string]struct{}),
	}
	// Skip a UTF-8 BOM, or any prefix of one, at the very start.
	const bom = "\xEF\xBB\xBF"
	i := 0
	for i < len(body) && i < len(bom) && body[i] == bom[i] {
		i++
	}
	for start := i; start < len(body); {
		end := start
		for end < len(body) && body[end] != '\n' && body[end] != '\r' {
			end++
		}
		line := body[start:end]
		if len(line) > MaxLineLength {
			line = line[:MaxLineLength]
		}
		p.line(line)
		if end < len(body) && body[end] == '\r' && end+1 < len(body) && body[end+1] == '\n' {
			end++
		}
		start = end + 1
	}
	return p.finish(), nil
}

// groupsOf returns the groups naming the lower-case token tok, by binary
// search (written out: a generic search would move tok to the heap).
func (r *Rules) groupsOf(tok []byte) []int32 {
	lo, hi := 0, len(r.agents)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareName(r.agents[m].name, tok) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(r.agents) && compareName(r.agents[lo].name, tok) == 0 {
		return r.agents[lo].groups
	}
	return nil
}

// compareName compares name with tok, without converting tok to a string.
func compareName(name string, tok []byte) int {
	for i := 0; i < len(name) && i < len(tok); i++ {
		if name[i] != tok[i] {
			return int(name[i]) - int(tok[i])
		}
	}
	return len(name) - len(tok)
}

type parser struct {
	r       *Rules
	agents  map[string][]int32 // lower-case product token -> group indices
	cur     int                // index of the group receiving rules, -1 before the first user-agent line
	sawRule bool               // the current group has seen an allow/disallow line
	nRules  int
	nAgents int
	seenSM  map[string]struct{}
}

type key uint8

const (
	keyUnknown key = iota
	keyUserAgent
	keyAllow
	keyDisallow
	keySitemap
	keyCrawlDelay
)

func classify(k []byte) key {
	switch {
	case ascii.HasPrefixFold(k, "user-agent"), ascii.HasPrefixFold(k, "useragent"), ascii.HasPrefixFold(k, "user agent"):
		return keyUserAgent
	case ascii.HasPrefixFold(k, "allow"):
		return keyAllow
	case ascii.HasPrefixFold(k, "disallow"), ascii.HasPrefixFold(k, "dissallow"), ascii.HasPrefixFold(k, "dissalow"),
		ascii.HasPrefixFold(k, "disalow"), ascii.HasPrefixFold(k, "diasllow"), ascii.HasPrefixFold(k, "disallaw"):
		return keyDisallow
	case ascii.HasPrefixFold(k, "sitemap"), ascii.HasPrefixFold(k, "site-map"):
		return keySitemap
	case ascii.HasPrefixFold(k, "crawl-delay"), ascii.HasPrefixFold(k, "crawldelay"):
		return keyCrawlDelay
	}
	return keyUnknown
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// splitLine returns the key and value of a line, or ok=false for a line that
// is blank, a comment, or has no separator.
func splitLine(line []byte) (k, v []byte, ok bool) {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = trimSpace(line)
	if len(line) == 0 {
		return nil, nil, false
	}
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		return trimSpace(line[:i]), trimSpace(line[i+1:]), true
	}
	// No colon: accept "key value" when there are exactly two words.
	i := bytes.IndexAny(line, " \t")
	if i < 0 {
		return nil, nil, false
	}
	v = trimSpace(line[i+1:])
	if bytes.ContainsAny(v, " \t") {
		return nil, nil, false
	}
	return line[:i], v, true
}

func (p *parser) line(line []byte) {
	k, v, ok := splitLine(line)
	if !ok {
		return
	}
	switch classify(k) {
	case keyUserAgent:
		p.userAgent(v)
	case keyAllow:
		p.rule(v, true)
	case keyDisallow:
		p.rule(v, false)
	case keySitemap:
		if len(v) > 0 && len(p.r.sitemaps) < MaxSitemaps {
			if _, dup := p.seenSM[string(v)]; !dup {
				s := string(v)
				p.seenSM[s] = struct{}{}
				p.r.sitemaps = append(p.r.sitemaps, s)
				p.r.size += int64(len(s)) + 16
			}
		}
	case keyCrawlDelay:
		p.crawlDelay(v)
	}
}

func (p *parser) userAgent(v []byte) {
	if p.cur < 0 || p.sawRule {
		p.r.groups = append(p.r.groups, group{})
		p.cur = len(p.r.groups) - 1
		p.sawRule = false
	}
	if p.nAgents >= MaxUserAgents {
		return // the group boundary is kept, the name is not
	}
	p.nAgents++
	idx := int32(p.cur)
	// Google: "*" followed by whitespace and anything is still the global agent.
	if len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1])) {
		if n := len(p.r.global); n == 0 || p.r.global[n-1] != idx {
			p.r.global = append(p.r.global, idx)
		}
		return
	}
	tok := productToken(string(v))
	if tok == "" {
		return
	}
	tok = strings.ToLower(tok)
	list := p.agents[tok]
	if n := len(list); n == 0 || list[n-1] != idx {
		if n == 0 {
			p.r.size += int64(len(tok)) + 48
		}
		p.agents[tok] = append(list, idx)
		p.r.size += 4
	}
}

func (p *parser) rule(v []byte, allow bool) {
	if p.cur < 0 {
		return // outside any group
	}
	p.sawRule = true
	if len(v) == 0 || p.nRules >= MaxRules {
		// An empty value matches with priority 0, which RFC 9309 and
		// Google treat as no match.
		return
	}
	pat := escapePattern(v)
	g := &p.r.groups[p.cur]
	g.rules = append(g.rules, compile(pat, allow))
	p.nRules++
	p.r.size += int64(len(pat)) + 80
	if allow {
		// Google: "Allow: /d/index.htm(l)" also allows "/d/".
		if s := strings.LastIndexByte(pat, '/'); s >= 0 && strings.HasPrefix(pat[s:], "/index.htm") && p.nRules < MaxRules {
			g.rules = append(g.rules, compile(pat[:s+1]+"$", true))
			p.nRules++
			p.r.size += int64(s+2) + 80
		}
	}
}

func (p *parser) crawlDelay(v []byte) {
	if p.cur < 0 {
		return
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsNaN(f) || f < 0 {
		return
	}
	d := MaxCrawlDelay
	if f < MaxCrawlDelay.Seconds() {
		d = time.Duration(f * float64(time.Second))
	}
	g := &p.r.groups[p.cur]
	if !g.hasDelay || d > g.crawlDelay {
		g.crawlDelay, g.hasDelay = d, true
	}
}

func (p *parser) finish() *Rules {
	for i := range p.r.groups {
		slices.SortStableFunc(p.r.groups[i].rules, func(a, b rule) int {
			if a.prio != b.prio {
				return int(b.prio) - int(a.prio)
			}
			switch {
			case a.allow == b.allow:
				return 0
			case a.allow:
				return -1
			}
			return 1
		})
	}
	if len(p.agents) > 0 {
		p.r.agents = make([]agentGroups, 0, len(p.agents))
		for name, groups := range p.agents {
			p.r.agents = append(p.r.agents, agentGroups{name: name, groups: groups})
		}
		slices.SortFunc(p.r.agents, func(a, b agentGroups) int { return strings.Compare(a.name, b.name) })
	}
	p.r.size += int64(len(p.r.groups))*48 + 256
	return p.r
}

// productToken returns the leading run of [A-Za-z_-] of s: the product token
// of "FooBot/1.2 (+https://x)" is "FooBot" (RFC 9309 §2.2.1).
func productToken(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c == '_' || c == '-' {
			i++
			continue
		}
		break
	}
	return s[:i]
}

// selectGroups returns the indices of the groups that apply to userAgent: all
// groups naming its product token, or else all groups naming "*".
func (r *Rules) selectGroups(userAgent string) []int32 {
	tok := productToken(userAgent)
	if tok != "" && len(r.agents) > 0 {
		var buf [64]byte
		var lower []byte
		if len(tok) <= len(buf) {
			lower = buf[:len(tok)]
		} else {
			lower = make([]byte, len(tok))
		}
		for i := 0; i < len(tok); i++ {
			c := tok[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower[i] = c
		}
		if gs := r.groupsOf(lower); gs != nil {
			return gs
		}
	}
	return r.global
}

// Allowed reports whether the crawler whose user agent is userAgent may fetch
// rawURL.
//
// userAgent may be a bare product token ("trawl") or a full User-Agent
// string that starts with it ("trawl/0.1 (+https://example.com/bot)"): only
// the leading run of letters, '-' and '_' is compared, case-insensitively,
// with the product tokens of the file's user-agent lines. The groups naming
// that token all apply (they are merged); when none does, the groups naming
// "*" apply; when there are none either, everything is allowed.
//
// rawURL is an absolute URL ("https://example.com/a?b") or a path with an
// optional query ("/a?b"), already percent-encoded as it will be requested:
// it is matched verbatim, fragment excluded, and its host is not checked
// (the caller picks the Rules of the URL's origin). An empty rawURL means "/".
// The longest matching rule wins and Allow wins a tie; "*" matches any run of
// bytes and a final "$" anchors the end. "/robots.txt" is always allowed
// (RFC 9309 §2.5).
func (r *Rules) Allowed(userAgent, rawURL string) bool {
	path := pathOf(rawURL)
	if path == "/robots.txt" || strings.HasPrefix(path, "/robots.txt?") {
		return true
	}
	switch r.mode {
	case modeAllowAll:
		return true
	case modeDisallowAll:
		return false
	}
	best, bestAllow := int32(-1), true
	for _, gi := range r.selectGroups(userAgent) {
		for i := range r.groups[gi].rules {
			rl := &r.groups[gi].rules[i]
			if rl.prio < best || (rl.prio == best && (bestAllow || !rl.allow)) {
				break // sorted: nothing later in this group can win
			}
			if rl.match(path) {
				best, bestAllow = rl.prio, rl.allow
				break
			}
		}
	}
	return bestAllow
}

// CrawlDelay returns the Crawl-delay of the groups that apply to userAgent
// (chosen as in Allowed), or 0 when they set none. Crawl-delay is not part of
// RFC 9309; it is read as a decimal number of seconds ("10", "0.5"), attached
// to the group it appears in, the largest value wins when merged groups
// disagree, and values above MaxCrawlDelay are clamped to it. Malformed
// values are ignored.
func (r *Rules) CrawlDelay(userAgent string) time.Duration {
	var d time.Duration
	for _, gi := range r.selectGroups(userAgent) {
		if g := &r.groups[gi]; g.hasDelay && g.crawlDelay > d {
			d = g.crawlDelay
		}
	}
	return d
}

// Sitemaps returns the values of the file's Sitemap lines, in order, without
// duplicates, as written (they are not resolved or validated). Sitemap lines
// belong to no group. The returned slice is a copy the caller may modify.
func (r *Rules) Sitemaps() []string {
	return slices.Clone(r.sitemaps)
}
