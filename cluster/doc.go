// Package cluster crawls one web with many crawler processes, on many
// machines, through Redis. Each process is an Agent; the crawler is the
// ordinary trawl.Crawler, given the agent's frontier, its shared robots.txt
// store and its page counter:
//
//	rdb := redis.NewClient(&redis.Options{Addr: "10.0.0.5:6379"})
//	a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: "agent-7", Crawl: "news", MaxPages: 1e6})
//	if err != nil { ... }
//	defer a.Close()
//	c, err := trawl.New(
//		trawl.WithSeeds(seeds...), // every agent may be given the same seeds
//		trawl.WithFrontier(a.Frontier),
//		trawl.WithShared(trawl.Shared{Robots: a.Robots(), Pages: a}),
//		trawl.WithLimits(trawl.Limits{MaxPages: 1e6}),
//	)
//	err = c.Run(ctx) // returns when the whole cluster is done
//
// examples/clusterspider is sitespider built this way.
//
// # What spreads and what does not
//
// Across the agents of a crawl, through Redis: the hosts (each has one
// owner, which fetches its URLs; by IP address under
// trawl.Politeness.PerIP), the URLs seen and done (each fetched once),
// each host's politeness (its delay between request starts, at most
// Politeness.HostConcurrency requests in flight, Crawl-delay and the
// adaptive delay, whichever agents fetch it, across takeovers too), and
// per IP address the IP delay, robots.txt responses, the page limit
// (trawl.Shared.Pages), each URL's Data (its metadata and hints: Page.Meta
// reaches the page wherever it is fetched), OPIC cash and importance, the
// revisit schedule of a continuous crawl (trawl.WithRecrawl: each page's
// next visit time and its history, kept in Redis by the agent that owns
// its host, and passed on with the host when that agent dies or another
// joins), and the agents' statistics.
//
// Not spread: one host's fetching (its owner does it all, so a cluster
// speeds up a crawl of many hosts, not of one site), back-off's count of a
// host's consecutive failures (kept by the agent fetching it), the order
// of the URLs an agent holds (each orders its own), and a continuous
// crawl's revisit plan (each agent's recrawl.Planner plans the hosts it
// fetches from the histories that travel with their pages, so an agent
// that takes hosts over plans them from their next visits on; its
// Stats.Recrawl covers the hosts it planned).
//
// # Design
//
// Membership. An agent registers in a sorted set of the crawl with the
// Redis server's time as its heartbeat, renewed every Lease/3 and read by
// every agent every Poll. An agent whose heartbeat is older than Lease is
// dead, and another agent takes it over (a script takes the takeover lock
// only if the heartbeat is still old, and a heartbeat is refused once the
// lock is taken, so the two exclude each other; an agent that was stalled
// itself takes no one over until it has beaten again). An agent starts
// no fetch unless its last heartbeat is younger than Lease/2, so that it
// stops before the others can count it dead; one that comes back after
// a takeover began finds itself fenced (ErrFenced) and stops. (A
// request already sent when its agent froze for longer than a lease may
// meet the next agent's at the host: no lease can fence a web server.) An
// agent that joins under the name of a dead one inherits its queue.
//
// Host ownership. The live agents form a Ring: consistent hashing with
// DefaultVirtualNodes points per agent, so that 8 agents each own within
// ±10 % of their share of the hosts (measured: within 5.4 % over 200,000
// hosts for five sets of names) and an agent that joins or leaves moves
// only the hosts it takes or had. A host is a politeness key
// (urlnorm.Key). One host has one owner, which alone fetches its URLs (so
// that its politeness holds cluster-wide without a lock per request): a
// cluster is faster than one process only when the crawl has many hosts;
// on one site its owner does all the fetching while the other agents wait
// (issue 34 saw three clusterspider agents on the Python docs split it
// 45, 486 and 0 pages, and take twice as long as one process).
//
// Politeness per IP address (trawl.Politeness.PerIP: the frontier's
// options carry politeness.Config.IPKey) shares hosts out by the address
// they resolve to instead: the ring's key of a host whose address the
// pushing agent knows (the crawler resolves names before it queues their
// URLs) is that address, and the key travels with each URL in its stream
// entry, so that takeovers and moves route it alike wherever the names
// were resolved. So one agent has every host of an address, and its local
// frontier keeps the address's delay and in-flight limit. Because for a
// while after an agent joins or dies two agents may both hold hosts of
// one address (see below), each fetch also leases its host's address in
// Redis as it leases its host, one agent at a time, released with the IP
// delay (TestClusterPerIP: three agents, ten of sixteen hosts on one
// address, never two requests at once to it nor closer than the IP
// delay). A host whose name does not resolve is shared out by name.
//
// Queues. Each agent has a Redis Stream. Push sends each URL the crawl has
// not seen to the stream of its host's owner, one entry per owner and Push
// (a batch). The agent reads its stream into a local frontier.Memory,
// which orders the URLs (BFS, DFS, priority) and schedules its hosts, at
// most Options.MaxLocal URLs at a time; the rest wait in Redis. An entry
// is deleted (XDEL: the acknowledgement) when its last URL is done, so the
// stream holds exactly the agent's unfinished URLs; a consumer group's
// pending list would duplicate that.
//
// Data. A request's Data (frontier.Request.Data: the crawler's metadata
// and hints for the URL, at most frontier.MaxData bytes) travels in the
// stream entry with its URL, so it reaches the agent that owns the URL's
// host, moves with the URL when an agent joins, and survives the takeover
// of a dead agent. An Outcome.Data given with a Retry or Requeue replaces
// it in the agent's local frontier only: a URL taken over from a dead
// agent comes back with the Data (and Retries) it was pushed with.
//
// Importance. Under trawl.Priority.OPIC (alone or with Priority.Link's
// scores) each agent keeps an OPIC ledger (package frontier/opic), and
// its local frontier orders the URLs it holds by their cash. The
// Frontier is an opic.Carrier: a link's share of its page's cash travels
// with the link's URL in the stream entry, as the URL's priority, to the
// agent that owns it, which joins it to its ledger; a share for a URL
// the crawl has queued already travels alone, in a cash note (the URL,
// its host and the share; an agent sums the notes for one URL and sends
// them every Poll). The owner gives the share to the URL if it waits in
// its local frontier (so the URL comes out sooner), else to its virtual
// page, which hands its cash to the URLs waiting in its local frontier:
// so go the shares for a URL it took already, for one still in its
// stream, not read yet (Options.MaxLocal keeps the rest of an agent's
// URLs there, in arrival order: the local frontier orders only what it
// holds), and for one that another agent holds for a while after a
// membership change. The seeds' cash enters the cluster once, with the push that
// queues each seed: the other agents' pushes of the same seeds carry
// none. The importance estimate on trawl.Page.Importance and in the
// decision log is a page's cash over one plus the cash of every page the
// cluster fetched before, as in one process: each heartbeat adds the
// agent's history to a counter in Redis and reads the others'
// (TestClusterOPICOrder: two agents with a web of 1,500 pages whose
// in-degrees follow a power law, each holding its whole share of the web
// in its local frontier, hold 0.62–0.64 of its PageRank after 20 % of the
// pages, 0.62–0.63 with the default MaxLocal, two breadth-first agents
// 0.59–0.61; one process with as many workers, 0.65 and 0.62).
//
// What is conserved. Cash is conserved in each agent's ledger: what it
// receives (with URLs and in notes) is held by its waiting URLs, handed
// on by the pages it fetches, or at its virtual page. Across the cluster
// the total is 1, the seeds' cash, less what is lost: the cash held by
// an agent that dies (its virtual page, and whatever its waiting URLs
// gained after they reached it: taken over, a URL comes back with the
// cash it was sent with), the notes it had not sent yet, and the shares
// of pushes and notes that Redis refused. The virtual page's cash stays
// with its agent, whose waiting URLs share it, where one process would
// share it among all of them. A page fetched twice (in flight when its
// agent died) hands its cash on twice, and a note sent twice (a retried
// XADD) counts twice. A share for a URL another agent holds reaches it
// up to Poll late, when the note goes.
//
// Duplicates. Each host has a hash of the fingerprints (frontier.Fingerprint)
// of the URLs the crawl accepted, marked queued or done. Push checks a
// page's links there (one script per host), queues the new ones, then
// marks them: an agent that dies between the two leaves URLs queued twice
// at worst, never marked and lost. A URL is fetched only after a script
// leases its host and finds it neither done nor leased for another fetch
// (a copy at another agent), and marked done when its lease is released,
// so a URL queued twice is fetched once (TestSecondCopyWaits). A local
// cache of known fingerprints (8 MiB) spares Redis the links an agent has
// met before.
//
// Politeness. A host's state in Redis holds its next contact time, the
// delay its last contact gave, and one lease per fetch in flight (the
// agent, the URL, and when the lease runs out: Lease from its start,
// renewed with the heartbeat while the fetch lasts). One script leases the
// host for one fetch if fewer than HostConcurrency leases are live and
// its next contact time has come, and moves that time to now plus the
// last delay; releasing a lease sets it from the outcome with the local
// politeness policy (minimum delay, Crawl-delay, adaptive delay,
// back-off), to the end of the fetch plus the delay, or later if other
// fetches are in flight and it is later already. These are the rules of
// one process's schedule (politeness.Schedule: contacts in flight
// together start at least the last delay apart, and one starts no sooner
// than the delay after the end of the last), kept in Redis, so they hold
// whichever agents fetch a host: for a while after an agent joins or
// dies two agents may both fetch from one, and their requests together
// keep at most HostConcurrency in flight, the delay apart
// (TestHostConcurrencyAcrossAgents). A lease left by a dead agent counts
// as a contact that ended when the lease ran out, with the minimum delay
// (TestHostConcurrencyTakeOver); a lease released with no contact (a URL
// robots.txt disallows) puts the next contact time back where it was, if
// nothing moved it since. TestClusterHostConcurrency: three agents,
// three requests per host, on a web whose answers take four times the
// delay: never more than three in flight to a host, three reached, every
// page once, and Redis granted no two leases of a host less than the
// delay apart. A fetch costs what it did with one lease per host: one
// script to lease, one to release, one per host to renew, each over a
// hash of at most HostConcurrency leases and two fields.
// BenchmarkClusterCrawl with 3 agents, run alternately with the single
// lease this replaced on 2026-12-07 (a busy machine, so Redis's CPU time
// is higher than in "Cost, measured" for both): 5.9–6.0 commands and 4.3
// round trips per page both ways, network bytes per page within a few
// per cent, Redis CPU 274–297 µs per page against 238–293 µs. The local
// frontier orders what Redis allows and keeps
// the same limits itself; a host Redis refuses goes
// back to wait: until its next contact time when it rests, and for at most
// Poll when its leases are all taken elsewhere (their holders release them when
// their fetches end, long before the leases would run out). So an agent whose
// URLs are due waits at most Poll, or its hosts' politeness delay when
// that is longer, before it asks Redis again (TestHostHeldElsewhereWaitsPoll;
// issue 34 saw an agent sit idle for a whole lease, 10 s, with 43 URLs
// queued, waiting on a host that another agent held). robots.txt
// responses are kept in Redis
// (trawl.Shared.Robots, robots.SharedFetch) for a day, five minutes
// after a 5xx, so each is fetched once in the cluster (twice when the
// agent fetching it dies before it is saved, like any URL in flight).
//
// Membership changes. When an agent joins, every agent passes the URLs of
// the new agent's hosts still waiting in its stream (not read into its
// local frontier) to the new agent; those already read are fetched where
// they are, under the same host leases (so for a while two agents may both
// have URLs of a host, and share its leases). When an agent dies, one live agent
// (holding a lock) moves its whole stream, in flight URLs included, to the
// owners of their hosts, then removes it: its URLs are taken over within
// Lease + Poll of its last heartbeat (its hosts resumed 1.7–2.1 s after
// a SIGKILL with a lease of 2 s in five runs of clusterspider's test), and
// only those it had in flight are fetched again.
//
// Revisits. The Frontier is a frontier.Revisiter: a URL done with
// frontier.Outcome.Revisit waits in its agent's revisit schedule in Redis,
// two keys with the hash tag of the agent's stream: a sorted set of URL
// fingerprints by due time (Redis's clock: Done turns Outcome.Revisit
// into a delay from now) and a hash from each fingerprint to its request
// (URL, depth, referrer, anchor, Data, and Outcome.State: the page's
// history, about 130 bytes). One script schedules the revisit and deletes
// the URL's stream entry if it was the entry's last, so a URL is always in
// the one or the other; only then is the URL marked done for its host
// (which keeps a second copy of it, in a stream, from being fetched): an
// agent taken over meanwhile leaves it unmarked, for the agent that has
// its stream entry now. The schedule holds one entry per page kept, each
// replaced by its next visit's, so it is bounded by the crawl's pages
// (trawl.Limits.MaxPages, the hosts' budgets); a page done without a
// Revisit (a 404) leaves it. Every Poll, or sooner when the next revisit
// is due, the agent takes the revisits that are due into its local
// frontier (frontier.Memory.PushRevisit), up to Options.MaxLocal of them
// there besides the URLs read from its stream (so that a backlog of new
// URLs does not hold them back), which hands them out ahead of new URLs;
// their hosts' leases and politeness in Redis apply as to first visits
// (a revisit is leased although its URL is marked done). A taken revisit
// stays in the schedule, marked taken (its score negated), until its Done
// replaces it. A due revisit of a host another agent owns now (it joined,
// or this agent's view of the members is behind) goes to that agent's
// schedule instead, due at once; it is marked leaving (score 0) until it
// is there, and a copy sent back meanwhile replaces a leaving one, so two
// agents whose views disagree, sending it to each other, keep one copy
// (a copy that is not leaving is never replaced). When an agent dies,
// its taker moves its schedule to the owners of the hosts, with the due
// times and states: those it had taken (in flight, or waiting in its local
// frontier) are due at once, and so fetched again, like the URLs it had in
// flight. A revisit is added where it goes only if that schedule lacks its
// URL, before it leaves where it was, so a takeover that dies midway and
// is taken over in turn loses none and duplicates none. And the taker
// fences the dead agent's schedule before it reads it: from then on no
// revisit is added there (an agent whose view still names the dead one
// as a host's owner revisits it itself), since one added to a batch the
// taker has moved but not yet removed would find the copy about to go and
// be dropped by its sender (a race TestClusterRecrawlFreshness lost about
// once in 25 runs under load; TestAddDuringTakeOver replays it). Revisits counts
// the agent's revisits waiting (not taken). A waiting revisit costs Redis
// about 530 bytes (BenchmarkRevisitMemory: a 67-byte URL with an anchor
// and a 134-byte state, base64 in the request's JSON); a revisit's Done
// one script more than a first visit's (the schedule's, run before the
// host's release), and each agent one script per Poll, or per revisit
// falling due, to read its schedule. TestClusterRecrawlFreshness:
// three agents, one killed midway, keep a changing web about as fresh as
// one process with the same budget, crawling a copy of it at the same
// time (mean freshness 0.66–0.75 against 0.69–0.74, the cluster's
// deficit -0.008 to 0.044 over ten pairs; the test allows 0.10), and
// every page is in exactly one schedule at the end.
//
// Termination. Every stream entry lives until its URLs are done, and the
// links of a page are queued before the page is done, so the cluster has
// nothing to do exactly when every registered agent's stream and revisit
// schedule are empty. An idle agent (no URL in its local frontier, and a
// worker waiting in Next: a frontier that no worker asked yet, made before
// the crawl pushed its seeds, is not idle) checks that every Poll: it
// reads a counter that every batch of queued URLs or moved revisits
// increments (after the entries exist, before the entries they came from
// are deleted), then the length of every stream and schedule (one script
// per agent reads both, as a revisit moves between them), then the
// counter again; all empty and the counter unchanged mean the crawl is
// over, and Next returns frontier.ErrEmpty to every worker of every
// agent, which then exit by themselves. A continuous crawl keeps its
// pages in the schedules, so it ends with its context. With Options.MaxPages,
// AddPage (trawl.PageCounter) counts page fetches in Redis and the crawl
// ends for every agent when the limit is reached.
//
// Redis Cluster. The keys of one host share the hash tag {crawl/host},
// those of one agent's stream {crawl:agent}, the crawl's global keys
// (members, counters, stats) {crawl}: every script touches one tag, so
// the design runs on Redis Cluster, with hosts and streams spread over
// the shards (TestRedisCluster crawls with three agents on three shards,
// redis.NewClusterClient). Redis's clock (TIME in scripts) is the only clock that
// matters, so agents' clocks need not agree.
//
// State. A crawl's keys stay in Redis when it ends: its URL sets make a
// second run under the same Crawl name fetch nothing already done (a
// resumable crawl: under WithRecrawl, its revisit schedules resume too,
// an agent that left with revisits waiting being taken over by the next
// that runs, or inheriting them under its name). Start a new crawl under a new name, or
// delete the old one's keys (redis-cli --scan --pattern '*{name*' and DEL).
// Host states expire a second after their next contact time. Back-off's
// count of consecutive failures of a host is kept by the agent fetching
// it, not in Redis.
//
// # Cost, measured
//
// BenchmarkClusterCrawl crawls a crawltest web (40 hosts, 2,000 pages,
// about 30 links a page, no politeness delay) with 1 and 3 agents and
// counts, per fetched page, the commands the agents send (go-redis hook),
// the network bytes and the CPU time of Redis's main thread (INFO stats,
// INFO cpu); BenchmarkURLSetMemory and BenchmarkStreamMemory measure
// memory with MEMORY USAGE:
//
//	go test -run='^$' -bench='ClusterCrawl|URLSetMemory|StreamMemory|RevisitMemory' -benchtime=3x ./cluster
//
//	                         1 agent   3 agents
//	commands per page          4.5       5.8–6.0  (scripts 3.6 / 4.8, XADD and XDEL 0.25 / 0.31)
//	round trips per page       3.8       4.2–4.4
//	network bytes per page    1,030–1,090  1,330–1,440
//	Redis CPU per page        103–121 µs  102–137 µs  (over four runs; the machine is shared)
//	accepted URL, hash of ≤128:  16 bytes;  of 10^4–10^5:  58–68 bytes
//	queued URL in a stream:     175 bytes   (URL, anchor as JSON; the referrer once per entry)
//	revisit waiting:            534 bytes   (URL, anchor, 134-byte state as JSON; sorted set and hash)
//
// Under trawl.Priority.OPIC (the "opic" runs; two runs of each on
// 2026-12-07, with the breadth-first runs alongside for comparison, as the
// machine was busier than for the table above): 4.7 commands per page
// with 1 agent, 6.4–6.5 with 3 (breadth-first 4.5 and 6.0), the cash
// notes adding XADD and XDEL (0.28 and 0.45 each per page, against 0.25
// and 0.31); 1,560–1,580 and 3,280–4,640 network bytes per page
// (breadth-first 1,040 and 1,410–1,810).
//
// From these, with the slowest run's 137 µs: one Redis shard (one core)
// sustains about 1 s / 137 µs = 7,300 pages/s, say 3,600 at a comfortable
// 50 % load (9,700 and 4,800 at the fastest run's 103 µs). 100 agents
// fetching 100 pages/s each (a polite crawler on a real web) make 10,000
// pages/s: 3 shards at 50 % load; at 1,000 pages/s each, 28 shards. A
// crawl of 10^9 URLs keeps at most 10^9 × 68 bytes = 68 GB of URL sets,
// plus 175 bytes per queued URL at the frontier's peak (10^8 queued:
// 17.5 GB), about 86 GB: 4 shards of 25 GB for memory. The larger count
// decides: 4 shards for 100 polite agents and 10^9 URLs, 28 for 100
// agents at 1,000 pages/s each. The crawl's global keys (one shard) see
// 0.25 INCR per page and one read per agent per Poll; the host keys,
// nearly all the load, spread over all shards by hash tag.
//
// # Concurrency
//
// An Agent and its Frontier are safe for concurrent use. Join starts the
// agent's goroutines (heartbeat, membership and termination checks),
// Frontier one more (the stream reader); Close stops them all and returns
// when they have exited.
//
// # Dependencies
//
// github.com/redis/go-redis/v9, Redis's official Go client, which speaks
// to a single server, Sentinel and Redis Cluster alike
// (redis.UniversalClient). Tests start redis-server (Debian package
// redis-server; its redis-cli builds the test's Redis Cluster) on free
// loopback ports; they skip without it, unless CI is set.
package cluster
