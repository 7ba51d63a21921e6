package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// LoopbackAddr completes a listen address, defaulting to loopback: "9090"
// and ":9090" become "127.0.0.1:9090", "" becomes "127.0.0.1:9090"; an
// address with a host ("0.0.0.0:9090", "[::1]:9100") is kept, so exposing
// the metrics beyond the machine takes an explicit host.
func LoopbackAddr(addr string) string {
	addr = strings.TrimSpace(addr)
	switch {
	case addr == "":
		return "127.0.0.1:9090"
	case !strings.Contains(addr, ":"):
		return "127.0.0.1:" + addr
	case strings.HasPrefix(addr, ":"):
		return "127.0.0.1" + addr
	}
	return addr
}

// Listen listens on LoopbackAddr(addr) with TCP.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", LoopbackAddr(addr))
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	return ln, nil
}

// Handler returns an HTTP handler serving c, with the Go runtime and
// process collectors, in the Prometheus exposition formats.
func Handler(c *Collector) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(c, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}

// Serve serves h on ln at /metrics (and /, for a browser) until ctx ends,
// then shuts the server down, waiting up to 5 seconds for scrapes in
// progress. It returns nil after ctx ends, or the server's error.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	mux := http.NewServeMux()
	mux.Handle("/metrics", h)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, `trawl metrics: see /metrics`)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("metrics: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	return nil
}
