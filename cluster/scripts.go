package cluster

import "github.com/redis/go-redis/v9"

// The Lua scripts run atomically on the Redis shard of their keys. Each
// touches keys of one hash tag only (one host, or the crawl's global keys),
// so they run on Redis Cluster too. Times are the server's (TIME), in
// milliseconds, so agents' clocks need not agree.

// nowMS is the prelude that sets now to the server's time in milliseconds.
const nowMS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// scriptJoin registers an agent. KEYS: members, inst, takeover lock of the
// agent. ARGV: name, token, lease ms. Returns the server time, -1 if a
// live agent has the name, -2 if the name's last agent is being taken over.
var scriptJoin = redis.NewScript(nowMS + `
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) >= now - tonumber(ARGV[3]) then return -1 end
if redis.call('EXISTS', KEYS[3]) == 1 then return -2 end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return now
`)

// scriptBeat renews an agent's heartbeat and returns {now, members with
// scores}, or {-1} if another agent is taking it over or took it over
// (fenced). A heartbeat late by more than a lease is still renewed when
// no one has begun to take the agent over: scriptTakeOver and scriptBeat
// exclude each other. KEYS: members, inst, the agent's takeover lock.
// ARGV: name, token.
var scriptBeat = redis.NewScript(nowMS + `
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return {-1} end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {-1} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {-1} end
redis.call('ZADD', KEYS[1], now, ARGV[1])
return {now, redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')}
`)

// scriptTakeOver takes the lock to take over an agent if its heartbeat is
// older than a lease; it returns 1 if taken. KEYS: members, the agent's
// takeover lock. ARGV: name, token, lease ms.
var scriptTakeOver = redis.NewScript(nowMS + `
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s or tonumber(s) >= now - tonumber(ARGV[3]) then return 0 end
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3]) then return 1 end
return 0
`)

// scriptView returns {now, members with scores}. KEYS: members.
var scriptView = redis.NewScript(nowMS + `
return {now, redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')}
`)

// scriptCheck reports, for each URL fingerprint of one host, 1 if the URL
// is new and within the host's budget, else 0. KEYS: the host's URL hash.
// ARGV: budget (0 = none), fingerprints.
var scriptCheck = redis.NewScript(`
local budget = tonumber(ARGV[1])
local n = 0
if budget > 0 then n = redis.call('HLEN', KEYS[1]) end
local out = {}
for i = 2, #ARGV do
  local new = 0
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 and (budget == 0 or n < budget) then
    new = 1
    n = n + 1
  end
  out[#out + 1] = new
end
return out
`)

// scriptMark marks URL fingerprints of one host as queued, keeping a done
// mark. KEYS: the host's URL hash. ARGV: fingerprints.
var scriptMark = redis.NewScript(`
for i = 1, #ARGV do redis.call('HSETNX', KEYS[1], ARGV[i], 'q') end
return #ARGV
`)

// A host's state (keys.host) is a hash: "next", the time its next
// contact may start; "gap", the delay given by the last contact that ended
// (politeness.Schedule's lastDelay: a start moves next to itself plus gap,
// so that contacts in flight together start at least that far apart); and
// one field per lease, "lease TOKEN FINGERPRINT" (the agent and the URL
// being fetched), whose value is "UNTIL PREV SET": when the lease runs
// out, the next contact time before the lease's start moved it, and the
// time it moved it to (so that a lease released with no contact puts it
// back). At most the acquiring agent's HostConcurrency leases are live at
// once. A lease whose UNTIL has passed belongs to an agent that died (or
// froze past its lease): it counts as a contact that ended at UNTIL with
// the minimum delay, and the next script to meet it deletes it.
//
// An address's state (politeness per IP, ipLease) is the same hash, with
// one lease per agent (fingerprint "-") held while the agent has fetches
// to the address in flight, and a limit of 1: one agent at a time, whose
// local frontier keeps the address's in-flight limit and delay. The agent
// takes and releases it in turn (Frontier.ipLock), so that a fetch that
// takes it as the last one ends is not left without it by that one's
// release (TestIPLeaseNotLostToRelease).

// leaseScan is the prelude that reads a host state (KEYS[1]) with now,
// mine (this lease's field name) and mind (the minimum delay, ms) set:
// it sets nxt (folding in the leases that ran out, which it deletes), gap
// (mind if none is kept), live (the other leases still running), soonest
// (the earliest end of those, or nil), own (this lease's value, or nil)
// and busy (the end of another agent's running lease for the same URL, a
// second copy of it, or nil).
const leaseScan = `local f = redis.call('HGETALL', KEYS[1])
local nxt, gap, live, soonest, own, busy, dead, deadNext = 0, mind, 0, nil, nil, nil, {}, 0
local sfx = ' ' .. ARGV[2]
for i = 1, #f, 2 do
  local k, v = f[i], f[i + 1]
  if k == 'next' then nxt = tonumber(v)
  elseif k == 'gap' then gap = tonumber(v)
  elseif string.sub(k, 1, 6) == 'lease ' then
    local u = tonumber(string.match(v, '^%d+'))
    if k == mine then own = v
    elseif u > now then
      live = live + 1
      if not soonest or u < soonest then soonest = u end
      if string.sub(k, -#sfx) == sfx then busy = u end
    else
      dead[#dead + 1] = k
      deadNext = math.max(deadNext, u + mind)
    end
  end
end
nxt = math.max(nxt, deadNext)
if #dead > 0 then
  redis.call('HDEL', KEYS[1], unpack(dead))
  redis.call('HSET', KEYS[1], 'next', nxt)
end
`

// scriptAcquire leases a host for one fetch of one URL. KEYS: host state,
// host URL hash. ARGV: token, fingerprint, lease ms, minimum delay ms,
// leases allowed at once (HostConcurrency). Returns {0, 0} if the URL is
// done already, {3, ms} if that many leases are live already, or one
// for the same URL (a copy queued twice, at another agent, being fetched;
// ms: until the lease runs out, which is long: its holder releases it as
// soon as its fetch ends, and marks the URL done), {2, ms} if the host's next contact time is ms
// ahead, {1, now} when leased (now: the server's time of the lease). A
// lease this agent holds for the URL already (a retried call) is granted
// again. ARGV[6] is '1' for a revisit (the agent's revisit schedule
// handed the URL out), which a done mark does not stop.
var scriptAcquire = redis.NewScript(nowMS + `
if ARGV[6] ~= '1' and redis.call('HGET', KEYS[2], ARGV[2]) == 'd' then return {0, 0} end
local mine = 'lease ' .. ARGV[1] .. ' ' .. ARGV[2]
local mind = tonumber(ARGV[4])
` + leaseScan + `
local untl = now + tonumber(ARGV[3])
if own then
  redis.call('HSET', KEYS[1], mine, (string.gsub(own, '^%d+', string.format('%d', untl))))
  return {1, now}
end
if busy then return {3, busy - now} end
if live >= tonumber(ARGV[5]) then return {3, soonest - now} end
if nxt > now then return {2, nxt - now} end
local set = now + gap
redis.call('HSET', KEYS[1], mine, string.format('%d %d %d', untl, nxt, set), 'next', set)
redis.call('PERSIST', KEYS[1])
return {1, now}
`)

// scriptRelease ends a lease. KEYS: host state, host URL hash. ARGV:
// token, fingerprint, delay ms (-1: no contact), 1 to mark the URL done,
// minimum delay ms. After a contact, the next contact time becomes now
// plus the delay, or stays if it is later and other leases are live (as
// politeness.Schedule.Done), and the delay is kept as the gap; after
// none, the next contact time goes back to where it was before the
// lease's start moved it, unless something moved it since. The host
// state expires a second after its next contact time once no lease is
// live.
var scriptRelease = redis.NewScript(nowMS + `
if ARGV[4] == '1' then redis.call('HSET', KEYS[2], ARGV[2], 'd') end
local mine = 'lease ' .. ARGV[1] .. ' ' .. ARGV[2]
local mind = tonumber(ARGV[5])
` + leaseScan + `
if own then redis.call('HDEL', KEYS[1], mine) end
local d = tonumber(ARGV[3])
if d >= 0 then
  if live == 0 or now + d > nxt then nxt = now + d end
  redis.call('HSET', KEYS[1], 'gap', d)
elseif own then
  local prev, set = string.match(own, '^%d+ (%d+) (%d+)$')
  if prev and tonumber(set) == nxt then nxt = tonumber(prev) end
end
redis.call('HSET', KEYS[1], 'next', nxt)
if live == 0 then
  redis.call('PEXPIREAT', KEYS[1], math.max(nxt, now) + 1000)
end
return 1
`)

// scriptRenew extends the leases an agent holds on a host. KEYS: host
// state. ARGV: token, lease ms. Returns how many it renewed.
var scriptRenew = redis.NewScript(nowMS + `
local p = 'lease ' .. ARGV[1] .. ' '
local untl = string.format('%d', now + tonumber(ARGV[2]))
local f = redis.call('HGETALL', KEYS[1])
local n = 0
for i = 1, #f, 2 do
  if string.sub(f[i], 1, #p) == p then
    redis.call('HSET', KEYS[1], f[i], (string.gsub(f[i + 1], '^%d+', untl)))
    n = n + 1
  end
end
return n
`)

// scriptDelIfEmpty deletes an agent's stream (and its empty revisit
// schedule) if the stream has no entries and the schedule no revisits.
// KEYS: stream, revisit set, revisit hash. Returns -1 if not empty.
var scriptDelIfEmpty = redis.NewScript(`
if redis.call('XLEN', KEYS[1]) == 0 and redis.call('ZCARD', KEYS[2]) == 0 then
  return redis.call('DEL', KEYS[1], KEYS[3])
end
return -1
`)

// scriptPending returns how many stream entries and revisits an agent
// holds, read together. KEYS: stream, revisit set.
var scriptPending = redis.NewScript(`
return redis.call('XLEN', KEYS[1]) + redis.call('ZCARD', KEYS[2])
`)

// An agent's revisit schedule (keys.revisits, keys.revisitReqs, the hash
// tag of its stream) is a sorted set of URL fingerprints (fpField) and a
// hash from each fingerprint to its request (encodeRevisit: the URL, its
// Data and State, the key it is shared out by). A fingerprint's score is
// its due time on Redis's clock (ms) while it waits, and minus that time
// once the agent has taken it into its local frontier (handed out, or
// about to be), or 0 while it moves to another agent's schedule
// (scriptLeave): a taken revisit stays in the schedule until its Done
// replaces it with the next (or removes it), so an agent that dies with
// revisits taken leaves them in its schedule, for the agent that takes it
// over, which makes them due at once. Every revisit script first checks
// that the agent's stream exists: it is deleted only when the agent left
// or was taken over (scriptDelIfEmpty), and a revisit written after that
// would wait where no agent looks. Those that write to a schedule also
// check that no takeover has begun on it (its hash holds fenceField from
// the takeover's start): the agent taking it over reads a batch, adds it
// where it goes and only then removes it, so a revisit another agent adds
// meanwhile, finding its copy there, would be dropped from the sender's
// schedule and then from this one (TestAddDuringTakeOver).

// scriptRevisit ends a URL's visit in the agent's revisit schedule, with
// the deletion of its stream entry when it was the entry's last URL, so
// that the URL is always in one of the two. KEYS: revisit set, revisit
// hash, stream. ARGV: fingerprint, delay ms until the revisit ('-': none,
// the URL leaves the schedule), the request (encodeRevisit), stream entry
// ID or an empty string. Returns 0, doing nothing, if the stream is gone
// or a takeover has begun (the agent was found dead), else 1.
var scriptRevisit = redis.NewScript(nowMS + `
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[2], '` + fenceField + `') == 1 then return 0 end
if ARGV[2] == '-' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
end
if ARGV[4] ~= '' then redis.call('XDEL', KEYS[3], ARGV[4]) end
return 1
`)

// scriptDue takes up to ARGV[1] revisits that are due from an agent's
// schedule (marks them taken) and returns {waiting, ms until the next
// waiting one is due or -1, fingerprint, request, ...}, waiting being the
// revisits left waiting. KEYS: revisit set, revisit hash.
var scriptDue = redis.NewScript(nowMS + `
local out = {0, -1}
local n = tonumber(ARGV[1])
if n > 0 then
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], 1, now, 'WITHSCORES', 'LIMIT', 0, n)
  for i = 1, #due, 2 do
    redis.call('ZADD', KEYS[1], -tonumber(due[i + 1]), due[i])
    out[#out + 1] = due[i]
    out[#out + 1] = redis.call('HGET', KEYS[2], due[i]) or ''
  end
end
out[1] = redis.call('ZCOUNT', KEYS[1], 1, '+inf')
local nx = redis.call('ZRANGEBYSCORE', KEYS[1], 1, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
if #nx > 0 then out[2] = math.max(tonumber(nx[2]) - now, 0) end
return out
`)

// scriptAddRevisits adds revisits to an agent's schedule, each unless
// the schedule has its URL already (a move done twice, by a takeover
// that was itself taken over), but for a copy that is leaving it (score
// 0: see scriptLeave), which it replaces. KEYS: revisit set, revisit
// hash, stream. ARGV: fingerprint, due time ms (0 or less: now), request,
// and so on. Returns 0, adding nothing, if the stream is gone (the agent
// left) or a takeover of the agent has begun.
var scriptAddRevisits = redis.NewScript(nowMS + `
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[2], '` + fenceField + `') == 1 then return 0 end
for i = 1, #ARGV, 3 do
  local at = tonumber(ARGV[i + 1])
  if at <= 0 then at = now end
  local s = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if not s or tonumber(s) == 0 then
    redis.call('ZADD', KEYS[1], at, ARGV[i])
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
  end
end
return 1
`)

// scriptLeave marks taken revisits as leaving the schedule for another
// agent's (score 0): a copy moved back meanwhile (two agents whose rings
// disagree each sending it to the other) replaces it, and scriptDropLeft
// then keeps that one. KEYS: revisit set. ARGV: fingerprints.
var scriptLeave = redis.NewScript(`
for i = 1, #ARGV do redis.call('ZADD', KEYS[1], 'XX', 0, ARGV[i]) end
return #ARGV
`)

// scriptDropLeft removes the revisits that left (score still 0). KEYS:
// revisit set, revisit hash. ARGV: fingerprints.
var scriptDropLeft = redis.NewScript(`
local n = 0
for i = 1, #ARGV do
  local s = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if s and tonumber(s) == 0 then
    redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
    n = n + 1
  end
end
return n
`)

// scriptUntake puts a taken revisit back to wait ARGV[2] ms. KEYS:
// revisit set. ARGV: fingerprint, delay ms.
var scriptUntake = redis.NewScript(nowMS + `
return redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
`)

var scripts = []*redis.Script{scriptJoin, scriptBeat, scriptTakeOver, scriptView, scriptCheck, scriptMark, scriptAcquire,
	scriptRelease, scriptRenew, scriptDelIfEmpty, scriptPending, scriptRevisit, scriptDue, scriptAddRevisits, scriptUntake,
	scriptLeave, scriptDropLeft}
