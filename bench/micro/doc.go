// Package micro holds side-by-side micro-benchmarks of trawl's hot paths
// against the libraries a Go crawler would otherwise use, all in one
// `go test -bench` run so benchstat can put them next to each other:
//
//   - link extraction: trawl's extract.Extractor vs goquery's `a[href]`
//     (github.com/PuerkitoBio/goquery) over pages of a crawltest web (MB/s),
//     with two more columns: the Extractor with Options.SkipText (links and
//     page signals without the visible page text) and the bare
//     golang.org/x/net/html tokenizer the Extractor streams over, its
//     ceiling;
//   - resolve + normalize one href: trawl's urlnorm.Normalizer vs net/url
//     resolution plus purell (github.com/PuerkitoBio/purell) alone;
//   - robots.txt parse + match: trawl's robots package vs
//     github.com/temoto/robotstxt alone;
//   - simhash of a page's text: trawl's dedup.Simhash vs a textbook
//     simhash written here (github.com/mfonda/simhash, the intended
//     competitor, is not served by the module proxy).
//
// Run them with bench/run or:
//
//	cd bench && go test -run '^$' -bench . -count 5 ./micro | tee micro.txt
//	benchstat -col /impl micro.txt
//
// The tests in this package check that each pair computes the same thing
// (the same links, the same URLs, the same allow/deny answers), so the
// benchmarks compare equal work, and that trawl's extractor allocates
// nothing per link.
//
// # Concurrency
//
// The benchmarks run one goroutine each; nothing here is shared.
package micro
