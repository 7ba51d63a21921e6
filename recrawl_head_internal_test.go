package trawl

import (
	"testing"
	"time"

	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/recrawl"
)

// headUnchanged: a 304, or a 2xx with the copy's validators, is
// unchanged; anything else (another ETag, a newer date, no validator to
// compare, a redirect or an error status) needs the GET.
func TestHeadUnchanged(t *testing.T) {
	lm := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		hist recrawl.History
		resp fetch.Response
		want bool
	}{
		{"304", recrawl.History{ETag: `"a"`}, fetch.Response{Status: 304, NotModified: true}, true},
		{"same etag", recrawl.History{ETag: `"a"`}, fetch.Response{Status: 200, ETag: `"a"`}, true},
		{"other etag", recrawl.History{ETag: `"a"`}, fetch.Response{Status: 200, ETag: `"b"`}, false},
		{"other etag, same date", recrawl.History{ETag: `"a"`, LastModified: lm}, fetch.Response{Status: 200, ETag: `"b"`, LastModified: lm}, false},
		{"same date", recrawl.History{LastModified: lm}, fetch.Response{Status: 200, LastModified: lm}, true},
		{"older date", recrawl.History{LastModified: lm}, fetch.Response{Status: 200, LastModified: lm.Add(-time.Hour)}, true},
		{"newer date", recrawl.History{LastModified: lm}, fetch.Response{Status: 200, LastModified: lm.Add(time.Second)}, false},
		{"etag only in history, date only in answer", recrawl.History{ETag: `"a"`}, fetch.Response{Status: 200, LastModified: lm}, false},
		{"no validators in the answer", recrawl.History{ETag: `"a"`, LastModified: lm}, fetch.Response{Status: 200}, false},
		{"redirect with the same etag", recrawl.History{ETag: `"a"`}, fetch.Response{Status: 301, ETag: `"a"`}, false},
		{"error with the same etag", recrawl.History{ETag: `"a"`}, fetch.Response{Status: 503, ETag: `"a"`}, false},
	}
	for _, tc := range cases {
		if got := headUnchanged(&tc.hist, &tc.resp); got != tc.want {
			t.Errorf("%s: headUnchanged = %v, want %v", tc.name, got, tc.want)
		}
	}
}
