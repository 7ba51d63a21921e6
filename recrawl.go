package trawl

import (
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/recrawl"
)

// WithRecrawl makes the crawl continuous: every page fetched stays in a
// revisit schedule, and the crawl keeps its copies fresh until ctx ends.
//
// The frontier holds each page's next visit time and its history (package
// recrawl's History, encoded in frontier.Outcome.State), so a persistent
// frontier (frontier/disk) keeps the schedule across restarts. Revisits go
// through the same loop as first visits: robots.txt (re-read when its
// cached copy expires) and the host's politeness apply, and a changed page
// is stored again and its new links are followed. Every revisit is a
// conditional GET (If-None-Match, If-Modified-Since): a 304 counts as
// unchanged and costs no parsing. Otherwise change is judged on the
// page's text (exact fingerprint, then simhash within
// Policy.ChangeDistance bits; package dedup), not its bytes, so a page
// whose server ignores validators still reads as unchanged when its text
// is; an unchanged page is neither stored again nor followed. A page that
// answers 404 or 410 (or another 4xx) leaves the schedule; one that fails
// otherwise (5xx, network errors, after the retries) is tried again at
// its planned interval; one that robots.txt now disallows is not fetched,
// leaves the plan, and is looked at again after Policy.MaxInterval
// (robots.txt may only have been unavailable).
//
// Revisit intervals come from policy (recrawl.Planner): change rates
// estimated from each page's history, allocated to maximise mean freshness
// under each host's budget, which is policy.Rate or, by default, what the
// politeness delay allows (one fetch per Politeness.Delay, or per robots.txt
// Crawl-delay when longer; the plan uses 90 % of it and leaves the rest to
// new pages). By default no page is revisited more often than once per
// such slot, so the revisits can spend the whole budget; a
// Policy.MinInterval that is set is a hard floor and may leave some idle.
//
// Run then ends when ctx ends (use context.WithTimeout for a duration),
// when the frontier fails, or when no page is left to revisit — not when
// the queue of new URLs is empty. Limits.MaxPages caps the pages taken into
// the schedule: new URLs past it are skipped, revisits go on. Duplicate
// detection (WithDuplicateDetection) and the trap guard's repeat rule judge
// a page on its first visit only. Stats.Recrawl gains Revisits, Changes, Scheduled,
// Freshness, and the revisit budget: Budget, Planned, Used, and per host
// Hosts.
//
// With Policy.HeadProbe, a revisit of a page whose copy has an ETag or
// Last-Modified starts with a conditional HEAD: one that
// shows the page unchanged ends the visit as a 304 would; otherwise the
// URL is requeued with its history and fetched with GET on the host's
// next turn. Stats.Recrawl.HeadProbes and HeadSaved count them.
//
// The frontier must keep revisits (implement frontier.Revisiter, as
// frontier.Memory, disk.Frontier and package cluster's frontier do, the
// last in Redis, so that a cluster's agents crawl continuously together
// and a dead agent's schedule passes to the living); New fails
// otherwise. Default:
// off, a one-shot crawl.
func WithRecrawl(policy recrawl.Policy) Option {
	return func(c *config) { c.recrawl = &policy }
}

// recrawler is the Crawler's side of a continuous crawl. A nil *recrawler
// (a one-shot crawl) does nothing.
type recrawler struct {
	planner  *recrawl.Planner
	policy   recrawl.Policy
	delay    time.Duration // the configured politeness delay
	revisits atomic.Int64  // revisits fetched (an answer, 304 included)
	changes  atomic.Int64  // revisits that found the page changed
}

func newRecrawler(cfg *config) *recrawler {
	if cfg.recrawl == nil {
		return nil
	}
	return &recrawler{planner: recrawl.NewPlanner(*cfg.recrawl), policy: *cfg.recrawl, delay: max(cfg.polite.Delay, 0)}
}

// checkFrontier reports an error when f cannot keep revisits.
func (r *recrawler) checkFrontier(f frontier.Frontier) error {
	if r == nil {
		return nil
	}
	if _, ok := f.(frontier.Revisiter); !ok {
		return errors.New("trawl: WithRecrawl needs a frontier that keeps revisits (frontier.Revisiter), such as frontier.Memory, disk.Frontier or package cluster's")
	}
	return nil
}

// begin returns the history of req's page: decoded from req.State on a
// revisit, empty on a first visit; nil without recrawl.
func (r *recrawler) begin(c *Crawler, req frontier.Request) *recrawl.History {
	if r == nil {
		return nil
	}
	h := new(recrawl.History)
	if len(req.State) > 0 {
		if err := h.UnmarshalBinary(req.State); err != nil {
			c.log.Warn("recrawl: unreadable page history; starting it again", "url", req.URL, "err", err)
			*h = recrawl.History{}
		}
	}
	return h
}

// revisit reports whether h is the history of a page visited before.
func revisit(h *recrawl.History) bool { return h != nil && h.Visits > 0 }

// maxETag bounds the ETag a page's history keeps: RFC 9110 sets no limit,
// and a server could send ETags of a megabyte to grow the schedule's memory
// and every revisit's If-None-Match. Real ETags are hashes or version
// stamps of a few dozen bytes. A longer one is dropped: the revisit is then
// conditional on Last-Modified alone, or on nothing.
const maxETag = 256

// keptETag returns etag if it is within maxETag, "" otherwise.
func keptETag(etag string) string {
	if len(etag) > maxETag {
		return ""
	}
	return etag
}

// validators makes freq conditional on h's copy.
func validators(h *recrawl.History, freq *fetch.Request) {
	if revisit(h) {
		freq.ETag, freq.LastModified = h.ETag, h.LastModified
	}
}

// budget tells the planner host's fetch budget from the politeness delay.
func (r *recrawler) budget(host string, crawlDelay time.Duration) {
	d := max(r.delay, crawlDelay, time.Millisecond)
	r.planner.SetRate(host, 1/d.Seconds())
}

// visited records the visit's answer (200, 304, or a redirect) in its
// history and schedules the next visit in out. v.page is nil for a 304 or
// a redirect, which count as unchanged. It reports whether the page
// changed.
func (r *recrawler) visited(vis *visit, out *frontier.Outcome) bool {
	if r == nil {
		return false
	}
	req, h, resp, page, crawlDelay := &vis.req, vis.hist, vis.resp, vis.page, vis.crawlDelay
	was := revisit(h)
	v := recrawl.Visit{At: time.Now(), NotModified: resp.NotModified || page == nil}
	if page != nil {
		text := page.MainText
		if strings.TrimSpace(text) == "" {
			text = page.Text
		}
		if strings.TrimSpace(text) == "" {
			text = string(page.Body) // not text: its bytes are its content
		}
		text = page.Title + "\n\n" + text
		v.Text, v.Simhash = uint64(dedup.ContentFingerprint(text)), uint64(dedup.Simhash(text))
		v.ETag, v.LastModified = keptETag(resp.ETag), resp.LastModified
		if page.Sitemap != nil {
			v.ChangeFreq, v.LastMod = page.Sitemap.ChangeFreq, page.Sitemap.LastMod
		}
	} else if !was {
		v.ETag, v.LastModified = keptETag(resp.ETag), resp.LastModified
	}
	r.budget(req.Host, crawlDelay)
	next, changed := r.planner.Visit(req.Host, req.URL, h, v)
	if was {
		r.revisits.Add(1)
		if changed {
			r.changes.Add(1)
		}
	}
	r.schedule(h, next, out)
	return changed
}

func (r *recrawler) schedule(h *recrawl.History, next time.Duration, out *frontier.Outcome) {
	state, err := h.MarshalBinary()
	if err != nil {
		return // cannot happen: the encoding does not fail
	}
	out.Revisit, out.State = time.Now().Add(next), state
}

// failed handles a fetch of req that failed for good (after retries): a
// page that is gone (404, 410, any other 4xx) leaves the schedule; a page
// visited before that fails otherwise is tried again at its planned
// interval.
func (r *recrawler) failed(v *visit, out *frontier.Outcome) {
	if r == nil || !revisit(v.hist) {
		return
	}
	req, h, resp := &v.req, v.hist, v.resp
	if resp != nil && resp.Status >= 400 && resp.Status < 500 {
		r.planner.Forget(req.Host, h)
		return
	}
	next := r.planner.Policy().MaxInterval
	if iv := lastPlanned(h); iv > 0 {
		next = iv
	}
	r.schedule(h, next, out)
}

// lastPlanned is the interval planned at h's latest visit: the mean of
// its held revisits, for lack of the plan itself.
func lastPlanned(h *recrawl.History) time.Duration {
	obs := h.Observations()
	if len(obs) == 0 {
		return 0
	}
	var s time.Duration
	for _, o := range obs {
		s += o.Interval
	}
	return s / time.Duration(len(obs))
}

// disallowed handles a revisit that robots.txt now disallows: the page is
// not fetched and leaves the plan, but the frontier keeps it, to be looked
// at again after Policy.MaxInterval (robots.txt may have been unavailable
// for a while, which RFC 9309 reads as disallowing everything).
func (r *recrawler) disallowed(v *visit, out *frontier.Outcome) {
	if r == nil || !revisit(v.hist) {
		return
	}
	v.setGetNext(false) // probed, and now not to be fetched
	h := v.hist
	r.planner.Forget(v.req.Host, h)
	r.schedule(h, r.planner.Policy().MaxInterval, out)
}

// fill adds the continuous crawl's figures to st.
func (r *recrawler) fill(st *Stats) {
	if r == nil {
		return
	}
	st.Recrawl.Revisits = r.revisits.Load()
	st.Recrawl.Changes = r.changes.Load()
	st.Recrawl.Scheduled = int64(r.planner.Pages())
	st.Recrawl.Freshness = r.planner.Freshness()
	st.Recrawl.Hosts = r.planner.Hosts()
	for _, h := range st.Recrawl.Hosts {
		st.Recrawl.Budget += h.Budget
		st.Recrawl.Planned += h.Planned
		st.Recrawl.Used += h.Used
	}
}
