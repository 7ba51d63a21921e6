package frontiertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
)

// patience is how long, in the bubble's fake time, a check waits for Next
// before it concludes that the frontier is stuck.
const patience = 24 * time.Hour

// A check runs one part of the contract on an empty frontier, inside a
// synctest bubble, and returns the first violation it finds.
type check struct {
	name string
	fn   func(f frontier.Frontier) error
}

var checks = []check{
	{name: "Empty", fn: checkEmpty},
	{name: "Dedup", fn: checkDedup},
	{name: "ExactlyOnce", fn: checkExactlyOnce},
	{name: "Retry", fn: checkRetry},
	{name: "DoneErrors", fn: checkDoneErrors},
	{name: "Blocking", fn: checkBlocking},
	{name: "Cancel", fn: checkCancel},
	{name: "Workers", fn: checkWorkers},
	{name: "Revisit", fn: checkRevisit},
	{name: "Data", fn: checkData},
	{name: "DataTooLarge", fn: checkDataTooLarge},
	{name: "Seen", fn: checkSeen},
	{name: "Boost", fn: checkBoost},
	{name: "HostsWaiting", fn: checkHostsWaiting},
	{name: "Flush", fn: checkFlush},
	{name: "State", fn: checkState},
}

// Run checks that the frontiers made by newFrontier meet the
// frontier.Frontier contract, each part in its own subtest: exactly-once
// handout, duplicate elimination, ErrEmpty termination, Retry semantics,
// Done errors, blocking and waking, cancellation, several concurrent
// workers with per-host exclusivity, and Request.Data: it comes back from
// Next as pushed, survives Retry and Requeue, is replaced by Outcome.Data,
// and a request with more than frontier.MaxData bytes is refused with
// frontier.ErrDataTooLarge while the rest of its batch is queued.
//
// It checks the optional interfaces the frontier implements: for
// frontier.Revisiter, revisits (Outcome.Revisit): a URL done with a
// revisit time comes back with its state and Data no earlier than that
// time, once, and duplicate elimination still drops it at Push; for
// frontier.SeenChecker, that pushed URLs are seen, whether queued, handed
// out or done, and others not; for frontier.Booster, that Boost reports
// false for URLs not queued and loses or duplicates no URL; for
// frontier.HostCounter, that HostsWaiting counts between one and the
// number of hosts queued, and none when drained; for frontier.Flusher, that
// Flush loses no URL; for frontier.StateKeeper, that LoadState gives back
// the last record SaveState stored under a name, a copy, nil for a name
// never saved, and that a record over frontier.MaxData bytes is refused.
//
// Each subtest runs inside a testing/synctest bubble and calls newFrontier
// there, so politeness delays cost fake time, not real time. newFrontier
// must return an empty frontier that allows one request per host in flight
// at a time, accepts depth up to 3 and at least 100 URLs per host; any
// politeness delay is fine. Resources it opens should be released, and
// goroutines it starts stopped, with t.Cleanup: synctest.Test waits for
// every goroutine of the bubble to end.
func Run(t *testing.T, newFrontier func(t *testing.T) frontier.Frontier) {
	t.Helper()
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				if err := c.fn(newFrontier(t)); err != nil {
					t.Error(err)
				}
			})
		})
	}
}

func next(f frontier.Frontier) (frontier.Request, error) {
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	r, err := f.Next(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return r, fmt.Errorf("frontiertest: Next blocked for %v of fake time with Len() = %d (a lost lease?)", patience, f.Len())
	}
	return r, err
}

func urls(host string, n int) []frontier.Request {
	reqs := make([]frontier.Request, n)
	for i := range reqs {
		reqs[i] = frontier.Request{URL: fmt.Sprintf("http://%s/p%d", host, i), Depth: 1}
	}
	return reqs
}

func push(f frontier.Frontier, want int, reqs ...frontier.Request) error {
	got, err := f.Push(context.Background(), reqs...)
	if err != nil {
		return fmt.Errorf("frontiertest: Push(%d requests): %w", len(reqs), err)
	}
	if got != want {
		return fmt.Errorf("frontiertest: Push(%d requests) added %d, want %d", len(reqs), got, want)
	}
	return nil
}

// drain hands out every request with one worker, calling Done at once, and
// returns how often each URL was handed out. It fails unless it ends with
// ErrEmpty.
func drain(f frontier.Frontier) (map[string]int, error) {
	seen := map[string]int{}
	for {
		r, err := next(f)
		if errors.Is(err, frontier.ErrEmpty) {
			return seen, nil
		}
		if err != nil {
			return seen, err
		}
		seen[r.URL]++
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
			return seen, fmt.Errorf("frontiertest: Done(%s): %w", r.URL, err)
		}
	}
}

func checkEmpty(f frontier.Frontier) error {
	if n := f.Len(); n != 0 {
		return fmt.Errorf("new frontier: Len() = %d, want 0", n)
	}
	if _, err := next(f); !errors.Is(err, frontier.ErrEmpty) {
		return fmt.Errorf("new frontier: Next error = %v, want ErrEmpty", err)
	}
	return nil
}

func checkDedup(f frontier.Frontier) error {
	a := urls("a.test", 3)
	if err := push(f, 3, append(a, a[0], a[2])...); err != nil {
		return fmt.Errorf("duplicates in one call: %w", err)
	}
	if err := push(f, 1, append(a, urls("b.test", 1)...)...); err != nil {
		return fmt.Errorf("duplicates across calls: %w", err)
	}
	if n := f.Len(); n != 4 {
		return fmt.Errorf("frontiertest: Len() = %d, want 4", n)
	}
	got, err := drain(f)
	if err != nil {
		return err
	}
	if len(got) != 4 {
		return fmt.Errorf("handed out %d distinct URLs, want 4", len(got))
	}
	// A URL already handed out stays seen.
	if err := push(f, 0, a[1]); err != nil {
		return fmt.Errorf("after drain: %w", err)
	}
	return nil
}

func checkExactlyOnce(f frontier.Frontier) error {
	want := map[string]frontier.Request{}
	for h := range 7 {
		host := fmt.Sprintf("h%d.test", h)
		reqs := urls(host, 10+h*5)
		for i := range reqs {
			reqs[i].Depth = 1 + i%3
			reqs[i].Referrer = "http://" + host + "/"
			reqs[i].Anchor = fmt.Sprintf("link %d", i)
			want[reqs[i].URL] = reqs[i]
		}
		if err := push(f, len(reqs), reqs...); err != nil {
			return err
		}
	}
	if n := f.Len(); n != len(want) {
		return fmt.Errorf("frontiertest: Len() = %d, want %d", n, len(want))
	}
	for {
		r, err := next(f)
		if errors.Is(err, frontier.ErrEmpty) {
			break
		}
		if err != nil {
			return err
		}
		w, ok := want[r.URL]
		if !ok {
			return fmt.Errorf("frontiertest: Next returned %s: not pushed, or handed out twice", r.URL)
		}
		delete(want, r.URL)
		if r.Depth != w.Depth || r.Referrer != w.Referrer || r.Anchor != w.Anchor || r.Retries != 0 {
			return fmt.Errorf("frontiertest: Next returned %+v, want the fields pushed: %+v", r, w)
		}
		if want := w.URL[len("http://"):len("http://h0.test")]; r.Host != want {
			return fmt.Errorf("frontiertest: Next(%s).Host = %q, want %q", r.URL, r.Host, want)
		}
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
			return fmt.Errorf("frontiertest: Done(%s): %w", r.URL, err)
		}
	}
	if len(want) > 0 {
		return fmt.Errorf("frontiertest: ErrEmpty with %d URLs never handed out", len(want))
	}
	if n := f.Len(); n != 0 {
		return fmt.Errorf("frontiertest: Len() = %d after ErrEmpty, want 0", n)
	}
	return nil
}

func checkRetry(f frontier.Frontier) error {
	if err := push(f, 2, urls("a.test", 2)...); err != nil {
		return err
	}
	first, err := next(f)
	if err != nil {
		return err
	}
	if err := f.Done(first, frontier.Outcome{Status: 503, Retry: true}); err != nil {
		return fmt.Errorf("frontiertest: Done(retry): %w", err)
	}
	if n := f.Len(); n != 2 {
		return fmt.Errorf("frontiertest: Len() = %d after a retry, want 2", n)
	}
	again, err := next(f)
	if err != nil {
		return err
	}
	if again.URL != first.URL || again.Retries != first.Retries+1 {
		return fmt.Errorf("after Done(%s, Retry) Next = %s with Retries %d, want the same URL first with Retries %d",
			first.URL, again.URL, again.Retries, first.Retries+1)
	}
	if err := f.Done(again, frontier.Outcome{Status: 200}); err != nil {
		return err
	}
	got, err := drain(f)
	if err != nil {
		return err
	}
	if len(got) != 1 || got[first.URL] != 0 {
		return fmt.Errorf("after the retried URL was done, drain handed out %v, want only the other URL", got)
	}
	return nil
}

func checkDoneErrors(f frontier.Frontier) error {
	reqs := urls("a.test", 2)
	if err := f.Done(reqs[0], frontier.Outcome{}); err == nil {
		return errors.New("frontiertest: Done of a request never pushed returned nil, want an error")
	}
	if err := push(f, 2, reqs...); err != nil {
		return err
	}
	if err := f.Done(reqs[0], frontier.Outcome{}); err == nil {
		return errors.New("frontiertest: Done of a queued request not handed out returned nil, want an error")
	}
	r, err := next(f)
	if err != nil {
		return err
	}
	if err := f.Done(r, frontier.Outcome{}); err != nil {
		return err
	}
	if err := f.Done(r, frontier.Outcome{}); !errors.Is(err, frontier.ErrNotLeased) {
		return fmt.Errorf("second Done(%s) = %v, want ErrNotLeased", r.URL, err)
	}
	if _, err := drain(f); err != nil {
		return err
	}
	return nil
}

// checkBlocking: with nothing queued but a request leased, Next must wait
// (not return ErrEmpty), wake on Push, and end with ErrEmpty after Done.
func checkBlocking(f frontier.Frontier) error {
	if err := push(f, 1, urls("a.test", 1)...); err != nil {
		return err
	}
	leased, err := next(f)
	if err != nil {
		return err
	}
	type result struct {
		r   frontier.Request
		err error
	}
	got := make(chan result, 1)
	go func() {
		r, err := next(f)
		got <- result{r, err}
	}()
	synctest.Wait()
	select {
	case res := <-got:
		return fmt.Errorf("frontiertest: Next returned (%s, %v) while nothing was queued and a request was leased, want it to block", res.r.URL, res.err)
	default:
	}
	if err := push(f, 1, urls("b.test", 1)...); err != nil {
		return err
	}
	res := <-got
	if res.err != nil || res.r.URL != "http://b.test/p0" {
		return fmt.Errorf("frontiertest: Next blocked before a Push returned (%s, %v), want http://b.test/p0", res.r.URL, res.err)
	}
	go func() {
		r, err := next(f)
		got <- result{r, err}
	}()
	synctest.Wait()
	if err := f.Done(res.r, frontier.Outcome{Status: 200}); err != nil {
		return err
	}
	synctest.Wait()
	select {
	case res := <-got:
		return fmt.Errorf("frontiertest: Next returned (%s, %v) while a request was still leased, want it to block", res.r.URL, res.err)
	default:
	}
	if err := f.Done(leased, frontier.Outcome{Status: 200}); err != nil {
		return err
	}
	if res := <-got; !errors.Is(res.err, frontier.ErrEmpty) {
		return fmt.Errorf("frontiertest: Next blocked until the last Done returned (%s, %v), want ErrEmpty", res.r.URL, res.err)
	}
	return nil
}

func checkCancel(f frontier.Frontier) error {
	if err := push(f, 1, urls("a.test", 1)...); err != nil {
		return err
	}
	r, err := next(f)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Next(ctx); !errors.Is(err, context.Canceled) {
		return fmt.Errorf("frontiertest: Next(cancelled ctx) = %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if _, err := f.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("frontiertest: Next(ctx with 1h timeout) with nothing ready = %v, want DeadlineExceeded", err)
	}
	return f.Done(r, frontier.Outcome{Status: 200})
}

// checkWorkers runs several workers that fetch (sleeping fake time), push
// the links they find, sometimes retry, and stop at ErrEmpty.
func checkWorkers(f frontier.Frontier) error {
	const workers, hosts, seeds = 8, 10, 200
	var mu sync.Mutex
	var errs []error
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	inflight := map[string]int{}
	handed := map[string]int{}
	retries := map[string]int{}
	pushed := 0
	for i := range seeds {
		r := frontier.Request{URL: fmt.Sprintf("http://h%d.test/s%d", i%hosts, i), Depth: 1}
		n, err := f.Push(context.Background(), r)
		if err != nil {
			return err
		}
		pushed += n
	}
	var wg sync.WaitGroup
	for w := range workers {
		rng := rand.New(rand.NewPCG(uint64(w), 1))
		wg.Go(func() {
			for {
				r, err := next(f)
				if errors.Is(err, frontier.ErrEmpty) {
					return
				}
				if err != nil {
					fail(err)
					return
				}
				mu.Lock()
				inflight[r.Host]++
				if inflight[r.Host] > 1 {
					errs = append(errs, fmt.Errorf("host %s handed out while in flight (%s)", r.Host, r.URL))
				}
				handed[r.URL]++
				if r.Retries != retries[r.URL] {
					errs = append(errs, fmt.Errorf("frontiertest: Next returned %s with Retries %d, want %d", r.URL, r.Retries, retries[r.URL]))
				}
				retry := retries[r.URL] == 0 && rng.IntN(10) == 0
				if retry {
					retries[r.URL]++
				}
				mu.Unlock()
				d := time.Duration(rng.IntN(500)) * time.Millisecond
				time.Sleep(d)
				var links []frontier.Request
				if r.Depth < 3 {
					for range rng.IntN(4) {
						links = append(links, frontier.Request{
							URL:      fmt.Sprintf("http://h%d.test/p%d", rng.IntN(hosts), rng.IntN(300)),
							Depth:    r.Depth + 1,
							Referrer: r.URL,
						})
					}
				}
				n, err := f.Push(context.Background(), links...)
				if err != nil {
					fail(err)
				}
				mu.Lock()
				inflight[r.Host]--
				pushed += n
				mu.Unlock()
				if err := f.Done(r, frontier.Outcome{Status: 200, Duration: d, Retry: retry}); err != nil {
					fail(fmt.Errorf("frontiertest: Done(%s): %w", r.URL, err))
				}
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		if len(errs) > 5 {
			errs = append(errs[:5], fmt.Errorf("and %d more", len(errs)-5))
		}
		return errors.Join(errs...)
	}
	for u, n := range handed {
		if want := 1 + retries[u]; n != want {
			return fmt.Errorf("%s handed out %d times, want %d", u, n, want)
		}
	}
	if len(handed) != pushed {
		return fmt.Errorf("%d distinct URLs handed out, %d accepted by Push", len(handed), pushed)
	}
	return nil
}

func checkRevisit(f frontier.Frontier) error {
	rv, ok := f.(frontier.Revisiter)
	if !ok {
		return nil // a one-shot frontier: nothing to check
	}
	reqs := append(urls("a.test", 2), urls("b.test", 1)...)
	reqs[2].Data = dataOf(reqs[2].URL)
	if err := push(f, 3, reqs...); err != nil {
		return err
	}
	start := time.Now()
	at := map[string]time.Time{}
	for range 3 {
		r, err := next(f)
		if err != nil {
			return err
		}
		if len(r.State) != 0 {
			return fmt.Errorf("first visit of %s has State %q, want none", r.URL, r.State)
		}
		out := frontier.Outcome{Status: 200}
		if r.URL != "http://a.test/p1" {
			out.Revisit = start.Add(time.Hour)
			out.State = []byte("state of " + r.URL)
			at[r.URL] = out.Revisit
		}
		if r.URL == "http://a.test/p0" {
			out.Data = []byte("revisit data")
		}
		if err := f.Done(r, out); err != nil {
			return fmt.Errorf("frontiertest: Done(%s) with a revisit: %w", r.URL, err)
		}
	}
	if n := rv.Revisits(); n != 2 {
		return fmt.Errorf("after two Dones with Revisit: Revisits() = %d, want 2", n)
	}
	if n := f.Len(); n != 0 {
		return fmt.Errorf("with only revisits waiting: Len() = %d, want 0", n)
	}
	// Duplicate elimination still holds for a URL waiting for a revisit.
	if err := push(f, 0, reqs...); err != nil {
		return err
	}
	for range 2 {
		r, err := next(f) // blocks until the revisit time: no ErrEmpty meanwhile
		if err != nil {
			return fmt.Errorf("frontiertest: Next with revisits waiting: %w", err)
		}
		want, ok := at[r.URL]
		if !ok {
			return fmt.Errorf("revisit handed out %s, which was done without one (or twice)", r.URL)
		}
		delete(at, r.URL)
		if now := time.Now(); now.Before(want) {
			return fmt.Errorf("revisit of %s handed out at %v, before its time %v", r.URL, now, want)
		}
		if string(r.State) != "state of "+r.URL {
			return fmt.Errorf("revisit of %s has State %q, want %q", r.URL, r.State, "state of "+r.URL)
		}
		if want := dataOf(r.URL); r.URL == "http://b.test/p0" && !bytes.Equal(r.Data, want) {
			return fmt.Errorf("revisit of %s has Data %q, want %q (pushed, kept across the revisit)", r.URL, r.Data, want)
		}
		if want := "revisit data"; r.URL == "http://a.test/p0" && string(r.Data) != want {
			return fmt.Errorf("revisit of %s has Data %q, want %q (Outcome.Data)", r.URL, r.Data, want)
		}
		if err := f.Done(r, frontier.Outcome{Status: 404}); err != nil {
			return fmt.Errorf("frontiertest: Done(%s): %w", r.URL, err)
		}
	}
	if n := rv.Revisits(); n != 0 {
		return fmt.Errorf("after the revisits were done without a new one: Revisits() = %d, want 0", n)
	}
	if _, err := next(f); !errors.Is(err, frontier.ErrEmpty) {
		return fmt.Errorf("after the last revisit: Next error = %v, want ErrEmpty", err)
	}
	return nil
}

// dataOf returns the Data the checks push with rawURL: binary, NUL bytes
// included, different for every URL.
func dataOf(rawURL string) []byte {
	return append([]byte{0, 1, 0xff}, rawURL...)
}

// checkData: Data comes back from Next as pushed (a copy), is kept across
// Retry and Requeue, and a non-nil Outcome.Data replaces it, an empty one
// clearing it.
func checkData(f frontier.Frontier) error {
	reqs := urls("a.test", 4)
	reqs[0].Data = dataOf(reqs[0].URL)
	reqs[1].Data = []byte{} // empty: comes back empty (nil)
	reqs[2].Data = bytes.Repeat([]byte{0}, frontier.MaxData)
	reqs = append(reqs, urls("b.test", 1)...)
	reqs[4].Data = dataOf(reqs[4].URL)
	want := map[string][]byte{}
	for _, r := range reqs {
		want[r.URL] = bytes.Clone(r.Data)
	}
	if err := push(f, len(reqs), reqs...); err != nil {
		return err
	}
	for _, r := range reqs {
		clear(r.Data) // the frontier must have kept its own copy
	}
	// Each URL is handed out three times: first as pushed, then after a
	// Retry or Requeue without Outcome.Data (Data kept), then after one
	// with Outcome.Data (replaced, or cleared for b.test/p0).
	round := map[string]int{}
	for {
		r, err := next(f)
		if errors.Is(err, frontier.ErrEmpty) {
			break
		}
		if err != nil {
			return err
		}
		w := want[r.URL]
		if !bytes.Equal(r.Data, w) {
			return fmt.Errorf("frontiertest: hand-out %d of %s has Data %q, want %q", round[r.URL]+1, r.URL, short(r.Data), short(w))
		}
		out := frontier.Outcome{Status: 200}
		switch round[r.URL] {
		case 0:
			out.Retry = r.URL != "http://a.test/p1"
			out.Requeue = !out.Retry
		case 1:
			out.Requeue = r.URL != "http://a.test/p2"
			out.Retry = !out.Requeue
			out.Data = []byte("new data of " + r.URL)
			if r.URL == "http://b.test/p0" {
				out.Data = []byte{}
			}
			want[r.URL] = bytes.Clone(out.Data)
		}
		round[r.URL]++
		if err := f.Done(r, out); err != nil {
			return fmt.Errorf("frontiertest: Done(%s): %w", r.URL, err)
		}
		clear(out.Data) // the frontier must have kept its own copy
	}
	for _, r := range reqs {
		if round[r.URL] != 3 {
			return fmt.Errorf("frontiertest: %s handed out %d times, want 3 (once, then after two Retry or Requeue)", r.URL, round[r.URL])
		}
	}
	return nil
}

// short abbreviates b for an error message.
func short(b []byte) []byte {
	if len(b) > 40 {
		return append(b[:40:40], "..."...)
	}
	return b
}

// checkDataTooLarge: a request with more than MaxData bytes of Data is not
// queued (nor seen: pushed again with less, it is accepted), the rest of
// its batch is, and the error wraps ErrDataTooLarge and names the URL.
func checkDataTooLarge(f frontier.Frontier) error {
	reqs := urls("a.test", 3)
	big := reqs[1]
	big.Data = make([]byte, frontier.MaxData+1)
	reqs[1] = big
	n, err := f.Push(context.Background(), reqs...)
	if !errors.Is(err, frontier.ErrDataTooLarge) {
		return fmt.Errorf("frontiertest: Push with %d bytes of Data: error %v, want ErrDataTooLarge", len(big.Data), err)
	}
	if !strings.Contains(err.Error(), big.URL) {
		return fmt.Errorf("frontiertest: Push with too much Data: error %q does not name the URL %s", err, big.URL)
	}
	if n != 2 {
		return fmt.Errorf("frontiertest: Push of 3 requests, one with too much Data, added %d, want 2", n)
	}
	big.Data = big.Data[:frontier.MaxData]
	if err := push(f, 1, big); err != nil {
		return fmt.Errorf("pushed again with MaxData bytes: %w", err)
	}
	got, err := drain(f)
	if err != nil {
		return err
	}
	if len(got) != 3 {
		return fmt.Errorf("frontiertest: handed out %v, want the 3 URLs", got)
	}
	return nil
}

func checkSeen(f frontier.Frontier) error {
	s, ok := f.(frontier.SeenChecker)
	if !ok {
		return nil
	}
	reqs := urls("a.test", 3)
	if s.Seen(reqs[0].URL) {
		return fmt.Errorf("frontiertest: Seen(%s) of a new frontier = true", reqs[0].URL)
	}
	if err := push(f, 2, reqs[:2]...); err != nil {
		return err
	}
	for _, r := range reqs[:2] {
		if !s.Seen(r.URL) {
			return fmt.Errorf("frontiertest: Seen(%s) of a queued URL = false", r.URL)
		}
	}
	if s.Seen(reqs[2].URL) {
		return fmt.Errorf("frontiertest: Seen(%s) of a URL never pushed = true", reqs[2].URL)
	}
	r, err := next(f)
	if err != nil {
		return err
	}
	if !s.Seen(r.URL) {
		return fmt.Errorf("frontiertest: Seen(%s) of a URL handed out = false", r.URL)
	}
	if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
		return err
	}
	if _, err := drain(f); err != nil {
		return err
	}
	for _, r := range reqs[:2] {
		if !s.Seen(r.URL) {
			return fmt.Errorf("frontiertest: Seen(%s) of a URL done = false", r.URL)
		}
	}
	return nil
}

func checkBoost(f frontier.Frontier) error {
	b, ok := f.(frontier.Booster)
	if !ok {
		return nil
	}
	reqs := urls("a.test", 5)
	if b.Boost(reqs[0].URL, 1) {
		return fmt.Errorf("frontiertest: Boost(%s) of a URL never pushed = true", reqs[0].URL)
	}
	if err := push(f, len(reqs), reqs...); err != nil {
		return err
	}
	r, err := next(f)
	if err != nil {
		return err
	}
	if b.Boost(r.URL, 1) {
		return fmt.Errorf("frontiertest: Boost(%s) of a URL handed out = true", r.URL)
	}
	if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
		return err
	}
	// Under an order without priorities Boost may refuse every URL; either
	// way, no URL is lost or handed out twice.
	for _, q := range reqs {
		b.Boost(q.URL, 2)
	}
	got, err := drain(f)
	if err != nil {
		return err
	}
	for _, q := range reqs {
		if q.URL != r.URL && got[q.URL] != 1 {
			return fmt.Errorf("frontiertest: after Boost, %s handed out %d times, want once", q.URL, got[q.URL])
		}
	}
	if b.Boost(reqs[1].URL, 1) {
		return fmt.Errorf("frontiertest: Boost(%s) of a URL done = true", reqs[1].URL)
	}
	return nil
}

func checkHostsWaiting(f frontier.Frontier) error {
	h, ok := f.(frontier.HostCounter)
	if !ok {
		return nil
	}
	if n := h.HostsWaiting(); n != 0 {
		return fmt.Errorf("frontiertest: HostsWaiting() of a new frontier = %d, want 0", n)
	}
	if err := push(f, 4, append(urls("a.test", 2), urls("b.test", 2)...)...); err != nil {
		return err
	}
	if n := h.HostsWaiting(); n < 1 || n > 2 {
		return fmt.Errorf("frontiertest: HostsWaiting() with URLs of 2 hosts queued = %d, want 1 or 2", n)
	}
	if _, err := drain(f); err != nil {
		return err
	}
	if n := h.HostsWaiting(); n != 0 {
		return fmt.Errorf("frontiertest: HostsWaiting() after ErrEmpty = %d, want 0", n)
	}
	return nil
}

func checkFlush(f frontier.Frontier) error {
	fl, ok := f.(frontier.Flusher)
	if !ok {
		return nil
	}
	if err := fl.Flush(); err != nil {
		return fmt.Errorf("frontiertest: Flush of a new frontier: %w", err)
	}
	reqs := urls("a.test", 3)
	reqs[0].Data = dataOf(reqs[0].URL)
	if err := push(f, 3, reqs...); err != nil {
		return err
	}
	r, err := next(f)
	if err != nil {
		return err
	}
	if err := fl.Flush(); err != nil {
		return fmt.Errorf("frontiertest: Flush with a URL leased: %w", err)
	}
	if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
		return err
	}
	if n := f.Len(); n != 2 {
		return fmt.Errorf("frontiertest: Len() = %d after Flush, want 2", n)
	}
	got, err := drain(f)
	if err != nil {
		return err
	}
	if len(got) != 2 || got[r.URL] != 0 {
		return fmt.Errorf("frontiertest: after Flush, drain handed out %v, want the 2 URLs not yet handed out", got)
	}
	return fl.Flush()
}

func checkState(f frontier.Frontier) error {
	k, ok := f.(frontier.StateKeeper)
	if !ok {
		return nil
	}
	if b, err := k.LoadState("a"); b != nil || err != nil {
		return fmt.Errorf("frontiertest: LoadState(%q) of a new frontier = %q, %v; want nil, nil", "a", b, err)
	}
	rec := []byte("first")
	if err := k.SaveState("a", rec); err != nil {
		return fmt.Errorf("frontiertest: SaveState: %w", err)
	}
	copy(rec, "XXXXX") // the frontier keeps a copy
	if err := k.SaveState("b", []byte("other")); err != nil {
		return fmt.Errorf("frontiertest: SaveState: %w", err)
	}
	if err := push(f, 2, urls("a.test", 2)...); err != nil {
		return err
	}
	if err := k.SaveState("b", []byte("second")); err != nil {
		return fmt.Errorf("frontiertest: SaveState: %w", err)
	}
	for name, want := range map[string]string{"a": "first", "b": "second"} {
		b, err := k.LoadState(name)
		if err != nil || string(b) != want {
			return fmt.Errorf("frontiertest: LoadState(%q) = %q, %v; want %q", name, b, err, want)
		}
	}
	err := k.SaveState("a", make([]byte, frontier.MaxData+1))
	if !errors.Is(err, frontier.ErrDataTooLarge) {
		return fmt.Errorf("frontiertest: SaveState of %d bytes: err = %v, want frontier.ErrDataTooLarge", frontier.MaxData+1, err)
	}
	if b, _ := k.LoadState("a"); string(b) != "first" {
		return fmt.Errorf("frontiertest: LoadState(%q) after a refused SaveState = %q, want %q", "a", b, "first")
	}
	_, err = drain(f)
	return err
}
