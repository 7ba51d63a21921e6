package recrawl

import (
	"fmt"
	"math"
)

// Objective is what a revisit schedule optimises.
type Objective int

const (
	// MaxFreshness maximises the expected mean freshness of the copies
	// under the fetch budget (Cho and Garcia-Molina's optimal allocation):
	// the revisit rate fᵢ of every page equalises the marginal gain
	// ∂F(λᵢ, fᵢ)/∂fᵢ = (1 − (1 + x)e^{−x})/λᵢ, x = λᵢ/fᵢ, at a Lagrange
	// multiplier μ chosen so that Σ fᵢ is the budget. A page whose gain
	// cannot reach μ even at a rate near 0 (λᵢ > 1/μ: it changes far faster
	// than it can be revisited) gets only the minimum rate. The default.
	MaxFreshness Objective = iota
	// MinAge minimises the expected mean age of the copies under the
	// budget, with the same method; faster-changing pages get more visits
	// (age, unlike freshness, keeps growing while a copy is stale).
	MinAge
	// Uniform revisits every page of a host at the same rate: budget/pages.
	Uniform
	// Proportional revisits each page at a rate proportional to its
	// estimated change rate. It is here for comparison: it is worse than
	// Uniform for freshness (Cho and Garcia-Molina).
	Proportional
)

// String returns "freshness", "age", "uniform" or "proportional".
func (o Objective) String() string {
	switch o {
	case MaxFreshness:
		return "freshness"
	case MinAge:
		return "age"
	case Uniform:
		return "uniform"
	case Proportional:
		return "proportional"
	}
	return fmt.Sprintf("Objective(%d)", int(o))
}

// ParseObjective is the inverse of Objective.String.
func ParseObjective(s string) (Objective, error) {
	for o := MaxFreshness; o <= Proportional; o++ {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("recrawl: unknown objective %q (want freshness, age, uniform or proportional)", s)
}

// Allocate returns the revisit rate (per second) of each page with change
// rate lambdas[i] (per second) that obj chooses under a total budget of
// revisits per second, each rate kept in [fmin, fmax]. When fmin·len
// exceeds the budget every page gets fmin; when fmax·len is under it every
// page gets fmax. It is the analytic allocation the Planner approximates
// per host from its estimates.
func Allocate(obj Objective, lambdas []float64, budget, fmin, fmax float64) []float64 {
	out := make([]float64, len(lambdas))
	if len(lambdas) == 0 {
		return out
	}
	counts := make([]float64, len(lambdas))
	for i := range counts {
		counts[i] = 1
	}
	p := makePlan(obj, lambdas, counts, budget, fmin, fmax)
	for i, l := range lambdas {
		out[i] = p.rate(l)
	}
	return out
}

// MeanFreshness returns the mean of Freshness over pages with change
// rates lambdas revisited at rates (per second).
func MeanFreshness(lambdas, rates []float64) float64 {
	if len(lambdas) == 0 {
		return 1
	}
	s := 0.0
	for i, l := range lambdas {
		s += freshness(l, rates[i])
	}
	return s / float64(len(lambdas))
}

// plan is a solved allocation: what rate gives a page of change rate λ.
type plan struct {
	obj        Objective
	mu         float64 // Lagrange multiplier (MaxFreshness, MinAge)
	perPage    float64 // Uniform's rate
	perLambda  float64 // Proportional's rate per unit of λ
	fmin, fmax float64
	uniform    float64 // budget / pages (the Planner's)
}

// makePlan solves obj's allocation for a population where lambdas[i]
// stands for counts[i] pages.
func makePlan(obj Objective, lambdas, counts []float64, budget, fmin, fmax float64) plan {
	p := plan{obj: obj, fmin: fmin, fmax: fmax}
	n, sum := 0.0, 0.0
	for i, c := range counts {
		n += c
		sum += c * lambdas[i]
	}
	switch obj {
	case Uniform:
		if n > 0 {
			p.perPage = budget / n
		}
		return p
	case Proportional:
		if sum > 0 {
			p.perLambda = budget / sum
		}
		return p
	}
	switch {
	case fmin*n >= budget:
		p.mu = math.Inf(1) // everyone at fmin
		return p
	case fmax*n <= budget:
		return p // μ = 0: everyone at fmax
	}
	total := func(mu float64) float64 {
		q := p
		q.mu = mu
		s := 0.0
		for i, l := range lambdas {
			if counts[i] > 0 {
				s += counts[i] * q.rate(l)
			}
		}
		return s
	}
	// Σ rates falls as μ grows. Bisect on ln μ over a range wide enough for
	// rates from nanohertz to kilohertz.
	lo, hi := math.Log(1e-30), math.Log(1e30)
	for range 48 {
		mid := (lo + hi) / 2
		if total(math.Exp(mid)) > budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	p.mu = math.Exp((lo + hi) / 2)
	return p
}

// rate returns the revisit rate of a page with change rate l.
func (p plan) rate(l float64) float64 {
	var f float64
	switch p.obj {
	case Uniform:
		f = p.perPage
	case Proportional:
		f = p.perLambda * l
	case MaxFreshness:
		// gain(x) = (1 − (1+x)e^{−x})/λ rises from 0 to 1/λ as the
		// interval's x = λ/f grows: the rate where it equals μ.
		switch {
		case p.mu <= 0:
			f = math.Inf(1)
		case l <= 0 || math.IsInf(p.mu, 1) || p.mu*l >= 1:
			f = 0
		default:
			f = l / invert(freshGain, p.mu*l)
		}
	case MinAge:
		// gain(x) = (x²/2 − 1 + (1+x)e^{−x})/λ², rising from 0 to ∞.
		switch {
		case p.mu <= 0:
			f = math.Inf(1)
		case l <= 0 || math.IsInf(p.mu, 1):
			f = 0
		default:
			f = l / invert(ageGain, p.mu*l*l)
		}
	}
	return min(max(f, p.fmin), p.fmax)
}

// freshGain is 1 − (1+x)e^{−x}, the marginal freshness gain times λ.
func freshGain(x float64) float64 {
	if x < 1e-3 {
		return x * x / 2 * (1 - 2*x/3)
	}
	return -math.Expm1(-x) - x*math.Exp(-x)
}

// ageGain is x²/2 − 1 + (1+x)e^{−x}, computed without cancellation for
// small x (it is x³/3 − x⁴/8 + …).
func ageGain(x float64) float64 {
	if x < 1e-3 {
		return x * x * x / 3 * (1 - 3*x/8)
	}
	return x*x/2 - 1 + (1+x)*math.Exp(-x)
}

// invert returns x > 0 with g(x) = y for an increasing g with g(0) = 0,
// by bisection on ln x.
func invert(g func(float64) float64, y float64) float64 {
	lo, hi := math.Log(1e-12), math.Log(1e12)
	for range 44 {
		mid := (lo + hi) / 2
		if g(math.Exp(mid)) < y {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2)
}
