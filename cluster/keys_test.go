package cluster

import (
	"reflect"
	"testing"

	"github.com/trawl-dev/trawl/frontier"
)

func TestBatchRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		reqs []frontier.Request
	}{
		{name: "one", reqs: []frontier.Request{{URL: "http://a.test/", Host: "a.test", Depth: 1}}},
		{name: "all fields", reqs: []frontier.Request{{URL: "http://a.test/x?y=1", Host: "a.test", Depth: 3, Priority: 2.5,
			Referrer: "http://a.test/", Anchor: "tab\there \"quoted\" \x00 ünïcode", Retries: 2, Redirects: 4}}},
		{name: "data", reqs: []frontier.Request{{URL: "http://a.test/", Host: "a.test", Data: []byte("\x00meta\xff")},
			{URL: "http://a.test/2", Host: "a.test"}}},
		{name: "several", reqs: []frontier.Request{{URL: "http://a.test/", Host: "a.test"}, {URL: "http://b.test:8080/", Host: "b.test:8080"}}},
		{name: "mixed referrers", reqs: []frontier.Request{
			{URL: "http://a.test/1", Host: "a.test", Referrer: "http://a.test/"},
			{URL: "http://a.test/2", Host: "a.test"},
			{URL: "http://a.test/3", Host: "a.test", Referrer: "http://b.test/"},
			{URL: "http://a.test/4", Host: "a.test", Referrer: "http://a.test/"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeBatch(encodeBatch(tt.reqs))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.reqs) {
				t.Errorf("decodeBatch(encodeBatch(%+v)) = %+v", tt.reqs, got)
			}
		})
	}
	for _, bad := range []string{"", "{", `{"q":[{"u":""}]}`, `{"q":[{"u":"http://a/"}]}`, `[{"u":"x","h":"x"}]`} {
		if _, err := decodeBatch(bad); err == nil {
			t.Errorf("decodeBatch(%q) = nil error, want one", bad)
		}
	}
}

// FuzzDecodeBatch checks that any stream entry value either decodes to
// requests that all have a URL and a host and survive a round trip, or
// fails with an error.
func FuzzDecodeBatch(f *testing.F) {
	f.Add(`{"q":[{"u":"http://a.test/","h":"a.test","d":1}]}`)
	f.Add(`{"f":"http://r.test/","q":[{"u":"http://a.test/","h":"a.test","a":"x\u0000y","p":1e308,"n":true}]}`)
	f.Add(`{"q":[]}`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, s string) {
		reqs, err := decodeBatch(s)
		if err != nil {
			return
		}
		for _, r := range reqs {
			if r.URL == "" || r.Host == "" {
				t.Fatalf("decodeBatch(%q) gave a request without URL or host: %+v", s, r)
			}
		}
		again, err := decodeBatch(encodeBatch(reqs))
		if err != nil || len(again) != len(reqs) {
			t.Fatalf("round trip of %q: %v, %d requests, want %d", s, err, len(again), len(reqs))
		}
	})
}

// The partition key a request is shared out by (its host's address, with
// politeness per IP) travels with it; a request shared out by its host
// carries none. So does the mark of a cash note (Priority.OPIC).
func TestBatchRoutesRoundTrip(t *testing.T) {
	reqs := []frontier.Request{
		{URL: "http://a.test/", Host: "a.test"},
		{URL: "http://b.test/", Host: "b.test"},
		{URL: "http://c.test/", Host: "c.test"},
	}
	routes := []route{{part: "192.0.2.1"}, {part: "b.test", cash: true}, {}}
	s := encodeRoutes(reqs, routes)
	got, gotRoutes, err := decodeRoutes(s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, reqs) {
		t.Errorf("decodeRoutes gave requests %+v, want %+v", got, reqs)
	}
	if want := []route{{part: "192.0.2.1"}, {cash: true}, {}}; !reflect.DeepEqual(gotRoutes, want) {
		t.Errorf("decodeRoutes gave routes %+v, want %+v", gotRoutes, want)
	}
	if plain, err := decodeBatch(s); err != nil || !reflect.DeepEqual(plain, reqs) {
		t.Errorf("decodeBatch of an entry with parts = %+v, %v", plain, err)
	}
}
