package trawl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/internal/jsonenc"
	"github.com/trawl-dev/trawl/robots"
)

// Decision outcomes: what became of a URL (Decision.Outcome). A URL may
// get several decisions over a crawl, one per step: "queued" when it is
// discovered and accepted, then "fetched", then perhaps
// "duplicate-content"; a URL found again later gets "duplicate-url". The
// last decision about a URL says what finally became of it; a URL whose
// last decision is "queued" or "wait" was still waiting in the frontier
// when the crawl ended.
const (
	// DecisionQueued: accepted by the frontier, to be fetched when its
	// host's turn comes. Reason is empty.
	DecisionQueued = "queued"
	// DecisionDuplicateURL: the frontier had already accepted this URL
	// (normalized), so it is not queued again.
	DecisionDuplicateURL = "duplicate-url"
	// DecisionFiltered: a Filter rejected the URL; Reason names the filter
	// (its String method, as NamedFilter gives, else its position and type).
	DecisionFiltered = "filtered"
	// DecisionTrap: a TrapLimits rule dropped the URL; Reason names it:
	// "max-url-length", "max-path-segments", "max-segment-repeats" or
	// "template-streak".
	DecisionTrap = "trap"
	// DecisionDepth: the URL is beyond the hop limit (WithMaxDepth).
	DecisionDepth = "depth"
	// DecisionBudget: the host's budget of URLs (WithHostBudget) is spent.
	// Reason is "budget-or-duplicate" when a frontier without a Seen method
	// cannot tell the two apart.
	DecisionBudget = "budget"
	// DecisionNotFollowed: a link found on a page but not followed. Reason:
	// "rel-nofollow" (the link's rel), "kind:NAME" (a kind of reference
	// WithFollow leaves out), "page-nofollow" (meta robots or X-Robots-Tag),
	// "duplicate-content" (DuplicatePolicy.NoFollowNear) or "repeat-page"
	// (TrapLimits.FollowDuplicates off).
	DecisionNotFollowed = "not-followed"
	// DecisionRobots: robots.txt disallows the URL.
	DecisionRobots = "robots"
	// DecisionLimit: WithMaxPages was reached before the URL's turn.
	DecisionLimit = "limit"
	// DecisionWait: the URL went back to its host's queue, waiting for the
	// host's next contact time (politeness). Reason: "robots.txt-contact"
	// (fetching the host's robots.txt used the host's turn), "retry:KIND"
	// (a transient error, retried after the back-off) or "crawl-stopped".
	DecisionWait = "wait"
	// DecisionFetched: the URL was fetched; Status, Bytes and Duration say
	// how. Reason is "not-modified" for a 304 to a conditional request.
	// An HTTP error status is followed by an "error" decision.
	DecisionFetched = "fetched"
	// DecisionDuplicateContent: the page fetched duplicates an earlier
	// page's main text (WithDuplicateDetection); Reason is "exact:URL" or
	// "near:URL" with the earlier page's URL.
	DecisionDuplicateContent = "duplicate-content"
	// DecisionError: the URL failed; Reason is the error kind of
	// Stats.ErrorKinds ("timeout", "status-4xx", "private", ...), or
	// "frontier" when the frontier refused the URL; Error is the message.
	DecisionError = "error"
	// DecisionSkipped: dropped for another reason given to Events.OnSkip,
	// such as "request-hook"; Reason is that reason.
	DecisionSkipped = "skipped"
	// DecisionRobotsTxt: a host's robots.txt was fetched (URL is the
	// robots.txt URL). Reason: "parsed" (2xx), "allow-all" (4xx, or too
	// many redirects), "disallow-all" (5xx or unreachable, until a retry
	// succeeds); Status is the last HTTP status, 0 if none.
	DecisionRobotsTxt = "robots.txt"
)

// Decision is one step in the life of a URL the crawl discovered: what
// became of it and why. Events.OnDecision receives them; DecisionLog
// writes them as JSON Lines with the field names of the json tags.
type Decision struct {
	Time     time.Time     `json:"time"`               // when it was decided
	URL      string        `json:"url"`                // the URL, normalized
	Outcome  string        `json:"outcome"`            // one of the Decision… constants
	Reason   string        `json:"reason,omitempty"`   // why, per Outcome
	Depth    int           `json:"depth,omitempty"`    // the URL's depth (seeds have 1), when known
	Referrer string        `json:"referrer,omitempty"` // the page the URL was found on (discovery decisions)
	Status   int           `json:"status,omitempty"`   // HTTP status (fetched, error, robots.txt)
	Bytes    int64         `json:"bytes,omitempty"`    // body bytes (fetched)
	Duration time.Duration `json:"duration,omitempty"` // fetch duration in nanoseconds (fetched)
	Error    string        `json:"error,omitempty"`    // the error message (error)
}

// AppendJSON appends d as one line of JSON, without the newline, exactly
// as encoding/json would marshal it, and returns the extended buffer.
func (d *Decision) AppendJSON(b []byte) []byte {
	b = append(b, `{"time":"`...)
	b = appendTime(b, d.Time)
	b = append(b, `","url":`...)
	b = appendJSONString(b, d.URL)
	b = append(b, `,"outcome":`...)
	b = appendJSONString(b, d.Outcome)
	if d.Reason != "" {
		b = append(b, `,"reason":`...)
		b = appendJSONString(b, d.Reason)
	}
	if d.Depth != 0 {
		b = append(b, `,"depth":`...)
		b = strconv.AppendInt(b, int64(d.Depth), 10)
	}
	if d.Referrer != "" {
		b = append(b, `,"referrer":`...)
		b = appendJSONString(b, d.Referrer)
	}
	if d.Status != 0 {
		b = append(b, `,"status":`...)
		b = strconv.AppendInt(b, int64(d.Status), 10)
	}
	if d.Bytes != 0 {
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, d.Bytes, 10)
	}
	if d.Duration != 0 {
		b = append(b, `,"duration":`...)
		b = strconv.AppendInt(b, int64(d.Duration), 10)
	}
	if d.Error != "" {
		b = append(b, `,"error":`...)
		b = appendJSONString(b, d.Error)
	}
	return append(b, '}')
}

// appendTime appends t as RFC 3339 with nanoseconds, trailing zeros
// dropped (time.RFC3339Nano, as encoding/json writes it); UTC times, all
// the crawler makes, take a shorter path.
func appendTime(b []byte, t time.Time) []byte {
	year, month, day := t.Date()
	if t.Location() != time.UTC || year < 0 || year > 9999 {
		return t.AppendFormat(b, time.RFC3339Nano)
	}
	hour, minute, sec := t.Clock()
	b = append(b, byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-',
		byte('0'+month/10), byte('0'+month%10), '-', byte('0'+day/10), byte('0'+day%10), 'T',
		byte('0'+hour/10), byte('0'+hour%10), ':', byte('0'+minute/10), byte('0'+minute%10), ':',
		byte('0'+sec/10), byte('0'+sec%10))
	if ns := t.Nanosecond(); ns != 0 {
		var frac [10]byte
		frac[0] = '.'
		for i := 9; i >= 1; i-- {
			frac[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for frac[n-1] == '0' {
			n--
		}
		b = append(b, frac[:n]...)
	}
	return append(b, 'Z')
}

// appendJSONString appends s as a JSON string the way encoding/json does:
// HTML-safe (<, >, & escaped), U+2028 and U+2029 escaped, invalid UTF-8
// replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	return jsonenc.AppendString(b, s)
}

// DecisionLog writes decisions as JSON Lines, one Decision per line, to a
// buffered writer. Its Record method is an Events.OnDecision hook:
//
//	log := trawl.NewDecisionLog(file)
//	c, _ := trawl.New(..., trawl.WithEvents(trawl.Events{OnDecision: log.Record}))
//	err := c.Run(ctx)
//	err = errors.Join(err, log.Flush())
//
// It is safe for concurrent use. The first write error stops the log; Flush
// and Close return it.
type DecisionLog struct {
	mu  sync.Mutex
	w   *bufio.Writer
	c   io.Closer // the writer, if it is one
	buf []byte
	n   int64
	err error
}

// NewDecisionLog returns a DecisionLog writing to w through a 64 KiB buffer.
func NewDecisionLog(w io.Writer) *DecisionLog {
	l := &DecisionLog{w: bufio.NewWriterSize(w, 64<<10)}
	l.c, _ = w.(io.Closer)
	return l
}

// Record writes d as one line. It never blocks for longer than a write to
// the underlying writer takes when the buffer fills.
func (l *DecisionLog) Record(_ context.Context, d Decision) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	l.buf = append(d.AppendJSON(l.buf[:0]), '\n')
	if _, err := l.w.Write(l.buf); err != nil {
		l.err = fmt.Errorf("trawl: decision log: %w", err)
		return
	}
	l.n++
}

// Lines returns the number of decisions written so far.
func (l *DecisionLog) Lines() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// Flush writes out what is buffered and returns the first error the log met.
func (l *DecisionLog) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		if err := l.w.Flush(); err != nil {
			l.err = fmt.Errorf("trawl: decision log: %w", err)
		}
	}
	return l.err
}

// Close flushes the log and closes the underlying writer if it is an
// io.Closer.
func (l *DecisionLog) Close() error {
	err := l.Flush()
	if l.c != nil {
		if cerr := l.c.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("trawl: decision log: %w", cerr))
		}
	}
	return err
}

// JoinEvents returns Events that call each non-nil hook of evs in order, so
// that several observers (a metrics collector, a report recorder, a
// decision log, the program's own hooks) can watch one crawl.
func JoinEvents(evs ...Events) Events {
	var out Events
	var pages []func(context.Context, *Page)
	var errs []func(context.Context, string, error)
	var skips []func(context.Context, string, string)
	var decs []func(context.Context, Decision)
	for _, e := range evs {
		if e.OnPage != nil {
			pages = append(pages, e.OnPage)
		}
		if e.OnError != nil {
			errs = append(errs, e.OnError)
		}
		if e.OnSkip != nil {
			skips = append(skips, e.OnSkip)
		}
		if e.OnDecision != nil {
			decs = append(decs, e.OnDecision)
		}
	}
	switch len(pages) {
	case 0:
	case 1:
		out.OnPage = pages[0]
	default:
		out.OnPage = func(ctx context.Context, p *Page) {
			for _, f := range pages {
				f(ctx, p)
			}
		}
	}
	switch len(errs) {
	case 0:
	case 1:
		out.OnError = errs[0]
	default:
		out.OnError = func(ctx context.Context, rawURL string, err error) {
			for _, f := range errs {
				f(ctx, rawURL, err)
			}
		}
	}
	switch len(skips) {
	case 0:
	case 1:
		out.OnSkip = skips[0]
	default:
		out.OnSkip = func(ctx context.Context, rawURL, reason string) {
			for _, f := range skips {
				f(ctx, rawURL, reason)
			}
		}
	}
	switch len(decs) {
	case 0:
	case 1:
		out.OnDecision = decs[0]
	default:
		out.OnDecision = func(ctx context.Context, d Decision) {
			for _, f := range decs {
				f(ctx, d)
			}
		}
	}
	return out
}

// NamedFilter returns f under a name: its String method returns name, so
// decision logs (DecisionFiltered) say which filter rejected a URL.
func NamedFilter(name string, f Filter) Filter { return namedFilter{name: name, f: f} }

type namedFilter struct {
	name string
	f    Filter
}

func (n namedFilter) Allow(r *Request) bool { return n.f.Allow(r) }
func (n namedFilter) String() string        { return n.name }

// filterNames names filters for a composite's name: their String, or
// their type.
func filterNames(fs []Filter) string {
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteString(", ")
		}
		if s, ok := f.(fmt.Stringer); ok {
			b.WriteString(s.String())
		} else {
			fmt.Fprintf(&b, "%T", f)
		}
	}
	return b.String()
}

// rejectedBy returns the index of the first filter that rejects r, or -1.
func (c *Crawler) rejectedBy(r *Request) int {
	for i, f := range c.cfg.filters {
		if !f.Allow(r) {
			return i
		}
	}
	return -1
}

// filterName names the i-th filter for a decision.
func (c *Crawler) filterName(i int) string {
	f := c.cfg.filters[i]
	if s, ok := f.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("filter %d (%T)", i+1, f)
}

// decide passes d, stamped with the time, to Events.OnDecision.
func (c *Crawler) decide(ctx context.Context, d Decision) {
	d.Time = time.Now().UTC()
	c.cfg.events.OnDecision(ctx, d)
}

// skipOutcome maps an Events.OnSkip reason to a decision outcome.
func skipOutcome(reason string) (outcome, detail string) {
	switch reason {
	case "robots":
		return DecisionRobots, ""
	case "filter":
		return DecisionFiltered, ""
	case "trap":
		return DecisionTrap, ""
	case "limit":
		return DecisionLimit, ""
	case "depth":
		return DecisionDepth, ""
	case "kind":
		// The crawler skips with "kind" only a redirect's target when
		// WithFollow leaves redirects out.
		return DecisionNotFollowed, "kind:" + extract.Redirect.String()
	}
	return DecisionSkipped, reason
}

// decideSkip records a URL Events.OnSkip was told about.
func (c *Crawler) decideSkip(ctx context.Context, rawURL, reason, detail string) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	outcome, why := skipOutcome(reason)
	if detail != "" {
		why = detail
	}
	c.decide(ctx, Decision{URL: rawURL, Outcome: outcome, Reason: why})
}

// skipFiltered reports a URL the i-th filter rejected.
func (c *Crawler) skipFiltered(ctx context.Context, rawURL string, i int) {
	if ev := c.cfg.events.OnSkip; ev != nil {
		ev(ctx, rawURL, "filter")
	}
	if c.cfg.events.OnDecision != nil {
		c.decideSkip(ctx, rawURL, "filter", c.filterName(i))
	}
}

// skipTrap reports a URL a trap rule dropped; rule is "" for a shape rule,
// found again here only when decisions are recorded.
func (c *Crawler) skipTrap(ctx context.Context, rawURL, rule string) {
	if ev := c.cfg.events.OnSkip; ev != nil {
		ev(ctx, rawURL, "trap")
	}
	if c.cfg.events.OnDecision != nil {
		if rule == "" {
			rule = c.traps.shapeRule(rawURL)
		}
		c.decideSkip(ctx, rawURL, "trap", rule)
	}
}

// shapeRule names the shape rule that rawURL breaks ("" if none).
func (g *trapGuard) shapeRule(rawURL string) string {
	if g.lim.MaxURLLength > 0 && len(rawURL) > g.lim.MaxURLLength {
		return "max-url-length"
	}
	if g.lim.MaxPathSegments > 0 {
		segs := trapGuard{lim: g.lim}
		segs.lim.MaxSegmentRepeats = -1
		if !segs.shapeOK(rawURL) {
			return "max-path-segments"
		}
	}
	if !g.shapeOK(rawURL) {
		return "max-segment-repeats"
	}
	return ""
}

// decideFail records a failed URL.
func (c *Crawler) decideFail(ctx context.Context, rawURL, kind string, err error) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	d := Decision{URL: rawURL, Outcome: DecisionError, Reason: kind}
	if err != nil {
		d.Error = err.Error()
	}
	if fe := (*fetch.Error)(nil); errors.As(err, &fe) {
		d.Status = fe.StatusCode
	}
	c.decide(ctx, d)
}

// decideFetched records a fetch that got a response.
func (c *Crawler) decideFetched(ctx context.Context, req *frontier.Request, resp *fetch.Response) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	d := Decision{URL: req.URL, Outcome: DecisionFetched, Depth: req.Depth,
		Status: resp.Status, Bytes: int64(len(resp.Body)), Duration: resp.Duration}
	if resp.NotModified {
		d.Reason = "not-modified"
	}
	c.decide(ctx, d)
}

// decideDuplicate records a page whose content duplicates an earlier one's.
func (c *Crawler) decideDuplicate(ctx context.Context, p *Page) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	c.decide(ctx, Decision{URL: p.URL.String(), Outcome: DecisionDuplicateContent, Depth: p.Depth,
		Reason: p.Duplicate.Kind.String() + ":" + p.Duplicate.Of})
}

// decideWait records a URL that went back to wait for its host's turn.
func (c *Crawler) decideWait(ctx context.Context, req *frontier.Request, reason string) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	c.decide(ctx, Decision{URL: req.URL, Outcome: DecisionWait, Depth: req.Depth, Reason: reason})
}

// decideRobotsTxt records the outcome of a robots.txt lookup that made a
// fetch under this worker's hops (not one that shared another's fetch).
func (c *Crawler) decideRobotsTxt(ctx context.Context, robotsURL string, hops *robotsHops, err error) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	hops.mu.Lock()
	fetched, status := len(hops.last) > 0, hops.status
	hops.mu.Unlock()
	if !fetched {
		return
	}
	d := Decision{URL: robotsURL, Outcome: DecisionRobotsTxt, Status: status}
	switch {
	case err == nil && status >= 200 && status <= 299:
		d.Reason = "parsed"
	case err == nil, errors.Is(err, robots.ErrTooManyRedirects):
		d.Reason = "allow-all"
	default:
		d.Reason = "disallow-all"
	}
	if err != nil {
		d.Error = err.Error()
	}
	c.decide(ctx, d)
}

// relNofollowAny are the rel values that keep a link from being followed
// (unless WithFollowNofollow).
const relNofollowAny = extract.RelNofollow | extract.RelSponsored | extract.RelUGC

// followable reports whether l would be followed from a page at all: its
// rel and its kind allow it.
func (c *Crawler) followable(l *Link) bool {
	return (c.cfg.followNofollow || l.Rel&relNofollowAny == 0) && c.follows.has(l.Kind)
}

// notFollowed records the followable links of p as not followed, for
// reason (outcome DecisionNotFollowed, or DecisionDepth for "depth").
func (c *Crawler) notFollowed(ctx context.Context, p *Page, reason string) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	outcome := DecisionNotFollowed
	if reason == "depth" {
		outcome, reason = DecisionDepth, ""
	}
	referrer := p.URL.String()
	for i := range p.Links {
		l := &p.Links[i]
		if c.followable(l) {
			c.decide(ctx, Decision{URL: l.URL, Outcome: outcome, Reason: reason, Depth: p.Depth + 1, Referrer: referrer})
		}
	}
}

// linkNotFollowed records a link found on the page referrer, at depth,
// that follow leaves out for its rel or its kind.
func (c *Crawler) linkNotFollowed(ctx context.Context, referrer string, depth int, l *Link) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	reason := "rel-nofollow"
	if c.cfg.followNofollow || l.Rel&relNofollowAny == 0 {
		reason = "kind:" + l.Kind.String()
	}
	c.decide(ctx, Decision{URL: l.URL, Outcome: DecisionNotFollowed, Reason: reason, Depth: depth, Referrer: referrer})
}

// push pushes reqs to the frontier: all at once, or, when decisions are
// recorded, one at a time so that each URL's fate is known.
func (c *Crawler) push(ctx context.Context, reqs []frontier.Request) (int, error) {
	if c.cfg.events.OnDecision == nil {
		return c.front.Push(ctx, reqs...)
	}
	seen, canTell := c.front.(interface{ Seen(rawURL string) bool })
	now := time.Now().UTC() // one time for the batch: one page's links
	added := 0
	var errs []error
	for i := range reqs {
		r := &reqs[i]
		n, err := c.front.Push(ctx, reqs[i:i+1]...) // no copy, no allocation
		added += n
		if ctx.Err() != nil {
			errs = append(errs, err)
			continue
		}
		d := Decision{URL: r.URL, Depth: r.Depth, Referrer: r.Referrer}
		switch {
		case err != nil:
			errs = append(errs, err)
			d.Outcome, d.Reason, d.Error = DecisionError, "frontier", err.Error()
		case n > 0:
			d.Outcome = DecisionQueued
		case c.maxDepth > 0 && r.Depth > c.maxDepth:
			d.Outcome = DecisionDepth
		case canTell && seen.Seen(r.URL):
			d.Outcome = DecisionDuplicateURL
		case canTell || c.cfg.hostBudget > 0:
			d.Outcome = DecisionBudget
			if !canTell {
				d.Reason = "budget-or-duplicate"
			}
		default:
			d.Outcome = DecisionDuplicateURL
		}
		d.Time = now
		c.cfg.events.OnDecision(ctx, d)
	}
	return added, errors.Join(errs...)
}

// hostsWaiting asks the frontier how many hosts wait for their turn, if it
// can tell (frontier.Memory can); 0 otherwise.
func (c *Crawler) hostsWaiting() int {
	if h, ok := c.front.(interface{ HostsWaiting() int }); ok {
		return h.HostsWaiting()
	}
	return 0
}
