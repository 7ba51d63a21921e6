package recrawl

import "math"

// A posterior is what a page's history says of its change rate, as
// weights over a grid of rates: the prior (log-normal around its group's
// rate) times the likelihood of what its revisits saw. The schedule
// maximises a page's expected freshness under it, not its freshness at a
// point estimate, so that the uncertainty of a young estimate is part of
// the allocation: a page whose few revisits all found a change may change
// at twice the revisit rate or at a hundred times, and the hundred-times
// part of the posterior gains nothing from a visit.
//
// The grid has postPerDec points per decade from 10^postLow per second
// (once in 30 years) to 10^postHigh (a hundred a second).
const (
	postLow    = -9
	postHigh   = 2
	postPerDec = 6
	postN      = (postHigh-postLow)*postPerDec + 1
	// postCut drops grid points whose weight is under this share of the
	// largest: they change no decision and cost a little each.
	postCut = 1e-4
)

type posterior struct {
	n   int // points kept
	lam [postN]float64
	w   [postN]float64 // normalised weights
}

// posterior returns h's posterior under a log-normal prior with median
// center and standard deviation sigma (in ln λ). With honest Last-Modified
// dates, the changes seen and the time observed without one give a
// Poisson likelihood; otherwise each revisit says whether the page changed
// during its interval: 1 − e^{−λt} if it did, e^{−λt} if not.
//
// The log-posterior is concave in ln λ (each term is), so its mode is
// found by ternary search on the grid and the points kept by walking out
// from it until the weight falls under postCut: about 20 to 40 of the
// grid's points are evaluated, each costing one logarithm per revisit
// that found a change.
func (h *History) posterior(center, sigma float64) posterior {
	var q posterior
	lc := math.Log(center)
	var changed [Window]float64 // the intervals of the revisits that found a change
	nc := 0
	unchanged := 0.0 // Σ t over those that did not
	for i := range int(h.nobs) {
		v := h.obs[(int(h.head)+i)%Window]
		t := max(float64(v>>1), 1) * obsUnit.Seconds()
		if v&1 == 1 {
			changed[nc] = t
			nc++
		} else {
			unchanged += t
		}
	}
	honest := h.lm == lmHonest && h.lmExp > 0
	logp := func(i int) float64 {
		ll := (postLow + float64(i)/postPerDec) * math.Ln10
		l := math.Exp(ll)
		s := 0.0
		if sigma > 0 && center > 0 {
			z := (ll - lc) / sigma
			s = -z * z / 2
		}
		if honest {
			return s + float64(h.lmN)*ll - l*h.lmExp
		}
		s -= l * unchanged
		for _, t := range changed[:nc] {
			if x := l * t; x < 40 {
				s += math.Log(-math.Expm1(-x))
			}
		}
		return s
	}
	lo, hi := 0, postN-1
	for hi-lo > 2 {
		m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
		if logp(m1) < logp(m2) {
			lo = m1 + 1
		} else {
			hi = m2 - 1
		}
	}
	mode, best := lo, logp(lo)
	for i := lo + 1; i <= hi; i++ {
		if v := logp(i); v > best {
			mode, best = i, v
		}
	}
	cut := best + math.Log(postCut)
	var w [postN]float64
	from, to := mode, mode
	w[mode] = 1
	for from > 0 {
		v := logp(from - 1)
		if v < cut {
			break
		}
		from--
		w[from] = math.Exp(v - best)
	}
	for to < postN-1 {
		v := logp(to + 1)
		if v < cut {
			break
		}
		to++
		w[to] = math.Exp(v - best)
	}
	total := 0.0
	for i := from; i <= to; i++ {
		total += w[i]
	}
	for i := from; i <= to; i++ {
		q.lam[q.n] = math.Pow(10, postLow+float64(i)/postPerDec)
		q.w[q.n] = w[i] / total
		q.n++
	}
	return q
}

// estimate returns the posterior's mean rate, E[λ]. With the mean, not
// the median, the plan's allocation on estimates asks about what the
// pages' posterior rates ask: for a page far from its too-fast limit, the
// rate that maximises freshness goes as √λ, and the plan's rate for E[λ]
// is then the posterior's, where the plan's rate at the median would be
// less by Jensen's inequality.
func (q *posterior) estimate() float64 {
	s := 0.0
	for i := range q.n {
		s += q.w[i] * q.lam[i]
	}
	return s
}

// gain is the expected marginal freshness gain of revisiting at rate f,
// E[∂F/∂f] = E[(1 − (1+x)e^{−x})/λ] with x = λ/f.
func (q *posterior) gain(f float64) float64 {
	s := 0.0
	for i := range q.n {
		s += q.w[i] * freshGain(q.lam[i]/f) / q.lam[i]
	}
	return s
}

// freshRate returns the revisit rate in [fmin, fmax] that maximises the
// page's expected freshness less mu per unit of rate: where its expected
// marginal gain equals mu (it falls as f grows).
func (q *posterior) freshRate(mu, fmin, fmax float64) float64 {
	switch {
	case q.n == 0 || math.IsInf(mu, 1):
		return fmin
	case mu <= 0:
		return fmax
	case q.gain(fmin) <= mu:
		return fmin
	case q.gain(fmax) >= mu:
		return fmax
	}
	lo, hi := math.Log(fmin), math.Log(fmax)
	for range 30 {
		mid := (lo + hi) / 2
		if q.gain(math.Exp(mid)) > mu {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2)
}
