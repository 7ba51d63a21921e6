package render

import (
	"bytes"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
)

// Adaptive makes a Fetcher render only where rendering pays, after
// Crawlee's adaptive crawler: for each group of pages (a host and the
// first segment of the path: "example.org/docs", "example.org/app"), the
// first Sample HTML pages are rendered and compared with their static
// fetch; if any of them gains (the rendered DOM has navigation, frame or
// redirect links the static page lacks, or much more text), the group's
// pages are all rendered from then on; if none does, they are not, except
// one in Recheck, which is rendered and compared again (a gain switches
// the group to rendering). A zero field means its default.
type Adaptive struct {
	// Sample is how many pages of a group are rendered and compared
	// before the group is decided. Default: 3.
	Sample int
	// Recheck: in a group decided static, one page in Recheck is rendered
	// and compared again. Default: 50.
	Recheck int
	// MinNewLinks is how many followable links (navigation, frame,
	// redirect) found only in the rendered DOM make a gain. Default: 1.
	MinNewLinks int
	// MinTextGain is the relative growth of the visible text that makes a
	// gain (and at least 200 bytes of it). Default: 0.5.
	MinTextGain float64
}

func (a Adaptive) withDefaults() Adaptive {
	if a.Sample <= 0 {
		a.Sample = 3
	}
	if a.Recheck <= 0 {
		a.Recheck = 50
	}
	if a.MinNewLinks <= 0 {
		a.MinNewLinks = 1
	}
	if a.MinTextGain <= 0 {
		a.MinTextGain = 0.5
	}
	return a
}

// maxGroups bounds the adaptive state: past it the state is reset (every
// group sampled again), cheap and rare.
const maxGroups = 1 << 16

// groupState is what the adaptive mode knows of one group.
type groupState struct {
	sampled int  // pages rendered and compared
	decided bool // sampled enough, or gained
	render  bool // decided to render
	since   int  // pages since the last recheck, when decided static
}

// adaptive is a Fetcher's adaptive state; safe for concurrent use.
type adaptive struct {
	opts   Adaptive
	mu     sync.Mutex
	groups map[string]*groupState
}

func newAdaptive(a Adaptive) *adaptive {
	return &adaptive{opts: a.withDefaults(), groups: make(map[string]*groupState)}
}

// group returns the group key of resp's URL: host and first path segment.
func group(resp *fetch.Response) string {
	p := strings.TrimPrefix(resp.URL.EscapedPath(), "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[:i]
	} else {
		p = "" // a file at the root belongs with the root
	}
	return strings.ToLower(resp.URL.Host) + "/" + p
}

// plan says whether to render a page of group g, and whether to compare
// the render with the static page.
func (a *adaptive) plan(g string) (render, compare bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.groups[g]
	if st == nil {
		if len(a.groups) >= maxGroups {
			clear(a.groups)
		}
		st = &groupState{}
		a.groups[g] = st
	}
	switch {
	case !st.decided:
		return true, true
	case st.render:
		return true, false
	}
	if st.since++; st.since >= a.opts.Recheck {
		st.since = 0
		return true, true
	}
	return false, false
}

// record notes a compared page of group g and whether rendering gained.
func (a *adaptive) record(g string, gain bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.groups[g]
	if st == nil {
		return // reset meanwhile
	}
	st.sampled++
	switch {
	case gain:
		st.decided, st.render = true, true
	case st.sampled >= a.opts.Sample:
		st.decided = true
	}
}

// gains reports whether the rendered DOM adds enough to the static page:
// followable links the static page lacks, or visible text.
func (a *adaptive) gains(resp *fetch.Response, dom []byte) bool {
	static, _ := extract.Links(bytes.NewReader(resp.Body), resp.URL, nil)
	rendered, _ := extract.Links(bytes.NewReader(dom), resp.URL, nil)
	if static == nil || rendered == nil {
		return rendered != nil
	}
	have := make(map[string]bool, len(static.Links))
	for _, l := range static.Links {
		have[l.URL] = true
	}
	n := 0
	for _, l := range rendered.Links {
		switch l.Kind {
		case extract.Navigation, extract.Frame, extract.Redirect:
			if !have[l.URL] {
				have[l.URL] = true
				if n++; n >= a.opts.MinNewLinks {
					return true
				}
			}
		}
	}
	st, rt := float64(len(static.Text)), float64(len(rendered.Text))
	return rt-st >= 200 && rt >= st*(1+a.opts.MinTextGain)
}
