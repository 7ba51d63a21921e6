package contenteval

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// RequireData returns when the evaluation data at dir (a corpus directory
// such as ../../shared/data/content-eval, relative to the test's package)
// is present. When it is absent, it skips tb with a message that says where
// the data was looked for, or fails tb when the environment variable CI is
// set: CI runs with the data in place, so there its absence is an error,
// not a reason to skip (as internal/redistest does for redis-server).
func RequireData(tb testing.TB, dir string) {
	tb.Helper()
	_, err := os.Stat(dir)
	if err == nil {
		return
	}
	abs, _ := filepath.Abs(dir)
	if !errors.Is(err, fs.ErrNotExist) {
		tb.Fatalf("contenteval: evaluation data at %s: %v", abs, err)
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("contenteval: evaluation data not found at %s and CI is set: CI needs shared/data next to the repository (it is AGPL and never copied into it)", abs)
	}
	tb.Skipf("evaluation data not found at %s (shared/data next to the repository); skipping", abs)
}
