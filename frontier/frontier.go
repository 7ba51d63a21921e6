package frontier

import (
	"context"
	"errors"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/trawl-dev/trawl/politeness"
)

// ErrEmpty is returned by Next when nothing is queued and nothing is leased:
// the crawl is over.
var ErrEmpty = errors.New("frontier: empty")

// ErrNotLeased is returned by Done for a request that is not leased: never
// handed out by Next, or already done.
var ErrNotLeased = errors.New("frontier: request not leased")

// ErrDataTooLarge is wrapped by the error Push returns for a request whose
// Data is longer than MaxData (the request is not queued), and by the
// error Done returns for an Outcome.Data longer than MaxData.
var ErrDataTooLarge = errors.New("frontier: request data too large")

// MaxData is the most bytes of Request.Data (and Outcome.Data) a frontier
// keeps with a URL. Data is what a crawler carries with a URL: its
// metadata and discovery hints (a sitemap's lastmod, changefreq and
// priority, a pending probe), small by nature. The bound keeps a queued
// URL's cost predictable in every frontier: in memory, in a spill file, in
// a bbolt value and in a Redis stream entry. 4 KiB is far above what a
// crawler's hints take and as much as a URL with an anchor text takes in
// the worst case; a crawler with more to say about a URL should keep it
// elsewhere and carry a key.
const MaxData = 4096

// Request is one URL waiting in, or handed out by, a frontier.
type Request struct {
	URL      string  // absolute normalized URL (the frontier does not normalize)
	Host     string  // politeness key; if empty, Push derives it with urlnorm.Key
	Depth    int     // seeds have depth 1; a link on a depth-d page has depth d+1
	Priority float64 // higher is fetched sooner (see Strategy and MemoryOptions.FrontQueues)
	Referrer string  // URL of the page the link was found on, if any
	Anchor   string  // anchor text of the link, if any (Memory gives NUL bytes back as U+FFFD)
	Retries  int     // how many times this request came back with Outcome.Retry
	// Redirects counts the redirects that led to this URL: a crawler queues
	// a redirect's target as a new request with Redirects one more than the
	// redirecting request's, and gives up past its limit.
	Redirects int
	// State is what a continuous crawl keeps about the URL between visits
	// (package recrawl's encoded History: validators, visit history),
	// opaque to the frontier. It is set on requests handed out again after
	// Outcome.Revisit, and empty on a URL's first visit; so a non-empty
	// State marks a revisit. Push ignores it.
	State []byte
	// Data is what the crawler carries with the URL (its metadata and
	// discovery hints), opaque to the frontier, at most MaxData bytes. Push
	// keeps a copy with the URL (a request with more is not queued: Push
	// reports ErrDataTooLarge); Next hands it back (nil when empty), so it
	// survives a persistent frontier's restart and crosses a cluster to the
	// agent that fetches the URL. It is kept across Outcome.Retry,
	// Outcome.Requeue and Outcome.Revisit, unless Outcome.Data replaces it.
	// A request without Data costs the frontier nothing for it.
	Data []byte

	fp uint64 // fingerprint, set by Next
}

// Outcome tells Done how the fetch of a leased request went.
type Outcome struct {
	Status     int           // HTTP status; 0 when no response
	Duration   time.Duration // how long the fetch took
	Err        error         // transport error, if any (timeouts count for back-off)
	RetryAfter time.Duration // from a Retry-After header, 0 if none
	CrawlDelay time.Duration // robots.txt Crawl-delay for this host, 0 if none
	// Retry puts the request back at the head of its host's queue instead
	// of finishing it, with Retries incremented (used after a robots.txt
	// fetch, which counts as a contact, and for transient errors). It is
	// handed out again no earlier than the host's next contact time.
	Retry bool
	// Requeue puts the request back like Retry but leaves Retries alone:
	// for a request that was not tried yet, such as one that waited for its
	// host's robots.txt fetch, or one held back when a crawl stops.
	Requeue bool
	// NoContact says the host was not contacted at all (a URL robots.txt
	// disallows, a crawl stopping): the host is released without a new
	// delay, so its next contact time stays what it was. Status, Duration,
	// Err and RetryAfter are ignored.
	NoContact bool
	// Revisit, when not zero, keeps the URL in the frontier after this
	// fetch: it is handed out again, with State as Request.State, no
	// earlier than Revisit (and no earlier than its host's politeness
	// allows), bypassing duplicate elimination. Retry and Requeue take
	// precedence. A continuous crawl sets it on every fetch of a page it
	// keeps; a URL done without it leaves the frontier for good. Frontiers
	// that keep revisits (Memory, disk.Frontier, cluster.Frontier)
	// implement Revisiter.
	Revisit time.Time
	// State is stored with the revisit; see Request.State. The frontier
	// copies it.
	State []byte
	// Data, when not nil, replaces the request's Data (Request.Data) for its
	// next hand-out, after Retry, Requeue or Revisit; an empty non-nil Data
	// clears it. The frontier copies it. Nil keeps the request's Data. With
	// more than MaxData bytes, Done does everything else the outcome says,
	// keeps the request's Data, and returns an error wrapping
	// ErrDataTooLarge.
	Data []byte
}

// NextData returns the Data a request done with out carries to its next
// hand-out: out.Data when it is not nil and at most MaxData bytes, else
// data (the request's own). tooLarge reports an out.Data over MaxData,
// which Done must report with ErrDataTooLarge. Frontier implementations
// call it from Done.
func (out Outcome) NextData(data []byte) (next []byte, tooLarge bool) {
	switch {
	case out.Data == nil:
		return data, false
	case len(out.Data) > MaxData:
		return data, true
	}
	return out.Data, false
}

// Release ends host's contact in s as out describes: with out.NoContact
// the grant is cancelled (the host keeps its next contact time), otherwise
// the contact is done with out's status, duration, error, Retry-After and
// Crawl-delay, which set the host's next contact time. Frontier
// implementations built on politeness.Schedule call it from Done.
func (out Outcome) Release(s *politeness.Schedule, host string, now time.Time) error {
	if out.NoContact {
		return s.Cancel(host, now)
	}
	_, err := s.Done(host, now, politeness.Outcome{
		Status:     out.Status,
		Duration:   out.Duration,
		Err:        out.Err,
		RetryAfter: out.RetryAfter,
		CrawlDelay: out.CrawlDelay,
	})
	return err
}

// Frontier holds the URLs of a crawl that are still to be fetched and hands
// them out to workers one host at a time, politely.
//
// Implementations must be safe for concurrent use by any number of
// goroutines: every worker calls Next, fetches, then calls Done with the
// same Request. The contract:
//
//   - Push enqueues requests whose URL the frontier has never accepted before
//     (duplicates are dropped by URL fingerprint, see Fingerprint, for the
//     life of the frontier, including URLs already handed out) and that
//     satisfy its limits (depth, per-host budget). It reports how many it
//     added. Push does not block waiting for workers. A request whose Data
//     is longer than MaxData is not queued (nor remembered as seen): Push
//     queues the others of the batch and returns an error wrapping
//     ErrDataTooLarge that names its URL. The strings of a
//     pushed Request may share memory with larger buffers (a Crawler passes
//     anchor texts cut from one buffer per page): a frontier that keeps
//     them queued in memory should copy them rather than keep them pinned.
//   - Next blocks until a queued request's host may be contacted now and
//     returns it. The request is leased: its host counts as contacted until
//     Done. Next returns ErrEmpty when nothing is queued and nothing is
//     leased, and ctx.Err() if ctx ends first. Callers blocked in Next wake
//     on Push, on Done and when a host becomes ready.
//   - Done must be called exactly once for each request Next returned, with
//     that Request value (Host may not be changed). It releases the host and
//     schedules its next contact from the outcome. With Outcome.Retry the
//     request goes back to the head of its host's queue (Retries
//     incremented; with Outcome.Requeue not); with Outcome.NoContact the
//     host keeps its previous next-contact time. Done returns
//     ErrNotLeased for a request that is not leased.
//   - Every accepted URL is handed out exactly once, plus once per Retry or
//     Requeue.
//   - Request.Data travels with the URL: Push keeps a copy, Next hands it
//     back, and it is kept across Retry, Requeue and Revisit; a non-nil
//     Outcome.Data replaces it for the next hand-out. A persistent frontier
//     keeps it across restarts, a distributed one carries it to the process
//     that hands the URL out.
//   - Len reports the queued requests not yet handed out.
//   - Frontiers that implement Revisiter also keep a URL done with
//     Outcome.Revisit and hand it out again, with Outcome.State as its
//     Request.State, no earlier than the time given.
//
// frontiertest.Run checks an implementation against this contract.
type Frontier interface {
	Push(ctx context.Context, reqs ...Request) (added int, err error)
	Next(ctx context.Context) (Request, error)
	Done(req Request, out Outcome) error
	Len() int
}

// Fingerprint returns the stable 64-bit fingerprint of a URL that frontiers
// use for duplicate elimination: xxhash.Sum64String (XXH64, seed 0) of the
// URL string exactly as given. It is the same in every process and version,
// so it may be persisted; package dedup exposes the same function.
func Fingerprint(rawURL string) uint64 { return xxhash.Sum64String(rawURL) }
