package optional

import (
	"strings"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/disk"
)

// TestOPICOnDiskFrontier: frontier/disk cannot raise a queued URL's
// priority, so it cannot keep OPIC's accounts; New says so rather than
// crawl in another order.
func TestOPICOnDiskFrontier(t *testing.T) {
	dir := t.TempDir()
	_, err := trawl.New(
		trawl.WithSeeds("http://a.test/"),
		trawl.WithPriority(trawl.Priority{OPIC: true}),
		trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
			f, err := disk.Open(dir, &disk.Options{Strategy: o.Strategy})
			if err == nil {
				t.Cleanup(func() { f.Close() })
			}
			return f, err
		}),
	)
	if err == nil || !strings.Contains(err.Error(), "Priority.OPIC") {
		t.Fatalf("New with OPIC on a disk frontier: err = %v, want one naming Priority.OPIC", err)
	}
}
