package trawl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/internal/jsonenc"
)

// Outcome says what became of a URL at one step of the crawl
// (Decision.Outcome). A URL may get several decisions over a crawl, one per
// step: DecisionQueued when it is discovered and accepted, then
// DecisionFetched, then perhaps DecisionDuplicateContent; a URL found again
// later gets DecisionDuplicateURL. The last decision about a URL says what
// finally became of it; a URL whose last decision is DecisionQueued or
// DecisionWait was still waiting in the frontier when the crawl ended.
type Outcome uint8

// The outcomes, with the reasons each may carry.
const (
	_ Outcome = iota
	// DecisionQueued: accepted by the frontier, to be fetched when its
	// host's turn comes.
	DecisionQueued
	// DecisionDuplicateURL: the frontier had already accepted this URL
	// (normalized), so it is not queued again.
	DecisionDuplicateURL
	// DecisionFiltered: a Filter rejected the URL; Decision.Filter names
	// it (its String method, as NamedFilter gives, else its position and
	// type).
	DecisionFiltered
	// DecisionTrap: a TrapLimits rule dropped the URL; Reason names it:
	// ReasonMaxURLLength, ReasonMaxPathSegments, ReasonMaxSegmentRepeats or
	// ReasonTemplateStreak.
	DecisionTrap
	// DecisionDepth: the URL is beyond the hop limit (Limits.MaxDepth).
	DecisionDepth
	// DecisionBudget: the host's budget of URLs (Limits.HostBudget) is
	// spent. Reason is ReasonBudgetOrDuplicate when a frontier that is not
	// a frontier.SeenChecker cannot tell the two apart.
	DecisionBudget
	// DecisionNotFollowed: a link found on a page but not followed.
	// Reason: ReasonRelNofollow (the link's rel), ReasonKind (a kind of
	// reference WithFollow leaves out; Decision.Kind says which),
	// ReasonPageNofollow (meta robots or X-Robots-Tag),
	// ReasonDuplicateContent (TrapLimits.Duplicates) or ReasonRepeatPage.
	DecisionNotFollowed
	// DecisionRobots: robots.txt disallows the URL.
	DecisionRobots
	// DecisionLimit: Limits.MaxPages was reached before the URL's turn.
	DecisionLimit
	// DecisionWait: the URL went back to its host's queue, waiting for the
	// host's next contact time (politeness). Reason: ReasonRobotsContact
	// (fetching the host's robots.txt used the host's turn), ReasonRetry
	// (a transient error, Decision.ErrorKind, retried after the back-off),
	// ReasonHeadProbe (a revisit's HEAD found a change; the GET follows)
	// or ReasonCrawlStopped.
	DecisionWait
	// DecisionFetched: the URL was fetched; Status, Bytes and Duration say
	// how. Reason is ReasonNotModified for a 304 to a conditional request
	// (or a HEAD probe that found the page unchanged). An HTTP error
	// status is followed by a DecisionError.
	DecisionFetched
	// DecisionDuplicateContent: the page fetched duplicates an earlier
	// page's main text (WithDuplicateDetection); Reason is ReasonExact or
	// ReasonNear, Decision.Of the earlier page's URL.
	DecisionDuplicateContent
	// DecisionError: the URL failed; Decision.ErrorKind is the kind of
	// Stats.Errors.Kinds ("timeout", "status-4xx", "private", ...) or
	// "frontier" when the frontier refused the URL; Error is the message.
	DecisionError
	// DecisionAborted: the WithOnRequest hook dropped the URL
	// (Decision.Error says why).
	DecisionAborted
	// DecisionRobotsTxt: a host's robots.txt was fetched (URL is the
	// robots.txt URL). Reason: ReasonParsed (2xx), ReasonAllowAll (4xx, or
	// too many redirects), ReasonDisallowAll (5xx or unreachable, until a
	// retry succeeds); Status is the last HTTP status, 0 if none.
	DecisionRobotsTxt
	outcomeEnd
)

var outcomeNames = [outcomeEnd]string{"", "queued", "duplicate-url", "filtered", "trap", "depth", "budget", "not-followed",
	"robots", "limit", "wait", "fetched", "duplicate-content", "error", "aborted", "robots.txt"}

// String returns the outcome's name in decision logs ("queued",
// "not-followed", ...).
func (o Outcome) String() string { return enumName(outcomeNames[:], o, "outcome") }

// MarshalText returns the outcome's name.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's name ("" for none).
func (o *Outcome) UnmarshalText(b []byte) error { return parseEnum(outcomeNames[:], b, o, "outcome") }

// enumName returns the name of v in names, or kind(v) when it has none.
func enumName[T ~uint8](names []string, v T, kind string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return kind + "(" + strconv.Itoa(int(v)) + ")"
}

// parseEnum sets *v to the value named b in names.
func parseEnum[T ~uint8](names []string, b []byte, v *T, kind string) error {
	for i, name := range names {
		if name == string(b) {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("trawl: unknown decision %s %q", kind, b)
}

// Reason says why a decision was made, where its Outcome leaves a choice
// (see each Decision… constant).
type Reason uint8

// The reasons.
const (
	ReasonNone              Reason = iota
	ReasonRelNofollow              // the link's rel is nofollow, sponsored or ugc
	ReasonKind                     // WithFollow leaves the link's kind (Decision.Kind) out
	ReasonPageNofollow             // the page said nofollow (meta robots, X-Robots-Tag)
	ReasonDuplicateContent         // the page duplicates an earlier one (TrapLimits.Duplicates)
	ReasonRepeatPage               // the page repeats an earlier page of its host exactly
	ReasonRobotsContact            // the host's turn went to its robots.txt
	ReasonRetry                    // a transient error (Decision.ErrorKind), retried
	ReasonHeadProbe                // a revisit's HEAD probe found a change: the GET follows
	ReasonCrawlStopped             // the crawl stopped before the fetch ended
	ReasonNotModified              // the page is unchanged (304, or an unchanged HEAD)
	ReasonExact                    // an exact duplicate
	ReasonNear                     // a near duplicate
	ReasonParsed                   // robots.txt parsed (2xx)
	ReasonAllowAll                 // robots.txt allows all (4xx, too many redirects)
	ReasonDisallowAll              // robots.txt disallows all (5xx, unreachable)
	ReasonMaxURLLength             // TrapLimits.MaxURLLength
	ReasonMaxPathSegments          // TrapLimits.MaxPathSegments
	ReasonMaxSegmentRepeats        // TrapLimits.MaxSegmentRepeats
	ReasonTemplateStreak           // TrapLimits.TemplateStreak
	ReasonBudgetOrDuplicate        // a host budget, or a URL seen before: the frontier cannot tell
	reasonEnd
)

var reasonNames = [reasonEnd]string{"", "rel-nofollow", "kind", "page-nofollow", "duplicate-content", "repeat-page",
	"robots.txt-contact", "retry", "head-probe", "crawl-stopped", "not-modified", "exact", "near", "parsed",
	"allow-all", "disallow-all", "max-url-length", "max-path-segments", "max-segment-repeats", "template-streak",
	"budget-or-duplicate"}

// String returns the reason's name in decision logs ("rel-nofollow", ...);
// "" for ReasonNone.
func (r Reason) String() string { return enumName(reasonNames[:], r, "reason") }

// MarshalText returns the reason's name.
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a reason's name.
func (r *Reason) UnmarshalText(b []byte) error { return parseEnum(reasonNames[:], b, r, "reason") }

// Decision is one step in the life of a URL the crawl discovered: what
// became of it and why, with the facts that go with the why in fields of
// their own. Events.OnDecision receives them; DecisionLog writes them as
// JSON Lines with the field names of the json tags (encoding/json reads
// them back into a Decision).
type Decision struct {
	Time      time.Time     `json:"time"`                 // when it was decided
	URL       string        `json:"url"`                  // the URL, normalized
	Outcome   Outcome       `json:"outcome"`              // what became of it
	Reason    Reason        `json:"reason,omitzero"`      // why, per Outcome
	Depth     int           `json:"depth,omitempty"`      // the URL's depth (seeds have 1), when known
	Referrer  string        `json:"referrer,omitempty"`   // the page the URL was found on (discovery decisions)
	Filter    string        `json:"filter,omitempty"`     // the Filter that rejected it (DecisionFiltered)
	Kind      extract.Kind  `json:"kind,omitzero"`        // the link's kind (ReasonKind)
	Of        string        `json:"of,omitempty"`         // the page it duplicates (DecisionDuplicateContent)
	ErrorKind string        `json:"error_kind,omitempty"` // the kind of error (DecisionError, ReasonRetry)
	Status    int           `json:"status,omitempty"`     // HTTP status (fetched, error, robots.txt)
	Bytes     int64         `json:"bytes,omitempty"`      // body bytes (fetched)
	Duration  time.Duration `json:"duration,omitempty"`   // fetch duration in nanoseconds (fetched)
	Error     string        `json:"error,omitempty"`      // the error message (error, aborted)
	// Importance is the page's OPIC cash when fetched (Priority.OPIC; see
	// Page.Importance), on DecisionFetched.
	Importance float64 `json:"importance,omitempty"`
}

// AppendJSON appends d as one line of JSON, without the newline, exactly
// as encoding/json would marshal it, and returns the extended buffer.
func (d *Decision) AppendJSON(b []byte) []byte {
	b = append(b, `{"time":"`...)
	b = appendTime(b, d.Time)
	b = append(b, `","url":`...)
	b = appendJSONString(b, d.URL)
	b = append(b, `,"outcome":"`...)
	b = append(b, d.Outcome.String()...)
	b = append(b, '"')
	if d.Reason != ReasonNone {
		b = append(b, `,"reason":"`...)
		b = append(b, d.Reason.String()...)
		b = append(b, '"')
	}
	b = appendInt(b, `,"depth":`, int64(d.Depth))
	b = appendStr(b, `,"referrer":`, d.Referrer)
	b = appendStr(b, `,"filter":`, d.Filter)
	if d.Kind != 0 {
		b = append(b, `,"kind":"`...)
		b = append(b, d.Kind.String()...)
		b = append(b, '"')
	}
	b = appendStr(b, `,"of":`, d.Of)
	b = appendStr(b, `,"error_kind":`, d.ErrorKind)
	b = appendInt(b, `,"status":`, int64(d.Status))
	b = appendInt(b, `,"bytes":`, d.Bytes)
	b = appendInt(b, `,"duration":`, int64(d.Duration))
	b = appendStr(b, `,"error":`, d.Error)
	if d.Importance != 0 {
		b = appendJSONFloat(append(b, `,"importance":`...), d.Importance)
	}
	return append(b, '}')
}

// appendJSONFloat appends f as encoding/json writes a float64: the
// shortest decimal that reads back as f, with an exponent below 1e-6 and
// from 1e21 on, and a one-digit negative exponent without its zero.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// appendInt appends a key and n unless n is 0 (omitempty).
func appendInt(b []byte, key string, n int64) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key...), n, 10)
}

// appendStr appends a key and s unless s is empty (omitempty).
func appendStr(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendJSONString(append(b, key...), s)
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

// appendJSONString appends s as a JSON string exactly as encoding/json
// writes it (HTML-safe, U+2028 and U+2029 escaped, invalid UTF-8 replaced
// by U+FFFD).
func appendJSONString(b []byte, s string) []byte { return jsonenc.AppendString(b, s) }

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
	var decs []func(context.Context, Decision)
	for _, e := range evs {
		if e.OnPage != nil {
			pages = append(pages, e.OnPage)
		}
		if e.OnError != nil {
			errs = append(errs, e.OnError)
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

func (n namedFilter) Allow(r *Candidate) bool { return n.f.Allow(r) }
func (n namedFilter) String() string          { return n.name }

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
