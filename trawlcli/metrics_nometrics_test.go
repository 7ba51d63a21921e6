//go:build trawl_nometrics

package trawlcli

import (
	"strings"
	"testing"
)

func TestMetricsLeftOut(t *testing.T) {
	code, _, stderr := run(t, "-demo", "-progress=false", "-metrics", "0")
	if code != 1 || !strings.Contains(stderr, "trawl_nometrics") {
		t.Errorf("exit %d, stderr %q; want 1 naming the tag", code, stderr)
	}
}
