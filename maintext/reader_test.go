package maintext

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// contentSeekFail is a reader whose Seek always fails, so Extract must
// take the copying path.
type contentSeekFail struct{ io.Reader }

func (contentSeekFail) Seek(int64, int) (int64, error) { return 0, errors.New("no seek") }

// contentSeekErr is a seekable reader that fails after its data.
type contentSeekErr struct{ *strings.Reader }

func (c contentSeekErr) Read(p []byte) (int, error) {
	n, err := c.Reader.Read(p)
	if err == io.EOF {
		err = errors.New("connection reset")
	}
	return n, err
}

// TestMainTextSeekableReader checks that a reader that can seek back (read
// without a copy of the page) gives what any other reader gives, also when
// the parser gives up and BTE reads the page again, and when the reader
// does not start at offset 0.
func TestMainTextSeekableReader(t *testing.T) {
	page, _ := contentPage(20)
	deep := strings.Repeat("<div>", 2000) + "<p>Deep text. Very deep.</p>" + strings.Repeat("</div>", 2000) +
		"<p>Shallow text that is long enough to be chosen as the main content of this page.</p>"
	tests := []struct {
		name, page string
		reason     Reason
	}{
		{"article", page, ReasonFound},
		{"parser gives up", deep, ReasonUnparsed},
		{"empty", "", ReasonNoText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := ExtractWithReason(io.MultiReader(strings.NewReader(tt.page)))
			if err != nil {
				t.Fatal(err)
			}
			if want.Reason != tt.reason {
				t.Fatalf("plain reader: reason %v, want %v", want.Reason, tt.reason)
			}
			readers := map[string]io.Reader{
				"bytes.Reader":   bytes.NewReader([]byte(tt.page)),
				"strings.Reader": strings.NewReader(tt.page),
				"seek fails":     contentSeekFail{strings.NewReader(tt.page)},
			}
			for name, r := range readers {
				got, err := ExtractWithReason(r)
				if err != nil || got != want {
					t.Errorf("%s: got %v, %v; want %v, nil", name, got, err, want)
				}
			}
			// A reader positioned after a prefix is read from there, and
			// left at its end.
			r := strings.NewReader("<p>Skipped prefix that must not be read.</p>" + tt.page)
			if _, err := r.Seek(int64(len("<p>Skipped prefix that must not be read.</p>")), io.SeekStart); err != nil {
				t.Fatal(err)
			}
			got, err := ExtractWithReason(r)
			if err != nil || got != want {
				t.Errorf("offset reader: got %v, %v; want %v, nil", got, err, want)
			}
			if r.Len() != 0 {
				t.Errorf("offset reader: %d bytes left unread", r.Len())
			}
		})
	}
}

func TestMainTextSeekableReadError(t *testing.T) {
	for _, page := range []string{"<p>partial", strings.Repeat("<div>", 2000)} {
		res, err := ExtractWithReason(contentSeekErr{strings.NewReader(page)})
		if err == nil || !strings.HasPrefix(err.Error(), "maintext: ") || !strings.Contains(err.Error(), "connection reset") {
			t.Errorf("Extract(failing seekable reader, %d bytes) error = %v, want the read error wrapped", len(page), err)
		}
		if res != (Result{}) {
			t.Errorf("Extract(failing seekable reader) = %v, want the zero result", res)
		}
	}
}
