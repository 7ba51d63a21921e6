package trawlcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/store"
)

// warcFlags are the WARC output's flags.
type warcFlags struct {
	dir        string
	outlinks   bool
	noRevisits bool
}

func (w *warcFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&w.dir, "warc", "", "write what was fetched as WARC/1.1 files (gzipped, 1 GB each) with a CDXJ index in `DIR`")
	fs.BoolVar(&w.outlinks, "warc-outlinks", false, "with -warc, add a metadata record listing each page's links")
	fs.BoolVar(&w.noRevisits, "warc-no-revisit", false, "with -warc, write exact duplicates in full instead of as revisit records")
}

// open returns the WARC store, or nil without -warc. Its warcinfo records
// carry the crawl's settings.
func (w *warcFlags) open(f *flags, seeds int) (*store.WARC, error) {
	if w.dir == "" {
		return nil, nil
	}
	info := map[string]string{
		"robots":      "obey",
		"description": fmt.Sprintf("%d start URLs; max-pages %d, max-depth %d, concurrency %d, host-concurrency %d, delay %s", seeds, f.maxPages, f.maxDepth, f.concurrency, f.hostConcurrency, f.delay),
		"revisits":    strconv.FormatBool(!w.noRevisits),
	}
	if f.userAgent != "" {
		info["http-header-user-agent"] = f.userAgent // else trawl's default, as each request record shows
	}
	return store.NewWARC(w.dir, &store.WARCOptions{Outlinks: w.outlinks, NoRevisits: w.noRevisits, Info: info})
}

// both stores pages in a and b (the -out directory and the WARC files),
// and hands exchanges to the one that takes them.
type both struct {
	a trawl.Store
	b *store.WARC
}

func (s both) Put(ctx context.Context, p *trawl.Page) error {
	return errors.Join(s.a.Put(ctx, p), s.b.Put(ctx, p))
}

func (s both) PutExchange(ctx context.Context, ex *trawl.Exchange) error {
	return s.b.PutExchange(ctx, ex)
}

func (s both) Close() error { return errors.Join(s.a.Close(), s.b.Close()) }
