package trawlcli

import (
	"os"
	"strings"
	"testing"
)

// TestOPICFlag: -opic crawls the demo web in OPIC order to the end, and
// the decision log gives each fetched page's importance.
func TestOPICFlag(t *testing.T) {
	decisions := t.TempDir() + "/d.jsonl"
	code, stdout, stderr := run(t, "-demo", "-progress=false", "-opic", "-decisions", decisions)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(decisions)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	fetched, withImportance := 0, 0
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, `"outcome":"fetched"`) {
			fetched++
			if strings.Contains(line, `"importance":`) {
				withImportance++
			}
		}
	}
	if fetched < 10 || withImportance != fetched {
		t.Errorf("%d pages fetched, %d with an importance in the decision log; want every one, and at least 10", fetched, withImportance)
	}
}
