// Package store holds implementations of trawl.Store, where a crawl keeps
// the pages it fetched.
//
//   - [Dir] writes each page to a numbered file (000001.html, 000002.html, ...)
//     in a directory, appends its URL to urls.txt as the crawl goes, and
//     writes stats.txt when closed. Opened again on the same directory, it
//     continues the numbering and appends to urls.txt, so a resumed crawl
//     never overwrites what an earlier run stored.
//   - [Memory] keeps pages in memory, for tests and small crawls.
//   - [Func] adapts a function to a trawl.Store.
//
// # Quick start
//
//	st, err := store.NewDir("out")
//	if err != nil { ... }
//	c, err := trawl.New(trawl.WithSeeds("https://example.com/"), trawl.WithStore(st))
//	...
//	err = c.Run(ctx) // closes st, which writes out/stats.txt
//
// # Concurrency
//
// Every Store here is safe for concurrent use: the crawler calls Put from
// many workers at once.
package store
