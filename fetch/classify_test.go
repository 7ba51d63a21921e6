package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// hijacked answers with the raw bytes head+body on the bare connection and
// then ends it: closed normally, or reset (RST) when reset is set.
func hijacked(head, body string, reset bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err)
		}
		buf.WriteString(head)
		buf.WriteString(body)
		buf.Flush()
		if reset {
			conn.(*net.TCPConn).SetLinger(0)
		}
		conn.Close()
	}
}

// stalled sends the header and 600 bytes of body, then nothing until the
// client goes away.
func stalled(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	w.Header().Set("Content-Length", "100000")
	w.Write(bytes.Repeat([]byte("x"), 600))
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

// TestClassifyBodyErrors checks Transient and Kind on responses whose
// header said 200 but whose body failed: they are judged by the cause, not
// by the status.
func TestClassifyBodyErrors(t *testing.T) {
	const okHead = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n"
	page := strings.Repeat("<p>some text</p>\n", 100) // past the 512 bytes sniffed
	half := gz([]byte(strings.Repeat("<p>gzipped text</p>\n", 5000)))
	half = half[:len(half)/2]
	corrupt := append(gz([]byte("<p>x</p>"))[:10], bytes.Repeat([]byte{0xff}, 600)...)

	tests := []struct {
		name          string
		handler       http.HandlerFunc
		opts          *Options
		wantKind      string
		wantTransient bool
		wantStatus    int   // Error.StatusCode
		wantIs        error // when not nil, errors.Is(err, wantIs)
	}{
		{name: "closed mid-body", handler: hijacked(okHead, page, false),
			wantKind: "connection", wantTransient: true, wantStatus: 200, wantIs: io.ErrUnexpectedEOF},
		{name: "chunked body closed mid-chunk", handler: hijacked("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n",
			"1000\r\n"+page, false), wantKind: "connection", wantTransient: true, wantStatus: 200, wantIs: io.ErrUnexpectedEOF},
		{name: "reset mid-body", handler: hijacked(okHead, page, true),
			wantKind: "connection", wantTransient: true, wantStatus: 200},
		{name: "gzip body cut", handler: hijacked("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: 100000\r\n\r\n",
			string(half), false), wantKind: "connection", wantTransient: true, wantStatus: 200, wantIs: io.ErrUnexpectedEOF},
		{name: "stall past Timeout", handler: stalled, opts: &Options{Timeout: 200 * time.Millisecond},
			wantKind: "timeout", wantTransient: true, wantStatus: 200, wantIs: context.DeadlineExceeded},
		{name: "corrupt gzip", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(corrupt)
		}, wantKind: "other", wantTransient: false, wantStatus: 200},
		{name: "content type", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte("%PDF-1.4 ..."))
		}, wantKind: "content-type", wantTransient: false, wantStatus: 200, wantIs: ErrContentType},
		{name: "bomb", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gz(bytes.Repeat([]byte{' '}, 4<<20)))
		}, wantKind: "bomb", wantTransient: false, wantStatus: 200, wantIs: ErrDecompressionBomb},
		{name: "503", handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) },
			wantKind: "status-5xx", wantTransient: true, wantStatus: 503, wantIs: ErrStatus},
		{name: "404", handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(404) },
			wantKind: "status-4xx", wantTransient: false, wantStatus: 404, wantIs: ErrStatus},
		{name: "429", handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(429) },
			wantKind: "status-4xx", wantTransient: true, wantStatus: 429, wantIs: ErrStatus},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, u := server(t, tt.handler, tt.opts)
			_, err := f.Fetch(context.Background(), &Request{URL: u})
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("Fetch err = %v, want an *Error", err)
			}
			if fe.StatusCode != tt.wantStatus {
				t.Errorf("Fetch err = %v, StatusCode %d, want %d", err, fe.StatusCode, tt.wantStatus)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("Fetch err = %v, want it to match %v", err, tt.wantIs)
			}
			if got := Kind(err); got != tt.wantKind {
				t.Errorf("Kind(%v) = %q, want %q", err, got, tt.wantKind)
			}
			if got := Transient(err); got != tt.wantTransient {
				t.Errorf("Transient(%v) = %v, want %v", err, got, tt.wantTransient)
			}
		})
	}
}

// TestClassifyErrors checks Transient and Kind on constructed errors.
func TestClassifyErrors(t *testing.T) {
	tests := []struct {
		name          string
		err           error
		wantKind      string
		wantTransient bool
	}{
		{name: "nil", err: nil, wantKind: "other", wantTransient: false},
		{name: "200 with unexpected EOF", err: &Error{URL: "u", StatusCode: 200, Err: io.ErrUnexpectedEOF}, wantKind: "connection", wantTransient: true},
		{name: "200 with deadline", err: &Error{URL: "u", StatusCode: 200, Err: context.DeadlineExceeded}, wantKind: "timeout", wantTransient: true},
		{name: "200 with too slow", err: &Error{URL: "u", StatusCode: 200, Err: fmt.Errorf("%w: 3 bytes in 10s", ErrTooSlow)}, wantKind: "timeout", wantTransient: true},
		{name: "200 with cancel", err: &Error{URL: "u", StatusCode: 200, Err: context.Canceled}, wantKind: "canceled", wantTransient: false},
		{name: "200 with content type", err: &Error{URL: "u", StatusCode: 200, Err: ErrContentType}, wantKind: "content-type", wantTransient: false},
		{name: "200 with bomb", err: &Error{URL: "u", StatusCode: 200, Err: ErrDecompressionBomb}, wantKind: "bomb", wantTransient: false},
		{name: "200 with reset", err: &Error{URL: "u", StatusCode: 200, Err: &net.OpError{Op: "read", Err: errors.New("connection reset by peer")}}, wantKind: "connection", wantTransient: true},
		{name: "500 with ErrStatus", err: &Error{URL: "u", StatusCode: 500, Err: ErrStatus}, wantKind: "status-5xx", wantTransient: true},
		{name: "501 with ErrStatus", err: &Error{URL: "u", StatusCode: 501, Err: ErrStatus}, wantKind: "status-5xx", wantTransient: false},
		{name: "private", err: &Error{URL: "u", Err: ErrPrivateAddress}, wantKind: "private", wantTransient: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Kind(tt.err); got != tt.wantKind {
				t.Errorf("Kind(%v) = %q, want %q", tt.err, got, tt.wantKind)
			}
			if got := Transient(tt.err); got != tt.wantTransient {
				t.Errorf("Transient(%v) = %v, want %v", tt.err, got, tt.wantTransient)
			}
		})
	}
}
