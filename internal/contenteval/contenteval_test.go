package contenteval

import (
	"errors"
	"math"
	"os"
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
