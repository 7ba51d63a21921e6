//go:build trawl_nostate

package trawlcli

import (
	"strings"
	"testing"
)

// TestNoState checks that a build without the persistent frontier refuses
// -state with a clear error instead of crawling without it. CI runs it with
// go test -tags trawl_nostate.
func TestNoState(t *testing.T) {
	code, _, stderr := run(t, "-state", t.TempDir(), "-progress=false", "http://a.test/")
	if code != 2 || !strings.Contains(stderr, "trawl_nostate") {
		t.Errorf("exit %d, stderr %q; want exit 2 naming the build tag", code, stderr)
	}
}
