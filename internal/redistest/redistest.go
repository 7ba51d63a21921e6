// Package redistest starts a private redis-server on a free loopback port
// for a test, as httptest starts an HTTP server. The server keeps nothing on
// disk and is killed when the test ends.
//
// Tests skip with a message naming the Debian package when redis-server is
// not installed, unless the environment variable CI is set (as .ci/run sets
// it), when they fail: CI installs redis-server and must never skip.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Server is a running redis-server.
type Server struct {
	Addr string // "127.0.0.1:port"
	cmd  *exec.Cmd
}

// URL returns the server's redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr }

// Binary returns the path of redis-server, or skips tb (fails it when CI is
// set) when it is not installed.
func Binary(tb testing.TB) string {
	tb.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("redis-server not found and CI is set: install it (apt-get install redis-server; .ci/run does): %v", err)
		}
		tb.Skipf("redis-server not found (install the Debian package redis-server to run this test): %v", err)
	}
	return path
}

// Start starts a redis-server for tb and returns when it accepts
// connections. It is stopped (SIGKILL) by tb.Cleanup.
func Start(tb testing.TB) *Server {
	tb.Helper()
	bin := Binary(tb)
	for attempt := 0; ; attempt++ {
		s, err := start(tb, bin)
		if err == nil {
			return s
		}
		if attempt == 4 {
			tb.Fatalf("redistest: %v", err)
		}
		// The free port was taken between Listen and the server's bind:
		// try another.
	}
}

func start(tb testing.TB, bin string) (*Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin,
		"--bind", "127.0.0.1", "--port", strconv.Itoa(port),
		"--save", "", "--appendonly", "no", "--dir", tb.TempDir(),
		"--protected-mode", "yes", "--loglevel", "notice")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting redis-server: %w", err)
	}
	// The server says when it is ready; no polling.
	sc := bufio.NewScanner(out)
	var tail []string
	for sc.Scan() {
		line := sc.Text()
		tail = append(tail, line)
		if strings.Contains(line, "Ready to accept connections") {
			go func() { // keep draining so the server never blocks on its log
				for sc.Scan() {
				}
			}()
			s := &Server{Addr: "127.0.0.1:" + strconv.Itoa(port), cmd: cmd}
			tb.Cleanup(func() {
				cmd.Process.Kill()
				cmd.Wait()
			})
			return s, nil
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	return nil, fmt.Errorf("redis-server on port %d exited before it was ready:\n%s", port, strings.Join(tail, "\n"))
}
