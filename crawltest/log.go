package crawltest

import (
	"net"
	"slices"
	"sort"
	"strings"
	"time"
)

// Request is one request the web received.
type Request struct {
	// Start is when the web began handling the request (its header had been
	// read); End is when the handler returned (the response, if any, had
	// been written). End is zero while the request is in flight. Both use
	// the real clock (time.Now), whatever Options.Now is.
	Start, End time.Time
	// Method is the request method: GET and HEAD are served, others get
	// 405, except POSTs to the login form's action (Options.Login).
	Method string
	// Host is the virtual host name, such as "h3.test", also in LoopbackIPs
	// mode; for a Host header that names no host of the web, that header's
	// host in lower case.
	Host string
	// Path is the request target as received: path and query, escapes and
	// dot segments as the client sent them.
	Path string
	// URL is the normalized absolute URL of the request, in the form
	// Reachable uses.
	URL string
	// RemoteAddr is the client's address, "ip:port": one per connection.
	RemoteAddr string
	// LocalAddr is the web's address the request reached, "ip:port": the
	// host's own with LoopbackIPs, its address's with Options.AddressOf
	// (shared by the hosts on it), "pipe" with InMemory. IP gives its IP.
	LocalAddr string
	// UserAgent is the User-Agent header.
	UserAgent string
	// Status is the status code sent, or 0 when no response was sent: the
	// connection was reset, or the request hung until the client gave up or
	// the web was closed.
	Status int
	// Bytes is the number of body bytes written.
	Bytes int64
}

// Log is a snapshot of the requests a web received, in the order they
// started, with assertions over them. A Log is immutable and safe for
// concurrent use.
type Log struct {
	w    *Web
	reqs []Request
}

// logSlot identifies a log entry: its index in the log of one generation
// (ResetLog starts a new one).
type logSlot struct{ gen, i int }

func (w *Web) logBegin(r Request) logSlot {
	w.logMu.Lock()
	defer w.logMu.Unlock()
	w.reqs = append(w.reqs, r)
	return logSlot{w.logGen, len(w.reqs) - 1}
}

func (w *Web) logEnd(s logSlot, end time.Time, status int, n int64) {
	w.logMu.Lock()
	defer w.logMu.Unlock()
	if i := s.i; s.gen == w.logGen {
		w.reqs[i].End, w.reqs[i].Status, w.reqs[i].Bytes = end, status, n
	}
}

// Log returns a snapshot of every request received so far (since the last
// ResetLog), including those still in flight.
func (w *Web) Log() *Log {
	w.logMu.Lock()
	defer w.logMu.Unlock()
	return &Log{w: w, reqs: slices.Clone(w.reqs)}
}

// ResetLog forgets the requests received so far. Requests in flight are
// not recorded further.
func (w *Web) ResetLog() {
	w.logMu.Lock()
	defer w.logMu.Unlock()
	w.reqs = nil
	w.logGen++
}

// Requests returns the requests in the order they started.
func (l *Log) Requests() []Request { return slices.Clone(l.reqs) }

// Len returns the number of requests.
func (l *Log) Len() int { return len(l.reqs) }

// Filter returns the log of the requests for which keep returns true.
func (l *Log) Filter(keep func(Request) bool) *Log {
	var rs []Request
	for _, r := range l.reqs {
		if keep(r) {
			rs = append(rs, r)
		}
	}
	return &Log{w: l.w, reqs: rs}
}

// Fetched returns each distinct normalized URL requested, robots.txt,
// sitemaps, feeds and fault URLs included, in the order of first request.
func (l *Log) Fetched() []string {
	seen := make(map[string]bool, len(l.reqs))
	var out []string
	for _, r := range l.reqs {
		if !seen[r.URL] {
			seen[r.URL] = true
			out = append(out, r.URL)
		}
	}
	return out
}

// FetchedPages returns, sorted, the distinct ordinary pages requested: the
// URLs of Fetched that are in Web.Pages, so without robots.txt, sitemaps,
// feeds, trap and fault URLs. Compare it with Web.Reachable.
func (l *Log) FetchedPages() []string {
	var out []string
	for _, u := range l.Fetched() {
		if _, _, ok := l.w.locatePage(u); ok {
			out = append(out, u)
		}
	}
	sort.Strings(out)
	return out
}

// Counts returns how many times each normalized URL was requested,
// robots.txt included.
func (l *Log) Counts() map[string]int {
	m := make(map[string]int)
	for _, r := range l.reqs {
		m[r.URL]++
	}
	return m
}

// FetchedTwice returns, sorted, the normalized URLs requested more than
// once, leaving out /robots.txt (which a crawler may legitimately fetch
// again when its cache expires; use Counts to see it). A URL counts however
// it was written (upper-case host, ":80", "%7E", "/./", empty query…) and
// whatever the answer was (retries after 429 or 503 and conditional GETs
// answered 304 count too).
func (l *Log) FetchedTwice() []string {
	var out []string
	for u, n := range l.Counts() {
		if n > 1 && !strings.HasSuffix(u, "/robots.txt") {
			out = append(out, u)
		}
	}
	sort.Strings(out)
	return out
}

// RobotsViolations returns the requests for URLs that the robots.txt of
// their host disallows for userAgent, as served (see Web.Disallowed).
// Requests for robots.txt itself never count.
func (l *Log) RobotsViolations(userAgent string) []Request {
	var out []Request
	for _, r := range l.reqs {
		if r.URL != "" && l.w.Disallowed(userAgent, r.URL) {
			out = append(out, r)
		}
	}
	return out
}

// IP returns the IP address of the web's address the request reached (of
// LocalAddr): the key by which MinGapBy and MaxInFlightBy tell the
// politeness of a crawler per IP address. It is "" when LocalAddr has no
// IP (InMemory).
func (r Request) IP() string {
	host, _, err := net.SplitHostPort(r.LocalAddr)
	if err != nil {
		return ""
	}
	return host
}

// MinGap returns, for each host with at least two requests, the smallest
// time between the End of a request and the Start of the next request to
// that host (in Start order), robots.txt requests included. When requests
// overlap the gap is 0. A request still in flight ends at +∞.
func (l *Log) MinGap() map[string]time.Duration {
	return l.MinGapBy(func(r Request) string { return r.Host })
}

// MinGapBy is MinGap with requests grouped by key instead of by host:
// Request.IP gives the gap per server address, for a crawler polite per
// IP.
func (l *Log) MinGapBy(key func(Request) string) map[string]time.Duration {
	out := make(map[string]time.Duration)
	for host, rs := range l.by(key) {
		if len(rs) < 2 {
			continue
		}
		min := time.Duration(1<<63 - 1)
		var lastEnd time.Time // latest end so far
		inflight := false
		for i, r := range rs {
			if i > 0 {
				g := r.Start.Sub(lastEnd)
				if inflight || g < 0 {
					g = 0
				}
				min = minDur(min, g)
			}
			if r.End.IsZero() {
				inflight = true
			} else if r.End.After(lastEnd) {
				lastEnd = r.End
			}
		}
		out[host] = min
	}
	return out
}

func minDur(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

// MaxInFlight returns, for each host, the largest number of its requests
// that were being handled at the same moment. A request that ends exactly
// when another starts does not overlap it; one still in flight has not
// ended.
func (l *Log) MaxInFlight() map[string]int {
	return l.MaxInFlightBy(func(r Request) string { return r.Host })
}

// MaxInFlightBy is MaxInFlight with requests grouped by key instead of by
// host (see MinGapBy).
func (l *Log) MaxInFlightBy(key func(Request) string) map[string]int {
	out := make(map[string]int)
	type ev struct {
		t     time.Time
		delta int
	}
	for host, rs := range l.by(key) {
		evs := make([]ev, 0, 2*len(rs))
		for _, r := range rs {
			evs = append(evs, ev{r.Start, +1})
			if !r.End.IsZero() {
				evs = append(evs, ev{r.End, -1})
			}
		}
		sort.SliceStable(evs, func(i, j int) bool {
			if !evs[i].t.Equal(evs[j].t) {
				return evs[i].t.Before(evs[j].t)
			}
			return evs[i].delta < evs[j].delta // ends first
		})
		n, max := 0, 0
		for _, e := range evs {
			n += e.delta
			if n > max {
				max = n
			}
		}
		out[host] = max
	}
	return out
}

func (l *Log) by(key func(Request) string) map[string][]Request {
	m := make(map[string][]Request)
	for _, r := range l.reqs {
		k := key(r)
		m[k] = append(m[k], r)
	}
	for _, rs := range m {
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].Start.Before(rs[j].Start) })
	}
	return m
}
