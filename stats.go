package trawl

import (
	"maps"
	"sync"
	"sync/atomic"
	"time"
)

// Stats is a snapshot of a crawl's counters, from Crawler.Stats.
type Stats struct {
	Start   time.Time     // when Run started
	Elapsed time.Duration // time since Start (until Run returned, once it has)

	Fetched     int64 // page fetches that got an HTTP response (robots.txt not included)
	Stored      int64 // pages given to the Store without error
	Bytes       int64 // body bytes of fetched pages, after decoding
	Status2xx   int64
	Status3xx   int64
	Status4xx   int64
	Status5xx   int64
	NotModified int64 // 304 answers to conditional requests
	// StatusCodes counts page fetches by exact HTTP status (200, 301,
	// 404, ...), robots.txt not included; the StatusNxx fields are its
	// sums by class.
	StatusCodes map[int]int64

	Queued          int   // URLs waiting in the frontier now
	HostsWaiting    int   // hosts with URLs in a back queue, ready or waiting for their next contact (frontier.Memory; 0 for frontiers that cannot tell)
	Discovered      int64 // URLs offered to the frontier (seeds, links, redirects) after filters
	DuplicateURLs   int64 // of those, URLs the frontier had already seen
	Filtered        int64 // URLs rejected by a Filter, by the depth limit or as non-http(s)
	RobotsDenied    int64 // URLs not fetched because robots.txt disallows them
	RobotsFetches   int64 // robots.txt requests made
	NoIndex         int64 // pages not stored because of noindex
	NoFollow        int64 // pages whose links were not followed because of nofollow
	ExactDuplicates int64 // pages whose main text duplicates an earlier page's exactly
	NearDuplicates  int64 // pages whose main text nearly duplicates an earlier page's
	Retries         int64 // fetches retried after a transient failure
	Redirects       int64 // redirect responses followed (their targets queued)
	TrapURLs        int64 // URLs dropped by a TrapLimits rule (also counted in Filtered)
	RepeatPages     int64 // pages whose title and text repeat an earlier page of their host; their links were not followed
	PrivateRefused  int64 // URLs not fetched because their host is on a private or loopback address (also in ErrorKinds["private"])
	Sitemaps        int64 // sitemap files read (urlset or index, XML, gzip or plain text)
	SitemapURLs     int64 // URLs listed in them (page URLs and index entries)
	Feeds           int64 // RSS and Atom feeds read
	Relevant        int64 // pages the WithPageScore function marked Page.Relevant: a focused crawl's harvest (harvest rate = Relevant / Fetched)
	Aborted         int64 // URLs the WithOnRequest hook dropped without a fetch
	Items           int64 // items given to the ItemSink without error (Emit)
	ItemErrors      int64 // failed ItemSink.PutItem calls

	Errors      int64            // URLs given up on (after retries)
	ErrorKinds  map[string]int64 // errors by kind: "timeout", "connection", "status-5xx", "content-type", "bomb", ...
	StoreErrors int64            // failed Store.Put calls
	Truncated   int64            // pages cut at the body size limit

	MaxDepth int   // deepest page fetched
	MinSize  int64 // smallest stored body in bytes (0 before the first)
	MaxSize  int64 // largest stored body in bytes
	AvgSize  int64 // mean stored body size in bytes

	PagesPerSecond float64 // Fetched / Elapsed

	// A continuous crawl (WithRecrawl); all zero otherwise.
	Revisits  int64   // fetches of pages visited before that got an answer (NotModified counts the 304s)
	Changes   int64   // revisits that found the page's text changed
	Scheduled int     // pages in the revisit schedule now
	Freshness float64 // expected mean freshness of the scheduled copies under the current plan, from the estimated change rates
	// With recrawl.Policy.HeadProbe: HEAD probes sent (not counted in
	// Fetched; their statuses are counted), and those that found the page
	// unchanged and so saved its GET.
	HeadProbes, HeadSaved int64
}

// stats holds the live counters; all fields are updated atomically or
// under mu, so Crawler.Stats can be read at any time.
type stats struct {
	start                               time.Time    // under mu: Stats may be read while Run starts
	end                                 atomic.Int64 // unix nanos when Run returned; 0 while running
	fetched, stored, bytes              atomic.Int64
	s2xx, s3xx, s4xx, s5xx, notModified atomic.Int64
	discovered, dupURLs, filtered       atomic.Int64
	robotsDenied, robotsFetches         atomic.Int64
	noIndex, noFollow, retries, redirs  atomic.Int64
	exactDups, nearDups                 atomic.Int64
	trapURLs, repeatPages, private      atomic.Int64
	sitemaps, sitemapURLs, feeds        atomic.Int64
	errors, storeErrors, truncated      atomic.Int64
	maxDepth                            atomic.Int64
	relevant                            atomic.Int64
	aborted, items, itemErrors          atomic.Int64
	codes                               [600]atomic.Int64 // by exact status; others in otherCodes

	mu         sync.Mutex
	otherCodes map[int]int64 // statuses outside 0..599
	errorKinds map[string]int64
	minSize    int64
	maxSize    int64
	sumSize    int64
}

func (s *stats) status(code int) {
	if code >= 0 && code < len(s.codes) {
		s.codes[code].Add(1)
	} else {
		s.mu.Lock()
		if s.otherCodes == nil {
			s.otherCodes = make(map[int]int64)
		}
		s.otherCodes[code]++
		s.mu.Unlock()
	}
	switch {
	case code == 304:
		s.notModified.Add(1)
		s.s3xx.Add(1)
	case code >= 500:
		s.s5xx.Add(1)
	case code >= 400:
		s.s4xx.Add(1)
	case code >= 300:
		s.s3xx.Add(1)
	case code >= 200:
		s.s2xx.Add(1)
	}
}

func (s *stats) errorKind(kind string) {
	s.errors.Add(1)
	s.mu.Lock()
	if s.errorKinds == nil {
		s.errorKinds = make(map[string]int64)
	}
	s.errorKinds[kind]++
	s.mu.Unlock()
}

func (s *stats) storedSize(n int64) {
	s.stored.Add(1)
	s.mu.Lock()
	if s.minSize == 0 || n < s.minSize {
		s.minSize = n
	}
	if n > s.maxSize {
		s.maxSize = n
	}
	s.sumSize += n
	s.mu.Unlock()
}

func (s *stats) depth(d int) {
	for {
		cur := s.maxDepth.Load()
		if int64(d) <= cur || s.maxDepth.CompareAndSwap(cur, int64(d)) {
			return
		}
	}
}

// setStart records when Run started; Stats may be read meanwhile.
func (s *stats) setStart(t time.Time) {
	s.mu.Lock()
	s.start = t
	s.mu.Unlock()
}

func (s *stats) snapshot(queued int) Stats {
	s.mu.Lock()
	start := s.start
	s.mu.Unlock()
	st := Stats{
		Start:           start,
		Fetched:         s.fetched.Load(),
		Stored:          s.stored.Load(),
		Bytes:           s.bytes.Load(),
		Status2xx:       s.s2xx.Load(),
		Status3xx:       s.s3xx.Load(),
		Status4xx:       s.s4xx.Load(),
		Status5xx:       s.s5xx.Load(),
		NotModified:     s.notModified.Load(),
		Queued:          queued,
		Discovered:      s.discovered.Load(),
		DuplicateURLs:   s.dupURLs.Load(),
		Filtered:        s.filtered.Load(),
		RobotsDenied:    s.robotsDenied.Load(),
		RobotsFetches:   s.robotsFetches.Load(),
		NoIndex:         s.noIndex.Load(),
		NoFollow:        s.noFollow.Load(),
		ExactDuplicates: s.exactDups.Load(),
		NearDuplicates:  s.nearDups.Load(),
		Retries:         s.retries.Load(),
		Redirects:       s.redirs.Load(),
		TrapURLs:        s.trapURLs.Load(),
		RepeatPages:     s.repeatPages.Load(),
		PrivateRefused:  s.private.Load(),
		Sitemaps:        s.sitemaps.Load(),
		SitemapURLs:     s.sitemapURLs.Load(),
		Feeds:           s.feeds.Load(),
		Relevant:        s.relevant.Load(),
		Errors:          s.errors.Load(),
		StoreErrors:     s.storeErrors.Load(),
		Truncated:       s.truncated.Load(),
		MaxDepth:        int(s.maxDepth.Load()),
		Aborted:         s.aborted.Load(),
		Items:           s.items.Load(),
		ItemErrors:      s.itemErrors.Load(),
		StatusCodes:     map[int]int64{},
	}
	for code := range s.codes {
		if n := s.codes[code].Load(); n > 0 {
			st.StatusCodes[code] = n
		}
	}
	if !start.IsZero() {
		end := time.Now()
		if e := s.end.Load(); e != 0 {
			end = time.Unix(0, e)
		}
		st.Elapsed = end.Sub(start)
		if secs := st.Elapsed.Seconds(); secs > 0 {
			st.PagesPerSecond = float64(st.Fetched) / secs
		}
	}
	s.mu.Lock()
	st.ErrorKinds = maps.Clone(s.errorKinds)
	maps.Copy(st.StatusCodes, s.otherCodes)
	st.MinSize, st.MaxSize = s.minSize, s.maxSize
	if st.Stored > 0 {
		st.AvgSize = s.sumSize / st.Stored
	}
	s.mu.Unlock()
	if st.ErrorKinds == nil {
		st.ErrorKinds = map[string]int64{}
	}
	return st
}
