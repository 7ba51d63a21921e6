package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl/frontier"
)

// Defaults of Options.
const (
	DefaultCrawl     = "trawl"
	DefaultLease     = 10 * time.Second
	DefaultReadBatch = 64
)

// Errors, matched with errors.Is.
var (
	// ErrNameInUse is returned by Join when a live agent of the crawl has
	// the name.
	ErrNameInUse = errors.New("cluster: agent name in use")
	// ErrFenced means the agent was silent longer than its lease and the
	// others declared it dead (and took its URLs over): it must stop. An
	// agent that cannot reach Redis for a lease stops too, with the Redis
	// error.
	ErrFenced = errors.New("cluster: agent declared dead by the cluster")
)

// Options configures an Agent. Zero fields take the defaults named on each.
type Options struct {
	// Name names the agent; it must be unique among the crawl's live
	// agents. An agent that restarts under the name of a dead one inherits
	// its queue. Default: hostname-pid.
	Name string
	// Crawl names the crawl: agents with the same Crawl on the same Redis
	// crawl together. Default DefaultCrawl.
	Crawl string
	// Lease is how long an agent may stay silent before the others declare
	// it dead and take its hosts and URLs over; agents beat every Lease/3.
	// It is also how long a host stays leased to an agent that died while
	// fetching from it. Default DefaultLease.
	Lease time.Duration
	// Poll is how often an idle agent checks whether the crawl is over.
	// Default Lease/20, at least 20 ms.
	Poll time.Duration
	// VirtualNodes is the number of points of each agent on the hash ring.
	// Every agent of a crawl must use the same. Default DefaultVirtualNodes.
	VirtualNodes int
	// MaxPages, if positive, is the crawl's page limit, counted by AddPage
	// over all agents: Next reports the end once it is reached. Give the
	// crawler the same limit (trawl.Limits.MaxPages with
	// trawl.WithShared(trawl.Shared{Pages: agent})). Default 0: none.
	MaxPages int64
	// ReadBatch is how many stream entries an agent reads at a time.
	// Default DefaultReadBatch.
	ReadBatch int
	// MaxLocal is how many URLs an agent keeps in its local frontier; the
	// rest wait in its stream in Redis, where a joining agent can take
	// those of its hosts over. A continuous crawl's revisits that are due
	// have as much room again, so that new URLs do not hold them back (in
	// one process they go ahead of new URLs). Default 64 per worker of the
	// frontier (frontier.MemoryOptions.Workers).
	MaxLocal int
	// Stats, if set, returns a value that the agent publishes as JSON with
	// every heartbeat (its trawl.Stats, say); Agent.Stats reads them all.
	Stats func() any
	// Logger receives the agent's log. Default: none.
	Logger *slog.Logger
}

// Agent is one process of a crawl on Redis. Join makes one; Frontier gives
// the crawler its frontier; Close leaves the crawl.
//
// An Agent is safe for concurrent use.
type Agent struct {
	rdb   redis.UniversalClient
	opts  Options
	keys  keys
	token string // this process's instance of the name
	log   *slog.Logger

	beatAt   atomic.Int64 // when the last heartbeat succeeded (local clock, ns)
	ring     atomic.Pointer[Ring]
	front    atomic.Pointer[Frontier]
	fatal    atomic.Pointer[error]
	fatalCh  chan struct{}
	fatalOne sync.Once
	finished chan struct{} // closed when the cluster has nothing left
	finOnce  sync.Once
	limit    chan struct{} // closed when MaxPages is reached
	limOnce  sync.Once

	stop      context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	onWatch atomic.Pointer[func(over bool)] // for tests: called after each round of watchLoop

	// ipKey is politeness.Config.IPKey of the frontier's options (nil
	// without politeness per IP): the requests of a host with an address
	// are shared out by the address (see partOf).
	ipKey atomic.Pointer[func(host string) (string, bool)]
}

// partOf returns the key r is shared out by: part, when the request
// carries one; else the IP address its host resolves to, when politeness
// is per IP and this process knows it; else its host. So every host of
// one address has one owner, whose local frontier keeps the address's
// politeness, and it holds across the cluster.
func (a *Agent) partOf(r *frontier.Request, part string) string {
	if part != "" {
		return part
	}
	if k := a.ipKey.Load(); k != nil {
		if ip, ok := (*k)(r.Host); ok {
			return ip
		}
	}
	return r.Host
}

// Join registers an agent of a crawl on rdb and starts its heartbeat. It
// fails with ErrNameInUse if a live agent has the name; while the previous
// agent of the name is being taken over, it waits for that to finish.
func Join(ctx context.Context, rdb redis.UniversalClient, opts *Options) (*Agent, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		host, _ := os.Hostname()
		o.Name = host + "-" + strconv.Itoa(os.Getpid())
	}
	if o.Crawl == "" {
		o.Crawl = DefaultCrawl
	}
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.Poll <= 0 {
		o.Poll = max(o.Lease/20, 20*time.Millisecond)
	}
	if o.ReadBatch <= 0 {
		o.ReadBatch = DefaultReadBatch
	}
	a := &Agent{rdb: rdb, opts: o, keys: keys{o.Crawl}, log: o.Logger,
		fatalCh: make(chan struct{}), finished: make(chan struct{}), limit: make(chan struct{})}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	a.log = a.log.With("agent", o.Name)
	var tok [8]byte
	rand.Read(tok[:])
	a.token = o.Name + "/" + hex.EncodeToString(tok[:])
	for _, s := range scripts {
		if err := s.Load(ctx, rdb).Err(); err != nil {
			return nil, fmt.Errorf("cluster: loading scripts: %w", err)
		}
	}
	lease := strconv.FormatInt(o.Lease.Milliseconds(), 10)
	for {
		n, err := scriptJoin.EvalSha(ctx, rdb, []string{a.keys.members(), a.keys.inst(), a.keys.takeover(o.Name)},
			o.Name, a.token, lease).Int64()
		if err != nil {
			return nil, fmt.Errorf("cluster: join: %w", err)
		}
		if n == -1 {
			return nil, fmt.Errorf("%w: %q in crawl %q", ErrNameInUse, o.Name, o.Crawl)
		}
		if n >= 0 {
			break
		}
		// The previous agent of this name is being taken over.
		if err := sleep(ctx, o.Poll); err != nil {
			return nil, err
		}
	}
	// The stream exists from now on (an empty stream needs a group);
	// pushes to a stream that no longer exists go elsewhere (NOMKSTREAM).
	err := rdb.XGroupCreateMkStream(ctx, a.keys.stream(o.Name), "trawl", "$").Err()
	if err != nil && !isBusyGroup(err) {
		return nil, fmt.Errorf("cluster: creating the stream: %w", err)
	}
	if err := a.beat(ctx); err != nil {
		return nil, err
	}
	lctx, stop := context.WithCancel(context.Background())
	a.stop = stop
	a.wg.Go(func() { a.heartbeatLoop(lctx) })
	a.wg.Go(func() { a.watchLoop(lctx) })
	a.log.Info("joined", "crawl", o.Crawl, "agents", a.Ring().Agents())
	return a, nil
}

func isBusyGroup(err error) bool {
	return err != nil && len(err.Error()) >= 9 && err.Error()[:9] == "BUSYGROUP"
}

// Name returns the agent's name.
func (a *Agent) Name() string { return a.opts.Name }

// Ring returns the ring of the live agents as this agent last saw it.
func (a *Agent) Ring() *Ring { return a.ring.Load() }

// Err returns the error that stopped the agent (ErrFenced, or a Redis
// error in its heartbeat), or nil.
func (a *Agent) Err() error {
	if p := a.fatal.Load(); p != nil {
		return *p
	}
	return nil
}

// fresh reports whether the agent's last heartbeat is recent enough that
// the others cannot have declared it dead during a fetch it starts now:
// within half a lease. An agent starved of CPU or cut off from Redis stops
// fetching before its leases can run out.
func (a *Agent) fresh() bool {
	return time.Since(time.Unix(0, a.beatAt.Load())) < a.opts.Lease/2
}

func (a *Agent) fail(err error) {
	a.fatalOne.Do(func() {
		a.fatal.Store(&err)
		close(a.fatalCh)
		a.log.Error("agent stopped", "err", err)
	})
}

// AddPage counts one page fetch over the whole crawl and returns the total
// (trawl.PageCounter).
func (a *Agent) AddPage(ctx context.Context) (int64, error) {
	n, err := a.rdb.Incr(ctx, a.keys.pages()).Result()
	if err != nil {
		return 0, fmt.Errorf("cluster: counting pages: %w", err)
	}
	if a.opts.MaxPages > 0 && n >= a.opts.MaxPages {
		a.limOnce.Do(func() { close(a.limit) })
	}
	return n, nil
}

// Pages returns the number of page fetches AddPage counted over the crawl.
func (a *Agent) Pages(ctx context.Context) (int64, error) {
	n, err := a.rdb.Get(ctx, a.keys.pages()).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, err
}

// beat renews the heartbeat and the leases of the hosts being fetched,
// reads the members and rebuilds the ring, shares the OPIC history, and
// publishes the stats.
func (a *Agent) beat(ctx context.Context) error {
	start := time.Now()
	res, err := scriptBeat.EvalSha(ctx, a.rdb, []string{a.keys.members(), a.keys.inst(), a.keys.takeover(a.opts.Name)},
		a.opts.Name, a.token).Slice()
	if err != nil {
		return fmt.Errorf("cluster: heartbeat: %w", err)
	}
	if len(res) < 2 {
		return ErrFenced
	}
	a.beatAt.Store(start.UnixNano())
	a.see(res)
	if f := a.front.Load(); f != nil {
		f.renew(ctx)
		f.shareHistory(ctx)
	}
	if a.opts.Stats != nil {
		if b, err := json.Marshal(a.opts.Stats()); err == nil {
			a.rdb.HSet(ctx, a.keys.stats(), a.opts.Name, b)
		}
	}
	// Dead agents are taken over in watchLoop (look), so that a long
	// takeover never delays the renewal of this agent's leases.
	return nil
}

// look refreshes the ring from the members in Redis between heartbeats,
// and takes over the agents found dead.
func (a *Agent) look(ctx context.Context) error {
	res, err := scriptView.EvalSha(ctx, a.rdb, []string{a.keys.members()}).Slice()
	if err != nil {
		return fmt.Errorf("cluster: reading members: %w", err)
	}
	dead := a.see(res)
	if !a.fresh() {
		// This agent was stalled too: others may only be late, as it was.
		return nil
	}
	for _, d := range dead {
		if err := a.takeOver(ctx, d); err != nil {
			a.log.Warn("taking over a dead agent failed", "dead", d, "err", err)
		}
	}
	return nil
}

// see takes {now, members with scores} from Redis, rebuilds the ring of
// the live members if it changed, and returns the dead ones.
func (a *Agent) see(res []any) (dead []string) {
	if len(res) < 2 {
		return nil
	}
	alive, dead := a.split(res)
	// The members come in heartbeat order; the ring's are sorted. Only a
	// change in the set of live agents makes a new ring.
	slices.Sort(alive)
	alive = slices.Compact(alive)
	if old := a.ring.Load(); old == nil || !slices.Equal(old.Agents(), alive) {
		a.ring.Store(NewRing(alive, a.opts.VirtualNodes))
		if old != nil {
			a.log.Info("membership changed", "agents", alive)
		}
	}
	return dead
}

func (a *Agent) heartbeatLoop(ctx context.Context) {
	t := time.NewTicker(a.opts.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := a.beat(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			if errors.Is(err, ErrFenced) {
				a.fail(err)
				return
			}
			a.log.Warn("heartbeat failed", "err", err)
			if since := time.Since(time.Unix(0, a.beatAt.Load())); since > a.opts.Lease {
				// The others count this agent dead by now.
				a.fail(fmt.Errorf("cluster: no heartbeat for %v: %w", since.Round(time.Millisecond), err))
				return
			}
		}
	}
}

// takeOver moves the URLs of a dead agent's stream to the streams of their
// hosts' owners among the living, then removes the dead agent. One agent
// does it, holding a lock; if that agent dies too, the lock runs out and
// another takes over where it stopped.
func (a *Agent) takeOver(ctx context.Context, dead string) error {
	lock := a.keys.takeover(dead)
	ok, err := scriptTakeOver.EvalSha(ctx, a.rdb, []string{a.keys.members(), lock},
		dead, a.token, a.opts.Lease.Milliseconds()).Bool()
	if err != nil || !ok {
		return err // alive again, or another agent is at it
	}
	defer a.rdb.Del(context.WithoutCancel(ctx), lock)
	// Fence the dead agent's schedule before reading it: from now on no
	// revisit is added to it (an agent whose ring still names the dead
	// one keeps its revisit instead), so none is added to a batch
	// moveRevisits has read and is about to remove.
	if err := a.rdb.HSet(ctx, a.keys.revisitReqs(dead), fenceField, "1").Err(); err != nil {
		return fmt.Errorf("cluster: taking over %s: %w", dead, err)
	}
	stream := a.keys.stream(dead)
	moved, revisits := 0, 0
	for {
		msgs, err := a.rdb.XRangeN(ctx, stream, "-", "+", 100).Result()
		if err != nil {
			return fmt.Errorf("cluster: reading %s: %w", stream, err)
		}
		if len(msgs) == 0 {
			nr, err := a.moveRevisits(ctx, dead)
			if err != nil {
				return err
			}
			revisits += nr
			n, err := scriptDelIfEmpty.EvalSha(ctx, a.rdb, []string{stream, a.keys.revisits(dead), a.keys.revisitReqs(dead)}).Int64()
			if err != nil {
				return err
			}
			if n >= 0 {
				break
			}
			continue
		}
		var reqs []frontier.Request
		var routes []route
		ids := make([]string, len(msgs))
		for i, m := range msgs {
			ids[i] = m.ID
			rs, rts, err := decodeRoutes(fmt.Sprint(m.Values["r"]))
			if err != nil {
				a.log.Warn("dropping a bad stream entry", "stream", stream, "id", m.ID, "err", err)
				continue
			}
			reqs = append(reqs, rs...)
			routes = append(routes, rts...)
		}
		if err := a.send(ctx, reqs, routes); err != nil {
			return err
		}
		if err := a.rdb.XDel(ctx, stream, ids...).Err(); err != nil {
			return err
		}
		moved += len(reqs)
		a.rdb.PExpire(ctx, lock, a.opts.Lease)
	}
	pipe := a.rdb.Pipeline()
	pipe.ZRem(ctx, a.keys.members(), dead)
	pipe.HDel(ctx, a.keys.inst(), dead)
	if _, err := pipe.Exec(ctx); err != nil {
		return err
	}
	a.log.Info("took over a dead agent", "dead", dead, "urls", moved, "revisits", revisits)
	return nil
}

// moveRevisits moves the revisit schedule of a dead agent to the
// schedules of the owners of its URLs' hosts among the living, with their
// due times and states: a revisit the dead agent had taken (handed out,
// or about to be) is due at once. It returns how many it moved. A revisit
// is added to its new schedule before it leaves the old, and added only
// if the new schedule lacks it, so a takeover that dies midway and is
// taken over again loses none and duplicates none.
func (a *Agent) moveRevisits(ctx context.Context, dead string) (int, error) {
	set, reqs := a.keys.revisits(dead), a.keys.revisitReqs(dead)
	moved := 0
	for {
		ring := a.Ring()
		zs, err := a.rdb.ZRangeWithScores(ctx, set, 0, 99).Result()
		if err != nil {
			return moved, fmt.Errorf("cluster: reading %s: %w", set, err)
		}
		if len(zs) == 0 {
			return moved, nil
		}
		fps := make([]string, len(zs))
		for i, z := range zs {
			fps[i] = fmt.Sprint(z.Member)
		}
		vals, err := a.rdb.HMGet(ctx, reqs, fps...).Result()
		if err != nil {
			return moved, fmt.Errorf("cluster: reading %s: %w", reqs, err)
		}
		var rvs []revisitMove
		for i, z := range zs {
			v, _ := vals[i].(string)
			req, part, err := decodeRevisit(v)
			if err != nil {
				a.log.Warn("dropping a bad revisit", "agent", dead, "err", err)
				continue
			}
			at := int64(z.Score)
			if at < 0 {
				at = 0 // taken: due at once
			}
			// Never to the dead agent: the ring may still name it (one
			// read before it was found dead can replace a newer one), and
			// a revisit added where it is adds nothing, then leaves.
			o := ring.Owner(a.partOf(&req, part))
			if o == "" || o == dead {
				o = a.opts.Name
			}
			rvs = append(rvs, revisitMove{fp: fps[i], at: at, val: v, owner: o})
		}
		orphans, err := a.addRevisits(ctx, rvs)
		if err == nil && len(orphans) > 0 { // their owners left meanwhile
			for i := range orphans {
				orphans[i].owner = a.opts.Name
			}
			if orphans, err = a.addRevisits(ctx, orphans); err == nil && len(orphans) > 0 {
				err = fmt.Errorf("cluster: moving revisits: %w", ErrFenced) // this agent's stream is gone
			}
		}
		if err != nil {
			return moved, err
		}
		pipe := a.rdb.Pipeline()
		pipe.ZRem(ctx, set, anys(fps)...)
		pipe.HDel(ctx, reqs, fps...)
		if _, err := pipe.Exec(ctx); err != nil {
			return moved, fmt.Errorf("cluster: moving revisits: %w", err)
		}
		moved += len(rvs)
		a.rdb.PExpire(ctx, a.keys.takeover(dead), a.opts.Lease)
	}
}

// revisitMove is a revisit on its way to another agent's schedule.
type revisitMove struct {
	fp, val string // fingerprint (fpField) and request (encodeRevisit)
	at      int64  // due time, ms on Redis's clock; 0: at once
	owner   string // the agent whose schedule it goes to
}

// addRevisits adds revisits to the schedules of their owners, then counts
// the change in the epoch (see "Termination" in the package
// documentation): the caller removes them from where they were after it
// returns. It returns those it did not add, whose owner's stream is gone
// (the owner left or was taken over).
func (a *Agent) addRevisits(ctx context.Context, rvs []revisitMove) (orphans []revisitMove, err error) {
	if len(rvs) == 0 {
		return nil, nil
	}
	byOwner := map[string][]revisitMove{}
	for _, rv := range rvs {
		byOwner[rv.owner] = append(byOwner[rv.owner], rv)
	}
	added := false
	for o, mv := range byOwner {
		args := make([]any, 0, 3*len(mv))
		for _, rv := range mv {
			args = append(args, rv.fp, rv.at, rv.val)
		}
		n, err := scriptAddRevisits.EvalSha(ctx, a.rdb,
			[]string{a.keys.revisits(o), a.keys.revisitReqs(o), a.keys.stream(o)}, args...).Int64()
		if err != nil {
			return nil, fmt.Errorf("cluster: moving revisits: %w", err)
		}
		if n == 0 {
			orphans = append(orphans, mv...)
		} else {
			added = true
		}
	}
	if added {
		if err := a.rdb.Incr(ctx, a.keys.epoch()).Err(); err != nil {
			return nil, fmt.Errorf("cluster: moving revisits: %w", err)
		}
	}
	return orphans, nil
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// send appends requests to the streams of their owners (by partOf: their
// hosts', or with politeness per IP their addresses'), one entry per
// owner, then counts the change in the epoch. routes holds the route each
// request came with (nil, or a zero route for one shared out by its host
// and not a cash note: see partOf and route). A stream that no longer
// exists (its agent left or was taken over) is replaced by this agent's.
func (a *Agent) send(ctx context.Context, reqs []frontier.Request, routes []route) error {
	if len(reqs) == 0 {
		return nil
	}
	ring := a.Ring()
	byOwner := map[string][]frontier.Request{}
	routesOf := map[string][]route{}
	var order []string
	for i := range reqs {
		r := &reqs[i]
		var rt route
		if i < len(routes) {
			rt = routes[i]
		}
		rt.part = a.partOf(r, rt.part)
		o := ring.Owner(rt.part)
		if o == "" {
			o = a.opts.Name
		}
		if byOwner[o] == nil {
			order = append(order, o)
		}
		byOwner[o] = append(byOwner[o], *r)
		routesOf[o] = append(routesOf[o], rt)
	}
	pipe := a.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(order))
	for i, o := range order {
		cmds[i] = pipe.XAdd(ctx, &redis.XAddArgs{Stream: a.keys.stream(o), NoMkStream: true,
			Values: []string{"r", encodeRoutes(byOwner[o], routesOf[o])}})
	}
	_, err := pipe.Exec(ctx)
	if err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("cluster: queueing: %w", err)
	}
	var orphans []frontier.Request
	var orphanRoutes []route
	for i, c := range cmds {
		if errors.Is(c.Err(), redis.Nil) {
			orphans = append(orphans, byOwner[order[i]]...)
			orphanRoutes = append(orphanRoutes, routesOf[order[i]]...)
		}
	}
	if len(orphans) > 0 {
		if err := a.rdb.XAdd(ctx, &redis.XAddArgs{Stream: a.keys.stream(a.opts.Name),
			Values: []string{"r", encodeRoutes(orphans, orphanRoutes)}}).Err(); err != nil {
			return fmt.Errorf("cluster: queueing: %w", err)
		}
	}
	// After the entries exist and before the entries they came from are
	// deleted: see "Termination" in the package documentation. Cash
	// notes alone queue nothing.
	onlyCash := len(routes) == len(reqs) && !slices.ContainsFunc(routes, func(rt route) bool { return !rt.cash })
	if onlyCash {
		return nil
	}
	if err := a.rdb.Incr(ctx, a.keys.epoch()).Err(); err != nil {
		return fmt.Errorf("cluster: queueing: %w", err)
	}
	return nil
}

// watchLoop, every Poll, reads the members (taking dead agents over),
// checks the page limit and, while this agent has nothing to do, whether
// the whole cluster has nothing to do.
func (a *Agent) watchLoop(ctx context.Context) {
	t := time.NewTicker(a.opts.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := a.look(ctx); err != nil && ctx.Err() == nil {
			a.log.Warn("reading members failed", "err", err)
		}
		if a.opts.MaxPages > 0 {
			if n, err := a.Pages(ctx); err == nil && n >= a.opts.MaxPages {
				a.limOnce.Do(func() { close(a.limit) })
			}
		}
		over := a.checkOver(ctx)
		if fn := a.onWatch.Load(); fn != nil {
			(*fn)(over)
		}
		if over {
			a.finOnce.Do(func() { close(a.finished) })
			a.log.Info("the cluster has no URL left")
			return
		}
	}
}

// checkOver reports whether this agent is idle and the whole cluster has
// nothing to do.
func (a *Agent) checkOver(ctx context.Context) bool {
	f := a.front.Load()
	if f == nil || !f.idle() {
		return false
	}
	over, err := a.over(ctx)
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("termination check failed", "err", err)
		}
		return false
	}
	return over
}

// over reports whether no agent has a URL queued or in flight, or waiting
// for a revisit: every registered agent's stream and revisit schedule are
// empty, and the epoch did not move while they were read.
func (a *Agent) over(ctx context.Context) (bool, error) {
	e1, err := a.epoch(ctx)
	if err != nil {
		return false, err
	}
	members, err := a.rdb.ZRange(ctx, a.keys.members(), 0, -1).Result()
	if err != nil {
		return false, err
	}
	pipe := a.rdb.Pipeline()
	lens := make([]*redis.Cmd, len(members))
	for i, m := range members {
		lens[i] = scriptPending.EvalSha(ctx, pipe, []string{a.keys.stream(m), a.keys.revisits(m)})
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return false, err
	}
	for _, l := range lens {
		if n, err := l.Int64(); err != nil || n > 0 {
			return false, err
		}
	}
	e2, err := a.epoch(ctx)
	return err == nil && e1 == e2, err
}

func (a *Agent) epoch(ctx context.Context) (int64, error) {
	n, err := a.rdb.Get(ctx, a.keys.epoch()).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, err
}

// Stats returns the values the agents of the crawl published (Options.Stats),
// by agent name, as JSON. Agents that left keep their last value.
func (a *Agent) Stats(ctx context.Context) (map[string]json.RawMessage, error) {
	m, err := a.rdb.HGetAll(ctx, a.keys.stats()).Result()
	if err != nil {
		return nil, fmt.Errorf("cluster: reading stats: %w", err)
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = json.RawMessage(v)
	}
	return out, nil
}

// Scheduled returns how many pages wait in the revisit schedules of the
// crawl's agents (a continuous crawl: trawl.WithRecrawl), the living and
// the dead not yet taken over, those being revisited now included: the
// pages the cluster keeps fresh.
func (a *Agent) Scheduled(ctx context.Context) (int64, error) {
	members, err := a.rdb.ZRange(ctx, a.keys.members(), 0, -1).Result()
	if err != nil {
		return 0, fmt.Errorf("cluster: reading members: %w", err)
	}
	pipe := a.rdb.Pipeline()
	cards := make([]*redis.IntCmd, len(members))
	for i, m := range members {
		cards[i] = pipe.ZCard(ctx, a.keys.revisits(m))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, fmt.Errorf("cluster: reading revisit schedules: %w", err)
	}
	var n int64
	for _, c := range cards {
		n += c.Val()
	}
	return n, nil
}

// Others returns the other agents of the crawl that are still in it: live
// by their heartbeat (within Lease), whether crawling or about to leave.
// An agent that left, or that died and was taken over, is not among them.
// clusterspider waits until none is before it sums the agents' Stats, so
// that every agent's summary counts the same, final, pages.
func (a *Agent) Others(ctx context.Context) ([]string, error) {
	res, err := scriptView.EvalSha(ctx, a.rdb, []string{a.keys.members()}).Slice()
	if err != nil {
		return nil, fmt.Errorf("cluster: reading members: %w", err)
	}
	if len(res) < 2 {
		return nil, nil
	}
	alive, _ := a.split(res)
	out := slices.DeleteFunc(alive, func(n string) bool { return n == a.opts.Name })
	slices.Sort(out)
	return out, nil
}

// split takes scriptView's {now, members with scores} and returns the
// members alive by their heartbeat (within Lease) and the dead ones.
func (a *Agent) split(res []any) (alive, dead []string) {
	lease := a.opts.Lease.Milliseconds()
	now, _ := res[0].(int64)
	flat, _ := res[1].([]any)
	for i := 0; i+1 < len(flat); i += 2 {
		name, _ := flat[i].(string)
		score, _ := strconv.ParseFloat(fmt.Sprint(flat[i+1]), 64)
		if int64(score) >= now-lease {
			alive = append(alive, name)
		} else {
			dead = append(dead, name)
		}
	}
	return alive, dead
}

// Close leaves the crawl: it stops the heartbeat, publishes the last
// stats, and, if this agent's stream and revisit schedule are empty,
// unregisters; otherwise it marks itself dead so that the others take its
// URLs and revisits over at once (a continuous crawl's agent that leaves
// hands its schedule on). Close
// returns when every goroutine of the agent has exited.
func (a *Agent) Close() error {
	a.closeOnce.Do(func() {
		if f := a.front.Load(); f != nil {
			f.Close()
		}
		a.stop()
		a.wg.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), a.opts.Lease)
		defer cancel()
		if a.opts.Stats != nil {
			if b, err := json.Marshal(a.opts.Stats()); err == nil {
				a.rdb.HSet(ctx, a.keys.stats(), a.opts.Name, b)
			}
		}
		if errors.Is(a.Err(), ErrFenced) {
			return // the others own our name's state now
		}
		me := a.opts.Name
		n, err := scriptDelIfEmpty.EvalSha(ctx, a.rdb, []string{a.keys.stream(me), a.keys.revisits(me), a.keys.revisitReqs(me)}).Int64()
		if err != nil {
			a.closeErr = fmt.Errorf("cluster: leaving: %w", err)
			return
		}
		pipe := a.rdb.Pipeline()
		if n >= 0 {
			pipe.ZRem(ctx, a.keys.members(), a.opts.Name)
			pipe.HDel(ctx, a.keys.inst(), a.opts.Name)
		} else {
			pipe.ZAdd(ctx, a.keys.members(), redis.Z{Score: 0, Member: a.opts.Name})
		}
		if _, err := pipe.Exec(ctx); err != nil {
			a.closeErr = fmt.Errorf("cluster: leaving: %w", err)
		}
	})
	return a.closeErr
}

// retries is how many times a Redis operation that failed is tried again,
// after Poll, 2×Poll, 4×Poll.
const retries = 3

// retry runs op until it succeeds, ctx ends or it failed 1+retries times.
// Only operations that may run twice go through it: reads, scripts that
// set the same state again, XDEL, and XADD of entries whose duplicates the
// done marks make harmless.
func (a *Agent) retry(ctx context.Context, op func() error) error {
	err := op()
	for i := 0; err != nil && i < retries && ctx.Err() == nil; i++ {
		a.log.Warn("redis operation failed; trying again", "err", err)
		if sleep(ctx, a.opts.Poll<<i) != nil {
			break
		}
		err = op()
	}
	return err
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
