package fetch_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/trawl-dev/trawl/fetch"
)

// A conditional HEAD probes whether a copy is still current without
// fetching the body: 304 when the validators match, else the header of
// the new version (and its length).
func ExampleHTTP_Fetch_head() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v2"`)
		if r.Header.Get("If-None-Match") == `"v2"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<html><body>version 2</body></html>"))
	}))
	defer srv.Close()
	f := fetch.New(&fetch.Options{AllowPrivateNetworks: true}) // the test server is on loopback
	defer f.CloseIdleConnections()
	u, _ := url.Parse(srv.URL + "/page")

	for _, etag := range []string{`"v1"`, `"v2"`} {
		resp, err := f.Fetch(context.Background(), &fetch.Request{URL: u, Method: http.MethodHead, ETag: etag})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("copy %s: status %d, not modified %v, ETag %s, %d body bytes read, length %d\n",
			etag, resp.Status, resp.NotModified, resp.ETag, len(resp.Body), resp.ContentLength)
	}
	// Output:
	// copy "v1": status 200, not modified false, ETag "v2", 0 body bytes read, length 35
	// copy "v2": status 304, not modified true, ETag "v2", 0 body bytes read, length -1
}
