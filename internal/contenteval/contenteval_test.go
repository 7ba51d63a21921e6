package contenteval

import (
	"errors"
	"math"
	"os"
	"runtime"
	"testing"
)

func TestScore(t *testing.T) {
	tests := []struct {
		pred, truth string
		p, r, f1    float64
		ok          bool
	}{
		{pred: "The cat sat.", truth: "the CAT sat", p: 1, r: 1, f1: 1, ok: true},
		{pred: "a a b", truth: "a b c d", p: 2.0 / 3, r: 0.5, f1: 2 * (2.0 / 3) * 0.5 / (2.0/3 + 0.5), ok: true},
		{pred: "", truth: "x y", ok: true},
		{pred: "x", truth: "... --- ...", ok: false},
		{pred: "état_été", truth: "état été", p: 1, r: 1, f1: 1, ok: true},
	}
	for _, tt := range tests {
		p, r, f1, ok := Score(tt.pred, tt.truth)
		if ok != tt.ok || math.Abs(p-tt.p) > 1e-9 || math.Abs(r-tt.r) > 1e-9 || math.Abs(f1-tt.f1) > 1e-9 {
			t.Errorf("Score(%q, %q) = %v %v %v %v, want %v %v %v %v", tt.pred, tt.truth, p, r, f1, ok, tt.p, tt.r, tt.f1, tt.ok)
		}
	}
}

func TestLoadMissing(t *testing.T) {
	if _, err := Load(t.TempDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of an empty dir: %v, want os.ErrNotExist", err)
	}
}

// TestRequireData checks the three outcomes of RequireData: present data
// passes, absent data skips, and absent data fails when CI is set.
func TestRequireData(t *testing.T) {
	dir := t.TempDir()
	missing := dir + "/missing"
	for _, tt := range []struct {
		name, dir, ci string
		skip, fail    bool
	}{
		{name: "present", dir: dir},
		{name: "absent", dir: missing, skip: true},
		{name: "absent in CI", dir: missing, ci: "true", fail: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			rec := &recorder{TB: t}
			done := make(chan struct{})
			go func() { // Skip and Fatal end the goroutine, as they end a test
				defer close(done)
				RequireData(rec, tt.dir)
			}()
			<-done
			if rec.skipped != tt.skip || rec.failed != tt.fail {
				t.Errorf("RequireData(%s) with CI=%q: skipped %v failed %v, want %v %v", tt.dir, tt.ci, rec.skipped, rec.failed, tt.skip, tt.fail)
			}
		})
	}
}

// recorder is a testing.TB that records Skipf and Fatalf instead of
// acting on the test.
type recorder struct {
	testing.TB
	skipped, failed bool
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(string, ...any) {
	r.skipped = true
	runtime.Goexit()
}
func (r *recorder) Fatalf(string, ...any) {
	r.failed = true
	runtime.Goexit()
}
