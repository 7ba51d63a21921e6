package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestMinTransferRate runs the body watchdog on a fake clock: a feeder
// writes into a pipe on a schedule, and the test checks whether, and after
// how long, reading fails with ErrTooSlow. The pipe fails its reads when the
// request context is cancelled, as the HTTP transport does.
func TestMinTransferRate(t *testing.T) {
	type step struct {
		after time.Duration // wait before writing
		n     int           // bytes to write
	}
	every := func(d time.Duration, n, times int) []step {
		s := make([]step, times)
		for i := range s {
			s[i] = step{after: d, n: n}
		}
		return s
	}
	tests := []struct {
		name     string
		rate     int64
		steps    []step        // then the body ends (EOF), unless the read failed
		wantFail time.Duration // 0: the whole body is read
	}{
		{name: "trickle of 1 B/s fails after one window", rate: 512, steps: every(time.Second, 1, 60), wantFail: TransferWindow},
		{name: "stall from the start", rate: 512, steps: []step{{after: time.Hour, n: 1}}, wantFail: TransferWindow},
		// Writes never fall on a window's edge, where the order of the
		// write and the check would be up to the scheduler.
		{name: "exactly the rate passes", rate: 512, steps: append([]step{{after: time.Second / 2, n: 512}}, every(time.Second, 512, 60)...)},
		{name: "one burst per window passes", rate: 512, steps: append([]step{{after: TransferWindow / 2, n: 5120}}, every(TransferWindow, 5120, 5)...)},
		{name: "small body that ends passes", rate: 512, steps: []step{{after: 3 * time.Second, n: 100}}},
		{name: "two good windows then a stall", rate: 512, steps: []step{{n: 5120}, {after: 15 * time.Second, n: 5120}, {after: time.Hour, n: 1}}, wantFail: 3 * TransferWindow},
		{name: "one byte short in the second window", rate: 512, steps: []step{{n: 5120}, {after: 11 * time.Second, n: 5119}, {after: 10 * time.Second, n: 1000}}, wantFail: 2 * TransferWindow},
		{name: "disabled", rate: -1, steps: every(time.Second, 1, 60)},
		{name: "1 KiB/s", rate: 1024, steps: every(time.Second, 1000, 30), wantFail: TransferWindow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := New(&Options{MinTransferRate: tt.rate})
				ctx, cancel := context.WithCancel(t.Context())
				ctx, trip := context.WithCancelCause(ctx)
				pr, pw := io.Pipe()
				context.AfterFunc(ctx, func() { pw.CloseWithError(context.Cause(ctx)) })
				total := 0
				go func() {
					for _, s := range tt.steps {
						select {
						case <-time.After(s.after):
						case <-ctx.Done():
							return
						}
						if _, err := pw.Write(make([]byte, s.n)); err != nil {
							return
						}
					}
					pw.Close()
				}()
				for _, s := range tt.steps {
					total += s.n
				}

				start := time.Now()
				body := f.watch(ctx, pr, trip, cancel)
				got, err := io.ReadAll(body)
				elapsed := time.Since(start)
				body.Close()
				if tt.wantFail == 0 {
					if err != nil || len(got) != total {
						t.Fatalf("read %d bytes, err %v; want all %d bytes", len(got), err, total)
					}
					return
				}
				if !errors.Is(err, ErrTooSlow) {
					t.Fatalf("read err = %v after %v, want ErrTooSlow", err, elapsed)
				}
				if elapsed != tt.wantFail {
					t.Errorf("read failed after %v (fake clock), want %v", elapsed, tt.wantFail)
				}
			})
		})
	}
}

// trickle answers 200 with a text body sent one byte every interval, up to
// n bytes, and stops early when the client goes away.
func trickle(interval time.Duration, n int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for range n {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
			if _, err := w.Write([]byte{'x'}); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}
}

// TestSlowBodies sends trickling bodies from a loopback server through Get
// and Fetch. The server would finish after 3,000 bytes (30 s); a limit that
// does not work therefore shows as a body read whole, not as a hang.
func TestSlowBodies(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		window time.Duration
		want   error
	}{
		{name: "Timeout", opts: Options{Timeout: 300 * time.Millisecond, MinTransferRate: -1}, want: context.DeadlineExceeded},
		{name: "MinTransferRate", opts: Options{MinTransferRate: 1024}, window: 200 * time.Millisecond, want: ErrTooSlow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, u := server(t, trickle(10*time.Millisecond, 3000), &tt.opts)
			if tt.window != 0 {
				f.window = tt.window
			}

			t.Run("Get", func(t *testing.T) {
				resp, err := f.Get(context.Background(), u)
				if err != nil {
					t.Fatalf("Get: %v", err)
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				if !errors.Is(err, tt.want) {
					t.Fatalf("reading Get's body: %d bytes, err %v; want %v", len(b), err, tt.want)
				}
			})
			t.Run("Fetch", func(t *testing.T) {
				_, err := f.Fetch(context.Background(), &Request{URL: u})
				var fe *Error
				if !errors.Is(err, tt.want) || !errors.As(err, &fe) || fe.StatusCode != 200 {
					t.Fatalf("Fetch err = %v, want an *Error with status 200 matching %v", err, tt.want)
				}
				if Kind(err) != "timeout" || !Transient(err) {
					t.Errorf("Kind(%v) = %q, Transient = %v; want timeout, true", err, Kind(err), Transient(err))
				}
			})
		})
	}
}

// TestGetBody checks that Get's body reads whole and that the connection is
// reused after Close, with the watchdog in place.
func TestGetBody(t *testing.T) {
	page := bytes.Repeat([]byte("robots "), 2000)
	var conns atomic.Int32
	f, u := server(t, func(w http.ResponseWriter, r *http.Request) { w.Write(page) }, nil)
	dial := f.transport.DialContext
	f.transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conns.Add(1)
		return dial(ctx, network, addr)
	}
	for i := range 3 {
		resp, err := f.Get(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil || !bytes.Equal(b, page) {
			t.Fatalf("Get %d: read %d bytes, err %v; want %d bytes", i, len(b), err, len(page))
		}
		if err := resp.Body.Close(); err != nil {
			t.Fatalf("Get %d: Close: %v", i, err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("3 sequential Gets dialled %d connections, want 1 (kept alive)", n)
	}
}
