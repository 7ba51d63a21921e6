package disk

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// killChildEnv, set to "DIR MODE", makes the test binary the child of
// TestKill: it writes a frontier in DIR and reports on stdout what is
// durable, until it is killed.
const killChildEnv = "TRAWL_DISK_KILL_CHILD"

func TestMain(m *testing.M) {
	if arg := os.Getenv(killChildEnv); arg != "" {
		os.Exit(killChild(arg))
	}
	os.Exit(m.Run())
}

func killOptions() *Options {
	// Runs of 32 fingerprints: kills land while runs are cut and merged.
	return &Options{SyncInterval: -1, seenRun: 32, Politeness: politeness.Config{MinDelay: -1, Factor: -1}}
}

// killURL is the URL the child pushes i-th in mode "loop".
func killURL(i int) string { return fmt.Sprintf("http://h%d.test/p%d", i%7, i) }

// killChild is the child process of TestKill. In mode "steps" it pushes
// and flushes, does one URL, leases one, pushes more without a commit, says
// "ready" and waits to be killed. In mode "loop" it pushes five URLs and
// does one, over and over, saying after each Done "done URL N": that URL
// is done and the first N URLs were pushed before it.
func killChild(arg string) int {
	dir, mode, _ := strings.Cut(arg, " ")
	ctx := context.Background()
	f, err := Open(dir, killOptions())
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fail := func(err error) int {
		fmt.Println("error", err)
		return 1
	}
	switch mode {
	case "steps":
		if _, err := f.Push(ctx, reqs("a.test", 0, 20)...); err != nil {
			return fail(err)
		}
		if err := f.Flush(); err != nil {
			return fail(err)
		}
		r, err := f.Next(ctx)
		if err != nil {
			return fail(err)
		}
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
			return fail(err)
		}
		fmt.Println("done", r.URL)
		leased, err := f.Next(ctx)
		if err != nil {
			return fail(err)
		}
		fmt.Println("leased", leased.URL)
		if _, err := f.Push(ctx, reqs("b.test", 0, 10)...); err != nil {
			return fail(err)
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin) // until killed
	case "loop":
		n := 0
		for {
			var batch []frontier.Request
			for range 5 {
				batch = append(batch, frontier.Request{URL: killURL(n), Depth: 1})
				n++
			}
			if _, err := f.Push(ctx, batch...); err != nil {
				return fail(err)
			}
			r, err := f.Next(ctx)
			if err != nil {
				return fail(err)
			}
			if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
				return fail(err)
			}
			fmt.Println("done", r.URL, n)
		}
	}
	return 0
}

// startKillChild starts the child in mode and returns its stdout.
func startKillChild(t *testing.T, dir, mode string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+dir+" "+mode)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close() })
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(out)
}

// kill sends SIGKILL to the child and waits for it.
func kill(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the child exited 0; want it killed")
	}
}

// TestKill kills (SIGKILL) a process writing a frontier and checks that the
// reopened frontier has everything up to the last commit: in "steps", the
// flushed Pushes and the Done, the lease back, and not the Push made after
// the last commit; in "loop", killed at whatever point it reached, every
// Done reported is kept and every URL pushed before it is seen.
func TestKill(t *testing.T) {
	t.Run("steps", func(t *testing.T) {
		dir := t.TempDir()
		cmd, out := startKillChild(t, dir, "steps")
		var done, leased string
		for out.Scan() {
			word, rest, _ := strings.Cut(out.Text(), " ")
			switch word {
			case "done":
				done = rest
			case "leased":
				leased = rest
			case "error":
				t.Fatalf("child: %s", rest)
			}
			if word == "ready" {
				break
			}
		}
		if done == "" || leased == "" {
			t.Fatalf("the child ended before it was ready (%v)", out.Err())
		}
		kill(t, cmd)

		f := open(t, dir, killOptions())
		defer f.Close()
		ctx := context.Background()
		if n, err := f.Push(ctx, reqs("a.test", 0, 20)...); n != 0 || err != nil {
			t.Errorf("after kill -9, Push of the 20 flushed URLs = %d, %v; want 0 (seen)", n, err)
		}
		got := drainData(t, f)
		if _, ok := got[done]; ok {
			t.Errorf("after kill -9, %s (done before it) was handed out again", done)
		}
		if _, ok := got[leased]; !ok {
			t.Errorf("after kill -9, %s (leased at it) was not handed out again", leased)
		}
		if len(got) != 19 {
			t.Errorf("after kill -9, handed out %d URLs, want the 19 of a.test not done", len(got))
		}
		if n, _ := f.Push(ctx, reqs("b.test", 0, 10)...); n != 10 {
			t.Errorf("after kill -9, Push of the 10 URLs pushed after the last commit = %d, want 10 (lost)", n)
		}
	})

	t.Run("loop", func(t *testing.T) {
		dir := t.TempDir()
		cmd, out := startKillChild(t, dir, "loop")
		const reports = 200
		done := map[string]bool{}
		pushed := 0
		for len(done) < reports && out.Scan() {
			fields := strings.Fields(out.Text())
			if len(fields) != 3 || fields[0] != "done" {
				t.Fatalf("child: %s", out.Text())
			}
			done[fields[1]] = true
			if pushed, _ = strconv.Atoi(fields[2]); pushed == 0 {
				t.Fatalf("child: %s", out.Text())
			}
		}
		if len(done) < reports {
			t.Fatalf("the child reported %d Dones, then ended (%v)", len(done), out.Err())
		}
		kill(t, cmd) // while it pushes and commits

		f := open(t, dir, killOptions())
		defer f.Close()
		ctx := context.Background()
		seen := 0
		for i := range pushed {
			n, err := f.Push(ctx, frontier.Request{URL: killURL(i), Depth: 1})
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				seen++
			}
		}
		if seen != pushed {
			t.Errorf("after kill -9, %d of the %d URLs pushed before the last Done reported are seen, want all", seen, pushed)
		}
		got := drainData(t, f) // fails on a URL handed out twice
		for u := range done {
			if _, ok := got[u]; ok {
				t.Errorf("after kill -9, %s (done) was handed out again", u)
			}
		}
		if _, err := f.Next(ctx); !errors.Is(err, frontier.ErrEmpty) {
			t.Errorf("Next on the drained frontier = %v, want ErrEmpty", err)
		}
	})
}
