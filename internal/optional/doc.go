// Package optional holds the tests of trawl's Crawler with the optional
// packages that bring dependencies of their own plugged in: the browser
// fetcher (package render, on chromedp) and the persistent frontier
// (package frontier/disk, on bbolt; on pebble, far heavier, until issue
// 34). It has no code of its own.
//
// They live here rather than in the root package because `go mod tidy` in
// a program that imports only trawl downloads the modules that the root
// package's tests import: with these tests there, a program with nothing
// but trawl.New in it downloaded 48 modules, pebble and chromedp and what
// they bring among them; without them, 24 (see "What trawl pulls in" in
// the README).
//
// TestMain checks, as the root package's does, that no goroutine outlives
// the tests: Run must own every goroutine it starts.
package optional
