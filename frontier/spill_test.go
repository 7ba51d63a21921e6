package frontier

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/trawl-dev/trawl/politeness"
)

var noDelayConfig = politeness.Config{MinDelay: -1, Factor: -1}

// testEntry returns an entry whose every field derives from i, so a model
// can check that it comes back whole.
func testEntry(i int, hosts []*hostInfo) entry {
	e := entry{
		data:     fmt.Sprintf("http://h%d.test/%d", i%len(hosts), i),
		referrer: fmt.Sprintf("http://h0.test/page%d", i/10), // ten links per page
		host:     hosts[i%len(hosts)],
		fp:       uint64(i)*0x9e3779b97f4a7c15 + 1,
		depth:    int32(i % 7),
	}
	if i%3 == 0 {
		e.data = joinData(e.data, fmt.Sprintf("anchor %d", i), nil)
	}
	if i%5 == 0 {
		e.prio = float64(i) / 3
	}
	if i%11 == 0 {
		e.retries, e.redirects = int16(i%4), int16(i%3)
	}
	if i%13 == 0 {
		e.referrer = ""
	}
	return e
}

func testHosts(n int) []*hostInfo {
	hosts := make([]*hostInfo, n)
	for i := range hosts {
		hosts[i] = &hostInfo{name: fmt.Sprintf("h%d.test", i), id: uint32(i)}
	}
	return hosts
}

// TestDequeModel compares deque, with and without a spill file, with a
// slice under random pushes and pops at both ends (a front queue pushes at
// the back, refill at the front under DFS, and pops at either end), in phases that grow it to thousands of
// entries and drain it again. With a spill file, at most three blocks are
// in memory and the entries come back whole.
func TestDequeModel(t *testing.T) {
	for _, spilling := range []bool{false, true} {
		t.Run(fmt.Sprintf("spill=%v", spilling), func(t *testing.T) {
			hosts := testHosts(5)
			var d deque
			if spilling {
				d.sp = &spill{dir: t.TempDir(), hosts: &hosts}
				defer d.sp.close()
			}
			rng := rand.New(rand.NewPCG(1, 1))
			var ref []entry
			maxSpilled := 0
			for i := range 40000 {
				pushBias := 3 // grow for 10,000 ops, then shrink, twice
				if i/10000%2 == 1 {
					pushBias = 1
				}
				switch op := rng.IntN(5); {
				case (op < pushBias || len(ref) == 0) && rng.IntN(4) == 0:
					e := testEntry(i, hosts)
					d.pushFront(e)
					ref = append([]entry{e}, ref...)
				case op < pushBias || len(ref) == 0:
					e := testEntry(i, hosts)
					d.pushBack(e)
					ref = append(ref, e)
				case op == 3:
					got, ok := d.popFront()
					if !ok || !reflect.DeepEqual(got, ref[0]) {
						t.Fatalf("op %d: popFront() = %+v, %v; want %+v", i, got, ok, ref[0])
					}
					ref = ref[1:]
				default:
					got, ok := d.popBack()
					if !ok || !reflect.DeepEqual(got, ref[len(ref)-1]) {
						t.Fatalf("op %d: popBack() = %+v, %v; want %+v", i, got, ok, ref[len(ref)-1])
					}
					ref = ref[:len(ref)-1]
				}
				if d.len() != len(ref) {
					t.Fatalf("op %d: len() = %d, want %d", i, d.len(), len(ref))
				}
				if want := (d.head + d.n + blockLen - 1) / blockLen; d.n > 0 && len(d.segs) != want {
					t.Fatalf("op %d: %d blocks for head %d and %d entries, want %d", i, len(d.segs), d.head, d.n, want)
				}
				inMemory := 0
				for _, s := range d.segs {
					if s.b != nil {
						inMemory++
					}
				}
				if !spilling && inMemory != len(d.segs) {
					t.Fatalf("op %d: %d of %d blocks in memory without a spill file", i, inMemory, len(d.segs))
				}
				if spilling {
					if inMemory > 3 {
						t.Fatalf("op %d: %d of %d blocks in memory, want at most 3", i, inMemory, len(d.segs))
					}
					if want := (len(d.segs) - inMemory) * blockLen; d.sp.spilled != want {
						t.Fatalf("op %d: spill file counts %d entries, deque has %d", i, d.sp.spilled, want)
					}
					maxSpilled = max(maxSpilled, d.sp.spilled)
				}
			}
			if spilling {
				if maxSpilled < 10*blockLen {
					t.Fatalf("at most %d entries spilled; the test should spill more", maxSpilled)
				}
				if d.sp.err != nil || d.sp.wErr != nil {
					t.Fatalf("spill errors: read %v, write %v", d.sp.err, d.sp.wErr)
				}
				// Slots are reused: the file holds no more blocks than were
				// spilled at most at once (this test's blocks take 2 pages,
				// 3 allows for a larger one).
				if limit := int64(maxSpilled/blockLen) * 3 * spillPage; d.sp.end > limit {
					t.Errorf("spill file grew to %d bytes for at most %d entries at once", d.sp.end, maxSpilled)
				}
			}
		})
	}
}

// TestRingModel compares ring with a slice under random operations at both
// ends, and checks that its buffer follows its length down.
func TestRingModel(t *testing.T) {
	hosts := testHosts(3)
	rng := rand.New(rand.NewPCG(3, 3))
	var r ring
	var ref []entry
	for i := range 20000 {
		grow := i/2000%2 == 0
		switch op := rng.IntN(6); {
		case op < 2 || len(ref) == 0 || grow && op < 4:
			e := testEntry(i, hosts)
			if op%2 == 0 {
				r.pushBack(e)
				ref = append(ref, e)
			} else {
				r.pushFront(e)
				ref = append([]entry{e}, ref...)
			}
		case op%2 == 0:
			if got := r.popFront(); !reflect.DeepEqual(got, ref[0]) {
				t.Fatalf("op %d: popFront() = %+v, want %+v", i, got, ref[0])
			}
			ref = ref[1:]
		default:
			if got := r.popBack(); !reflect.DeepEqual(got, ref[len(ref)-1]) {
				t.Fatalf("op %d: popBack() = %+v, want %+v", i, got, ref[len(ref)-1])
			}
			ref = ref[:len(ref)-1]
		}
		if r.len() != len(ref) {
			t.Fatalf("op %d: len() = %d, want %d", i, r.len(), len(ref))
		}
		if len(r.buf) > max(2*ringMin, 3*r.n+2) {
			t.Fatalf("op %d: buffer of %d for %d entries", i, len(r.buf), r.n)
		}
	}
}

// TestEncodeBlock checks that a block comes back from the spill encoding
// whole, odd values included, and that damage is detected.
func TestEncodeBlock(t *testing.T) {
	hosts := testHosts(300) // host indices above one varint byte
	b := new(block)
	for i := range b {
		b[i] = testEntry(i*7, hosts)
	}
	b[1].data = "http://h1.test/\x00\x00x\x00anchor"
	b[2].prio = math.Inf(-1)
	b[3].depth = math.MinInt32
	b[4].depth = math.MaxInt32
	b[5].retries, b[5].redirects = math.MaxInt16, math.MaxInt16
	b[6].host = hosts[299]
	b[7].data = ""
	enc := encodeBlock(nil, b)
	got, err := decodeBlock(enc, hosts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, b) {
		for i := range b {
			if !reflect.DeepEqual(got[i], b[i]) {
				t.Fatalf("entry %d: got %+v, want %+v", i, got[i], b[i])
			}
		}
	}
	// Neighbours' shared referrer is stored once and shared again.
	if got[10].referrer != got[11].referrer || got[10].referrer == "" {
		t.Fatalf("referrers %q, %q: want equal", got[10].referrer, got[11].referrer)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for range 200 {
		bad := append([]byte(nil), enc...)
		bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
		if _, err := decodeBlock(bad, hosts); !errors.Is(err, errCorrupt) {
			t.Fatalf("flipped byte: err = %v, want errCorrupt", err)
		}
	}
	for _, n := range []int{0, 3, 4, len(enc) / 2, len(enc) - 1} {
		if _, err := decodeBlock(enc[:n], hosts); !errors.Is(err, errCorrupt) {
			t.Fatalf("truncated to %d bytes: err = %v, want errCorrupt", n, err)
		}
	}
	if _, err := decodeBlock(enc, hosts[:299]); !errors.Is(err, errCorrupt) {
		t.Fatalf("unknown host: err = %v, want errCorrupt", err)
	}
}

// spillRequests returns n requests over a few hosts, with anchors,
// referrers, depths and priorities, in the order a crawler pushes them.
func spillRequests(n int) []Request {
	reqs := make([]Request, n)
	for i := range reqs {
		reqs[i] = Request{
			URL:      fmt.Sprintf("http://h%d.test/p/%d", i%7, i),
			Depth:    1 + i%5,
			Priority: float64(i % 3),
			Referrer: fmt.Sprintf("http://h%d.test/p/%d", i/20%7, i/20),
			Anchor:   fmt.Sprintf("link %d", i),
		}
	}
	return reqs
}

// drain hands out and finishes every request of f, in order.
func drain(t *testing.T, f *Memory) []Request {
	t.Helper()
	var out []Request
	for {
		r, err := f.Next(context.Background())
		if errors.Is(err, ErrEmpty) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Done(r, Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
		r.fp = 0
		out = append(out, r)
	}
}

// TestMemorySpill checks that a spilling frontier hands out exactly what
// an in-memory one does, in the same order, under BFS and DFS; that most of
// a long front queue is in the file; and that Close removes the file.
func TestMemorySpill(t *testing.T) {
	const n = 20000
	for _, strategy := range []Strategy{BFS, DFS} {
		t.Run(strategy.String(), func(t *testing.T) {
			dir := t.TempDir()
			opts := MemoryOptions{Strategy: strategy, FrontQueues: 3, Workers: 1, Politeness: noDelayConfig}
			plain := NewMemory(&opts)
			opts.SpillDir = dir
			spilling := NewMemory(&opts)
			ctx := context.Background()
			reqs := spillRequests(n)
			for i := 0; i < n; i += 100 {
				for _, f := range []*Memory{plain, spilling} {
					if _, err := f.Push(ctx, reqs[i:i+100]...); err != nil {
						t.Fatal(err)
					}
				}
			}
			st := spilling.SpillStats()
			if st.Err != nil || st.Entries < n/2 { // under DFS, URLs of hosts with a back queue go there
				t.Fatalf("SpillStats() = %+v; want most of %d URLs spilled", st, n)
			}
			if files, err := os.ReadDir(dir); runtime.GOOS != "windows" && (err != nil || len(files) != 0) {
				// Unix removes the file's name at once; the open file lives on.
				t.Fatalf("while spilling, %s holds %v (%v); want the file unnamed", dir, files, err)
			}
			want, got := drain(t, plain), drain(t, spilling)
			if len(got) != n || !reflect.DeepEqual(got, want) {
				t.Fatalf("spilling frontier gave %d requests, in-memory one %d; first difference at %d", len(got), len(want), firstDiff(got, want))
			}
			if st := spilling.SpillStats(); st.Entries != 0 {
				t.Fatalf("after draining, SpillStats() = %+v", st)
			}
			if err := spilling.Close(); err != nil {
				t.Fatal(err)
			}
			if files, err := os.ReadDir(dir); err != nil || len(files) != 0 {
				t.Fatalf("after Close, %s holds %v (%v)", dir, files, err)
			}
		})
	}
}

func firstDiff(a, b []Request) int {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestMemorySpillWriteError checks that a spill file that cannot be
// written stops spilling and loses nothing.
func TestMemorySpillWriteError(t *testing.T) {
	f := NewMemory(&MemoryOptions{Workers: 1, Politeness: noDelayConfig, SpillDir: t.TempDir()})
	ctx := context.Background()
	reqs := spillRequests(5000)
	if _, err := f.Push(ctx, reqs[:1000]...); err != nil {
		t.Fatal(err)
	}
	if f.SpillStats().Entries == 0 {
		t.Fatal("nothing spilled after 1,000 URLs")
	}
	f.sp.f.Close() // the file fails from now on: writes and reads
	if _, err := f.Push(ctx, reqs[1000:]...); err != nil {
		t.Fatal(err)
	}
	st := f.SpillStats()
	if st.Err == nil {
		t.Fatal("SpillStats().Err = nil after a failed write")
	}
	// What was spilled before the failure is lost on reading; what came
	// after stayed in memory and is all handed out.
	lost := st.Entries
	got := 0
	for {
		r, err := f.Next(ctx)
		if errors.Is(err, ErrEmpty) {
			break
		}
		if err != nil {
			if !errors.Is(err, os.ErrClosed) {
				t.Fatalf("Next: %v, want an error wrapping os.ErrClosed", err)
			}
			break
		}
		got++
		if err := f.Done(r, Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if got+f.Len() < 5000-lost {
		t.Fatalf("%d handed out and %d queued of 5,000 URLs with %d in the failed file", got, f.Len(), lost)
	}
}

// TestMemorySpillReadError checks that a damaged spill file makes Next
// fail with a clear error, and that Len no longer counts the lost URLs.
func TestMemorySpillReadError(t *testing.T) {
	f := NewMemory(&MemoryOptions{Workers: 1, Politeness: noDelayConfig, SpillDir: t.TempDir()})
	defer f.Close()
	ctx := context.Background()
	if _, err := f.Push(ctx, spillRequests(3000)...); err != nil {
		t.Fatal(err)
	}
	st := f.SpillStats()
	if st.Entries == 0 {
		t.Fatal("nothing spilled")
	}
	if _, err := f.sp.f.WriteAt(make([]byte, st.FileBytes), 0); err != nil {
		t.Fatal(err)
	}
	handed := 0
	var err error
	for {
		var r Request
		r, err = f.Next(ctx)
		if err != nil {
			break
		}
		handed++
		if err := f.Done(r, Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if !errors.Is(err, errCorrupt) {
		t.Fatalf("Next: %v, want a corrupt-block error", err)
	}
	// The unreadable blocks found so far are no longer counted.
	if lost := 3000 - handed - f.Len(); lost <= 0 || lost%blockLen != 0 || lost > st.Entries {
		t.Fatalf("%d handed out + %d queued of 3,000 with %d spilled: %d lost, want whole blocks of those spilled", handed, f.Len(), st.Entries, lost)
	}
}

// TestDFSDeepReadError: a damaged spill file under the deep part of a DFS
// back queue (see Memory.deepen) makes Next fail with the same clear
// error, and Len no longer counts the lost URLs.
func TestDFSDeepReadError(t *testing.T) {
	f := NewMemory(&MemoryOptions{Strategy: DFS, Workers: 1, Politeness: noDelayConfig, SpillDir: t.TempDir()})
	defer f.Close()
	ctx := context.Background()
	// Two URLs: a.test keeps its back queue while its first page is out.
	if _, err := f.Push(ctx, Request{URL: "http://a.test/x"}, Request{URL: "http://a.test/"}); err != nil {
		t.Fatal(err)
	}
	r, err := f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	links := spillRequests(3000)
	for i := range links {
		links[i].URL = fmt.Sprintf("http://a.test/p/%d", i) // the links of a's page: a's back queue
	}
	if _, err := f.Push(ctx, links...); err != nil {
		t.Fatal(err)
	}
	if err := f.Done(r, Outcome{Status: 200}); err != nil {
		t.Fatal(err)
	}
	if f.frontLen != 0 || f.hosts["a.test"].deepLen() == 0 {
		t.Fatalf("%d URLs in front queues, %d in a.test's deep queue; want none and most", f.frontLen, f.hosts["a.test"].deepLen())
	}
	st := f.SpillStats()
	if st.Entries == 0 {
		t.Fatal("nothing spilled")
	}
	if _, err := f.sp.f.WriteAt(make([]byte, st.FileBytes), 0); err != nil {
		t.Fatal(err)
	}
	queued := f.Len()
	handed := 0
	for {
		r, err = f.Next(ctx)
		if err != nil {
			break
		}
		handed++
		if err := f.Done(r, Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if !errors.Is(err, errCorrupt) {
		t.Fatalf("Next: %v, want a corrupt-block error", err)
	}
	if lost := queued - handed - f.Len(); lost <= 0 || lost%blockLen != 0 || lost > st.Entries {
		t.Fatalf("%d handed out + %d queued of %d with %d spilled: %d lost, want whole blocks of those spilled", handed, f.Len(), queued, st.Entries, lost)
	}
}
