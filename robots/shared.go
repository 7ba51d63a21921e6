package robots

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Shared keeps robots.txt responses where several crawlers read them, so
// that a cluster of crawler processes fetches each robots.txt once (package
// cluster keeps them in Redis). Keys are robots.txt URLs; values are opaque
// bytes that SharedFetch encodes. Implementations must be safe for
// concurrent use; an error from Load or Save makes SharedFetch fetch
// robots.txt itself (and not store it, after a Save error).
type Shared interface {
	// Load returns the value saved for robotsURL, and false if there is
	// none or it has expired.
	Load(ctx context.Context, robotsURL string) (data []byte, ok bool, err error)
	// Save keeps data for robotsURL for ttl.
	Save(ctx context.Context, robotsURL string, data []byte, ttl time.Duration) error
}

// SharedFetch returns a FetchFunc that answers from s when s holds a
// response for the URL, and otherwise calls fetch, reads the first
// opts.MaxBodyBytes of the body and saves the status, the Location header
// and those bytes in s before answering: for opts.TTL after a 2xx, 3xx or
// 4xx response, for opts.ErrorTTL after a 5xx or 429 (RFC 9309 §2.3.1.4
// makes those unreachable, to be retried). A network error is not saved.
// Each redirect hop is its own entry. opts may be nil (the defaults of
// CacheOptions).
func SharedFetch(fetch FetchFunc, s Shared, opts *CacheOptions) FetchFunc {
	var o CacheOptions
	if opts != nil {
		o = *opts
	}
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.ErrorTTL <= 0 {
		o.ErrorTTL = DefaultErrorTTL
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	return func(ctx context.Context, u *url.URL) (*http.Response, error) {
		key := u.String()
		if data, ok, err := s.Load(ctx, key); err == nil && ok {
			if resp, err := decodeShared(data); err == nil {
				return resp, nil
			}
		}
		resp, err := fetch(ctx, u)
		if err != nil || resp == nil {
			return resp, err
		}
		var body []byte
		if resp.Body != nil {
			body, err = io.ReadAll(io.LimitReader(resp.Body, o.MaxBodyBytes))
			resp.Body.Close()
			if err != nil {
				return nil, fmt.Errorf("robots: reading %s: %w", key, err)
			}
		}
		ttl := o.TTL
		if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
			ttl = o.ErrorTTL
		}
		loc := resp.Header.Get("Location")
		// A Save error only costs the other crawlers a fetch of their own.
		_ = s.Save(ctx, key, encodeShared(resp.StatusCode, loc, body), ttl)
		return sharedResponse(resp.StatusCode, loc, body), nil
	}
}

// encodeShared lays out a response as "status\nlocation\nbody".
func encodeShared(status int, location string, body []byte) []byte {
	b := make([]byte, 0, len(location)+len(body)+8)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, '\n')
	b = append(b, location...)
	b = append(b, '\n')
	return append(b, body...)
}

func decodeShared(data []byte) (*http.Response, error) {
	st, rest, ok := bytes.Cut(data, []byte{'\n'})
	if !ok {
		return nil, fmt.Errorf("robots: shared entry without a status line")
	}
	status, err := strconv.Atoi(string(st))
	if err != nil || status < 100 || status > 999 {
		return nil, fmt.Errorf("robots: shared entry with status %q", st)
	}
	loc, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return nil, fmt.Errorf("robots: shared entry without a location line")
	}
	return sharedResponse(status, string(loc), body), nil
}

func sharedResponse(status int, location string, body []byte) *http.Response {
	h := http.Header{}
	if location != "" {
		h.Set("Location", location)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(bytes.NewReader(body))}
}
