// Package politeness decides when a crawler may contact each host again.
//
// It keeps a heap of host groups keyed by their earliest next-contact time,
// as in Mercator (in two levels, by IP address and by host, when asked: see
// "Politeness per IP address"): a worker takes the host whose time has
// passed, fetches, and reports how the fetch went; a delay policy turns that
// outcome into the host's next-contact time.
//
// # Quick start
//
//	s := politeness.NewScheduler(nil) // 1s minimum, adaptive ×10, back-off, 1 connection per host
//	s.Add("example.com")              // the host has work
//	host, err := s.Acquire(ctx)       // blocks until some host may be contacted
//	// ... fetch from host ...
//	err = s.Release(host, politeness.Outcome{Status: resp.StatusCode, Duration: took})
//
// # Two layers
//
// Schedule is the core. It takes the time as a parameter (Next(now),
// Done(host, now, outcome)) like golang.org/x/time/rate's AllowN, so every
// timing rule is a step table in the tests, with no clock and no sleeping.
// It is not safe for concurrent use: the frontier package embeds one under
// its own lock.
//
// Scheduler wraps a Schedule with a mutex and a Clock: Acquire(ctx) blocks
// until a host is ready (or ctx ends) and Release(host, outcome) ends the
// contact. Inject a Clock through Config.Clock, or run tests inside a
// testing/synctest bubble, where the system clock is fake.
//
// # Rules
//
// The delay after a contact is given by a Policy. The default is
//
//	Max(Fixed(MinDelay), CrawlDelay(), Adaptive(Factor, MinDelay, MaxDelay), Backoff(BackoffBase, BackoffMax))
//
// that is: at least the configured minimum (default 1s); at least the
// robots.txt Crawl-delay; Mercator's adaptive rule, Factor (default 10)
// times the duration of the last fetch clamped to [MinDelay, MaxDelay]; and
// after consecutive 429, 503 or timeout outcomes, exponential back-off with
// jitter, honouring Retry-After (seconds or HTTP-date, see ParseRetryAfter),
// capped at BackoffMax. Policies compose with Max; set Config.Policy to
// replace the default.
//
// # Crawl-delay
//
// Crawl-delay is not part of the Robots Exclusion Protocol (RFC 9309
// leaves it out); crawlers that honour it cap it, and so does this one:
// Config.MaxCrawlDelay, 5 minutes by default (DefaultMaxCrawlDelay). The
// choice: sites that want fewer requests ask for seconds or tens of
// seconds, and every such value is honoured exactly; a delay of an hour
// or a day says "do not crawl me", which Disallow says properly (and
// trawl obeys), or is a mistake, and honouring it would take a day per
// page. At 5 minutes such a host still sees at most 288 requests a day,
// fewer than a site that asks for nothing sees in five minutes at the
// default 1s delay. It is the default of Heritrix
// (respectCrawlDelayUpToSeconds = 300), the archival crawler most site
// operators have met, so a site's experience carries over; Nutch instead
// skips hosts above its cap of 30s, which loses their pages. A negative
// MaxCrawlDelay lifts the cap (the robots package still bounds what it
// parses at 24h); back-off and Retry-After have their own cap, BackoffMax.
//
// # Hosts that rest long
//
// No host rests longer than MaxDelay (default 60s) in the ordinary
// course: the minimum and the adaptive delay stay within it. A longer
// rest comes from a Crawl-delay, back-off or Retry-After, and
// Schedule.RestsLong tells it. A frontier that lets only a bounded number
// of hosts compete for workers (Mercator's back queues, package frontier)
// takes such a host out of that number until it is due, so any number of
// hosts that rest long cannot keep the others waiting.
//
// The delay runs from the end of one contact to the start of the next. At
// most HostConcurrency contacts (default 1) are in flight per group; with a
// limit above one, contacts also start at least the last delay apart. A
// group is one host unless Config.GroupKey maps several hosts (for example
// those that resolve to one IP address) to one key, so they share one
// next-contact time and one concurrency limit. A golang.org/x/time/rate
// limiter (Config.Rate) caps contacts per second across all hosts.
//
// Hosts enter the heap with Add and leave it with Remove; their timing is
// kept after Remove, so a host that gets new work later still waits out its
// delay. Schedule.Prune forgets idle hosts whose timing no longer matters.
//
// # Concurrency
//
// Scheduler is safe for concurrent use. Schedule is not; guard it with a
// lock. Policies are called with the lock held and must not block; they get
// their randomness (Contact.Jitter) from the scheduler's seeded source, so a
// Policy needs no state of its own. Config.GroupKey is called with the lock
// held, once per host; Config.IPKey with the lock held, when a host is
// added and released.
package politeness
