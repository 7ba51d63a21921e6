package trawl

import (
	"maps"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/recrawl"
)

// Stats is a snapshot of a crawl's counters, from Crawler.Stats. Each event
// is counted in one place: a URL dropped by a trap rule is in URLs.Traps
// and not in URLs.Filtered; sums (all errors, the 4xx answers) are methods.
type Stats struct {
	Start   time.Time     // when Run started
	Elapsed time.Duration // time since Start (until Run returned, once it has)

	Fetch   FetchStats   // page fetches and their answers
	URLs    URLStats     // URLs discovered, queued and dropped
	Pages   PageStats    // what became of the pages fetched
	Robots  RobotsStats  // robots.txt
	Found   FoundStats   // sitemaps and feeds read
	Errors  ErrorStats   // failures
	Items   ItemStats    // items emitted by WithHTML callbacks (Emit)
	Pace    PaceStats    // what held each host to its rate
	Recrawl RecrawlStats // a continuous crawl (WithRecrawl); zero otherwise
}

// FetchStats counts page fetches (robots.txt and HEAD probes not included).
type FetchStats struct {
	Pages     int64 // fetches that got an HTTP response
	Bytes     int64 // body bytes of fetched pages, after decoding
	Truncated int64 // bodies cut at the size limit
	Retries   int64 // fetches retried after a transient failure
	Redirects int64 // redirect responses followed (their targets queued)
	Deepest   int64 // depth of the deepest page fetched (seeds have 1)
	// Codes counts fetches by exact HTTP status (200, 301, 304, 404, ...).
	Codes map[int]int64
}

// Class returns the fetches whose status is in class n (2 for 2xx, 3 for
// 3xx, and so on).
func (f FetchStats) Class(n int) int64 {
	var sum int64
	for code, k := range f.Codes {
		if code/100 == n {
			sum += k
		}
	}
	return sum
}

// NotModified returns the 304 answers to conditional requests.
func (f FetchStats) NotModified() int64 { return f.Codes[304] }

// PerSecond returns Pages per second of elapsed.
func (f FetchStats) PerSecond(elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return float64(f.Pages) / elapsed.Seconds()
}

// URLStats counts what became of the URLs the crawl discovered.
type URLStats struct {
	Queued       int64 // URLs waiting in the frontier now
	HostsWaiting int64 // hosts with URLs waiting (a frontier.HostCounter tells; 0 otherwise)
	Discovered   int64 // URLs offered to the frontier (seeds, links, redirects) after filters and trap rules
	Duplicate    int64 // of those, URLs the frontier had seen before
	Filtered     int64 // URLs a Filter rejected, or beyond Limits.MaxDepth
	Traps        int64 // URLs a TrapLimits rule dropped
	Aborted      int64 // URLs the WithOnRequest hook dropped without a fetch
}

// PageStats counts what became of the pages fetched.
type PageStats struct {
	Stored          int64 // pages given to the Store without error
	NoIndex         int64 // pages not stored because of noindex
	NoFollow        int64 // pages whose links were not followed because of nofollow
	ExactDuplicates int64 // pages whose main text duplicates an earlier page's exactly
	NearDuplicates  int64 // pages whose main text nearly duplicates an earlier page's
	Repeats         int64 // pages whose title and text repeat an earlier page of their host (TrapLimits.Duplicates)
	Relevant        int64 // pages Priority.Page marked Relevant: a focused crawl's harvest (harvest rate = Relevant / Fetch.Pages)
	MinSize         int64 // smallest stored body in bytes (0 before the first)
	MaxSize         int64 // largest stored body in bytes
	SumSize         int64 // bytes of all stored bodies (see AvgSize)
}

// AvgSize returns the mean stored body size in bytes.
func (p PageStats) AvgSize() int64 {
	if p.Stored == 0 {
		return 0
	}
	return p.SumSize / p.Stored
}

// RobotsStats counts robots.txt requests and what they disallowed.
type RobotsStats struct {
	Fetches int64 // robots.txt requests made
	Denied  int64 // URLs not fetched because robots.txt disallows them
}

// FoundStats counts the URL lists a crawl read.
type FoundStats struct {
	Sitemaps    int64 // sitemap files read (urlset or index, XML, gzip or plain text)
	SitemapURLs int64 // URLs listed in them (page URLs and index entries)
	Feeds       int64 // RSS and Atom feeds read
}

// ErrorStats counts failures.
type ErrorStats struct {
	// Kinds counts URLs given up on (after retries) by kind: "timeout",
	// "connection", "status-5xx", "content-type", "bomb", "private",
	// "robots", ...; and "selector", calls of Element methods with a bad
	// selector. A 404 or 410 for the /sitemap.xml the crawl tries when a
	// robots.txt names no sitemap is not an error (the site has none).
	Kinds map[string]int64
	Store int64 // failed Store.Put calls
}

// Total returns the URLs given up on, over all kinds.
func (e ErrorStats) Total() int64 {
	var sum int64
	for _, n := range e.Kinds {
		sum += n
	}
	return sum
}

// PaceStats says what held the hosts to their rate: after each request
// (robots.txt included) a host rests before its next one for the longest
// of the politeness rules, and each counter counts the requests after which
// that rule was the longest. A crawl whose requests all count under Delay
// ran at the rate Politeness set (at most 1/Delay, or PerSecond, requests a
// second a host); the others say which hosts' answers slowed it.
type PaceStats struct {
	Delay      int64 // the delay set (Politeness.Delay or PerSecond; 1 s by default)
	CrawlDelay int64 // the host's robots.txt Crawl-delay (up to Politeness.MaxCrawlDelay)
	Adaptive   int64 // the adaptive delay: Politeness.Adaptive × the response time
	Backoff    int64 // back-off after a 429, a 503, a timeout or a Retry-After
	// Longest is the longest rest any host was given.
	Longest time.Duration
}

// ItemStats counts items emitted by WithHTML callbacks.
type ItemStats struct {
	Emitted int64 // items given to the ItemSink without error
	Errors  int64 // failed ItemSink.PutItem calls
}

// RecrawlStats describes a continuous crawl (WithRecrawl).
type RecrawlStats struct {
	Revisits  int64   // fetches of pages visited before that got an answer (Fetch.NotModified counts the 304s)
	Changes   int64   // revisits that found the page's text changed
	Scheduled int64   // pages in the revisit schedule now
	Freshness float64 // expected mean freshness of the scheduled copies under the current plan
	// HeadProbes counts the HEAD probes sent (recrawl.Policy.HeadProbe; not
	// in Fetch.Pages), HeadSaved those that found the page unchanged and so
	// saved its GET.
	HeadProbes, HeadSaved int64
	// Budget is the revisit share of the hosts' politeness budgets, in
	// fetches per second summed over the hosts with scheduled pages;
	// Planned what their plans ask of it; Used the rate of the revisits
	// made lately. Hosts has the three per host (recrawl.Planner.Hosts),
	// ordered by name.
	Budget, Planned, Used float64
	Hosts                 []recrawl.HostBudget
}

// stats holds the live counters: the int64 fields of live are updated
// with atomic adds (see add), the maps and sizes under mu, so
// Crawler.Stats can be read at any time. Stats is their only definition.
type stats struct {
	live  Stats
	start atomic.Int64 // unix nanos when Run started; 0 before
	end   atomic.Int64 // unix nanos when Run returned; 0 while running
	codes [600]atomic.Int64

	mu         sync.Mutex
	otherCodes map[int]int64 // statuses outside 0..599
	errorKinds map[string]int64
}

// add adds n to one of s.live's counters.
func add(counter *int64, n int64) { atomic.AddInt64(counter, n) }

func (s *stats) status(code int) {
	if code >= 0 && code < len(s.codes) {
		s.codes[code].Add(1)
		return
	}
	s.mu.Lock()
	if s.otherCodes == nil {
		s.otherCodes = make(map[int]int64)
	}
	s.otherCodes[code]++
	s.mu.Unlock()
}

func (s *stats) errorKind(kind string) {
	s.mu.Lock()
	if s.errorKinds == nil {
		s.errorKinds = make(map[string]int64)
	}
	s.errorKinds[kind]++
	s.mu.Unlock()
}

func (s *stats) stored(n int64) {
	p := &s.live.Pages
	add(&p.Stored, 1)
	add(&p.SumSize, n)
	raise(&p.MaxSize, n)
	for {
		cur := atomic.LoadInt64(&p.MinSize)
		if (cur != 0 && cur <= n) || atomic.CompareAndSwapInt64(&p.MinSize, cur, n) {
			return
		}
	}
}

// raise sets *counter to n if n is larger.
func raise(counter *int64, n int64) {
	for {
		cur := atomic.LoadInt64(counter)
		if n <= cur || atomic.CompareAndSwapInt64(counter, cur, n) {
			return
		}
	}
}

func (s *stats) snapshot() Stats {
	var st Stats
	loadInt64s(reflect.ValueOf(&st).Elem(), reflect.ValueOf(&s.live).Elem())
	st.Fetch.Codes = map[int]int64{}
	for code := range s.codes {
		if n := s.codes[code].Load(); n > 0 {
			st.Fetch.Codes[code] = n
		}
	}
	if start := s.start.Load(); start != 0 {
		st.Start = time.Unix(0, start)
		end := time.Now()
		if e := s.end.Load(); e != 0 {
			end = time.Unix(0, e)
		}
		st.Elapsed = end.Sub(st.Start)
	}
	st.Pace.Longest = time.Duration(atomic.LoadInt64((*int64)(&s.live.Pace.Longest)))
	s.mu.Lock()
	st.Errors.Kinds = maps.Clone(s.errorKinds)
	maps.Copy(st.Fetch.Codes, s.otherCodes)
	s.mu.Unlock()
	if st.Errors.Kinds == nil {
		st.Errors.Kinds = map[string]int64{}
	}
	return st
}

// loadInt64s copies every int64 field of src, in nested structs too, into
// dst with an atomic load: the counters are written with atomic adds while
// the crawl runs.
func loadInt64s(dst, src reflect.Value) {
	for i := range src.NumField() {
		f := src.Field(i)
		switch f.Kind() {
		case reflect.Struct:
			if f.CanAddr() && f.Type() != reflect.TypeFor[time.Time]() {
				loadInt64s(dst.Field(i), f)
			}
		case reflect.Int64:
			if f.Type() != reflect.TypeFor[int64]() {
				continue // a time.Duration, set by snapshot
			}
			dst.Field(i).SetInt(atomic.LoadInt64(f.Addr().Interface().(*int64)))
		}
	}
}
