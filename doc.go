// Package trawl is a Go SDK for building polite, robust, fast web crawlers.
//
// A crawler is assembled from small packages (urlnorm, extract, robots,
// politeness, frontier, fetch, dedup, store) through one functional-options
// Crawler type.
package trawl
