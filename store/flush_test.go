package store

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// fakeTimer stands for time.AfterFunc: the test fires it.
type fakeTimer struct {
	armed   []time.Duration
	fire    func()
	stopped int
}

func (f *fakeTimer) after(d time.Duration, fn func()) func() bool {
	f.armed = append(f.armed, d)
	f.fire = fn
	return func() bool { f.stopped++; f.fire = nil; return true }
}

// TestFlushTimer steps a JSONL store's flush timer by hand: the first
// record in an empty buffer arms it once, firing it writes the buffer
// out, the next record arms it again, and Close stops it.
func TestFlushTimer(t *testing.T) {
	var out bytes.Buffer
	j := NewJSONLWriter(&out)
	ft := &fakeTimer{}
	j.lw.timer.after = ft.after
	ctx := context.Background()
	steps := []struct {
		do        func()
		wantOut   string
		wantArmed int
	}{
		{do: func() { j.PutItem(ctx, 1) }, wantOut: "", wantArmed: 1},
		{do: func() { j.PutItem(ctx, 2) }, wantOut: "", wantArmed: 1},
		{do: func() { ft.fire() }, wantOut: "1\n2\n", wantArmed: 1},
		{do: func() { j.PutItem(ctx, 3) }, wantOut: "1\n2\n", wantArmed: 2},
		{do: func() { j.Close() }, wantOut: "1\n2\n3\n", wantArmed: 2},
	}
	for i, st := range steps {
		st.do()
		if got := out.String(); got != st.wantOut {
			t.Errorf("step %d: output %q, want %q", i, got, st.wantOut)
		}
		if len(ft.armed) != st.wantArmed {
			t.Errorf("step %d: timer armed %d times, want %d", i, len(ft.armed), st.wantArmed)
		}
	}
	if ft.stopped != 1 {
		t.Errorf("Close stopped the timer %d times, want 1", ft.stopped)
	}
	for _, d := range ft.armed {
		if d != DefaultFlushInterval {
			t.Errorf("armed for %v, want %v", d, DefaultFlushInterval)
		}
	}
}

// TestFlushTimerOff: a negative FlushInterval arms nothing.
func TestFlushTimerOff(t *testing.T) {
	var out bytes.Buffer
	j := &JSONL{lw: newLineWriter(&out, nil, &FileOptions{FlushInterval: -1})}
	ft := &fakeTimer{}
	j.lw.timer.after = ft.after
	for i := range 3 {
		if err := j.PutItem(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	if len(ft.armed) != 0 || out.Len() != 0 {
		t.Errorf("timer armed %d times, output %q; want none", len(ft.armed), out.String())
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if out.String() != "0\n1\n2\n" {
		t.Errorf("after Close: %q", out.String())
	}
}
