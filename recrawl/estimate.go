package recrawl

import (
	"math"
	"time"
)

// Observation is what one revisit saw: the time since the visit before it
// and whether the page had changed in between. With an honest
// Last-Modified, Since is the time from the last change to the visit.
type Observation struct {
	Interval time.Duration // time since the previous visit
	Changed  bool          // the page changed (at least once) in that time
}

// EstimateRegular is Cho and Garcia-Molina's bias-corrected estimator of a
// Poisson change rate from n visits at a regular interval, of which changes
// saw a change: λ̂ = −ln((n − changes + 0.5) / (n + 0.5)) / interval, in
// changes per second. Unlike the plain maximum-likelihood estimate
// −ln((n − changes)/n)/interval, it is finite when every visit saw a change
// and has far less bias for small n. It returns 0 for n ≤ 0 or a
// non-positive interval.
func EstimateRegular(n, changes int, interval time.Duration) float64 {
	if n <= 0 || interval <= 0 {
		return 0
	}
	changes = min(max(changes, 0), n)
	return -math.Log((float64(n-changes)+0.5)/(float64(n)+0.5)) / interval.Seconds()
}

// EstimateIrregular estimates a Poisson change rate (changes per second)
// from visits at irregular intervals, each saying only whether the page
// changed (Cho and Garcia-Molina's incomplete change history). It solves
// the maximum-likelihood equation
//
//	Σ_changed tᵢ / (e^{λ tᵢ} − 1) = Σ_unchanged tⱼ + ½ t̃
//
// where t̃ is the harmonic mean of the intervals. The ½ t̃ term is the bias
// correction (half an unchanged visit): with equal intervals the solution
// is exactly EstimateRegular's. The harmonic mean keeps a few long
// intervals among short ones from swamping the short ones' evidence. It returns 0
// when no change was seen (or obs is empty).
func EstimateIrregular(obs []Observation) float64 {
	var changed int
	var unchanged, total float64
	for _, o := range obs {
		t := o.Interval.Seconds()
		if t <= 0 {
			continue
		}
		total += t
		if o.Changed {
			changed++
		} else {
			unchanged += t
		}
	}
	if changed == 0 {
		return 0
	}
	n, inv := 0, 0.0
	for _, o := range obs {
		if o.Interval > 0 {
			n++
			inv += 1 / o.Interval.Seconds()
		}
	}
	rhs := unchanged + 0.5*float64(n)/inv
	// lhs(λ) = Σ tᵢ/(e^{λtᵢ}−1) falls from +∞ (λ→0) to 0 (λ→∞): bisect
	// on ln λ.
	lhs := func(l float64) float64 {
		s := 0.0
		for _, o := range obs {
			t := o.Interval.Seconds()
			if !o.Changed || t <= 0 {
				continue
			}
			s += t / math.Expm1(l*t)
		}
		return s
	}
	lo, hi := math.Log(1e-12), math.Log(1e3)
	for hi-lo > 1e-7 {
		mid := (lo + hi) / 2
		if lhs(math.Exp(mid)) > rhs {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2)
}

// EstimateLastModified estimates a Poisson change rate when the server's
// Last-Modified dates are honest: exposure is the total time observed
// without a change (each unchanged interval, plus for each visit that saw a
// change the time from its Last-Modified date to the visit), and changes is
// the number of visits that saw one. It returns the maximum-likelihood
// estimate changes/exposure (its bias is under +6 % after 20 visits for
// λI from 0.05 to 5, see the package tests), or 0 for no change or no
// exposure.
func EstimateLastModified(changes int, exposure time.Duration) float64 {
	if changes <= 0 || exposure <= 0 {
		return 0
	}
	return float64(changes) / exposure.Seconds()
}

// Freshness is the expected time-averaged freshness of a copy of a page
// that changes as a Poisson process with rate lambda (per second) and is
// revisited every interval: (1 − e^{−λI})/(λI), the fraction of the time
// the copy equals the live page. It is 1 for lambda 0.
func Freshness(lambda float64, interval time.Duration) float64 {
	return freshness(lambda, 1/interval.Seconds())
}

// freshness is Freshness with a revisit rate f (per second).
func freshness(lambda, f float64) float64 {
	if lambda <= 0 {
		return 1
	}
	if f <= 0 {
		return 0
	}
	x := lambda / f
	return -math.Expm1(-x) / x
}

// Age is the expected time-averaged age of such a copy (the time since the
// live page first changed after the copy was taken, 0 while fresh):
// I/2 − 1/λ + (1 − e^{−λI})/(λ²I). It is 0 for lambda 0.
func Age(lambda float64, interval time.Duration) time.Duration {
	return time.Duration(age(lambda, 1/interval.Seconds()) * float64(time.Second))
}

func age(lambda, f float64) float64 {
	if lambda <= 0 {
		return 0
	}
	if f <= 0 {
		return math.Inf(1)
	}
	i := 1 / f
	x := lambda * i
	if x < 1e-4 { // series: λI²/6 − λ²I³/24 …, avoiding cancellation
		return lambda * i * i / 6 * (1 - x/4)
	}
	return i/2 - 1/lambda + -math.Expm1(-x)/(lambda*lambda*i)
}
