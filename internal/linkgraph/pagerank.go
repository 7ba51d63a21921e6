// Package linkgraph holds what the evaluations of crawl orders share about
// link graphs: PageRank, the ground truth that importance orders (OPIC,
// in frontier/opic and in the cluster) are measured against.
package linkgraph

// PageRank returns the PageRank of the pages p with in[p] true, in the
// subgraph they make with the links out[p] (links to pages outside it are
// followed as links), after 100 iterations of the power method with
// damping 0.85; the rank of pages without links is spread over all the
// pages of the subgraph, so the ranks sum to 1. Pages outside get 0.
func PageRank[T ~int | ~int32](out [][]T, in []bool) []float64 {
	n := 0
	for _, ok := range in {
		if ok {
			n++
		}
	}
	pr := make([]float64, len(out))
	next := make([]float64, len(out))
	if n == 0 {
		return pr
	}
	for p, ok := range in {
		if ok {
			pr[p] = 1 / float64(n)
		}
	}
	const d = 0.85
	for range 100 {
		dangling := 0.0
		clear(next)
		for p, ok := range in {
			if !ok {
				continue
			}
			if len(out[p]) == 0 {
				dangling += pr[p]
				continue
			}
			s := pr[p] / float64(len(out[p]))
			for _, to := range out[p] {
				next[to] += s
			}
		}
		base := (1-d)/float64(n) + d*dangling/float64(n)
		for p, ok := range in {
			if ok {
				next[p] = base + d*next[p]
			}
		}
		pr, next = next, pr
	}
	return pr
}
