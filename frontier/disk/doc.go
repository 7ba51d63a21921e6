// Package disk is a persistent frontier: the Mercator frontier of package
// frontier kept in an embedded key-value store, so that a crawl of millions
// of URLs survives kill -9, a reboot or a deploy, and needs memory bounded
// by its options rather than by the number of URLs queued (under BFS and
// DFS; see Memory for Priority). It is the frontier to use for long
// crawls.
//
// # Quick start
//
//	c, err := trawl.New(
//		trawl.WithSeeds(seeds...),
//		// The crawler gives the options it would give its default
//		// frontier, so the disk frontier behaves the same.
//		trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
//			return disk.Open("crawl.state", &disk.Options{
//				Strategy: o.Strategy, FrontQueues: o.FrontQueues, Workers: o.Workers,
//				BackQueues: o.BackQueues, MaxDepth: o.MaxDepth, MaxPerHost: o.MaxPerHost,
//				Politeness: o.Politeness,
//			})
//		}),
//	)
//	...
//	err = c.Run(ctx) // flushes and closes the frontier when it returns
//
// Run the same program again with the same directory and the crawl goes on
// where it stopped: seeds already seen are dropped, queued URLs come out in
// their order, and URLs that were being fetched when the process died are
// fetched again. The example spiders take -state DIR for this.
//
// # Contract
//
// Frontier implements frontier.Frontier exactly as frontier.Memory does —
// frontiertest.Run checks it, on new frontiers and on reopened ones — and
// everything it guarantees holds across Close and Open, and across a crash:
//
//   - The seen set: a URL accepted once is never accepted again, in this
//     process or a later one (64-bit fingerprints, frontier.Fingerprint).
//   - The queues: each accepted URL is handed out once, in Mercator order
//     (front queues by priority, a back queue per host, a politeness heap).
//   - Leases: a URL handed out by Next and not given to Done before the
//     process ended is queued again, at the head of its host's queue, by
//     the next Open. A URL given to Done (without Retry or Requeue) is
//     never handed out again.
//   - Host timing: each host's next-contact time is stored by Done; a host
//     still resting when the frontier is opened again is not contacted
//     before that time, and does not hold one of the BackQueues places
//     while it waits. Host budgets (MaxPerHost) are stored with the URLs.
//   - Revisits (frontier.Outcome.Revisit, for a continuous crawl): a URL
//     done with a revisit time is stored, with its state (the page's
//     visit history), in a table ordered by that time, in the same batch
//     that ends its lease; Next moves the revisits that are due to the
//     highest front queue. So the revisit schedule survives Close, Open
//     and a crash, and a revisit that fell due while the process was down
//     is handed out at once. Revisits counts them (Open counts the table).
//   - Data (frontier.Request.Data, at most frontier.MaxData bytes: the
//     crawler's metadata and hints for the URL) is stored with the URL in
//     every table, so it comes back after Close, Open and a crash, with
//     the replacements Done made durable (Outcome.Data on a Retry, Requeue
//     or Revisit). Done keeps the stored Data, not the one in the Request
//     it is given.
//   - Boosts (frontier.Booster, under Priority only): Boost raises the
//     priority of a URL waiting in a front queue or in its host's back
//     queue by moving its entry to the key of its new priority, in the
//     write buffer like a Push; so a boost survives Close and Open, and a
//     crash if a commit came after it. It finds the URL through an index
//     from each queued URL's fingerprint to its key (see "Boost and
//     OPIC").
//   - Records of the crawler's state (frontier.StateKeeper): SaveState
//     puts a small record (at most frontier.MaxData bytes) in the write
//     buffer with the queues' changes, so that a commit holds the record
//     and the queues as they were together. trawl's Priority.OPIC keeps its
//     cash accounts so (see "Boost and OPIC").
//
// Open refuses (ErrMismatch) a directory made with another Strategy or
// number of front queues.
//
// # Durability
//
// The store is a bbolt file (frontier.bbolt in the directory) with a write
// buffer in front of it. Every operation puts its changes in the buffer
// together, in the order the operations happen, and they are visible to
// every later read at once; a commit writes the whole buffer to bbolt in
// one transaction, which bbolt fsyncs before it returns, so the store on
// disk always holds the frontier as it was at the last commit, never half
// an operation. The commit policy:
//
//   - Done commits before it returns: when Done returns, the URL's done
//     mark (its removal from the queue, or its requeue with Retries
//     incremented) and its host's next-contact time are on stable storage,
//     and so is everything before it, including every Push made before it.
//     Concurrent Dones share commits: while one commits, the others' changes
//     gather and the next commit takes them all.
//   - Push, Boost and SaveState only fill the buffer. SyncInterval (default 1 s) after a Push,
//     a timer commits what the buffer holds, and a Push that leaves more
//     than Options.WriteBuffer (default 4 MiB) in it commits before it
//     returns. A crash (kill -9, or a machine crash: commits are fsynced,
//     and a commit cut short leaves the one before it) therefore loses at
//     most the Pushes (and Boosts and SaveStates) since the last commit:
//     the last Done, Flush or SyncInterval. A lost Push is not a lost
//     page: its URL was found on a page whose Done was not committed
//     either, so that page is fetched again and the link found again (and
//     the boosts its links gave made again).
//   - Next writes nothing durable: a leased URL stays stored in its queue
//     until Done, which is how a crash returns it. (Moves between queues
//     that Next makes go to the buffer and are committed with the rest.)
//   - Flush commits; Close commits and closes the store. trawl's Crawler
//     calls Flush, then Close, when Run returns (it owns the frontier its
//     trawl.FrontierFunc returns).
//
// TestDurability and its kin crash a frontier by closing bbolt without a
// commit; TestKill sends SIGKILL to a process writing a frontier, at a
// known point and at whatever point a busy loop of Push, Next and Done has
// reached, and checks that the reopened frontier has every commit.
//
// With trawl's Crawler a page is stored before Done is called for it, so a
// crash between the two stores the page again after the restart: at most
// one page per worker per crash.
//
// # Memory
//
// The heap is bounded by the options, not by the frontier's size, under
// BFS and DFS (bbolt's memory-mapped file is not: see below; and under
// Priority, whose keys land all over the tree, the peak grew with the
// frontier in TestScale: see the figures below):
//
//   - the seen set is on disk, with a Bloom filter in front of it
//     (SeenFilterURLs × 10 bits, rounded up to a power of two: 16 MiB by
//     default): a "no" is certain, a "maybe" is answered from disk, so no
//     URL is ever wrongly dropped; past SeenFilterURLs URLs the filter
//     only says "maybe" more often. Behind the filter, the fingerprints
//     accepted since the last run was cut are in a map (at most 65,536 of
//     them, about 2 MiB, with those of the write buffer), and the rest in
//     sorted run files with an index of 8 bytes per 4 KiB (see "The seen
//     set" below);
//   - the front queues are on disk, with FrontBuffer entries of each in
//     memory (K × 256 by default);
//   - about 3 × Workers hosts have a back queue (Mercator), with HeadCache
//     entries of each in memory (16 by default); the rest is on disk.
//     Hosts that rest long keep theirs without counting (see "Hosts that
//     rest long" below), with none of its entries in memory: a parked
//     host costs its politeness state and its back queue's header, a few
//     hundred bytes;
//   - the write buffer (WriteBuffer, 4 MiB; twice that while a commit
//     runs, when the next changes gather in a second buffer);
//   - leases (one per request in flight), the politeness state of the hosts
//     contacted lately, and, only with MaxPerHost, a counter per host.
//
// bbolt reads its file through a memory map, and the pages of the file a
// process has read count in its RSS as file-backed pages, up to the whole
// file (1.3 GB at 10 million URLs queued), though they are the operating
// system's page cache, which it takes back under memory pressure. So that
// the RSS stays what the frontier needs, a commit tells the kernel, at
// most every 250 ms, that the map's pages are not needed (madvise
// MADV_DONTNEED: they stay in the page cache, and a read maps them again),
// and so does Open. Close writes bbolt's free list, which commits do not
// (it can be megabytes, and every Done commits), so that the next Open
// reads it rather than rebuilding it from every page of the file; after a
// crash Open does rebuild it, and for that moment the whole file is
// resident.
//
// TestScale measures it: set TRAWL_DISK_SCALE=10000000 to push 10 million
// URLs over 100,000 hosts and drain them, reporting URLs per second both
// ways, bytes on disk per URL and the peak RSS (required under 512 MiB).
// Measured on a shared 2-core VM with an ext4 virtual disk:
//
//   - 10 million URLs, BFS, nothing else running: pushed at 155,800
//     URLs/s, 138 bytes on disk per queued URL (1.3 GB), reopened after
//     Close in 2.8 s, drained at 16,500 URLs/s (every Done committed),
//     peak RSS 183 MiB. Two runs before the 1,024-key commits (below), at
//     load 4: pushed at 99,700 and 166,800 URLs/s, drained at 10,500,
//     peak RSS 178 MiB; in one before Close wrote the free list, the
//     reopen rebuilt it from the whole file and the peak was 1,297 MiB.
//
// The rest at load about 4, so the rates are rough:
//
//   - 1 million URLs, BFS: pushed at 129,000 URLs/s, drained at 11,200,
//     peak RSS 96 MiB.
//   - 1 million URLs under Priority, each with a random priority, the
//     worst case for a B+tree (TRAWL_DISK_SCALE_ORDER=priority): pushed
//     at 13,700 URLs/s, 381 bytes on disk per URL, drained at 5,900
//     URLs/s, peak RSS 314 MiB, and growing with the frontier (157 MiB at
//     300,000 URLs); without the index that Boost reads, which costs a
//     priority crawl that boosts about half its push rate and 170 bytes
//     per URL (see "Boost and OPIC"). The pebble store, the same day: 72,300 URLs/s, 82
//     bytes, 12,000 URLs/s, 124 MiB. A priority crawl of many millions of
//     URLs is where this store is weakest.
//
// Pebble's 10-million figures, from a quieter day: pushes at 115,000
// URLs/s, 36.9 bytes per URL, drained at 26,800 URLs/s, peak RSS 106 MiB.
//
// # Tests that take long
//
// Opt-in, by environment variable: TRAWL_DISK_SCALE=N runs TestScale here
// with N URLs; TRAWL_CRASH_TEST=1 runs TestCrashResumeLong in
// trawlcli, which crawls a crawltest web with sitespider -state,
// SIGKILLs it at random moments at least eight times (TRAWL_CRASH_SEED
// picks the moments) and checks that every page was stored and fetched
// once, except those in flight at a kill. Its short variant, two kills on
// a small web, always runs.
//
// # Layout
//
// One bbolt bucket ("trawl-frontier") holds one key space: "m" holds the
// format version, the strategy, the sequence counter and the front queue
// lengths; "l"+sequence the seen set's log (the fingerprints a commit
// accepted, 8 bytes each) and "r" its list of run files (seen-ID.run in
// the directory, beside frontier.bbolt); "f"+level+order+sequence the
// front queues (order is the sequence for BFS, its complement for DFS and
// the complemented priority for Priority); "b"+host+0+order+sequence
// the back queues; "t"+host the next-contact times; "a"+host the host
// budgets; "v"+time+fingerprint the revisits; under Priority, from the
// first Boost on, "i"+fingerprint the key of each queued URL's entry (its
// front or back queue key), and "j" the mark that it holds every one;
// "c"+name the crawler's state records (SaveState). Values are encoded
// requests: depth, retries and redirects (varints), priority, then URL, host,
// referrer and anchor (length-prefixed), then, when set, the revisit
// state and the Data. Data was added to the end of a record without a new
// format version: a directory written before it opens as before (its
// URLs have no Data); one written since, opened by an older trawl, loses
// its URLs' Data and nothing else. The index, its mark and the state
// records came the same way: an older trawl ignores them (it neither
// boosts nor keeps the index), and Boost checks that the key the index
// names holds the URL, so entries left stale by such a trawl are
// harmless.
//
// # Format
//
// Until trawl moved this package from pebble to bbolt (issue 34), the same
// key space lived in a pebble store. A directory written then holds pebble's
// files (CURRENT, MANIFEST-*, *.log, *.sst) and no frontier.bbolt; Open
// refuses it with ErrFormat (it names the pebble file it found) rather than
// start an empty frontier there: finish that crawl with the trawl that
// wrote it, or start again in a new directory. Within the bbolt file the
// meta record's version (1) says how keys and values are laid out; a
// layout this version cannot read is refused with ErrMismatch.
//
// # The seen set
//
// The seen set is kept beside bbolt's B+tree, not in it, the way Mercator
// kept its URL-seen test: in sorted files merged in batches. Fingerprints
// are random, so a commit that inserts a page's links into a B+tree
// rewrites a tree page per link, and the first bbolt version of this
// package did that: its commits' heap grew with the set, to a peak RSS of
// 839 MiB at 3 million URLs. Instead:
//
//   - a commit that accepts URLs writes their fingerprints as one record
//     under a growing sequence number ("l"), in the same transaction as
//     the URLs, so that the record is appended to the tree's last page and
//     the seen set and the queues never disagree after a crash;
//   - when 65,536 fingerprints are committed, they are sorted into a run
//     file, which is fsynced and renamed into place, and the next commit
//     lists it ("r") and deletes the log records it holds, in one
//     transaction; Open deletes a run file that is not listed (a crash
//     came between the two) or was being written;
//   - runs merge like a binary counter: a run less than twice the size of
//     the next newer one is merged with it, in a transaction of its own.
//     So there are about log2(URLs / 65,536) + 1 runs (at most 9 at 10
//     million URLs), and each fingerprint is written about that many
//     times over a crawl;
//   - a "maybe" from the Bloom filter is answered by the map of recent
//     fingerprints, then by one 4 KiB read per run (pread, through the
//     page cache), at the block that the run's index (its blocks' first
//     fingerprints, kept in memory) says may hold the fingerprint.
//
// TestSeenSetModel checks it against a model through random pushes,
// flushes, crashes and reopens with runs of 8 fingerprints; every other
// test in this package runs with runs of 16, so that their pushes cut and
// merge runs too.
//
// # Hosts that rest long
//
// As in frontier.Memory, a host whose next contact is more than the
// politeness MaxDelay away (60s by default: only a Crawl-delay, capped
// at politeness MaxCrawlDelay, back-off or Retry-After make a host rest
// that long) is parked: it keeps its back queue, on disk only (its
// HeadCache window is dropped and read again when it is due), but leaves
// its place among the BackQueues to another host until it is handed out
// again, when its rest is over. With GroupKey, its whole group is parked.
// Hosts still resting when the frontier is opened are parked until then.
// So any number of hosts that rest long cannot keep the others waiting
// (TestSlowHostsDoNotDelayOthers: 10,000 hosts with a one-day Crawl-delay
// ahead of 20 ordinary ones, which are done at the same fake time as
// without them).
//
// Differences from frontier.Memory: there is no randomized selector; under DFS a URL of a host that already has a back queue waits
// in the front queues like any other (Memory puts it straight on top of
// the back queue), and back queues are first in, first out except under
// Priority, where they are best first as in Memory. Without a reopen the
// handout order under BFS and Priority is Memory's exactly
// (TestOrderMatchesMemory); a reopen keeps each queue's order but not the
// order among hosts whose next contact times tie.
//
// # Boost and OPIC
//
// Frontier is a frontier.SeenChecker, under every order (Seen asks the
// seen set as Push does: a "maybe" from the Bloom filter costs a look at
// the fingerprints on disk; trawl's Crawler also asks it, when it logs
// decisions, to tell a duplicate URL from one a host's budget dropped),
// and under Priority a frontier.Booster, as frontier.Memory is, so
// trawl's Priority.Inlink and Priority.OPIC work on it; and a
// frontier.StateKeeper, so that Priority.OPIC's accounts (opic.Ledger:
// the virtual page's cash, the cash G it has handed each waiting URL,
// the history |H|) survive with the queues whose priorities they give
// meaning to. Boost returns false
// under BFS and DFS, for a URL not waiting (never pushed, handed out and
// not done, done, waiting for a revisit), and, as Memory, for one
// returned by Done with Retry or Requeue until it is handed out again
// (after a reopen it waits in its back queue like the others). With
// boosts made alike on both, the handout order is Memory's exactly
// (TestOrderMatchesMemory).
//
// Boost reads an index, "i"+fingerprint → the URL's key, which Push,
// the moves to back queues and the moves of due revisits keep, and Done
// deletes with the entry. The first Boost of a Priority frontier writes
// it for every URL queued (to the write buffer, about 150 bytes of memory
// a URL until the commit; at a crawl's first page that is a few URLs),
// with a mark ("j") that makes the frontier keep it from then on, after
// reopens too; so BFS and DFS, and a Priority crawl that never boosts (one
// ordered by link scores alone), keep none and pay nothing
// (TestBoostIndex). A directory written before the index existed gets it
// the same way (TestIndexBuiltByFirstBoost). Each queued URL is so a
// second key, in random order, which a commit writes on a page of its
// own. Its cost under Priority (random priorities, the store's worst
// case), measured on 2026-12-07 on the shared 2-core VM, at load 3 to 8,
// each pair run back to back (the index on from the start, as it is
// after an OPIC crawl's first page; BenchmarkPush's "priority" and
// "boosted" cases, TestScale's priority and boosted orders):
//
//	                                          without the index  with it
//	BenchmarkPush, 100 URLs into 100,000      6.5 ms             11.0 ms
//	  (bbolt file per URL)                    398 bytes          616 bytes
//	TestScale, 300,000 URLs: pushed           11,700 URLs/s      5,760 URLs/s
//	  bytes on disk per URL                   345                514
//	  drained (every Done committed)          2,560 URLs/s       2,550 URLs/s
//	  peak RSS                                165 MiB            184 MiB
//
// So a priority crawl pushes at about half the rate and stores about 170
// bytes more per queued URL (the key, its 18- to 60-byte value, and the
// half-empty pages random keys leave); draining, bound by the commits'
// fsyncs, did not slow measurably. (An earlier pair at lower load: 19,400
// URLs/s pushed and 10,800 drained without the index; with it, 6,200 and
// 3,800, but another test ran beside that run. And BenchmarkPush again at
// load 10: 10.6 ms a batch unboosted, 26.5 ms boosted.) BFS pays
// nothing: 0.75 ms a batch and 138 bytes per URL in BenchmarkPush, as
// before. The commands: go test -run '^$' -bench 'BenchmarkPush$'
// ./frontier/disk; TRAWL_DISK_SCALE=300000
// TRAWL_DISK_SCALE_ORDER=priority (or boosted) go test -run 'TestScale$'
// -v ./frontier/disk.
//
// The crawler saves the accounts before each Done, so that the Done's
// commit holds them with the queues, and when Run returns, before the
// frontier is flushed: a crawl stopped (by a limit or its context) and
// resumed starts from the accounts it stopped with, and its seeds bring
// no new cash. What a kill -9 changes, besides what the durability
// contract loses: the accounts are those saved before the last Done
// committed, and the URLs that were leased then are queued again; their
// cash was counted in |H| when they were taken and is counted again when
// they are taken again (at most one page per worker), and the count of
// waiting URLs is the frontier's length at Open, which counts them.
// TestOPICResumesOnDisk (package internal/optional) stops an OPIC crawl
// of a crawltest web after about a tenth of its pages and resumes it:
// every page is fetched once, and the shares of the PageRank fetched
// after 20 and 50 % of the pages are the memory frontier's within 0.03
// (0.271 and 0.615 against 0.272 and 0.614, on 231 pages stopped after
// 18; resumed from fresh accounts instead, 0.259 and 0.524).
// trawlcli's TestCrashResumeOPIC SIGKILLs sitespider -opic -state twice
// during a crawl: every page is fetched, each once but those in flight
// at a kill.
//
// # Why bbolt, and the write buffer
//
// go.etcd.io/bbolt is the one dependency this package adds, and it brings
// one module (golang.org/x/sys, which trawl's store package needs anyway)
// and no C. It has what the layout needs: ordered keys, cursors over a
// prefix, atomic transactions, a single file, and a commit that is durable
// when it returns, or not there at all, after any crash; it is maintained
// by etcd, which keeps its state in it. Until issue 34 the store was
// cockroachdb/pebble, an LSM tree, which brought 13 modules of its own
// (cockroachdb/errors with sentry-go and gogo/protobuf, DataDog/zstd's C
// sources, snappy, x/exp, ...) and was about half of a cold build of the
// spiders (README, "What trawl pulls in").
//
// What a B+tree does not give is what the durability contract leans on: a
// cheap write, readable at once, that needs no fsync. A bbolt commit
// rewrites every page it touches and fsyncs twice; bbolt's NoSync mode
// would make it cheap and may corrupt the file on a machine crash, so it
// is not used. Hence the write buffer: a skip list of changes, sorted,
// that Push fills and every read merges with bbolt (point reads, and the
// prefix scans that fill the queues' in-memory windows), committed in one
// transaction per Done (all concurrent Dones together), per SyncInterval
// or per WriteBuffer bytes, so that the fsyncs of a commit are shared by
// every change it holds. And random keys are what a B+tree handles worst,
// which is why the seen set is not in it (see "The seen set"); the
// queues' keys grow with a sequence number, so a commit mostly appends.
//
// What it costs, against pebble (see Memory for the figures): a commit
// writes whole 4 KiB pages, and a frontier writes more per URL than pebble
// did (an LSM tree appends and compresses): 137 bytes on disk per queued
// URL against 37, drains at 60 % of pebble's rate, and a priority
// crawl's random keys cost it most. A Push commits past 1,024 keys as
// well as past WriteBuffer bytes, since bbolt copies every page a commit
// touches into the heap (under Priority at a million URLs, the peak RSS
// was 663 MiB with 4 MiB commits, 314 MiB with 1,024 keys). The file grows to the frontier's largest size and
// does not shrink (pages freed are reused); reopening it reads the seen
// set's runs into the Bloom filter, as before. Pages are split 90 % full
// rather than bbolt's default 50 %, since most keys are appended in
// order. And a kill -9 used to lose only what pebble had not yet handed
// to the operating system, a few milliseconds; it now loses the buffer:
// at most SyncInterval of Pushes, never a Done.
//
// # Concurrency
//
// A Frontier is safe for concurrent use by any number of goroutines. One
// mutex guards its state, and each operation's changes go to the write
// buffer under it, so commits hold operations in their real order; the
// commit a Done waits for runs outside the mutex (one at a time, reads
// seeing the buffer being committed until it is), so workers are not
// serialized on the disk.
// Next waits on a channel that Push, Done and Close close when they change
// the state, and on a timer from politeness.Config.Clock (or the system
// clock) for the next host to become ready.
package disk
