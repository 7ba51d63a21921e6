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

// scriptAcquire leases a host for one fetch of one URL. KEYS: host state,
// host URL hash. ARGV: token, fingerprint, lease ms, minimum delay ms.
// Returns {0, 0} if the URL is done already, {3, ms} if another agent holds
// the host (ms: until its lease runs out, which is long: the holder releases
// it as soon as its fetch ends), {2, ms} if the host's next contact time is
// ms ahead, {1, 0} when leased. A lease left by an agent that died counts
// as a contact that ended when the lease ran out.
var scriptAcquire = redis.NewScript(nowMS + `
if redis.call('HGET', KEYS[2], ARGV[2]) == 'd' then return {0, 0} end
local h = redis.call('HMGET', KEYS[1], 'holder', 'until', 'next')
local nxt = tonumber(h[3] or '0')
if h[1] and h[1] ~= ARGV[1] then
  local u = tonumber(h[2] or '0')
  if u > now then return {3, u - now} end
  nxt = math.max(nxt, u + tonumber(ARGV[4]))
end
if nxt > now then return {2, nxt - now} end
redis.call('HSET', KEYS[1], 'holder', ARGV[1], 'until', now + tonumber(ARGV[3]), 'next', nxt)
redis.call('PERSIST', KEYS[1])
return {1, 0}
`)

// scriptRelease ends a host's lease. KEYS: host state, host URL hash.
// ARGV: token, fingerprint, delay ms (-1: no contact, the next contact
// time stays), 1 to mark the URL done. The host state expires once its
// next contact time has passed.
var scriptRelease = redis.NewScript(nowMS + `
if ARGV[4] == '1' then redis.call('HSET', KEYS[2], ARGV[2], 'd') end
local d = tonumber(ARGV[3])
local nxt = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
if d >= 0 then nxt = math.max(nxt, now + d) end
if redis.call('HGET', KEYS[1], 'holder') == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'holder', 'until')
end
redis.call('HSET', KEYS[1], 'next', nxt)
if redis.call('HEXISTS', KEYS[1], 'holder') == 0 then
  redis.call('PEXPIREAT', KEYS[1], math.max(nxt, now) + 1000)
end
return 1
`)

// scriptRenew extends a host lease the agent holds. KEYS: host state.
// ARGV: token, lease ms.
var scriptRenew = redis.NewScript(nowMS + `
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'until', now + tonumber(ARGV[2]))
return 1
`)

// scriptDelIfEmpty deletes a stream if it has no entries. KEYS: stream.
var scriptDelIfEmpty = redis.NewScript(`
if redis.call('XLEN', KEYS[1]) == 0 then return redis.call('DEL', KEYS[1]) end
return -1
`)

var scripts = []*redis.Script{scriptJoin, scriptBeat, scriptTakeOver, scriptView, scriptCheck, scriptMark, scriptAcquire, scriptRelease, scriptRenew, scriptDelIfEmpty}
