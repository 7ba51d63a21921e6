//go:build trawl_nometrics

package trawlcli

import (
	"context"
	"errors"
	"net"

	"github.com/trawl-dev/trawl"
)

// metricsEndpoint, in a build with the tag trawl_nometrics, is never made:
// the Prometheus client (3.5 MB of a spider's 18.8 MB binary) is left out.
type metricsEndpoint struct {
	ln     net.Listener
	events trawl.Events
}

func newMetricsEndpoint(string) (*metricsEndpoint, error) {
	return nil, errors.New("this program was built with the tag trawl_nometrics, without the Prometheus client")
}

func (*metricsEndpoint) serve(context.Context, *trawl.Crawler) error { return nil }
