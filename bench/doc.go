// Package bench holds comparisons of trawl against other crawler libraries.
// It is its own module so that trawl's go.mod never requires them.
package bench
