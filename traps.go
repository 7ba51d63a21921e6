package trawl

import (
	"hash/maphash"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl/internal/fpset"
)

// TrapLimits are the rules, on by default, that keep a crawl from wandering
// forever in a spider trap: an endless calendar, ever-deeper relative
// paths, session ids in URLs, soft-404 pages that link to more soft-404
// pages, meta-refresh chains. Each rule is cheap and drops only URLs that
// look like a trap's; together with the hop limit (DefaultMaxDepth), the
// redirect limit (which counts meta-refresh hops too) and Limits.HostBudget,
// they make a crawl with default options end by itself on any web.
//
// A zero field means its default; a negative value (DuplicatesFollowed,
// for Duplicates) turns the rule off. NoTrapLimits returns limits with
// every rule off. URLs a rule drops are counted in
// Stats.URLs.Traps and get a DecisionTrap naming the rule.
type TrapLimits struct {
	// MaxURLLength drops URLs longer than this many bytes (after
	// normalization). Default 2048.
	MaxURLLength int

	// MaxPathSegments drops URLs whose path has more segments than this
	// (/a/b/c/ has three). Default 32.
	MaxPathSegments int

	// MaxSegmentRepeats drops URLs whose path holds one segment more than
	// this many times, as relative links resolved on a page served under
	// any path produce (/repeat/again/again/again/…, /lost/old/media/old/…).
	// Default 3.
	MaxSegmentRepeats int

	// TemplateStreak closes a URL template that grows only by itself: a
	// template is a host and a path with every run of digits masked, plus
	// the names (not the values) of its query parameters, so
	// /calendar/2026/01/ and /calendar/1987/11/ share one, as do
	// /item?id=1&sid=x and /item?id=2&sid=y. After this many pages of one
	// template in a row have brought new URLs of their own template and
	// none of any other (a page that brings nothing new does not count
	// either way), links from that template's pages to the same template
	// are no longer followed, until one of its pages brings a new URL of
	// another template. Links to it from other pages are still followed,
	// so a real page is lost only if it can be reached solely through such
	// a chain. Default 20.
	TemplateStreak int

	// Duplicates says whose links are not followed among pages that
	// repeat an earlier page. Default RepeatsNotFollowed.
	Duplicates DuplicateLinks
}

// DuplicateLinks says which pages that repeat an earlier page have their
// links followed (TrapLimits.Duplicates). Such pages are still fetched,
// stored (see DuplicatePolicy) and counted; only their links are at stake.
type DuplicateLinks int

const (
	// RepeatsNotFollowed, the default, does not follow the links of a page
	// whose title and visible text are exactly those of a page fetched
	// earlier from the same host, which ends session-id traps and soft-404
	// generators (every URL answering 200 with the same "not found" page)
	// after one step; near duplicates found by WithDuplicateDetection are
	// followed. Pages without visible text (framesets) are never repeats.
	RepeatsNotFollowed DuplicateLinks = iota
	// DuplicatesNotFollowed also leaves out the links of pages that
	// WithDuplicateDetection finds duplicate, exactly or nearly, of any
	// earlier page: a defence against traps that serve one page under
	// endless URLs with small changes.
	DuplicatesNotFollowed
	// DuplicatesFollowed follows the links of every page: the rule is off.
	DuplicatesFollowed
)

// NoTrapLimits returns TrapLimits with every rule off. With it, a negative
// Limits.MaxDepth and Limits.HostBudget, nothing but the web's size ends
// a crawl.
func NoTrapLimits() TrapLimits {
	return TrapLimits{MaxURLLength: -1, MaxPathSegments: -1, MaxSegmentRepeats: -1, TemplateStreak: -1, Duplicates: DuplicatesFollowed}
}

// WithTrapLimits sets the spider-trap rules (see TrapLimits). Default: the
// defaults documented on each field of TrapLimits.
func WithTrapLimits(l TrapLimits) Option { return func(c *config) { c.traps = l } }

func (l TrapLimits) withDefaults() TrapLimits {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.MaxURLLength, 2048)
	def(&l.MaxPathSegments, 32)
	def(&l.MaxSegmentRepeats, 3)
	def(&l.TemplateStreak, 20)
	return l
}

// trapGuard applies TrapLimits. It is safe for concurrent use.
type trapGuard struct {
	lim  TrapLimits
	seed maphash.Seed

	mu      sync.Mutex
	streaks map[uint64]int32 // template -> pages in a row that grew only it
	texts   fpset.Set        // hashes of host + title + text of pages fetched, about 13 bytes each
}

// maxTrapEntries bounds each of the guard's maps; past it, new templates
// and texts are no longer remembered (the other rules still hold).
const maxTrapEntries = 1 << 22

func newTrapGuard(l TrapLimits) *trapGuard {
	return &trapGuard{
		lim: l.withDefaults(), seed: maphash.MakeSeed(),
		streaks: make(map[uint64]int32),
	}
}

// shapeRule returns the rule rawURL (absolute, normalized) breaks among
// the length, segment count and segment repetition rules, or ReasonNone.
func (g *trapGuard) shapeRule(rawURL string) Reason {
	if g.lim.MaxURLLength > 0 && len(rawURL) > g.lim.MaxURLLength {
		return ReasonMaxURLLength
	}
	if g.lim.MaxPathSegments <= 0 && g.lim.MaxSegmentRepeats <= 0 {
		return ReasonNone
	}
	path := urlPath(rawURL)
	segs := 0
	var stack [16]string // the distinct segments seen, for short paths
	distinct := stack[:0]
	var counts [16]int
	long := map[string]int(nil)
	for path != "" {
		path = path[1:] // the '/'
		i := strings.IndexByte(path, '/')
		seg := path
		if i >= 0 {
			seg, path = path[:i], path[i:]
		} else {
			path = ""
		}
		segs++
		if g.lim.MaxPathSegments > 0 && segs > g.lim.MaxPathSegments {
			return ReasonMaxPathSegments
		}
		if g.lim.MaxSegmentRepeats <= 0 || seg == "" {
			continue
		}
		n := 0
		if long != nil {
			long[seg]++
			n = long[seg]
		} else {
			k := 0
			for k < len(distinct) && distinct[k] != seg {
				k++
			}
			switch {
			case k < len(distinct):
				counts[k]++
				n = counts[k]
			case len(distinct) < len(stack):
				distinct = append(distinct, seg)
				counts[k] = 1
				n = 1
			default:
				long = make(map[string]int, 2*len(stack))
				for j, s := range distinct {
					long[s] = counts[j]
				}
				long[seg]++
				n = long[seg]
			}
		}
		if n > g.lim.MaxSegmentRepeats {
			// The segment rule names the URL if it breaks both.
			if g.lim.MaxPathSegments > 0 && segs+strings.Count(path, "/") > g.lim.MaxPathSegments {
				return ReasonMaxPathSegments
			}
			return ReasonMaxSegmentRepeats
		}
	}
	return ReasonNone
}

// urlPath returns the path of an absolute URL string: from the first '/'
// after "scheme://host" up to '?' or '#'.
func urlPath(rawURL string) string {
	i := strings.Index(rawURL, "://")
	if i < 0 {
		return ""
	}
	rest := rawURL[i+3:]
	j := strings.IndexByte(rest, '/')
	if j < 0 {
		return ""
	}
	rest = rest[j:]
	if k := strings.IndexAny(rest, "?#"); k >= 0 {
		rest = rest[:k]
	}
	return rest
}

// template returns the hash of rawURL's template: scheme and host, the
// path with each run of digits replaced by one '#', then the query's parameter
// names in order, without their values. The fragment is ignored.
func (g *trapGuard) template(rawURL string) uint64 {
	var h maphash.Hash
	h.SetSeed(g.seed)
	var buf [256]byte
	b := buf[:0]
	flush := func() {
		h.Write(b)
		b = b[:0]
	}
	// The scheme and host are kept as they are: h1.test and h2.test are
	// two hosts, not one template.
	start := 0
	if i := strings.Index(rawURL, "://"); i >= 0 {
		start = i + 3
		if j := strings.IndexAny(rawURL[start:], "/?#"); j >= 0 {
			start += j
		} else {
			start = len(rawURL)
		}
	}
	h.WriteString(rawURL[:start])
	inQuery, inValue, inDigits := false, false, false
	for i := start; i < len(rawURL); i++ {
		c := rawURL[i]
		if c == '#' {
			break
		}
		if len(b) == len(buf) {
			flush()
		}
		switch {
		case !inQuery && c == '?':
			inQuery, inDigits = true, false
			b = append(b, c)
		case inQuery && c == '&':
			inValue = false
			b = append(b, c)
		case inQuery && inValue:
			// values are masked
		case inQuery && c == '=':
			inValue = true
			b = append(b, c)
		case !inQuery && c >= '0' && c <= '9':
			if !inDigits {
				b = append(b, '#')
				inDigits = true
			}
		default:
			inDigits = false
			b = append(b, c)
		}
	}
	flush()
	return h.Sum64()
}

// closed reports whether links from pages of template t to t are no longer
// followed.
func (g *trapGuard) closed(t uint64) bool {
	if g.lim.TemplateStreak <= 0 {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.streaks[t] >= int32(g.lim.TemplateStreak)
}

// grew records what a page of template t brought to the frontier: inNew
// new URLs of its own template and outNew of others. It reports whether
// this closed the template.
func (g *trapGuard) grew(t uint64, inNew, outNew int) (closedNow bool) {
	if g.lim.TemplateStreak <= 0 || (inNew == 0 && outNew == 0) {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.streaks[t]
	switch {
	case outNew > 0:
		if ok {
			g.streaks[t] = 0
		}
		return false
	case s >= int32(g.lim.TemplateStreak):
		return false // closed already
	case !ok && len(g.streaks) >= maxTrapEntries:
		return false
	}
	g.streaks[t] = s + 1
	return s+1 == int32(g.lim.TemplateStreak)
}

// seenText records host+title+text and reports whether the same was
// recorded before. Empty text is never a duplicate.
func (g *trapGuard) seenText(host, title, text string) bool {
	if g.lim.Duplicates == DuplicatesFollowed || strings.TrimSpace(text) == "" {
		return false
	}
	var h maphash.Hash
	h.SetSeed(g.seed)
	h.WriteString(host)
	h.WriteByte(0)
	h.WriteString(title)
	h.WriteByte(0)
	h.WriteString(text)
	k := h.Sum64()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.texts.Contains(k) {
		return true
	}
	if g.texts.Len() < maxTrapEntries {
		g.texts.Add(k)
	}
	return false
}
