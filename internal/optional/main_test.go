package optional_test

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

const testUA = "trawltest/1.0 (+https://github.com/trawl-dev/trawl)"

// TestMain runs the child of TestMetaSurvivesKill when asked to, and fails
// the package when goroutines outlive the tests (as the root package's
// does): Run must own every goroutine it starts.
func TestMain(m *testing.M) {
	if dir := os.Getenv(metaChildEnv); dir != "" {
		os.Exit(metaChild(dir, os.Getenv(metaChildAddr)))
	}
	before := runtime.NumGoroutine()
	code := m.Run()
	if code == 0 {
		if n := settleGoroutines(before); n > before {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			fmt.Fprintf(os.Stderr, "goroutine leak: %d goroutines before the tests, %d after\n%s\n", before, n, buf)
			code = 1
		}
	}
	os.Exit(code)
}

// settleGoroutines polls (bounded) until at most want goroutines remain:
// connection goroutines exit asynchronously after their sockets close.
func settleGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 200 && n > want; i++ {
		runtime.Gosched()
		time.Sleep(5 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}
