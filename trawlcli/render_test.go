package trawlcli

import (
	"os"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/render"
)

// TestRenderFlag: -render takes never, always or auto, not with -replay; -render always
// renders the demo web's pages and says so in the summary, as auto does
// its samples.
func TestRenderFlag(t *testing.T) {
	if code, _, stderr := run(t, "-render", "sometimes", "http://a.test/"); code != 2 || !strings.Contains(stderr, "-render") {
		t.Errorf("-render sometimes: exit %d, stderr %q; want 2 naming the flag", code, stderr)
	}
	warcs := t.TempDir()
	if code, _, stderr := run(t, "-demo", "-progress=false", "-max-pages", "1", "-warc", warcs); code != 0 {
		t.Fatalf("-demo -warc: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, "-render", "always", "-replay", warcs, "http://a.test/"); code != 2 || !strings.Contains(stderr, "cannot be combined") {
		t.Errorf("-render always -replay DIR: exit %d, stderr %q; want 2 naming both", code, stderr)
	}
	if _, err := render.FindChromium(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%v; CI is set, so this fails rather than skips", err)
		}
		t.Skip(err)
	}
	code, stdout, stderr := run(t, "-demo", "-progress=false", "-render", "always", "-max-pages", "4")
	if code != 0 || !strings.Contains(stdout, "render: 4 pages rendered, 0 failed") {
		t.Errorf("-demo -render always: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = run(t, "-demo", "-progress=false", "-render", "auto", "-max-pages", "4")
	if code != 0 || !strings.Contains(stdout, "compared") {
		t.Errorf("-demo -render auto: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
