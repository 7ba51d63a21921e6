// Package frontiertest checks implementations of frontier.Frontier against
// the interface's contract, the way testing/fstest.TestFS checks an fs.FS.
//
// # Quick start
//
//	func TestMyFrontier(t *testing.T) {
//		frontiertest.Run(t, func(t *testing.T) frontier.Frontier {
//			return myfrontier.Open(t.TempDir())
//		})
//	}
//
// Run covers exactly-once handout, duplicate elimination, ErrEmpty
// termination, Retry semantics, the errors of Done, blocking and waking of
// Next, cancellation, several concurrent workers with one request per
// host in flight, and Request.Data (kept with the URL across Retry and
// Requeue, replaced by Outcome.Data, refused beyond frontier.MaxData). It
// also checks each optional interface the frontier implements:
// frontier.Revisiter, SeenChecker, Booster, HostCounter, Flusher and
// StateKeeper. Each part runs in its own subtest inside a testing/synctest
// bubble, so politeness delays cost no real time, and a frontier that loses
// a lease is reported (Next blocking for a day of fake time) instead of
// hanging the test.
//
// # Concurrency
//
// Run calls the frontier from several goroutines at once in the Workers
// check; implementations must be safe for concurrent use, as
// frontier.Frontier requires.
package frontiertest
