// Package profile runs, in process, the crawl that examples/sitespider runs
// in the comparison's scenario A (same options: SameHost scope, 64 workers,
// 2 requests per host, no delay, a 50,000-page cap), so that it can be
// profiled with go test's -cpuprofile and -memprofile; sitespider itself
// has no profiling flag.
//
// The test is opt-in. It crawls the web whose seeds are listed in the file
// named by TRAWL_BENCH_SEEDS (start bench/cmd/webserver in another process,
// so the server's CPU stays out of the profile), or, when that is unset but
// TRAWL_BENCH_PROFILE=1, a crawltest web started in the test process:
//
//	go run ./cmd/webserver -hosts 100 -pages 1000 -seeds /tmp/seeds.txt &
//	TRAWL_BENCH_SEEDS=/tmp/seeds.txt go test -run Crawl -cpuprofile cpu.out ./profile
//	go tool pprof -top profile.test cpu.out
//
// TRAWL_BENCH_MAX_PAGES, TRAWL_BENCH_WORKERS and TRAWL_BENCH_HOST_CONCURRENCY
// change the job (scenario C: 150000, 128, 1); TRAWL_BENCH_HEAP names a file
// for a heap profile taken while the crawl runs, when TRAWL_BENCH_HEAP_AT
// percent of the cap (default 60) is fetched;
// TRAWL_BENCH_SPILL=1 spills the frontier's queue to a temporary directory
// (sitespider's -spill); TRAWL_BENCH_CLONE_ANCHOR=1 copies anchor texts on Push (an experiment);
// TRAWL_BENCH_NAMES=1 crawls an in-process web whose hosts are names
// (h0.test, …) instead of IPv4 literals; TRAWL_BENCH_WARC=1 writes every
// exchange to a WARC store (sitespider's -warc), with
// TRAWL_BENCH_WARC_GZIP and TRAWL_BENCH_WARC_MIN_GZIP setting its
// WARCOptions.GzipLevel and MinGzipSize.
//
// # Concurrency
//
// One test, one crawl; nothing here is shared.
package profile
