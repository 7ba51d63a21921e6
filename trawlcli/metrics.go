//go:build !trawl_nometrics

package trawlcli

import (
	"context"
	"net"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/metrics"
)

// metricsEndpoint is -metrics: a Prometheus collector (package metrics)
// and the listener it is served on.
type metricsEndpoint struct {
	col    *metrics.Collector
	ln     net.Listener
	events trawl.Events
}

// newMetricsEndpoint listens on addr (loopback unless it names a host).
func newMetricsEndpoint(addr string) (*metricsEndpoint, error) {
	ln, err := metrics.Listen(addr)
	if err != nil {
		return nil, err
	}
	col := metrics.New(nil)
	return &metricsEndpoint{col: col, ln: ln, events: col.Events()}, nil
}

// serve serves c's metrics until ctx ends.
func (m *metricsEndpoint) serve(ctx context.Context, c *trawl.Crawler) error {
	m.col.Watch(c)
	return metrics.Serve(ctx, m.ln, metrics.Handler(m.col))
}
