// Package driver holds what the comparison's crawler drivers share: the
// flags every driver takes (the same names as examples/sitespider), a
// dialer that refuses anything but loopback, and the result line.
//
// # Concurrency
//
// DialLoopback and the Transport are safe for concurrent use; Parse and
// Report are called once, from main.
package driver

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// Flags are the job every crawler is given.
type Flags struct {
	Seeds           []string
	MaxPages        int
	Concurrency     int
	HostConcurrency int
	Delay           time.Duration
	UserAgent       string
}

// Parse parses the process's flags.
func Parse() Flags {
	var f Flags
	seeds := flag.String("seeds", "", "read start URLs from `FILE`, one per line")
	flag.IntVar(&f.MaxPages, "max-pages", 0, "stop after N page fetches (0 = no limit)")
	flag.IntVar(&f.Concurrency, "concurrency", 16, "fetches in flight at once, over all hosts")
	flag.IntVar(&f.HostConcurrency, "host-concurrency", 1, "fetches in flight at once to one host")
	flag.DurationVar(&f.Delay, "delay", 0, "gap between requests to one host")
	flag.StringVar(&f.UserAgent, "user-agent", "", "User-Agent header and robots.txt token")
	flag.Parse()
	f.Seeds = flag.Args()
	if *seeds != "" {
		file, err := os.Open(*seeds)
		if err != nil {
			Fail(err)
		}
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
				f.Seeds = append(f.Seeds, l)
			}
		}
		file.Close()
	}
	if len(f.Seeds) == 0 {
		Fail(errors.New("no seeds"))
	}
	return f
}

// Fail prints err and exits with status 1.
func Fail(err error) {
	fmt.Fprintln(os.Stderr, "driver:", err)
	os.Exit(1)
}

// ErrNotLoopback is returned by DialLoopback for any other address.
var ErrNotLoopback = errors.New("driver: refusing a non-loopback address")

// DialLoopback dials addr only when it is a loopback IP literal: the
// benchmark never resolves names nor leaves the machine, whatever links
// the pages hold.
func DialLoopback(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("%w: %s", ErrNotLoopback, addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// Transport returns an http.Transport that dials only loopback and keeps
// up to perHost idle connections per host.
func Transport(perHost int) *http.Transport {
	return &http.Transport{
		DialContext:         DialLoopback,
		MaxIdleConns:        0,
		MaxIdleConnsPerHost: max(perHost, 2),
		IdleConnTimeout:     30 * time.Second,
	}
}

// Report prints the driver's result line, which the harness reads.
func Report(fetched, discovered int64, elapsed time.Duration) {
	fmt.Printf("result fetched=%d discovered=%d elapsed=%.3f\n", fetched, discovered, elapsed.Seconds())
}
