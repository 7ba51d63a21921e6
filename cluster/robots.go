package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl/robots"
	"github.com/trawl-dev/trawl/urlnorm"
)

// Robots returns the crawl's robots.txt store in Redis, for
// trawl.Shared.Robots: each robots.txt response is kept under its
// host's hash tag, so the cluster fetches each robots.txt once (per TTL).
func (a *Agent) Robots() robots.Shared { return sharedRobots{a} }

type sharedRobots struct{ a *Agent }

func (s sharedRobots) key(rawURL string) (string, error) {
	host, err := urlnorm.KeyString(rawURL)
	if err != nil {
		return "", fmt.Errorf("cluster: robots.txt URL %q: %w", rawURL, err)
	}
	return s.a.keys.robots(host, rawURL), nil
}

func (s sharedRobots) Load(ctx context.Context, rawURL string) ([]byte, bool, error) {
	k, err := s.key(rawURL)
	if err != nil {
		return nil, false, err
	}
	b, err := s.a.rdb.Get(ctx, k).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cluster: loading robots.txt: %w", err)
	}
	return b, true, nil
}

// maxSharedRobots bounds a robots.txt response kept in Redis for the
// cluster (status, headers and body as robots.SharedFetch saves them).
// Real robots.txt files are a few KiB; a host that serves one of the 500
// KiB a parser must read (RFC 9309) is not shared, and each agent fetches
// and caches it itself, so hostile hosts cost Redis at most this much each,
// for the TTL (24 h).
const maxSharedRobots = 64 << 10

func (s sharedRobots) Save(ctx context.Context, rawURL string, data []byte, ttl time.Duration) error {
	k, err := s.key(rawURL)
	if err != nil {
		return err
	}
	if len(data) > maxSharedRobots {
		return nil // too large to share: each agent fetches it itself
	}
	if err := s.a.rdb.Set(ctx, k, data, ttl).Err(); err != nil {
		return fmt.Errorf("cluster: saving robots.txt: %w", err)
	}
	return nil
}
