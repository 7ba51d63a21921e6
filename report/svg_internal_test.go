package report

import "testing"

func TestHuman(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"}, {1, "1"}, {2.5, "2.5"}, {0.126, "0.13"}, {10, "10"}, {12.34, "12.3"}, {97, "97"},
		{150, "150"}, {1500, "1.5k"}, {1000, "1k"}, {5_260_000, "5.26M"}, {2e9, "2G"}, {-3000, "-3k"},
	}
	for _, tt := range tests {
		if got := human(tt.v); got != tt.want {
			t.Errorf("human(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestNiceStep(t *testing.T) {
	tests := []struct {
		max  float64
		n    int
		want float64
	}{
		{max: 800, n: 4, want: 200}, {max: 366, n: 4, want: 100}, {max: 7, n: 4, want: 2},
		{max: 0.3, n: 4, want: 0.1}, {max: 0, n: 4, want: 1}, {max: 1e6, n: 6, want: 200000},
	}
	for _, tt := range tests {
		if got := niceStep(tt.max, tt.n); got != tt.want {
			t.Errorf("niceStep(%v, %d) = %v, want %v", tt.max, tt.n, got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		s    float64
		want string
	}{{0, "0s"}, {0.5, "0.5s"}, {45, "45s"}, {750, "12m30s"}, {11100, "3h05m"}}
	for _, tt := range tests {
		if got := duration(tt.s); got != tt.want {
			t.Errorf("duration(%v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestRatesAreSteps(t *testing.T) {
	ss := []Sample{{Elapsed: 0, Fetched: 0}, {Elapsed: 2e9, Fetched: 10}, {Elapsed: 2e9, Fetched: 10}, {Elapsed: 3e9, Fetched: 40}}
	got := rates(ss, func(s *Sample) int64 { return s.Fetched })
	want := []point{{0, 5}, {2, 5}, {2, 30}, {3, 30}}
	if len(got) != len(want) {
		t.Fatalf("rates = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("rates = %v, want %v", got, want)
			break
		}
	}
}
