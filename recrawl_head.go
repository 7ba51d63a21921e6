package trawl

import (
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/recrawl"
)

// headUnchanged reports whether resp, the answer to a conditional HEAD,
// shows the copy that h describes to be current: a 304, or a 2xx whose
// validators are those of the copy (by ETag when both sides have one, by
// Last-Modified otherwise). A HEAD with no validators to compare reads as
// changed: only a GET can tell.
func headUnchanged(h *recrawl.History, resp *fetch.Response) bool {
	if resp.NotModified {
		return true
	}
	if resp.Status < 200 || resp.Status >= 300 {
		return false
	}
	if h.ETag != "" && resp.ETag != "" {
		return h.ETag == resp.ETag
	}
	return !h.LastModified.IsZero() && !resp.LastModified.IsZero() && !resp.LastModified.After(h.LastModified)
}
