package store

import "time"

// DefaultFlushInterval is how long a record may wait in a buffer of JSONL,
// CSV or a WARC store's CDXJ index before it is written to the file: what
// a hard kill (SIGKILL, a power cut aside: nothing is fsynced) loses at
// most, beside the records being written at that moment.
const DefaultFlushInterval = time.Second

// flushTimer bounds how long buffered bytes wait: the first write to an
// empty buffer arms a timer (time.AfterFunc) that flushes the buffer when
// it fires, so a record buffered at t is written by t+interval, and a
// buffer that stays empty arms nothing (no goroutine, no ticker). The
// owner calls arm after each buffered write, fired at the start of its
// flush callback, and cancel when it closes, all under its own lock.
type flushTimer struct {
	interval time.Duration                                  // <= 0: no timer
	after    func(time.Duration, func()) (stop func() bool) // time.AfterFunc; tests replace it
	stop     func() bool                                    // the armed timer's Stop, nil when none is armed
}

func newFlushTimer(interval time.Duration) flushTimer {
	switch {
	case interval == 0:
		interval = DefaultFlushInterval
	case interval < 0:
		interval = 0
	}
	return flushTimer{interval: interval, after: afterFunc}
}

func afterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// arm starts the timer unless one is armed already.
func (t *flushTimer) arm(flush func()) {
	if t.stop == nil && t.interval > 0 {
		t.stop = t.after(t.interval, flush)
	}
}

// fired forgets the timer that has just fired.
func (t *flushTimer) fired() { t.stop = nil }

// cancel stops an armed timer.
func (t *flushTimer) cancel() {
	if t.stop != nil {
		t.stop()
		t.stop = nil
	}
}
