package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestFetchHead: a HEAD is sent as HEAD, with the conditional headers; its
// answer has no body and is neither an error nor a content-type mismatch,
// whatever type the server names; status, validators and Content-Length
// come back.
func TestFetchHead(t *testing.T) {
	lm := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name        string
		ctype       string
		inm         string // If-None-Match sent
		wantStatus  int
		wantNotMod  bool
		wantErr     error
		wantCType   string
		wantLength  int64
		wantLocated bool
	}{
		{name: "html", ctype: "text/html; charset=UTF-8", wantStatus: 200, wantCType: "text/html", wantLength: 1234},
		{name: "not accepted type", ctype: "image/png", wantStatus: 200, wantCType: "image/png", wantLength: 1234},
		{name: "no type", wantStatus: 200, wantLength: 1234},
		{name: "matching validator", ctype: "text/html", inm: `"v1"`, wantStatus: 304, wantNotMod: true, wantLength: -1},
		{name: "redirect", wantStatus: 301, wantLocated: true, wantLength: -1},
		{name: "gone", wantStatus: 410, wantErr: ErrStatus, wantLength: -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var method, inm, ims string
			f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
				method, inm, ims = r.Method, r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since")
				w.Header().Set("ETag", `"v1"`)
				w.Header().Set("Last-Modified", lm.Format(http.TimeFormat))
				switch {
				case tc.wantStatus == 301:
					w.Header().Set("Location", "/elsewhere")
					w.WriteHeader(301)
				case tc.wantStatus == 410:
					w.WriteHeader(410)
				case r.Header.Get("If-None-Match") == `"v1"`:
					w.WriteHeader(304)
				default:
					if tc.ctype != "" {
						w.Header().Set("Content-Type", tc.ctype)
					} else {
						w.Header()["Content-Type"] = nil // no sniffing by the server
					}
					w.Header().Set("Content-Length", "1234")
					w.WriteHeader(200)
				}
			}, nil)
			resp, err := f.Fetch(context.Background(), &Request{URL: u, Method: http.MethodHead, ETag: tc.inm, LastModified: lm})
			if method != http.MethodHead {
				t.Fatalf("server saw method %q, want HEAD", method)
			}
			if inm != tc.inm || ims != lm.Format(http.TimeFormat) {
				t.Errorf("conditional headers If-None-Match %q If-Modified-Since %q, want %q and %q", inm, ims, tc.inm, lm.Format(http.TimeFormat))
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatalf("HEAD: %v", err)
			}
			if resp == nil {
				t.Fatal("no response")
			}
			if resp.Status != tc.wantStatus || resp.NotModified != tc.wantNotMod {
				t.Errorf("status %d notModified %v, want %d %v", resp.Status, resp.NotModified, tc.wantStatus, tc.wantNotMod)
			}
			if len(resp.Body) != 0 || resp.WireBytes != 0 {
				t.Errorf("HEAD response has a body: %d bytes (%d on the wire)", len(resp.Body), resp.WireBytes)
			}
			if resp.ETag != `"v1"` || !resp.LastModified.Equal(lm) {
				t.Errorf("validators %q %v, want \"v1\" %v", resp.ETag, resp.LastModified, lm)
			}
			if resp.ContentType != tc.wantCType {
				t.Errorf("content type %q, want %q", resp.ContentType, tc.wantCType)
			}
			if resp.ContentLength != tc.wantLength {
				t.Errorf("content length %d, want %d", resp.ContentLength, tc.wantLength)
			}
			if (resp.Location != nil) != tc.wantLocated {
				t.Errorf("location %v, want one: %v", resp.Location, tc.wantLocated)
			}
		})
	}
}

// TestFetchMethod: "" and GET send a GET (with its body read); any method
// but GET and HEAD is refused before anything is sent.
func TestFetchMethod(t *testing.T) {
	var got []string
	f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body>hi</body></html>"))
	}, nil)
	for _, m := range []string{"", http.MethodGet} {
		resp, err := f.Fetch(context.Background(), &Request{URL: u, Method: m})
		if err != nil {
			t.Fatalf("method %q: %v", m, err)
		}
		if string(resp.Body) != "<html><body>hi</body></html>" || resp.ContentLength != int64(len(resp.Body)) {
			t.Errorf("method %q: body %q, content length %d", m, resp.Body, resp.ContentLength)
		}
	}
	for _, m := range []string{http.MethodPost, "head", "DELETE"} {
		resp, err := f.Fetch(context.Background(), &Request{URL: u, Method: m})
		var fe *Error
		if resp != nil || !errors.As(err, &fe) {
			t.Errorf("method %q: resp %v err %v, want a refusal", m, resp, err)
		}
	}
	if len(got) != 2 || got[0] != http.MethodGet || got[1] != http.MethodGet {
		t.Errorf("server saw %q, want two GETs", got)
	}
}

// TestFetchHeadExchange: a HEAD is recorded like a GET (OnExchange), as a
// whole response with no body.
func TestFetchHeadExchange(t *testing.T) {
	var req, resp string
	var truncated bool
	calls := 0
	f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", "5000")
		w.WriteHeader(200)
	}, &Options{OnExchange: func(_ context.Context, ex *Exchange) {
		calls++
		b, _ := io.ReadAll(ex.Response())
		req, resp, truncated = string(ex.Request), string(b), ex.Truncated
	}})
	if _, err := f.Fetch(context.Background(), &Request{URL: u, Method: http.MethodHead}); err != nil {
		t.Fatal(err)
	}
	if calls != 1 || !strings.HasPrefix(req, "HEAD /page HTTP/1.1\r\n") || truncated {
		t.Fatalf("%d exchanges; request %q, truncated %v; want one HEAD, whole", calls, req, truncated)
	}
	if !strings.HasPrefix(resp, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(resp, "\r\n\r\n") {
		t.Errorf("response %q, want a status line and header only", resp)
	}
}

// TestFetchPost: a POST with a Body sends it, with the header given; a
// POST without a Body, and a GET or HEAD with one, are refused before
// anything is sent.
func TestFetchPost(t *testing.T) {
	var got []string
	f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.Header.Get("Content-Type")+" "+string(b))
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body>ok</body></html>"))
	}, nil)
	resp, err := f.Fetch(context.Background(), &Request{URL: u, Method: http.MethodPost, Body: []byte("a=1&b=2"),
		Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}})
	if err != nil || string(resp.Body) != "<html><body>ok</body></html>" {
		t.Fatalf("POST: %v, %v", resp, err)
	}
	for _, req := range []*Request{
		{URL: u, Method: http.MethodPost},
		{URL: u, Body: []byte("x")},
		{URL: u, Method: http.MethodHead, Body: []byte("x")},
	} {
		if resp, err := f.Fetch(context.Background(), req); resp != nil || err == nil {
			t.Errorf("%s with body %q: %v, %v, want a refusal", req.Method, req.Body, resp, err)
		}
	}
	if len(got) != 1 || got[0] != "POST application/x-www-form-urlencoded a=1&b=2" {
		t.Errorf("server saw %q, want the one POST with its body", got)
	}
}
