package frontier

// The interfaces in this file are optional capabilities of a Frontier. A
// crawler discovers them with a type assertion, as net/http discovers
// http.Flusher on a ResponseWriter, and does without when a frontier lacks
// one. frontiertest.Run checks each one a frontier implements. A frontier
// that holds resources (a file, a store, goroutines) also implements
// io.Closer; the crawler closes only a frontier it made itself.

// Revisiter is implemented by frontiers that honour Outcome.Revisit.
// Revisits reports how many URLs wait for a revisit time (not counted in
// Len). Next does not return ErrEmpty while any do: a frontier holding
// revisits never runs dry, so a continuous crawl ends when its context
// does. A crawler that revisits pages (trawl's WithRecrawl) refuses a
// frontier without it, and reads Revisits for its statistics.
//
// Implemented by Memory, disk.Frontier and cluster.Frontier.
type Revisiter interface {
	Revisits() int
}

// SeenChecker is implemented by frontiers that can tell whether they have
// accepted a URL. Seen reports whether rawURL was accepted by Push at some
// point: queued now, handed out, done or waiting for a revisit. URLs that
// Push dropped for the depth limit, the host's budget or too much Data are
// not seen. A crawler that records the fate of each link calls it after a
// Push that added nothing, to tell a duplicate from a URL a limit dropped.
// It must be safe for concurrent use.
//
// Implemented by Memory and disk.Frontier.
type SeenChecker interface {
	Seen(rawURL string) bool
}

// Booster is implemented by frontiers that can raise the priority of a
// queued URL. Boost adds delta to the priority of rawURL if it is waiting
// in the frontier and the frontier orders by priority, and reports whether
// it did; it returns false for a URL not queued (never pushed, handed out,
// or done), and may return false for every URL under an order that has no
// priorities (Memory under BFS and DFS). A focused crawler that counts
// in-links calls it for each link it pushes, the first included, and
// trawl's Priority.OPIC for each link, with the link's share of cash. It
// must be safe for concurrent use.
//
// Implemented by Memory and disk.Frontier (under Priority).
type Booster interface {
	Boost(rawURL string, delta float64) bool
}

// Orderer is implemented by frontiers that can tell the order they hand
// URLs out in. A crawler whose order needs priorities (trawl's
// Priority.OPIC and Priority.Inlink raise queued URLs with Booster, which
// does nothing under BFS and DFS) calls it to refuse a frontier that would
// quietly crawl breadth-first instead. It must be safe for concurrent use.
//
// Implemented by Memory and disk.Frontier.
type Orderer interface {
	Order() Strategy
}

// HostCounter is implemented by frontiers that can tell how many hosts are
// ready for workers. HostsWaiting returns the number of hosts (or host
// groups) that hold queued requests in a back queue, ready now or at their
// next contact time; hosts whose URLs are all still in the front queues
// need not be counted. A crawler reads it for its statistics (a crawl with
// fewer waiting hosts than workers is limited by politeness). It must be
// safe for concurrent use.
//
// Implemented by Memory.
type HostCounter interface {
	HostsWaiting() int
}

// Flusher is implemented by persistent frontiers. Flush makes every change
// so far durable (for disk.Frontier, an fsync of its log), so that a crawl
// stopped after it resumes with no URL lost and none handed out twice
// beyond those in flight. A crawler calls it when its Run returns, also on
// a frontier it was given and does not close. Flush after Close returns
// nil. It must be safe for concurrent use.
//
// Implemented by disk.Frontier.
type Flusher interface {
	Flush() error
}

// StateKeeper is implemented by persistent frontiers that keep small
// records of the crawler's own state with their queues, so that a crawl
// resumed from the frontier finds its state as it was when the queues
// were last made durable. SaveState stores a copy of b under name,
// replacing the record there; it becomes durable with the frontier's
// next durable change (for disk.Frontier, its next commit), together
// with every change made before it, so a crash keeps or loses the record
// with them. LoadState returns the record stored under name, or nil if
// there is none. Records are small: at most MaxData bytes (a larger one
// is refused with an error wrapping ErrDataTooLarge). Both must be safe
// for concurrent use.
//
// trawl's Priority.OPIC saves its cash accounts (opic.Ledger) under
// "opic" before each Done and when Run returns, and a crawl resumed from
// the frontier starts from them.
//
// Implemented by disk.Frontier.
type StateKeeper interface {
	SaveState(name string, b []byte) error
	LoadState(name string) ([]byte, error)
}

// SpillReporter is implemented by frontiers that keep part of their queue
// in a file (MemoryOptions.SpillDir). SpillStats describes the file; its
// Err field tells that spilling stopped after a write error (nothing is
// lost: the queue stays in memory). A crawler calls it when its Run
// returns, to warn about that error. It must be safe for concurrent use.
//
// Implemented by Memory.
type SpillReporter interface {
	SpillStats() SpillStats
}

var (
	_ Frontier      = (*Memory)(nil)
	_ Revisiter     = (*Memory)(nil)
	_ SeenChecker   = (*Memory)(nil)
	_ Booster       = (*Memory)(nil)
	_ Orderer       = (*Memory)(nil)
	_ HostCounter   = (*Memory)(nil)
	_ SpillReporter = (*Memory)(nil)
)
