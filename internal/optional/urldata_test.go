package optional_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/disk"
)

// The child process of TestMetaSurvivesKill: TestMain runs metaChild when
// metaChildEnv names a frontier directory.
const (
	metaChildEnv  = "TRAWL_TEST_META_CHILD"
	metaChildAddr = "TRAWL_TEST_META_ADDR"
	metaItems     = 20
)

// metaSite serves a home page, whose crawl enqueues the items with
// metadata, and the items, which hang until release is closed.
type metaSite struct {
	srv     *httptest.Server
	release chan struct{}
	hung    chan struct{} // closed when an item request first hangs
	once    sync.Once
}

func newMetaSite(t *testing.T) *metaSite {
	s := &metaSite{release: make(chan struct{}), hung: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if strings.HasPrefix(r.URL.Path, "/item/") {
			s.once.Do(func() { close(s.hung) })
			select {
			case <-s.release:
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprintf(w, "<title>%s</title><p>%s</p>", r.URL.Path, r.URL.Path)
	}))
	t.Cleanup(func() {
		s.once.Do(func() { close(s.hung) })
		select {
		case <-s.release:
		default:
			close(s.release)
		}
		s.srv.Close()
	})
	return s
}

// metaCrawler is the crawler of both lives: a disk frontier in dir, one
// worker, the home page's OnPage enqueueing the items with metadata, for
// the handler "item" (WithHandler: Scrapy's callback), which calls
// onItem.
func metaCrawler(dir, addr string, seeds []string, onPage, onItem func(p *trawl.Page)) (*trawl.Crawler, error) {
	var c *trawl.Crawler
	var err error
	c, err = trawl.New(
		trawl.WithSeeds(seeds...),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay, IgnoreRobots: true}),
		trawl.WithWorkers(1),
		trawl.WithFollow(extract.Navigation),
		trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
			return disk.Open(dir, &disk.Options{Workers: o.Workers, Politeness: o.Politeness})
		}),
		trawl.WithHandler("item", func(_ context.Context, p *trawl.Page) {
			if onItem != nil {
				onItem(p)
			}
		}),
		trawl.WithEvents(trawl.Events{OnPage: func(ctx context.Context, p *trawl.Page) {
			if p.URL.Path == "/" {
				for i := range metaItems {
					if _, err := c.Enqueue(ctx, fmt.Sprintf("/item/%d", i), trawl.FromPage(p),
						trawl.SetMeta("item", fmt.Sprint(i)), trawl.Handler("item")); err != nil {
						panic(err)
					}
				}
			}
			if onPage != nil {
				onPage(p)
			}
		}}),
	)
	return c, err
}

// metaChild is the first life: it crawls until the parent kills it.
func metaChild(dir, addr string) int {
	c, err := metaCrawler(dir, addr, []string{"http://meta.test/"}, nil, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := c.Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	return 3 // the parent kills it before this
}

// TestMetaSurvivesKill checks that the metadata a URL was queued with
// travels with it in the frontier: a crawl on frontier/disk is killed
// (SIGKILL) while the URLs Enqueue gave metadata wait, and the resumed
// crawl's pages carry it, and go to the handler they were queued for.
func TestMetaSurvivesKill(t *testing.T) {
	s := newMetaSite(t)
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), metaChildEnv+"="+dir, metaChildAddr+"="+s.srv.Listener.Addr().String())
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	<-s.hung // the home page was crawled, its items queued, one is being fetched
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := child.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("child: %v, want killed", err)
	}
	close(s.release)

	var mu sync.Mutex
	meta := map[string]string{}
	handled := map[string]bool{}
	c, err := metaCrawler(dir, s.srv.Listener.Addr().String(), nil, func(p *trawl.Page) {
		mu.Lock()
		meta[p.URL.Path] = p.Meta["item"]
		mu.Unlock()
	}, func(p *trawl.Page) {
		mu.Lock()
		handled[p.URL.Path] = true
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(meta) != metaItems {
		t.Errorf("resumed crawl fetched %d pages, want the %d items: %v", len(meta), metaItems, meta)
	}
	for i := range metaItems {
		if got, want := meta[fmt.Sprintf("/item/%d", i)], fmt.Sprint(i); got != want {
			t.Errorf("/item/%d: Page.Meta[item] = %q after the kill, want %q", i, got, want)
		}
		if !handled[fmt.Sprintf("/item/%d", i)] {
			t.Errorf("/item/%d was not given to the handler it was queued for after the kill", i)
		}
	}
}
