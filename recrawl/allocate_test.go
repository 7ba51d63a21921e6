package recrawl

import (
	"math"
	"math/rand/v2"
	"testing"
)

func logUniform(rng *rand.Rand, n int, lo, hi float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Exp(math.Log(lo) + (math.Log(hi)-math.Log(lo))*rng.Float64())
	}
	return out
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	lambdas := logUniform(rng, 200, 1.0/(7*86400), 1.0/60)
	const budget, fmin, fmax = 200.0 / 7200, 1e-7, 1.0
	fresh := map[Objective]float64{}
	for _, obj := range []Objective{MaxFreshness, MinAge, Uniform, Proportional} {
		rates := Allocate(obj, lambdas, budget, fmin, fmax)
		if got := sum(rates); math.Abs(got-budget) > 1e-3*budget {
			t.Errorf("%v: rates sum to %g, want the budget %g", obj, got, budget)
		}
		fresh[obj] = MeanFreshness(lambdas, rates)
		t.Logf("%-12v mean freshness %.3f", obj, fresh[obj])
	}
	if !(fresh[MaxFreshness] > fresh[Uniform] && fresh[Uniform] > fresh[Proportional]) {
		t.Errorf("freshness: optimal %.3f, uniform %.3f, proportional %.3f; want optimal > uniform > proportional",
			fresh[MaxFreshness], fresh[Uniform], fresh[Proportional])
	}
	// MinAge is optimal for age: no other allocation has a lower mean age.
	meanAge := func(rates []float64) float64 {
		s := 0.0
		for i, l := range lambdas {
			s += age(l, rates[i])
		}
		return s
	}
	best := meanAge(Allocate(MinAge, lambdas, budget, fmin, fmax))
	for _, obj := range []Objective{MaxFreshness, Uniform, Proportional} {
		if a := meanAge(Allocate(obj, lambdas, budget, fmin, fmax)); a < best*(1-1e-6) {
			t.Errorf("%v has mean age %g below MinAge's %g", obj, a, best)
		}
	}
}

// The optimum satisfies its optimality conditions: every page with a rate
// strictly inside (fmin, fmax) has the same marginal gain μ, and every page
// at fmin has a gain no higher.
func TestAllocateKKT(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	lambdas := logUniform(rng, 200, 1e-6, 1e-1)
	const budget, fmin, fmax = 0.05, 1e-6, 0.01
	rates := Allocate(MaxFreshness, lambdas, budget, fmin, fmax)
	gain := func(l, f float64) float64 { return freshGain(l/f) / l }
	mu := math.NaN()
	for i, l := range lambdas {
		f := rates[i]
		switch {
		case f > fmin*1.0001 && f < fmax*0.9999:
			g := gain(l, f)
			if math.IsNaN(mu) {
				mu = g
			} else if math.Abs(g-mu) > 1e-6*mu {
				t.Errorf("page λ=%g f=%g: marginal gain %g, others %g", l, f, g, mu)
			}
		}
	}
	if math.IsNaN(mu) {
		t.Fatal("no page strictly inside the bounds")
	}
	for i, l := range lambdas {
		if rates[i] <= fmin*1.0001 && gain(l, fmin) > mu*(1+1e-6) {
			t.Errorf("page λ=%g held at fmin has gain %g above μ %g", l, gain(l, fmin), mu)
		}
		// Pages that change far faster than they could be revisited get
		// nothing but the minimum.
		if l > 1/mu && rates[i] > fmin*1.0001 {
			t.Errorf("page λ=%g > 1/μ got rate %g, want fmin", l, rates[i])
		}
	}
}

func TestAllocateBounds(t *testing.T) {
	l := []float64{1e-3, 1e-4, 0}
	for _, obj := range []Objective{MaxFreshness, MinAge, Uniform} {
		for _, r := range Allocate(obj, l, 1e-9, 1e-6, 1) { // budget below fmin·n
			if r != 1e-6 {
				t.Errorf("%v with a tiny budget: rate %g, want fmin", obj, r)
			}
		}
		for _, r := range Allocate(obj, l, 100, 1e-6, 1) { // budget above fmax·n
			if r != 1 {
				t.Errorf("%v with a huge budget: rate %g, want fmax", obj, r)
			}
		}
	}
	if got := Allocate(MaxFreshness, nil, 1, 0, 1); len(got) != 0 {
		t.Errorf("Allocate(nil) = %v", got)
	}
}

func TestParseObjective(t *testing.T) {
	for o := MaxFreshness; o <= Proportional; o++ {
		got, err := ParseObjective(o.String())
		if err != nil || got != o {
			t.Errorf("ParseObjective(%q) = %v, %v", o.String(), got, err)
		}
	}
	if _, err := ParseObjective("fastest"); err == nil {
		t.Error("ParseObjective(fastest) succeeded")
	}
}
