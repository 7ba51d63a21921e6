package trawl

import "context"

// Store receives the pages a crawl keeps. The crawler calls Put once per
// stored page, from several goroutines at once (Put must be safe for
// concurrent use), and Close once, after the last Put, when Run returns.
// A Put error is logged, reported to Events.OnError and counted in
// Stats.Errors.Store; the crawl goes on.
//
// Pages marked noindex are not stored. Implementations live in package
// store (Dir, WARC, JSONL, CSV, Memory, Func); any type with these two
// methods is one (see the Store example).
type Store interface {
	Put(ctx context.Context, p *Page) error
	Close() error
}

// Events are optional hooks called as the crawl runs; a nil func is skipped.
// They are called from worker goroutines, concurrently, outside the
// crawler's locks, and must not block for long: they hold up a worker.
type Events struct {
	// OnPage is called for every page fetched successfully, stored or not,
	// after extraction and before storing.
	OnPage func(ctx context.Context, p *Page)
	// OnError is called for every URL that failed (fetch error, HTTP error
	// status, robots.txt failure, store error) with the URL and the error,
	// and for every call of an Element method with a bad selector (with
	// the page's URL).
	OnError func(ctx context.Context, rawURL string, err error)
	// OnDecision is called for every decision about a URL: discovered
	// and queued or dropped (and why), fetched, failed, left waiting; see
	// Decision and DecisionLog, which writes them as JSON Lines. While it
	// is set, the crawler pushes discovered URLs to the frontier one at a
	// time, to learn each one's fate. JoinEvents combines hooks.
	OnDecision func(ctx context.Context, d Decision)
}
