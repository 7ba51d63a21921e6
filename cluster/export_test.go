package cluster

import (
	"time"

	"github.com/trawl-dev/trawl/frontier"
)

// EncodeBatchForTest encodes requests as a stream entry's value.
func EncodeBatchForTest(reqs []frontier.Request) string { return encodeBatch(reqs) }

// Abandon stops the agent as SIGKILL would: its goroutines end, nothing
// is written to Redis, its registration and stream stay for the others to
// find dead.
func (a *Agent) Abandon() {
	if f := a.front.Load(); f != nil {
		f.stop()
		f.wg.Wait()
	}
	a.stop()
	a.wg.Wait()
	a.closeOnce.Do(func() {})
}

// SetOnWaitForTest makes Next call fn, before it requeues the request, with
// the host and the wait of every request whose host Redis refused (another
// agent holds it, or its next contact time is ahead). Call it before the
// frontier's first Next.
func SetOnWaitForTest(f frontier.Frontier, fn func(host string, wait time.Duration)) {
	f.(*Frontier).onWait = fn
}

// SetOnWatchForTest makes the agent call fn at the end of each round of
// its watch loop, with whether the round found the crawl over.
func (a *Agent) SetOnWatchForTest(fn func(over bool)) { a.onWatch.Store(&fn) }

// SetOnAcceptForTest makes the frontier's stream reader call fn each time
// it has taken in a stream entry: its URLs in the local frontier, its cash
// placed.
func SetOnAcceptForTest(f frontier.Frontier, fn func()) { f.(*Frontier).onAccept.Store(&fn) }
