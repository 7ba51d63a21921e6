package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
)

func fullPage(t *testing.T) *trawl.Page {
	t.Helper()
	u, err := url.Parse("http://a.test/doc?x=1")
	if err != nil {
		t.Fatal(err)
	}
	return &trawl.Page{
		URL: u, Status: 200, Depth: 2, Referrer: "http://a.test/", Anchor: "Doc",
		Fetched:     time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		ContentType: "text/html", Lang: "en", Title: "A <doc>, \"quoted\"",
		MainText: "first para\n\nsecond", Body: []byte("<html>12345</html>"),
		Links: make([]trawl.Link, 3), Score: 0.5,
	}
}

// lines splits JSON Lines output and decodes each line into a map.
func jsonLines(t *testing.T, data string) []map[string]any {
	t.Helper()
	if data != "" && !strings.HasSuffix(data, "\n") {
		t.Fatalf("output does not end in a newline: %q", data)
	}
	var out []map[string]any
	for line := range strings.Lines(data) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

type product struct {
	Name  string   `json:"name"`
	Price float64  `json:"price"`
	Tags  []string `json:"tags,omitempty"`
}

func TestJSONLPagesAndItems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.jsonl")
	j, err := NewJSONL(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := j.Put(ctx, fullPage(t)); err != nil {
		t.Fatal(err)
	}
	if err := j.PutItem(ctx, product{Name: "pen", Price: 1.5, Tags: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if err := j.PutItem(ctx, map[string]int{"n": 3}); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	data := readFile(t, path)
	if !strings.Contains(data, `"title":"A <doc>, \"quoted\""`) {
		t.Errorf("HTML escaped or title missing: %s", data)
	}
	got := jsonLines(t, data)
	if len(got) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(got), data)
	}
	want := map[string]any{
		"url": "http://a.test/doc?x=1", "status": 200.0, "depth": 2.0, "referrer": "http://a.test/",
		"anchor": "Doc", "fetched": "2026-01-02T03:04:05Z", "content_type": "text/html", "lang": "en",
		"title": "A <doc>, \"quoted\"", "canonical": "", "main_text": "first para\n\nsecond",
		"bytes": 18.0, "truncated": false, "links": 3.0, "score": 0.5,
	}
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("page line = %v\nwant %v", got[0], want)
	}
	if w := (map[string]any{"name": "pen", "price": 1.5, "tags": []any{"a"}}); !reflect.DeepEqual(got[1], w) {
		t.Errorf("item line = %v, want %v", got[1], w)
	}
	if w := (map[string]any{"n": 3.0}); !reflect.DeepEqual(got[2], w) {
		t.Errorf("map item line = %v, want %v", got[2], w)
	}
}

func TestJSONLAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.jsonl")
	for i := range 2 {
		j, err := NewJSONL(path, &FileOptions{Mode: Append})
		if err != nil {
			t.Fatal(err)
		}
		if err := j.PutItem(context.Background(), map[string]int{"run": i}); err != nil {
			t.Fatal(err)
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := readFile(t, path), "{\"run\":0}\n{\"run\":1}\n"; got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
}

func TestJSONLErrors(t *testing.T) {
	var buf bytes.Buffer
	j := NewJSONLWriter(&buf)
	ctx := context.Background()
	if err := j.PutItem(ctx, make(chan int)); err == nil || !strings.Contains(err.Error(), "store: jsonl: item") {
		t.Errorf("PutItem(chan) = %v, want a marshaling error", err)
	}
	if err := j.PutItem(ctx, "ok"); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "\"ok\"\n" {
		t.Errorf("output = %q, want only the good item", got)
	}
	if err := j.PutItem(ctx, "late"); err == nil {
		t.Error("PutItem after Close succeeded")
	}
	if err := j.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	if _, err := NewJSONL(filepath.Join(t.TempDir(), "missing", "x.jsonl"), nil); err == nil {
		t.Error("NewJSONL in a missing directory succeeded")
	}
}

// failWriter fails every write after the first n bytes.
type failWriter struct {
	n   int
	buf bytes.Buffer
}

var errDiskFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.n {
		return 0, errDiskFull
	}
	return w.buf.Write(p)
}

func TestJSONLWriteErrorSticks(t *testing.T) {
	w := &failWriter{n: 0}
	j := NewJSONLWriter(w)
	ctx := context.Background()
	big := strings.Repeat("x", exportBufferSize)
	var err error
	for i := 0; i < 4 && err == nil; i++ {
		err = j.PutItem(ctx, big)
	}
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("PutItem = %v, want disk full", err)
	}
	if err := j.PutItem(ctx, "small"); !errors.Is(err, errDiskFull) {
		t.Errorf("PutItem after a failed write = %v, want the same error", err)
	}
	if err := j.Close(); !errors.Is(err, errDiskFull) {
		t.Errorf("Close = %v, want the write error", err)
	}
}

// A crash loses the buffered tail only: what reached the writer is whole
// lines, whatever the line sizes.
func TestJSONLWholeLinesBeforeClose(t *testing.T) {
	var buf bytes.Buffer
	j := NewJSONLWriter(&buf)
	ctx := context.Background()
	for i := range 3000 {
		if err := j.PutItem(ctx, map[string]string{"pad": strings.Repeat("y", i%97)}); err != nil {
			t.Fatal(err)
		}
	}
	mid := buf.String()
	if len(mid) == 0 {
		t.Fatal("nothing written before Close: the buffer never flushed")
	}
	n := len(jsonLines(t, mid))
	if n >= 3000 {
		t.Fatalf("%d lines before Close, want some still buffered", n)
	}
	if len(mid) < exportBufferSize/2 {
		t.Errorf("only %d bytes written before Close: the buffer flushes too early", len(mid))
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(jsonLines(t, buf.String())); got != 3000 {
		t.Errorf("%d lines after Close, want 3000", got)
	}
}

func TestJSONLConcurrent(t *testing.T) {
	var buf bytes.Buffer
	j := NewJSONLWriter(&buf)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 300 {
				if err := j.PutItem(ctx, product{Name: fmt.Sprintf("g%d-%d", g, i), Price: float64(i)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range jsonLines(t, buf.String()) {
		seen[m["name"].(string)] = true
	}
	if len(seen) != 8*300 {
		t.Errorf("%d distinct items, want %d", len(seen), 8*300)
	}
}

func readCSV(t *testing.T, data string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("reading CSV %q: %v", data, err)
	}
	return rows
}

type Base struct {
	ID int `csv:"id"`
}

type row struct {
	Base
	Name   string            `csv:"name" json:"ignored"`
	Price  float64           `json:"price,omitempty"`
	When   time.Time         `csv:"when"`
	Secret string            `csv:"-"`
	hidden int               // left out: unexported
	Extra  map[string]string `csv:"extra"`
	Ptr    *int
	Plain  bool
}

func TestCSVColumns(t *testing.T) {
	seven := 7
	tests := []struct {
		name  string
		items []any
		want  [][]string
		err   string // substring of the error of the last item
	}{
		{
			name: "struct fields, tags, embedded, values",
			items: []any{
				row{Base: Base{ID: 1}, hidden: 9, Name: "a,b \"c\"\nd", Price: 2.5, When: time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC),
					Secret: "s", Extra: map[string]string{"k": "v"}, Ptr: &seven, Plain: true},
				&row{Base: Base{ID: 2}},
			},
			want: [][]string{
				{"id", "name", "price", "when", "extra", "Ptr", "Plain"},
				{"1", "a,b \"c\"\nd", "2.5", "2026-03-04T05:06:07.000000008Z", `{"k":"v"}`, "7", "true"},
				{"2", "", "0", "", "null", "", "false"},
			},
		},
		{
			name:  "maps: sorted keys, missing columns empty",
			items: []any{map[string]any{"b": 1, "a": "x", "c": nil}, map[string]int{"c": 3}},
			want:  [][]string{{"a", "b", "c"}, {"x", "1", ""}, {"", "", "3"}},
		},
		{
			name:  "a key that is not a column",
			items: []any{map[string]int{"a": 1}, map[string]int{"a": 2, "z": 3}},
			want:  [][]string{{"a"}, {"1"}},
			err:   `"z" is not a column`,
		},
		{name: "a string", items: []any{"text"}, err: "must be a struct or a map"},
		{name: "int keys", items: []any{map[int]string{1: "a"}}, err: "string keys"},
		{name: "nil", items: []any{nil}, err: "nil item"},
		{name: "nil pointer", items: []any{(*row)(nil)}, err: "nil item"},
		{name: "unmarshalable", items: []any{map[string]any{"f": func() {}}}, err: "key f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			c := NewCSVWriter(&buf)
			var err error
			for _, it := range tt.items {
				err = c.PutItem(context.Background(), it)
				if err != nil {
					break
				}
			}
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("PutItem: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("PutItem error = %v, want one containing %q", err, tt.err)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			if got := readCSV(t, buf.String()); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("rows = %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestCSVPagesAndResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pages.csv")
	for range 2 {
		c, err := NewCSV(path, &FileOptions{Mode: Append})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Put(context.Background(), fullPage(t)); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	rows := readCSV(t, readFile(t, path))
	wantHeader := []string{"url", "status", "depth", "referrer", "anchor", "fetched", "content_type", "lang",
		"title", "canonical", "main_text", "bytes", "truncated", "links", "score"}
	if len(rows) != 3 || !reflect.DeepEqual(rows[0], wantHeader) {
		t.Fatalf("rows = %q, want the header once and two pages", rows)
	}
	wantRow := []string{"http://a.test/doc?x=1", "200", "2", "http://a.test/", "Doc", "2026-01-02T03:04:05Z",
		"text/html", "en", "A <doc>, \"quoted\"", "", "first para\n\nsecond", "18", "false", "3", "0.5"}
	for _, r := range rows[1:] {
		if !reflect.DeepEqual(r, wantRow) {
			t.Errorf("row = %q\nwant %q", r, wantRow)
		}
	}
	// A file with another header refuses records that do not fit it.
	other := filepath.Join(t.TempDir(), "other.csv")
	if err := os.WriteFile(other, []byte("name,price\npen,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := NewCSV(other, &FileOptions{Mode: Append})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.PutItem(context.Background(), map[string]any{"name": "ink", "price": 2}); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(context.Background(), fullPage(t)); err == nil || !strings.Contains(err.Error(), "not a column") {
		t.Errorf("Put into an item CSV = %v, want a column error", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, other), "name,price\npen,1\nink,2\n"; got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
}

func TestCSVConcurrentWholeRows(t *testing.T) {
	var buf bytes.Buffer
	c := NewCSVWriter(&buf)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				it := product{Name: fmt.Sprintf("g%d,%d\n%s", g, i, strings.Repeat("z", i%50)), Price: float64(i)}
				if err := c.PutItem(context.Background(), it); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	// Before Close: whole rows only (a crash leaves a readable file).
	if mid := buf.String(); mid != "" {
		readCSV(t, mid)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, buf.String())
	if len(rows) != 1+8*500 {
		t.Errorf("%d rows, want %d", len(rows), 1+8*500)
	}
	if err := c.PutItem(context.Background(), product{}); err == nil {
		t.Error("PutItem after Close succeeded")
	}
}

func FuzzCSVRoundTrip(f *testing.F) {
	for _, s := range []string{"", "plain", "a,b", "\"q\"", "line\nbreak", "\r\n", " lead", "ü"} {
		f.Add(s, s+"2")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var buf bytes.Buffer
		c := NewCSVWriter(&buf)
		if err := c.PutItem(context.Background(), map[string]string{"a": a, "b": b}); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bufio.NewReader(&buf)).ReadAll()
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		// encoding/csv reads "\r\n" inside a quoted field as "\n".
		norm := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
		if len(rows) != 2 || rows[1][0] != norm(a) || rows[1][1] != norm(b) {
			t.Errorf("round trip of %q, %q = %q", a, b, rows)
		}
	})
}

func BenchmarkJSONLPutItem(b *testing.B) {
	var buf bytes.Buffer
	j := NewJSONLWriter(&buf)
	it := product{Name: "a product name", Price: 12.5, Tags: []string{"x", "y"}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := j.PutItem(ctx, it); err != nil {
			b.Fatal(err)
		}
		if buf.Len() > 1<<20 {
			buf.Reset()
		}
	}
}

func BenchmarkCSVPutItem(b *testing.B) {
	var buf bytes.Buffer
	c := NewCSVWriter(&buf)
	it := product{Name: "a product name", Price: 12.5, Tags: []string{"x", "y"}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := c.PutItem(ctx, it); err != nil {
			b.Fatal(err)
		}
		if buf.Len() > 1<<20 {
			buf.Reset()
		}
	}
}

// TestFileModes: a JSONL or CSV file that exists and is not empty is
// refused by default (and left as it was), appended to with Append,
// replaced with Overwrite; a missing or empty file is written in any mode.
func TestFileModes(t *testing.T) {
	type sink interface {
		PutItem(context.Context, any) error
		Close() error
	}
	type opener func(path string, opts *FileOptions) (sink, error)
	openers := map[string]opener{
		"jsonl": func(p string, o *FileOptions) (sink, error) {
			return NewJSONL(p, o)
		},
		"csv": func(p string, o *FileOptions) (sink, error) {
			return NewCSV(p, o)
		},
	}
	want := map[string]map[Mode]string{
		"jsonl": {Refuse: "{\"run\":0}\n", Append: "{\"run\":0}\n{\"run\":1}\n", Overwrite: "{\"run\":1}\n"},
		"csv":   {Refuse: "run\n0\n", Append: "run\n0\n1\n", Overwrite: "run\n1\n"},
	}
	for name, open := range openers {
		for _, mode := range []Mode{Refuse, Append, Overwrite} {
			t.Run(name+"/"+mode.String(), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "out."+name)
				if err := os.WriteFile(path, nil, 0o644); err != nil { // empty: written in any mode
					t.Fatal(err)
				}
				for run := range 2 {
					st, err := open(path, &FileOptions{Mode: mode})
					if mode == Refuse && run == 1 {
						if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), "choose Append") {
							t.Errorf("second run = %v, want a refusal matching fs.ErrExist", err)
						}
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					if err := st.PutItem(context.Background(), map[string]int{"run": run}); err != nil {
						t.Fatal(err)
					}
					if err := st.Close(); err != nil {
						t.Fatal(err)
					}
				}
				if got := readFile(t, path); got != want[name][mode] {
					t.Errorf("file = %q, want %q", got, want[name][mode])
				}
			})
		}
	}
	for _, s := range []string{"refuse", "append", "overwrite"} {
		if m, err := ParseMode(s); err != nil || m.String() != s {
			t.Errorf("ParseMode(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseMode("truncate"); err == nil {
		t.Error("ParseMode(truncate) succeeded")
	}
}
