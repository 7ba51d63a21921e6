// Package store holds implementations of trawl.Store, where a crawl keeps
// the pages it fetched.
//
//   - [Dir] writes each page to a numbered file (000001.html, 000002.html, ...)
//     in a directory, appends its URL to urls.txt as the crawl goes, and
//     writes stats.txt when closed. Opened again on the same directory, it
//     continues the numbering and appends to urls.txt, so a resumed crawl
//     never overwrites what an earlier run stored.
//   - [WARC] writes everything the crawler fetched, byte for byte as it
//     crossed the wire, as WARC/1.1 files with a CDXJ index (see below).
//   - [Memory] keeps pages in memory, for tests and small crawls.
//   - [JSONL] and [CSV] export: each writes a record per page (a
//     [PageRecord]: URL, status, depth, title, main text, ...) and is also a
//     trawl.ItemSink, writing the items a scraper emits (trawl.WithItems),
//     one JSON line or CSV row each, as Scrapy's feed exports do. They
//     buffer 64 KiB and write whole lines (see Crash safety). A file that
//     holds records already is refused unless FileOptions.Mode says Append
//     (Scrapy's -o) or Overwrite (Scrapy's -O), so that running a program
//     twice neither doubles its records nor loses the first run's.
//   - [Func] adapts a function to a trawl.Store.
//   - [Replay] is not a store but reads one: a fetcher that answers the
//     URLs a WARC store's files hold from them, byte for byte as recorded
//     (https too), and hands the others to the crawler's own fetcher
//     (trawl.WithFetchWrapper(rp.Wrap); -replay DIR on the spiders), as
//     Colly's CacheDir and Scrapy's HTTPCACHE do: a scraper rewritten is
//     run again offline, on the same responses.
//
// # Quick start
//
//	st, err := store.NewDir("out")
//	if err != nil { ... }
//	c, err := trawl.New(trawl.WithSeeds("https://example.com/"), trawl.WithStore(st))
//	...
//	err = c.Run(ctx) // closes st, which writes out/stats.txt
//
// # Crash safety: Ctrl-C and kill -9
//
// A crawl stopped through its context (Ctrl-C caught with
// signal.NotifyContext, as the README's programs and the example spiders
// do) loses nothing: Run returns after closing its Store and item sink,
// which writes out every buffer. A hard kill (SIGKILL, the out-of-memory
// killer, a second Ctrl-C that the program does not catch) loses at most
// the last second of records, and never leaves half a line:
//
//   - JSONL and CSV buffer up to 64 KiB and write the buffer out when it
//     fills and at most FileOptions.FlushInterval (1 s by default) after a
//     record entered it (a timer armed by the first record in an empty
//     buffer: an idle store keeps no timer);
//   - Dir writes each page's file and its urls.txt line unbuffered, so it
//     loses only the page being written (the last line of urls.txt may be
//     cut, and NewDir drops it when the crawl is resumed); stats.txt is
//     written by Close only;
//   - WARC writes each exchange's records to the file in one unbuffered
//     write, and its CDXJ index through a buffer written out at most
//     WARCOptions.FlushInterval after a line entered it (the index is
//     sorted by Close only).
//
// Nothing is fsynced: a power failure loses what the kernel had not
// written. The tests kill a child process with SIGINT and with SIGKILL
// and count the records left (kill_test.go).
//
// # WARC
//
// WARC (ISO 28500) is how Heritrix, wget --warc-file, Browsertrix and the
// Internet Archive keep crawls, and what replay tools (pywb, OpenWayback)
// and indexers read. Give a [WARC] to the crawler like any store:
//
//	w, err := store.NewWARC("warcs", &store.WARCOptions{Outlinks: true})
//	c, err := trawl.New(trawl.WithSeeds(...), trawl.WithStore(w))
//
// (the example spiders: -warc DIR, -warc-outlinks, -warc-no-revisit). A WARC
// store implements trawl.ExchangeStore, so the crawler's fetcher records
// every exchange (fetch.Options.OnExchange) and hands it over, whatever its
// status: robots.txt, redirects, 304s, 4xx and 5xx, non-HTML resources when
// the crawl accepts them, and pages it does not Put (noindex, duplicates).
// What is written:
//
//   - each file begins with a warcinfo record (software, format, conformsTo,
//     hostname and WARCOptions.Info, the crawl's settings);
//   - each exchange is a response record holding the response exactly as
//     received (status line, header, body as served: chunked and gzipped
//     as it came, not the UTF-8 text the crawler parsed) followed by a
//     request record holding the request exactly as sent, each naming the
//     other in WARC-Concurrent-To, both with WARC-Block-Digest, the
//     response with WARC-Payload-Digest (SHA-1, base 32, of the bytes after
//     the HTTP header, as they came off the wire: chunk framing included for
//     a chunked response, as Heritrix and wget compute it) and WARC-IP-Address.
//     The header ends where the fetcher's HTTP client ended it
//     (fetch.Exchange.PayloadOffset: net/http's grammar, in which a line may
//     end at a bare LF, and interim 1xx responses come before the header),
//     not at the first CRLF CRLF, so the digest is that of the body the
//     crawler parsed; a response whose recorded bytes hold no end of the
//     header (a recording cut short) has no payload and no
//     WARC-Payload-Digest, and is never a revisit or revisited;
//     a response the fetcher did not read to its end (over the size limit,
//     an unaccepted type, a failed transfer) carries WARC-Truncated;
//   - a 2xx response whose payload digest equals that of an earlier
//     response of the same host (host and port of the target URI) in this
//     store is written as a revisit record, profile
//     identical-payload-digest, with WARC-Refers-To, WARC-Refers-To-Target-URI
//     and WARC-Refers-To-Date and the HTTP header as its block (unless
//     WARCOptions.NoRevisits); a 304 answer to a conditional GET is a revisit
//     with the server-not-modified profile. Payloads are never shared across
//     hosts, though two hosts may serve the same bytes (mirrors, CDN copies
//     of a library): a replay tool resolves a revisit by reading the record
//     it refers to with its own HTTP parser, and a hostile host can write a
//     response that parsers split differently (warcio.js, for one, ends a
//     header only at CRLF CRLF, where net/http accepts a bare LF), so a
//     revisit that pointed at another host's record would let that host
//     choose what replays for pages it does not own. There is no option to
//     share them (what it saves is copies of identical files on different
//     hosts; say so in an issue if a crawl needs it). The digests seen are kept in
//     memory, not across runs, and at most WARCOptions.MaxRevisitDigests
//     of them (a million by default, about 180 bytes each with a 60-byte
//     URL): when that many are kept, the oldest is forgotten for the next
//     (a later copy of its payload is then written in full);
//   - with WARCOptions.Outlinks, a metadata record per stored page lists its
//     links ("outlink: URL"), concurrent to the page's response.
//
// Files: every record is its own gzip member, so a reader can start at any
// record's offset. A file is closed and the next begun before a record
// that would take it past WARCOptions.MaxFileSize (1 GB). Names are
// PREFIX-TIMESTAMP-SERIAL-HOST-PID-RANDOM.warc.gz with a UTC timestamp to
// the millisecond, so they sort by time, and they are created exclusively
// with a random part, so restarts and crawlers sharing a directory never
// collide; the file being written ends in .open. Beside them,
// PREFIX-TIMESTAMP-PID-RANDOM.cdxj indexes every response and revisit
// record as pywb's CDXJ (SURT key, 14-digit timestamp, and JSON with url,
// mime, status, digest, offset, length and filename), sorted when the store
// is closed (in runs of 16 MiB merged from temporary files, so the sort
// holds no more than that in memory however long the crawl); warcio.js's
// cdx-index gives the same entries (a store closed before its first
// record leaves neither file nor index).
//
// Compression: WARCOptions.GzipLevel, by default FastGzip: each record of
// up to 1 MiB is deflated by this package as a single block with the fixed
// Huffman codes of RFC 1951 and matches found by a greedy hash lookup (or
// as stored blocks when that is not smaller), in one gzip member; larger
// records, compressed as they are written, go through klauspost/compress at
// level 1. Why not klauspost/compress for all: every record is its own
// member, so its deflate block needs its own code tables, and on a 5 KB
// record klauspost's cheapest modes (stateless, level 1, even Huffman only)
// spend about half of their time building them (package-merge code lengths:
// 11 µs of the 34 stateless takes on a crawltest response): on crawltest's
// exchanges BenchmarkWARCPutExchange measured 34 µs of CPU per exchange
// with FastGzip against 51 with klauspost's stateless mode (the previous
// default; 35 for Huffman only, which makes 4,293 bytes), for files 15 %
// larger (3,329 bytes per exchange against 2,887; a response record of 5.5
// KB takes 2,650 bytes against 2,210 and 5,550 stored). The encoder is
// about 200 lines, tables included (fastgzip.go); FuzzFastGzip checks that
// what it writes, whatever the input and whatever it compressed before,
// decodes with the standard library's reader (CRC and size checked) to the
// input, and the tests have warcio.js read files written at each level.
// klauspost's levels remain: -3 (stateless), -2 (Huffman only), 1 to 9.
// Records shorter than WARCOptions.MinGzipSize (1 KiB: request records) go
// in their member uncompressed (a stored deflate block, which every gzip
// reader reads): compressing a 700-byte request saves about 140 bytes with
// FastGzip for 7 % more CPU per exchange. A response whose payload is
// compressed already (a Content-Encoding other than identity, or a JPEG,
// PNG, GIF, WebP or AVIF image, audio, video, a zip, gzip, xz, bzip2, 7z
// or rar archive, a WOFF font) is stored too, whatever its size: deflate
// would not shrink it (with this, and the scan for the HTTP header no
// longer copying the whole response, BenchmarkWARCPutImage went from 425
// to 168 µs per 100 KB JPEG). bench/README.md has the figures for each
// level and what WARC output costs a crawl.
//
// Crash safety: an exchange's records are compressed in memory and written
// with one write, or, when a failure interrupts it, cut off again, so a
// crash (kill -9) loses at most the records being written: the .open file
// reads, with any WARC reader, up to them (a write cut short ends inside
// the last member; the tests cut a file inside its last record and check
// that warcio.js reads every record before it). Nothing is fsynced: a
// power failure can lose what the kernel had not written. The index is
// written through a buffer flushed when a file is closed and at most
// WARCOptions.FlushInterval (1 s) after a line entered it; after a crash,
// it lacks the last second's records and is not sorted: rebuild it from
// the files (warcio cdx-index). PutExchange and Put are
// safe for concurrent use: records are built and compressed by the
// calling workers in parallel (as many at once as there are CPUs, each
// with a compressor and buffers kept for the next exchange) and only the
// write to the file is serialized. Memory does not grow with response or
// file size: the fetcher spools responses over 256 KiB to an unnamed
// temporary file, the store reads them from it in 32 KiB pieces, and
// records over 1 MiB are compressed straight into the file (under its
// lock) instead of in memory.
//
// The library: records are written with github.com/nlnwa/gowarc (v1.6.0,
// the National Library of Norway's WARC library behind its Veidemann
// crawler), compared with github.com/internetarchive/gowarc (v0.8.96, the
// library of the Internet Archive's Zeno crawler). internetarchive/gowarc
// is the more active (release November 2025 against May 2024) but is built
// around its own HTTP client and transport, which would replace this
// fetcher's dialer, private-network guard and limits; its writer takes
// records through a channel to rotator goroutines that panic on file
// errors, keeps global mutable counters, writes WARC header fields from a
// Go map (in random order) and pulls in utls, miekg/dns, a SOCKS5 server,
// brotli, xz, zstd, blake3 and cobra. nlnwa/gowarc has a small record API
// (a builder, revisit profiles, a marshaler, a validating reader), keeps
// header order, spools large blocks to disk, and needs only uuid,
// klauspost/compress, whatwg-url (which trawl already uses) and one
// file-rename helper from prometheus (in a minimal program each library
// adds about 1.9 MB; nlnwa/gowarc adds 0.8 MB to sitespider, 12.7 to 13.5
// MB).
//
// What is written with gowarc and what by hand: warcinfo, revisit and
// metadata records are built with gowarc's record builder and serialized
// with its marshaler. The two records of every fetch, response and
// request, the store serializes itself, with gowarc's field names and in
// the order its builder writes them: version line, a fixed list of fields
// whose values are the store's own (record IDs, dates, digests, the IP
// address) or a URL as url.URL.String gives it (no line breaks), the
// block, the closing blank lines: about 60 lines. Through gowarc these
// records cost more than their compression: the builder copies each block
// into a buffer of its own, the marshaler copies it again, and each field
// name is normalized and written with fmt (in bench/ scenario A this was
// a fifth of what WARC output added to a page; BenchmarkWARCPutExchange
// made 196 allocations per exchange, against 10 now). Written here, a response in memory is read once to find
// its HTTP header and compute both digests, and once more into the
// compressor, never copied otherwise. The tests check these records with
// gowarc's own reader in strict mode (every field, Content-Length and
// both digests recomputed) besides warcio.js and the hand-written reader.
// gowarc's WarcFileWriter is not used: it gzips straight into the file
// (several write calls per record), compresses under one lock, reports
// uncompressed sizes (a CDXJ index needs compressed lengths) and logs
// rather than returns close errors, so this package writes the gzip
// members, rotates and names the files itself (about 150 lines). One flaw
// found on the way: every gowarc.NewRecordBuilder call writes a global of
// github.com/google/uuid (EnableRandPool) without synchronization, a data
// race under concurrent Puts; this package makes builders under a lock
// and its own record IDs, so the race detector is quiet, but another
// package of the program calling google/uuid concurrently would still race
// with it.
//
// Validation: the tests crawl a crawltest web into WARC files and check
// them with warcio.js (webrecorder's reader, `npm install warcio`; .ci/run
// installs it, and the test fails in CI and skips elsewhere without it):
// `warcio index` must list every record at its offset and `warcio
// cdx-index` must give the store's own CDXJ entries. warcio exits 0 even on
// a damaged file (it stops reading at the damage), which is why the test
// compares lists, and it checks that a damaged copy fails the comparison.
// Other tests recompute every block and payload digest with a hand-written
// reader, and replay: a small server built from the CDXJ index and the
// files serves each archived response back (a revisit with its original's
// payload), and it must equal, byte for byte, what the web serves to the
// archived request.
//
// # Concurrency
//
// Every Store here is safe for concurrent use: the crawler calls Put from
// many workers at once.
package store
