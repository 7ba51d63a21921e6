package cluster

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/trawl-dev/trawl/frontier"
)

// keys names the Redis keys of one crawl. The crawl's global keys share
// the hash tag {crawl}; each host's keys share {crawl/host}; each agent's
// stream has {crawl:agent}. So the keys of one host, or one agent, live on
// one Redis Cluster shard, and the hosts spread over all shards.
type keys struct{ crawl string }

func (k keys) members() string          { return "trawl:{" + k.crawl + "}:members" }
func (k keys) inst() string             { return "trawl:{" + k.crawl + "}:inst" }
func (k keys) epoch() string            { return "trawl:{" + k.crawl + "}:epoch" }
func (k keys) pages() string            { return "trawl:{" + k.crawl + "}:pages" }
func (k keys) stats() string            { return "trawl:{" + k.crawl + "}:stats" }
func (k keys) history() string          { return "trawl:{" + k.crawl + "}:history" }
func (k keys) takeover(a string) string { return "trawl:{" + k.crawl + "}:takeover:" + a }
func (k keys) stream(a string) string   { return "trawl:q:{" + k.crawl + ":" + a + "}" }
func (k keys) host(h string) string     { return "trawl:h:{" + k.crawl + "/" + h + "}" }
func (k keys) urls(h string) string     { return "trawl:u:{" + k.crawl + "/" + h + "}" }
func (k keys) robots(h, rawURL string) string {
	return "trawl:r:{" + k.crawl + "/" + h + "}:" + rawURL
}

// revisits and revisitReqs name an agent's revisit schedule: a sorted set
// of URL fingerprints by due time and a hash of their requests (see
// scripts.go). They share the hash tag of the agent's stream.
func (k keys) revisits(a string) string    { return "trawl:v:{" + k.crawl + ":" + a + "}" }
func (k keys) revisitReqs(a string) string { return "trawl:vr:{" + k.crawl + ":" + a + "}" }

// fenceField is the field of a revisit schedule's hash that says a
// takeover of its agent has begun (see the revisit scripts): longer than
// any fpField, so never a fingerprint.
const fenceField = "taken-over"

// fpField is a URL fingerprint as the 8-byte field name of a host's URL
// hash.
func fpField(fp uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], fp)
	return string(b[:])
}

// wireReq is a queued request as it travels in a stream entry. One entry
// carries the new URLs one Push sends to one agent. Its Referrer is empty
// when it is the batch's.
type wireReq struct {
	URL       string  `json:"u"`
	Host      string  `json:"h"`
	Depth     int     `json:"d,omitempty"`
	Priority  float64 `json:"p,omitempty"`
	Referrer  string  `json:"r,omitempty"`
	Anchor    string  `json:"a,omitempty"`
	Retries   int     `json:"t,omitempty"`
	Redirects int     `json:"x,omitempty"`
	// Data is frontier.Request.Data (base64 in the JSON).
	Data []byte `json:"b,omitempty"`
	// NoReferrer marks a request without a referrer in a batch whose
	// shared referrer is not empty.
	NoReferrer bool `json:"n,omitempty"`
	// Part is the key the request is shared out by when it is not its
	// host: the IP address the host resolved to (politeness per IP), as
	// the agent that first sent it knew it, so that every agent routes it
	// alike.
	Part string `json:"k,omitempty"`
	// Cash marks a cash note (see route).
	Cash bool `json:"c,omitempty"`
	// State is frontier.Request.State: a revisit's history (base64 in the
	// JSON). Only the values of a revisit schedule (encodeRevisit) carry
	// it; stream entries hold first visits.
	State []byte `json:"s,omitempty"`
}

// route is what a request carries between agents besides itself.
type route struct {
	// part is the key the request is shared out by when it is not its
	// host (see Agent.partOf), or "".
	part string
	// cash marks a cash note (Priority.OPIC): the request stands for no
	// URL to queue, only for a share of cash, in its Priority, that a
	// link gave a URL the crawl had queued already; the agent that owns
	// the URL gives it to the URL, or to its virtual page.
	cash bool
}

// wireBatch is a stream entry's value: the requests, and the referrer most
// of them share (a Push carries the links of one page), kept once.
type wireBatch struct {
	Referrer string    `json:"f,omitempty"`
	Reqs     []wireReq `json:"q"`
}

// encodeBatch encodes requests as one stream entry's value.
func encodeBatch(reqs []frontier.Request) string { return encodeRoutes(reqs, nil) }

// encodeRoutes encodes requests and their routes (routes[i] for reqs[i];
// routes may be short or nil) as one stream entry's value.
func encodeRoutes(reqs []frontier.Request, routes []route) string {
	b := wireBatch{Reqs: make([]wireReq, len(reqs))}
	if len(reqs) > 0 {
		b.Referrer = reqs[0].Referrer
	}
	for i, r := range reqs {
		w := wireReq{URL: r.URL, Host: r.Host, Depth: r.Depth, Priority: r.Priority,
			Anchor: r.Anchor, Retries: r.Retries, Redirects: r.Redirects, Data: r.Data}
		switch {
		case r.Referrer == b.Referrer:
		case r.Referrer == "":
			w.NoReferrer = true
		default:
			w.Referrer = r.Referrer
		}
		if i < len(routes) {
			if routes[i].part != r.Host {
				w.Part = routes[i].part
			}
			w.Cash = routes[i].cash
		}
		b.Reqs[i] = w
	}
	out, _ := json.Marshal(b) // cannot fail: strings, numbers and bytes only
	return string(out)
}

// decodeBatch decodes a stream entry's value. Requests without a URL or a
// host are an error: a stream holds only what encodeBatch wrote.
func decodeBatch(s string) ([]frontier.Request, error) {
	reqs, _, err := decodeRoutes(s)
	return reqs, err
}

// decodeRoutes decodes a stream entry's value with the route of each
// request (a zero route for one shared out by its host, not a cash note).
func decodeRoutes(s string) ([]frontier.Request, []route, error) {
	var b wireBatch
	if err := json.Unmarshal([]byte(s), &b); err != nil {
		return nil, nil, fmt.Errorf("cluster: bad stream entry: %w", err)
	}
	reqs := make([]frontier.Request, 0, len(b.Reqs))
	routes := make([]route, 0, len(b.Reqs))
	for _, x := range b.Reqs {
		if x.URL == "" || x.Host == "" {
			return nil, nil, fmt.Errorf("cluster: bad stream entry: request without URL or host")
		}
		routes = append(routes, route{part: x.Part, cash: x.Cash})
		ref := x.Referrer
		if ref == "" && !x.NoReferrer {
			ref = b.Referrer
		}
		reqs = append(reqs, frontier.Request{URL: x.URL, Host: x.Host, Depth: x.Depth, Priority: x.Priority,
			Referrer: ref, Anchor: x.Anchor, Retries: x.Retries, Redirects: x.Redirects, Data: x.Data})
	}
	return reqs, routes, nil
}

// encodeRevisit encodes a request waiting in an agent's revisit schedule,
// with its State and the key it is shared out by (see route.part), as the
// value of the schedule's hash: a wireReq with its own referrer.
func encodeRevisit(r frontier.Request, part string) string {
	w := wireReq{URL: r.URL, Host: r.Host, Depth: r.Depth, Referrer: r.Referrer, Anchor: r.Anchor,
		Redirects: r.Redirects, Data: r.Data, State: r.State}
	if part != r.Host {
		w.Part = part
	}
	out, _ := json.Marshal(w) // cannot fail: strings, numbers and bytes only
	return string(out)
}

// decodeRevisit decodes a value of a revisit schedule's hash: the request
// and the key it is shared out by ("" for its host).
func decodeRevisit(s string) (frontier.Request, string, error) {
	var x wireReq
	if err := json.Unmarshal([]byte(s), &x); err != nil {
		return frontier.Request{}, "", fmt.Errorf("cluster: bad revisit: %w", err)
	}
	if x.URL == "" || x.Host == "" {
		return frontier.Request{}, "", fmt.Errorf("cluster: bad revisit: request without URL or host")
	}
	return frontier.Request{URL: x.URL, Host: x.Host, Depth: x.Depth, Referrer: x.Referrer, Anchor: x.Anchor,
		Redirects: x.Redirects, Data: x.Data, State: x.State}, x.Part, nil
}
