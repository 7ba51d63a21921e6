package crawltest

import (
	"bytes"
	"compress/gzip"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// route answers a GET or HEAD request for host h.
func (w *Web) route(rw *recorder, r *http.Request, h int) {
	host := &w.hosts[h]
	path := cleanPath(r.URL.Path)
	query := r.URL.RawQuery
	now := w.opts.Now()
	hdr := rw.Header()
	hdr.Set("Date", now.UTC().Format(http.TimeFormat))
	hdr.Set("Server", "crawltest")
	f := &w.opts.Faults
	switch {
	case path == "/robots.txt" && query == "" && f.SlowRobots > 0 && h%8 == 3:
		w.trickle(rw, r, w.robotsTxt(h), f.SlowRobots)
	case path == "/robots.txt" && query == "":
		switch host.robots {
		case robots404:
			http.NotFound(rw, r)
		case robots500:
			http.Error(rw, "robots.txt is having a bad day", http.StatusInternalServerError)
		case robotsRedirect:
			http.Redirect(rw, r, "/robots-real.txt", http.StatusMovedPermanently)
		default:
			w.write(rw, r, "text/plain; charset=utf-8", w.robotsTxt(h))
		}
	case path == "/robots-real.txt" && host.robots == robotsRedirect:
		w.write(rw, r, "text/plain; charset=utf-8", w.robotsTxt(h))
	case path == "/sitemap.xml" && host.sitemap == sitemapURLSet:
		w.write(rw, r, "application/xml", w.urlset(h, w.sitemapURLs(h), now))
	case path == "/sitemap.xml" && host.sitemap == sitemapIndex:
		w.write(rw, r, "application/xml", w.sitemapIndexXML(h))
	case path == "/sitemaps/pages-1.xml" && host.sitemap == sitemapIndex:
		ids := w.sitemapURLs(h)
		w.write(rw, r, "application/xml", w.urlset(h, ids[:len(ids)/2], now))
	case path == "/sitemaps/pages-2.xml.gz" && host.sitemap == sitemapIndex:
		ids := w.sitemapURLs(h)
		w.write(rw, r, "application/gzip", gzipBytes(w.urlset(h, ids[len(ids)/2:], now)))
	case path == "/feed.rss" && host.feeds:
		w.write(rw, r, "application/rss+xml", w.rss(h, now))
	case path == "/feed.atom" && host.feeds:
		w.write(rw, r, "application/atom+xml", w.atom(h, now))
	case strings.HasPrefix(path, "/calendar/") && f.Calendar:
		w.calendar(rw, r, path)
	case strings.HasPrefix(path, "/repeat/") && f.DeepPaths:
		if strings.Trim(strings.ReplaceAll(path[len("/repeat/"):], "again/", ""), "/") != "" || !strings.HasSuffix(path, "/") {
			http.NotFound(rw, r)
			return
		}
		w.write(rw, r, "text/html; charset=utf-8", []byte("<!DOCTYPE html>\n<html><head><title>Repeat</title></head><body>"+
			"<p><a href=\"again/\">Again</a> <a href=\"/\">Home</a></p></body></html>\n"))
	case (path == "/lost" || strings.HasPrefix(path, "/lost/")) && f.Soft404:
		w.write(rw, r, "text/html; charset=utf-8", soft404Page)
	case strings.HasPrefix(path, "/refresh/") && f.MetaRefresh:
		n, err := strconv.Atoi(path[len("/refresh/"):])
		if err != nil || n < 1 || strconv.Itoa(n) != path[len("/refresh/"):] {
			http.NotFound(rw, r)
			return
		}
		step := strconv.Itoa(n)
		w.write(rw, r, "text/html; charset=utf-8", []byte("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"+
			"<meta http-equiv=\"refresh\" content=\"0; url=/refresh/"+strconv.Itoa(n+1)+"\"><title>Step "+step+
			"</title></head><body><p>Please wait, step "+step+" of your visit is loading.</p></body></html>\n"))
	case strings.HasPrefix(path, "/redirect/") && f.RedirectChain > 0:
		w.redirectChain(rw, r, h, path)
	case path == "/redirect-loop/a" && f.RedirectLoop:
		http.Redirect(rw, r, "/redirect-loop/b", http.StatusFound)
	case path == "/redirect-loop/b" && f.RedirectLoop:
		http.Redirect(rw, r, "http://"+host.authority+"/redirect-loop/a", http.StatusFound)
	case strings.HasPrefix(path, constructsIndex) && w.opts.LinkConstructs:
		w.serveConstruct(rw, r, h, path, query)
	case strings.HasPrefix(path, "/fault/"):
		w.fault(rw, r, h, path[len("/fault/"):])
	default:
		id, ok := w.pageID(h, path)
		if !ok {
			http.NotFound(rw, r)
			return
		}
		var sid string
		if query != "" {
			sid = strings.TrimPrefix(query, "sid=")
			if !f.SessionIDs || len(sid) == len(query) || sid == "" {
				http.NotFound(rw, r)
				return
			}
		}
		w.servePage(rw, r, h, id, sid, now)
	}
}

// cleanPath removes dot segments, keeping a trailing slash.
func cleanPath(p string) string {
	if !strings.Contains(p, "/.") {
		return p
	}
	return removeDotSegments(p)
}

// write answers 200 with body.
func (w *Web) write(rw http.ResponseWriter, r *http.Request, contentType string, body []byte) {
	rw.Header().Set("Content-Type", contentType)
	rw.Header().Set("Content-Length", strconv.Itoa(len(body)))
	rw.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		rw.Write(body)
	}
}

func (w *Web) servePage(rw http.ResponseWriter, r *http.Request, h, id int, sid string, now time.Time) {
	d := w.build(h, id, sid, now, true)
	hdr := rw.Header()
	_, lm := w.version(w.changeSource(d.p), now)
	lm = lm.Truncate(time.Second)
	hdr.Set("Last-Modified", lm.UTC().Format(http.TimeFormat))
	if sid == "" {
		etag := w.etag(d)
		hdr.Set("ETag", etag)
		if inm := r.Header.Get("If-None-Match"); inm != "" {
			if etagMatch(inm, etag) {
				rw.WriteHeader(http.StatusNotModified)
				return
			}
		} else if ims, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil && !lm.After(ims) {
			rw.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if d.c.xRobots != "" {
		hdr.Set("X-Robots-Tag", d.c.xRobots)
	}
	buf := w.bufs.Get().(*bytes.Buffer)
	buf.Reset()
	w.write(rw, r, contentType(d.c), w.renderTo(buf, d))
	w.bufs.Put(buf)
}

// etagMatch implements the weak comparison of If-None-Match (RFC 9110
// §13.1.2).
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

func (w *Web) calendar(rw *recorder, r *http.Request, path string) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) != 3 || !strings.HasSuffix(path, "/") {
		http.NotFound(rw, r)
		return
	}
	y, err1 := strconv.Atoi(parts[1])
	m, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || y < 1 || y > 9999 || m < 1 || m > 12 || len(parts[2]) != 2 {
		http.NotFound(rw, r)
		return
	}
	t := time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC)
	month := func(t time.Time) string { return "/calendar/" + strconv.Itoa(t.Year()) + "/" + t.Format("01") + "/" }
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Events in " + t.Format("January") + " " + strconv.Itoa(y) +
		"</title></head><body><h1>Events</h1><p>No events this month.</p>\n")
	if y > 1 || m > 1 {
		b.WriteString("<a href=\"" + month(t.AddDate(0, -1, 0)) + "\">Previous month</a>\n")
	}
	if y < 9999 || m < 12 {
		b.WriteString("<a href=\"" + month(t.AddDate(0, 1, 0)) + "\">Next month</a>\n")
	}
	b.WriteString("</body></html>\n")
	w.write(rw, r, "text/html; charset=utf-8", []byte(b.String()))
}

var redirectCodes = [...]int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect}

func (w *Web) redirectChain(rw *recorder, r *http.Request, h int, path string) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) != 3 {
		http.NotFound(rw, r)
		return
	}
	n, err1 := strconv.Atoi(parts[1])
	id, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || n < 1 || n > w.opts.Faults.RedirectChain || id < 0 || id >= w.opts.PagesPerHost {
		http.NotFound(rw, r)
		return
	}
	code := redirectCodes[(w.opts.Faults.RedirectChain-n)%len(redirectCodes)]
	var loc string
	switch {
	case n == 1:
		loc = w.pageURL(h, id)
	case n%2 == 0:
		loc = "/redirect/" + strconv.Itoa(n-1) + "/" + parts[2]
	default:
		loc = "http://" + w.hosts[h].authority + "/redirect/" + strconv.Itoa(n-1) + "/" + parts[2]
	}
	http.Redirect(rw, r, loc, code)
}

// wait blocks for d, or until the request ends or the web closes. It
// reports whether the full time passed.
func (w *Web) wait(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-w.done:
	}
	return false
}

func (w *Web) stopped(r *http.Request) bool {
	select {
	case <-r.Context().Done():
		return true
	case <-w.done:
		return true
	default:
		return false
	}
}

// soft404Page is what every path under /lost/ answers with Faults.Soft404.
var soft404Page = []byte("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Page not found</title></head><body>" +
	"<h1>Sorry, we could not find that page</h1><p>The page you were looking for may have moved. " +
	"Try one of these instead:</p><ul><li><a href=\"old/\">Older pages</a></li><li><a href=\"media/new/\">New media</a></li>" +
	"<li><a href=\"index.html\">Index</a></li><li><a href=\"/\">Home</a></li></ul></body></html>\n")

// trickle answers 200 with body, one byte every interval, until the body
// is sent, the client goes away or the web is closed.
func (w *Web) trickle(rw *recorder, r *http.Request, body []byte, interval time.Duration) {
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.Header().Set("Content-Length", strconv.Itoa(len(body)))
	rw.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	rc := http.NewResponseController(rw)
	for i := range body {
		if _, err := rw.Write(body[i : i+1]); err != nil {
			return
		}
		if rc.Flush() != nil || !w.wait(r, interval) {
			return
		}
	}
}

var fillChunk = bytes.Repeat([]byte("<p>All work and no play makes a dull crawler.</p>\n"), 640)

func (w *Web) fault(rw *recorder, r *http.Request, h int, name string) {
	f := &w.opts.Faults
	hdr := rw.Header()
	switch {
	case name == "slow" && f.Slow > 0:
		if w.wait(r, f.Slow) {
			w.write(rw, r, "text/html; charset=utf-8", smallPage("Slow"))
		} else {
			rw.none = true
		}
	case name == "hang" && f.Hang:
		rw.none = true
		w.wait(r, 1<<62)
	case name == "reset" && f.Reset:
		rw.none = true
		conn, _, err := http.NewResponseController(rw).Hijack()
		if err != nil {
			return
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.SetLinger(0)
		}
		conn.Close()
	case (name == "500" || name == "502" || name == "503") && f.ServerErrors:
		code, _ := strconv.Atoi(name)
		if code == http.StatusServiceUnavailable {
			hdr.Set("Retry-After", "1")
		}
		http.Error(rw, http.StatusText(code), code)
	case name == "429" && f.TooManyRequests:
		w.mu.Lock()
		w.tooMany[h]++
		first := w.tooMany[h] == 1
		w.mu.Unlock()
		if first {
			hdr.Set("Retry-After", "1")
			http.Error(rw, "slow down", http.StatusTooManyRequests)
			return
		}
		w.write(rw, r, "text/html; charset=utf-8", smallPage("Thanks for waiting"))
	case name == "endless" && f.EndlessBody:
		hdr.Set("Content-Type", "text/html; charset=utf-8")
		rw.WriteHeader(http.StatusOK)
		if r.Method == http.MethodHead {
			return
		}
		rw.Write([]byte("<!DOCTYPE html>\n<html><head><title>Endless</title></head><body>\n"))
		for !w.stopped(r) {
			if _, err := rw.Write(fillChunk); err != nil {
				return
			}
		}
	case name == "huge" && f.HugeBody:
		hdr.Set("Content-Type", "text/html; charset=utf-8")
		hdr.Set("Content-Length", strconv.Itoa(HugeBodySize))
		rw.WriteHeader(http.StatusOK)
		if r.Method == http.MethodHead {
			return
		}
		for left := HugeBodySize; left > 0 && !w.stopped(r); {
			n := min(left, len(fillChunk))
			if _, err := rw.Write(fillChunk[:n]); err != nil {
				return
			}
			left -= n
		}
	case name == "gzip-bomb" && f.GzipBomb:
		member := w.bombMember()
		hdr.Set("Content-Type", "text/html; charset=utf-8")
		hdr.Set("Content-Encoding", "gzip")
		hdr.Set("Content-Length", strconv.Itoa(len(member)*(GzipBombSize>>20)))
		rw.WriteHeader(http.StatusOK)
		if r.Method == http.MethodHead {
			return
		}
		for range GzipBombSize >> 20 {
			if _, err := rw.Write(member); err != nil || w.stopped(r) {
				return
			}
		}
	case name == "wrong-type.html" && f.WrongContentType:
		w.write(rw, r, "image/png", smallPage("Not a picture"))
	case name == "binary.html" && f.WrongContentType:
		b := make([]byte, 4096)
		copy(b, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
		for i := 16; i < len(b); i += 8 {
			x := w.hash(saltPage, h, i, 99)
			for k := range 8 {
				b[i+k] = byte(x >> (8 * k))
			}
		}
		w.write(rw, r, "text/html; charset=utf-8", b)
	default:
		http.NotFound(rw, r)
	}
}

// bombMember returns one gzip member that inflates to 1 MiB of spaces;
// the bomb is that member repeated (a multi-member gzip stream).
func (w *Web) bombMember() []byte {
	w.bombMu.Lock()
	defer w.bombMu.Unlock()
	if w.bomb == nil {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(bytes.Repeat([]byte{' '}, 1<<20))
		zw.Close()
		w.bomb = buf.Bytes()
	}
	return w.bomb
}
