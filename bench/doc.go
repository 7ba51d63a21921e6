// Package bench holds comparisons of trawl against other crawler libraries.
// It is its own module so that trawl's go.mod never requires them.
//
// Layout: cmd/webserver serves a crawltest web in its own process;
// drivers/colly and drivers/gocrawl run those crawlers with the same flags
// as examples/sitespider; harness runs every crawler against a fresh web per
// scenario and prints the tables; micro holds the side-by-side
// micro-benchmarks; profile is an in-process crawl for CPU and heap
// profiles; content compares maintext.Extract with go-trafilatura and
// go-readability on the two evaluation corpora, and cmd/maintextdiff
// shows what a change to maintext.Extract does to pages of another kind (a
// directory of HTML files, such as Debian's python3-doc). bench/run reruns
// the crawls, the profile and the micro-benchmarks; README.md holds the
// results.
package bench
