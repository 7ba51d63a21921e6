package store

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
)

// The kill tests re-execute the test binary as a child process that
// writes to the stores until the parent signals it.
const (
	childModeEnv = "TRAWL_STORE_CHILD"     // "sigint" or "sigkill"
	childDirEnv  = "TRAWL_STORE_CHILD_DIR" // where the child writes
	childArgEnv  = "TRAWL_STORE_CHILD_ARG" // the mode's parameter
)

func TestMain(m *testing.M) {
	switch os.Getenv(childModeEnv) {
	case "sigint":
		os.Exit(sigintChild(os.Getenv(childDirEnv), os.Getenv(childArgEnv)))
	case "sigkill":
		os.Exit(sigkillChild(os.Getenv(childDirEnv), os.Getenv(childArgEnv)))
	}
	os.Exit(m.Run())
}

// startChild starts the test binary in mode, returning it and its stdout.
// The child is killed when the test's bound passes, so a test never hangs
// on it.
func startChild(t *testing.T, mode, dir, arg string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	child := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), childModeEnv+"="+mode, childDirEnv+"="+dir, childArgEnv+"="+arg)
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := child.StdinPipe(); err != nil { // open until Wait: a child may block reading it
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	return child, bufio.NewScanner(out)
}

// killStores is what sigintChild crawls into: every store of the package
// that writes files, each page Put to all of them, exchanges to the WARC.
type killStores struct {
	jsonl *JSONL
	csv   *CSV
	dir   *Dir
	warc  *WARC
}

func openKillStores(dir string) (*killStores, error) {
	var s killStores
	var err error
	if s.jsonl, err = NewJSONL(filepath.Join(dir, "pages.jsonl"), nil); err != nil {
		return nil, err
	}
	if s.csv, err = NewCSV(filepath.Join(dir, "pages.csv"), nil); err != nil {
		return nil, err
	}
	if s.dir, err = NewDir(filepath.Join(dir, "pages")); err != nil {
		return nil, err
	}
	if s.warc, err = NewWARC(filepath.Join(dir, "warc"), nil); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *killStores) Put(ctx context.Context, p *trawl.Page) error {
	return errors.Join(s.jsonl.Put(ctx, p), s.csv.Put(ctx, p), s.dir.Put(ctx, p), s.warc.Put(ctx, p))
}

func (s *killStores) PutExchange(ctx context.Context, ex *trawl.Exchange) error {
	return s.warc.PutExchange(ctx, ex)
}

func (s *killStores) Close() error {
	return errors.Join(s.jsonl.Close(), s.csv.Close(), s.dir.Close(), s.warc.Close())
}

// sigintChild is a program written as the README says: its context ends
// on SIGINT or SIGTERM (signal.NotifyContext), and it crawls a crawltest
// web into JSONL, CSV, Dir and WARC stores. It prints "stored URL" for
// each page stored; once n pages are stored, the next Puts wait for the
// signal (so the crawl is surely running when it comes) and then store
// their page. It ends by printing "done K", K the pages stored.
func sigintChild(dir, arg string) int {
	n, _ := strconv.Atoi(arg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 3, Hosts: 1, PagesPerHost: 100})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer web.Close()
	stores, err := openKillStores(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var mu sync.Mutex
	stored := 0
	gated := &gatedStore{killStores: stores, put: func(putCtx context.Context, p *trawl.Page) error {
		mu.Lock()
		wait := stored >= n
		mu.Unlock()
		if wait {
			<-ctx.Done() // the signal
		}
		if err := stores.Put(context.WithoutCancel(putCtx), p); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		stored++
		fmt.Printf("stored %s\n", p.URL)
		return nil
	}}
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithWorkers(2),
		trawl.WithStore(gated),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := c.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	mu.Lock()
	fmt.Printf("done %d\n", stored)
	mu.Unlock()
	return 0
}

type gatedStore struct {
	*killStores
	put func(context.Context, *trawl.Page) error
}

func (g *gatedStore) Put(ctx context.Context, p *trawl.Page) error { return g.put(ctx, p) }

// TestSIGINTKeepsEveryRecord interrupts (SIGINT) a README-style program
// after it stored 8 pages: every page it stored is in each store's output,
// whole, and the stores were closed (stats.txt written, WARC files
// finished and indexed).
func TestSIGINTKeepsEveryRecord(t *testing.T) {
	const n = 8
	dir := t.TempDir()
	child, out := startChild(t, "sigint", dir, strconv.Itoa(n))
	var urls []string
	done := -1
	for out.Scan() {
		line := out.Text()
		if u, ok := strings.CutPrefix(line, "stored "); ok {
			urls = append(urls, u)
			if len(urls) == n {
				if err := child.Process.Signal(os.Interrupt); err != nil {
					t.Fatal(err)
				}
			}
		} else if k, ok := strings.CutPrefix(line, "done "); ok {
			done, _ = strconv.Atoi(k)
		}
	}
	if err := child.Wait(); err != nil {
		t.Fatalf("child: %v, want exit status 0 after SIGINT", err)
	}
	t.Logf("SIGINT after %d pages; the child stored %d", n, done)
	if len(urls) < n || done != len(urls) {
		t.Fatalf("child stored %d pages and said done %d, want at least %d and the same", len(urls), done, n)
	}
	slices.Sort(urls)

	var jsonlURLs []string
	for _, line := range strings.SplitAfter(readFile(t, filepath.Join(dir, "pages.jsonl")), "\n") {
		if line == "" {
			continue
		}
		var r PageRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil || !strings.HasSuffix(line, "\n") {
			t.Fatalf("pages.jsonl line %q: %v", line, err)
		}
		jsonlURLs = append(jsonlURLs, r.URL)
	}
	slices.Sort(jsonlURLs)
	if !slices.Equal(jsonlURLs, urls) {
		t.Errorf("pages.jsonl has %d records, want the %d pages stored:\n%v\nwant %v", len(jsonlURLs), len(urls), jsonlURLs, urls)
	}

	rows, err := csv.NewReader(strings.NewReader(readFile(t, filepath.Join(dir, "pages.csv")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var csvURLs []string
	for _, row := range rows[1:] {
		csvURLs = append(csvURLs, row[0])
	}
	slices.Sort(csvURLs)
	if !slices.Equal(csvURLs, urls) {
		t.Errorf("pages.csv has %d rows, want the %d pages stored", len(csvURLs), len(urls))
	}

	dirURLs := strings.Fields(readFile(t, filepath.Join(dir, "pages", "urls.txt")))
	slices.Sort(dirURLs)
	if !slices.Equal(dirURLs, urls) {
		t.Errorf("urls.txt has %d lines, want the %d pages stored", len(dirURLs), len(urls))
	}
	if _, err := os.Stat(filepath.Join(dir, "pages", "stats.txt")); err != nil {
		t.Errorf("Dir not closed: %v", err)
	}

	warcs, _ := filepath.Glob(filepath.Join(dir, "warc", "*"))
	var index string
	for _, name := range warcs {
		switch {
		case strings.HasSuffix(name, ".open"):
			t.Errorf("WARC file %s left open", name)
		case strings.HasSuffix(name, ".cdxj"):
			index += readFile(t, name)
		}
	}
	for _, u := range urls {
		if !strings.Contains(index, `"url": "`+u+`"`) && !strings.Contains(index, `"url":"`+u+`"`) {
			t.Errorf("the CDXJ index lacks %s", u)
		}
	}
}

// sigkillChild writes records to a JSONL, a CSV and a WARC store whose
// flush interval is arg ("-1": no timer), in two rounds: 5 records, then
// (after each store's timer flushed them, when there is a timer) 3 more,
// printing "ready" after the first and "more" after the second round; then
// it waits to be killed.
func sigkillChild(dir, arg string) int {
	interval, err := time.ParseDuration(arg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ticks := make(chan string, 64)
	j, err := NewJSONL(filepath.Join(dir, "items.jsonl"), &FileOptions{FlushInterval: interval})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	j.lw.onTick = func() { ticks <- "jsonl" }
	c, err := NewCSV(filepath.Join(dir, "items.csv"), &FileOptions{FlushInterval: interval})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	c.lw.onTick = func() { ticks <- "csv" }
	w, err := NewWARC(filepath.Join(dir, "warc"), &WARCOptions{FlushInterval: interval})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	w.cdx.onTick = func() { ticks <- "cdxj" }
	put := func(i int) error {
		ctx := context.Background()
		u, _ := url.Parse(fmt.Sprintf("http://kill.test/%d", i))
		resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n%02d", i)
		ex := fetch.NewExchange(u, []byte("GET /"+strconv.Itoa(i)+" HTTP/1.1\r\nHost: kill.test\r\n\r\n"), []byte(resp))
		return errors.Join(j.PutItem(ctx, map[string]int{"n": i}), c.PutItem(ctx, map[string]int{"n": i}), w.PutExchange(ctx, ex))
	}
	for i := range 5 {
		if err := put(i); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	if interval > 0 {
		for seen := map[string]bool{}; len(seen) < 3; {
			seen[<-ticks] = true
		}
	}
	fmt.Println("ready")
	for i := 5; i < 8; i++ {
		if err := put(i); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	fmt.Println("more")
	os.Stdin.Read(make([]byte, 1)) // until killed (or the parent goes)
	return 3
}

// TestSIGKILLLosesAtMostTheLastInterval kills (SIGKILL) a process that
// wrote 5 records to a JSONL, a CSV and a WARC store, waited for their
// flush timers, and wrote 3 more: the 5 are in every file, whole, and at
// most the 3 of the last interval are lost. Without a timer (a negative
// FlushInterval) the same kill loses all 8 from the JSONL and CSV files
// and the index, which shows what the timer keeps.
func TestSIGKILLLosesAtMostTheLastInterval(t *testing.T) {
	for _, tc := range []struct {
		interval string
		min, max int // records left in each file
	}{
		{interval: "50ms", min: 5, max: 8},
		{interval: "-1ns", min: 0, max: 0},
	} {
		t.Run(tc.interval, func(t *testing.T) {
			dir := t.TempDir()
			child, out := startChild(t, "sigkill", dir, tc.interval)
			for out.Scan() && out.Text() != "more" {
			}
			if err := child.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			if err := child.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("child: %v, want killed", err)
			}
			check := func(name string, lines []string, record func(i int) string) {
				t.Helper()
				if len(lines) < tc.min || len(lines) > tc.max {
					t.Errorf("%s: %d records after the kill, want %d to %d", name, len(lines), tc.min, tc.max)
				}
				for i, l := range lines {
					if !strings.Contains(l, record(i)) {
						t.Errorf("%s: record %d is %q, want it to hold %q", name, i, l, record(i))
					}
				}
			}
			check("items.jsonl", fileLines(t, filepath.Join(dir, "items.jsonl")), func(i int) string { return fmt.Sprintf(`{"n":%d}`, i) })
			rows := fileLines(t, filepath.Join(dir, "items.csv"))
			if len(rows) > 0 {
				if rows[0] != "n" {
					t.Errorf("items.csv header %q", rows[0])
				}
				rows = rows[1:]
			}
			check("items.csv", rows, strconv.Itoa)
			indexes, _ := filepath.Glob(filepath.Join(dir, "warc", "*.cdxj"))
			var index []string
			for _, name := range indexes {
				index = append(index, fileLines(t, name)...)
			}
			slices.SortFunc(index, func(a, b string) int { return strings.Compare(cdxjURLNumber(a), cdxjURLNumber(b)) })
			check("the CDXJ index", index, func(i int) string { return fmt.Sprintf("http://kill.test/%d", i) })
			// The records themselves are written unbuffered: all 8.
			warcs, _ := filepath.Glob(filepath.Join(dir, "warc", "*.warc.gz.open"))
			if len(warcs) != 1 {
				t.Fatalf("WARC files %v, want one .open file", warcs)
			}
			if got := gzipMembers(t, warcs[0]); got != 1+16 { // warcinfo + 8 × (response, request)
				t.Errorf("the WARC file holds %d records, want 17", got)
			}
		})
	}
}

// cdxjURLNumber returns the record number in a kill test's CDXJ line
// (from its SURT key "test,kill)/N").
func cdxjURLNumber(line string) string {
	key, _, _ := strings.Cut(line, " ")
	_, n, _ := strings.Cut(key, ")/")
	return fmt.Sprintf("%04s", n)
}

// fileLines returns path's whole lines (a missing file has none); a last
// line without its '\n' fails the test.
func fileLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 {
		return nil
	}
	if data[len(data)-1] != '\n' {
		t.Errorf("%s ends in half a line: %q", path, data)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// gzipMembers counts the whole gzip members of path.
func gzipMembers(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		zr.Multistream(false)
		if _, err := io.Copy(io.Discard, zr); err != nil {
			t.Fatalf("member %d: %v", n+1, err)
		}
		n++
		if err := zr.Reset(br); err == io.EOF {
			return n
		} else if err != nil {
			t.Fatal(err)
		}
	}
}
