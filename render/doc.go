// Package render is trawl's optional browser fetcher: it renders HTML pages
// in headless Chromium, so that links and content that only a page's
// scripts write reach the normal extraction.
//
// A [Fetcher] wraps another fetcher (trawl's HTTP fetcher, normally). For
// each page it:
//
//  1. fetches the page with the inner fetcher, as without rendering (status,
//     redirects not followed, conditional GET, limits, charset to UTF-8);
//  2. when the answer is a 2xx HTML page (and [Options.Render] agrees),
//     opens it in a browser tab, serving the browser the body already
//     fetched (the host is not asked twice);
//  3. lets the page's scripts run until the network has been quiet for
//     [Options.Settle] after the load event, within [Options.Timeout];
//  4. returns the response with Body replaced by the rendered DOM
//     (doctype + document.documentElement.outerHTML, UTF-8), which the
//     crawler extracts and stores like any page. Duration includes the
//     render, so the politeness delay that scales with a host's fetch time
//     scales with its render time too.
//
// In a crawl: trawl.WithFetchWrapper(render.Wrapper(&render.Options{...})),
// or sitespider's -render always.
//
// # Every request the browser makes goes through trawl
//
// The tab intercepts every request at the request stage (CDP's Fetch
// domain, pattern "*"), and the browser itself never contacts a server:
//
//   - GET and HEAD sub-requests that pass the rules below are made by the
//     inner fetcher's Get ([fetch.Getter]) and the answer is handed to the
//     browser (Fetch.fulfillRequest). So the inner fetcher's private-network
//     guard (checked at dial time, after DNS resolution), its allow lists
//     (fetch.Options.AllowNetworks, AllowPrivateNetworks, AllowHosts: the
//     crawl's), its User-Agent, deadlines and proxy apply to them exactly as
//     to pages. A page's fetch() of http://169.254.169.254/ is refused by the
//     guard before any dial ([BlockedPrivate]).
//   - Any other method (a script's POST, a sendBeacon, a form) is refused
//     and counted ([BlockedMethod]): nothing is sent.
//   - Sub-requests to another host than the page's are refused
//     ([BlockedHost]) unless [Options.OtherHosts]. This is the politeness
//     choice: a page's own sub-requests are made one at a time, while the
//     crawler still holds the host's turn (the render is part of the
//     page's fetch), so the host sees at most one request of the crawl in
//     flight, and the next turn waits for the whole render. Other hosts'
//     requests, when allowed, are also one at a time per page but outside
//     those hosts' schedules; they are counted, not scheduled.
//   - robots.txt: [Options.Allowed] is asked about each sub-request
//     (a crawl passes its robots.txt cache through UseRobots), and a
//     disallowed one is refused ([BlockedRobots]). The page itself was
//     admitted by the crawler before its fetch. robots.txt is asked before
//     the request is made, so a request to a private address is often
//     refused as BlockedRobots: its robots.txt fetch met the guard first.
//     Either way nothing is dialled.
//   - Limits: at most [Options.MaxRequests] sub-requests and
//     [Options.MaxBytes] bytes of sub-responses per page ([BlockedLimit]),
//     a rendered DOM of at most [Options.MaxDOMBytes] (longer is cut and
//     marked Truncated), and each sub-response bounded by the inner
//     fetcher's deadlines.
//   - A script that moves the main frame elsewhere is refused
//     ([BlockedNavigate]): the DOM read is the page's.
//   - What might escape the tab's interception (WebSocket handshakes, a
//     service worker's requests, WebRTC) is sent to a proxy on a loopback
//     port nothing listens on, with loopback not bypassed, so it fails.
//     This is defence in depth and not proven by a test: in Chromium 156
//     a page's WebSocket to its own loopback server fails even without the
//     proxy (TestRenderGuards checks only that it never arrives).
//
// [Options.OnRequest] reports every request a page made with its
// [Verdict]; [Fetcher.Stats] counts them.
//
// # Failures
//
// A render that fails (the browser crashed, a tab hung in a script that
// never yields) is retried once; if the browser no longer answers it is
// replaced first. When the retry fails too, Fetch returns the static
// response with an error matching [ErrRender]: a page that needed a
// browser is never passed off as rendered, and the crawler records an
// error for it rather than storing an empty shell.
//
// # Processes
//
// One Chromium per Fetcher, started at the first page to render, with
// --headless=new, --no-sandbox (containers and root), --disable-gpu,
// --disable-dev-shm-usage and a fresh temporary --user-data-dir. It runs in
// its own process group with Pdeathsig SIGKILL, so that the kernel kills
// it if the crawler dies (kill -9 included; its children then exit with
// it). [Fetcher.Close] kills the group and any process still naming the
// user-data-dir, and removes the directory; trawl's Run calls it when the
// crawl ends. After a kill -9 of the crawler no process is left, but the
// directory (trawl-render-* in the temporary directory) is: nothing is
// left running to remove it. TestNoOrphanAfterKill and TestCloseLeavesNothing check both
// through /proc. Tabs are kept open between pages (opening one costs
// about four times the CPU of a navigation) up to [Options.Tabs], which
// also bounds the pages rendered at once.
//
// # Why chromedp
//
// github.com/chromedp/chromedp speaks the Chrome DevTools Protocol in pure
// Go, over a pipe to the browser: no Node.js, no driver binary, no
// Playwright or Selenium server, one small dependency (its generated
// protocol package, cdproto) besides a JSON library. It is maintained
// (v0.23.0, generated from a current protocol), its ExecAllocator lets us
// set the process attributes above, and its Fetch domain bindings are
// what request interception needs. go-rod is the alternative; it downloads
// a browser by default and its interception hijacks requests through its
// own HTTP client, where we need trawl's.
//
// # Concurrency
//
// A *Fetcher is safe for concurrent use; Fetch calls beyond Options.Tabs
// wait for a tab. Close must not be called while Fetch calls run.
//
// # Cost
//
// Measured on 2 cores (Intel Xeon), Chromium 156, a 30 KB page whose
// scripts load one script and one JSON file and write 50 links, Settle 100
// ms:
//
//	go test -run '^$' -bench Render -benchtime 40x ./render/
//
//	tabs  pages/s  browser CPU/page  crawler CPU/page  browser memory (PSS)
//	1     3.6      237 ms            12 ms             561 MiB
//	4     6.5      251 ms            10 ms             643 MiB
//
// Against well under 1 ms of CPU per page for a static fetch and
// extraction, rendering costs two to three orders of magnitude more: render
// only the sites that need it (Options.Render), or let [Adaptive] find them.
//
// # Rendering only where it pays
//
// With [Options.Adaptive] the Fetcher renders the first pages of each
// group (host and first path segment) and compares each rendered DOM with
// the static page: a followable link only the render has, or much more
// text, switches the group to rendering; otherwise the group's later pages
// are served static, bar one recheck in 50. Measured with 2 tabs, 4
// workers, no politeness delay (TRAWL_RENDER_EVAL=1 go test -run
// TestRenderAdaptiveEval -v ./internal/optional in the module root):
//
//	site                        HTML pages  rendered by auto  followable links of "always" auto finds  time always → auto
//	Python docs (nginx, 150)    148         19 (13%)          8522 of 8522 (100%)                      61.4 s → 8.8 s
//	crawltest, 3 hosts, constructs  275     77 (28%)          2256 of 2259 (99.9%)                     66.8 s → 20.7 s
//
// The links auto misses on crawltest are the three js-only links of the
// construct scripts page, one per host: the /constructs/ group's first
// pages gained nothing from a render, and the scripts page came later. A
// site whose script-built pages are rare among ordinary ones is the
// adaptive mode's blind spot, as it is Crawlee's; render such a site
// always, or route its pages with Options.Render.
package render
