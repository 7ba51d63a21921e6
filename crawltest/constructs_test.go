package crawltest

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// The tests below check the ground truth of the link constructs against an
// independent extractor written here from the HTML, CSS and HTTP rules
// (and the kinds of the issue-16 contract), not from the templates.

// ref is a reference found by the test extractor.
type ref struct{ url, kind string }

func (r ref) String() string { return r.kind + " " + r.url }

// parsedRefs collects references resolved against a base, dropping those
// that are not http(s) (javascript:, mailto:, data:, tel:).
type parsedRefs struct {
	t    testing.TB
	refs []ref
	spec bool // in a comment or <noscript>: every reference is speculative
}

func (p *parsedRefs) add(base *url.URL, raw, kind string) {
	p.t.Helper()
	if p.spec {
		kind = "speculative"
	}
	u, err := base.Parse(strings.TrimSpace(raw))
	if err != nil {
		p.t.Errorf("bad reference %q: %v", raw, err)
		return
	}
	if n, ok := normalizeURL(u.String()); ok {
		p.refs = append(p.refs, ref{n, kind})
	}
}

// parseSrcset returns the candidate URLs of a srcset attribute, following
// the HTML standard's parsing algorithm (a URL is a run of non-whitespace;
// trailing commas end it; descriptors run to the next comma outside
// parentheses).
func parseSrcset(s string) []string {
	var out []string
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	i := 0
	for {
		for i < len(s) && (isSpace(s[i]) || s[i] == ',') {
			i++
		}
		if i >= len(s) {
			return out
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		u := s[i:j]
		i = j
		if strings.HasSuffix(u, ",") {
			out = append(out, strings.TrimRight(u, ","))
			continue
		}
		out = append(out, u)
		depth := 0
		for i < len(s) {
			c := s[i]
			i++
			if c == '(' {
				depth++
			} else if c == ')' && depth > 0 {
				depth--
			} else if c == ',' && depth == 0 {
				break
			}
		}
	}
}

var (
	cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	cssImport  = regexp.MustCompile(`@import\s+(?:url\(\s*)?(?:"([^"]*)"|'([^']*)'|([^\s"')]+))[^;]*;`)
	cssURL     = regexp.MustCompile(`url\(\s*(?:"([^"]*)"|'([^']*)'|([^\s"')]+))\s*\)`)
	jsString   = regexp.MustCompile(`"([^"\n]*)"|'([^'\n]*)'`)
	jsURL      = regexp.MustCompile(`^(\.\.?/|/|https?://|t/)`)
	textURL    = regexp.MustCompile(`https?://[^\s<>"']+|(?:^|\s)(?:\.\.?/|/)[^\s<>"']+\.html`)
	quoted     = regexp.MustCompile(`"([^"]*)"`)
)

// js adds the URLs of a script: string literals that start like a path
// or URL; "js-post" when the statement around one sends a POST.
func (p *parsedRefs) js(base *url.URL, src string) {
	for _, m := range jsString.FindAllStringSubmatchIndex(src, -1) {
		var v string
		if m[2] >= 0 {
			v = src[m[2]:m[3]]
		} else {
			v = src[m[4]:m[5]]
		}
		if !jsURL.MatchString(v) {
			continue
		}
		start := strings.LastIndexAny(src[:m[0]], ";{}") + 1
		end := strings.IndexByte(src[m[1]:], ';')
		if end < 0 {
			end = len(src) - m[1]
		}
		kind := "script"
		if stmt := src[start : m[1]+end]; strings.Contains(stmt, "POST") || strings.Contains(stmt, "sendBeacon") {
			kind = "js-post"
		}
		p.add(base, v, kind)
	}
}

// text adds the URLs in prose: absolute URLs and paths to .html pages.
func (p *parsedRefs) text(base *url.URL, s string) {
	for _, m := range textURL.FindAllString(s, -1) {
		p.add(base, strings.TrimRight(strings.TrimSpace(m), ".,;"), "speculative")
	}
}

func firstGroup(m []string) string {
	for _, g := range m[1:] {
		if g != "" {
			return g
		}
	}
	return ""
}

// css adds the @import (style) and url() (embed) references of a style
// sheet, ignoring comments.
func (p *parsedRefs) css(base *url.URL, text string) {
	text = cssComment.ReplaceAllString(text, "")
	for _, m := range cssImport.FindAllStringSubmatch(text, -1) {
		p.add(base, firstGroup(m), "style")
	}
	text = cssImport.ReplaceAllString(text, "")
	for _, m := range cssURL.FindAllStringSubmatch(text, -1) {
		p.add(base, firstGroup(m), "embed")
	}
}

// htmlDoc adds the references of an HTML document.
func (p *parsedRefs) htmlDoc(base *url.URL, body string) {
	z := html.NewTokenizer(strings.NewReader(body))
	baseSet := false
	var svg int
	formKind := "form"
	var rawParent string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return
		case html.TextToken:
			switch rawParent {
			case "style":
				p.css(base, string(z.Text()))
			case "script":
				p.js(base, string(z.Text()))
			case "noscript":
				sub := &parsedRefs{t: p.t, spec: true}
				sub.htmlDoc(base, string(z.Text()))
				p.refs = append(p.refs, sub.refs...)
			case "title", "textarea":
			default:
				p.text(base, string(z.Text()))
			}
			continue
		case html.CommentToken:
			if c := z.Token().Data; strings.Contains(c, "<") {
				sub := &parsedRefs{t: p.t, spec: true}
				sub.htmlDoc(base, c)
				p.refs = append(p.refs, sub.refs...)
			} else {
				p.text(base, c)
			}
			continue
		case html.DoctypeToken:
			for _, m := range quoted.FindAllStringSubmatch(string(z.Raw()), -1) {
				if strings.Contains(m[1], "://") || strings.HasSuffix(m[1], ".dtd") {
					p.add(base, m[1], "speculative")
				}
			}
			continue
		case html.EndTagToken:
			rawParent = ""
			switch tok := z.Token(); tok.Data {
			case "svg":
				svg--
			case "form":
				formKind = "form"
			}
			continue
		case html.StartTagToken, html.SelfClosingTagToken:
		default:
			continue
		}
		tok := z.Token()
		rawParent = tok.Data
		attr := func(name string) (string, bool) {
			for _, a := range tok.Attr {
				if a.Key == name {
					return a.Val, true
				}
			}
			return "", false
		}
		each := func(kind string, names ...string) {
			for _, n := range names {
				if v, ok := attr(n); ok {
					p.add(base, v, kind)
				}
			}
		}
		if v, ok := attr("style"); ok {
			p.css(base, v)
		}
		for _, a := range tok.Attr {
			if strings.HasPrefix(a.Key, "on") {
				p.js(base, a.Val)
			}
		}
		if v, ok := attr("data-src"); ok {
			p.add(base, v, "speculative")
		}
		switch tok.Data {
		case "svg":
			if tt == html.StartTagToken {
				svg++
			}
		case "base":
			if v, ok := attr("href"); ok && !baseSet {
				p.add(base, v, "speculative")
				if b, err := base.Parse(v); err == nil {
					base, baseSet = b, true
				}
			}
		case "html":
			each("embed", "manifest")
		case "param":
			if v, _ := attr("value"); strings.ContainsAny(v, "./") {
				p.add(base, v, "speculative")
			}
		case "a":
			if v, _ := attr("href"); strings.HasPrefix(v, "javascript:") {
				p.js(base, v)
				continue
			}
			if svg > 0 {
				each("navigation", "href", "xlink:href")
			} else {
				each("navigation", "href")
			}
			if v, ok := attr("ping"); ok {
				for _, f := range strings.Fields(v) {
					p.add(base, f, "ping")
				}
			}
		case "area":
			each("navigation", "href")
		case "link":
			rel, _ := attr("rel")
			typ, _ := attr("type")
			href, _ := attr("href")
			p.add(base, href, linkKind(rel, typ))
		case "frame":
			each("frame", "src")
		case "iframe":
			each("frame", "src")
			if v, ok := attr("srcdoc"); ok {
				p.htmlDoc(base, v)
			}
		case "img":
			each("embed", "src", "lowsrc", "dynsrc")
			each("navigation", "longdesc")
			if v, ok := attr("srcset"); ok {
				for _, u := range parseSrcset(v) {
					p.add(base, u, "embed")
				}
			}
		case "source":
			each("embed", "src")
			if v, ok := attr("srcset"); ok {
				for _, u := range parseSrcset(v) {
					p.add(base, u, "embed")
				}
			}
		case "audio", "track", "embed":
			each("embed", "src")
		case "video":
			each("embed", "src", "poster")
		case "object":
			each("embed", "data", "codebase")
		case "applet":
			each("embed", "code", "codebase", "archive")
		case "script":
			if svg > 0 {
				each("embed", "src", "href", "xlink:href")
			} else {
				each("embed", "src")
			}
		case "image", "use":
			if svg > 0 {
				each("embed", "href", "xlink:href")
			}
		case "input":
			each("embed", "src")
			each(formKind, "formaction")
		case "button":
			each(formKind, "formaction")
		case "form":
			formKind = "form"
			if m, _ := attr("method"); strings.EqualFold(m, "post") {
				formKind = "form-post"
			}
			each(formKind, "action")
		case "isindex":
			each("form", "action")
		case "blockquote", "q", "del", "ins":
			each("navigation", "cite")
		case "body", "table", "td":
			each("embed", "background")
		case "meta":
			he, _ := attr("http-equiv")
			c, _ := attr("content")
			switch strings.ToLower(he) {
			case "refresh":
				if _, u, ok := strings.Cut(c, "url="); ok {
					p.add(base, u, "redirect")
				}
			case "content-location":
				p.add(base, c, "navigation")
			case "content-security-policy":
				if _, u, ok := strings.Cut(c, "report-uri "); ok {
					p.add(base, u, "speculative")
				}
			case "":
				if jsURL.MatchString(c) {
					p.add(base, c, "speculative")
				}
			}
		}
	}
}

// linkKind is the kind of a <link> or Link header by its rel and type.
func linkKind(rel, typ string) string {
	rels := strings.Fields(strings.ToLower(rel))
	has := func(r string) bool { return slices.Contains(rels, r) }
	switch {
	case has("stylesheet"):
		return "style"
	case has("alternate") && (typ == "application/rss+xml" || typ == "application/atom+xml"):
		return "feed"
	case has("sitemap"):
		return "sitemap"
	case has("icon") || has("preload") || has("prefetch") || has("modulepreload") || has("manifest"):
		return "embed"
	}
	return "navigation"
}

// splitOutside splits s at sep where sep is not inside <…> or "…".
func splitOutside(s string, sep byte) []string {
	var out []string
	angle, quote := false, false
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' && !angle:
			quote = !quote
		case c == '<' && !quote:
			angle = true
		case c == '>' && !quote:
			angle = false
		case c == sep && !angle && !quote:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// headers adds the references of response headers (RFC 8288 Link,
// Refresh, Content-Location, Location of 3xx and 201).
func (p *parsedRefs) headers(base *url.URL, resp *http.Response) {
	for _, field := range resp.Header.Values("Link") {
		for _, lv := range splitOutside(field, ',') {
			parts := splitOutside(lv, ';')
			target := strings.Trim(strings.TrimSpace(parts[0]), "<>")
			var rel, typ string
			for _, param := range parts[1:] {
				k, v, _ := strings.Cut(strings.TrimSpace(param), "=")
				v = strings.Trim(v, `"`)
				switch strings.ToLower(k) {
				case "rel":
					rel = v
				case "type":
					typ = v
				}
			}
			p.add(base, target, linkKind(rel, typ))
		}
	}
	if v := resp.Header.Get("Refresh"); v != "" {
		if _, u, ok := strings.Cut(v, "url="); ok {
			p.add(base, u, "redirect")
		}
	}
	if v := resp.Header.Get("Content-Location"); v != "" {
		p.add(base, v, "redirect")
	}
	if v := resp.Header.Get("Location"); v != "" && (resp.StatusCode/100 == 3 || resp.StatusCode == http.StatusCreated) {
		p.add(base, v, "redirect")
	}
}

// extractRefs returns the references of a response as the test extractor
// finds them, sorted.
func extractRefs(t testing.TB, rawURL string, resp *http.Response, body []byte) []string {
	t.Helper()
	base, _ := url.Parse(rawURL)
	p := &parsedRefs{t: t}
	p.headers(base, resp)
	ct := resp.Header.Get("Content-Type")
	switch {
	case resp.StatusCode/100 == 3 || resp.StatusCode == http.StatusCreated || resp.Header.Get("Link") != "" ||
		resp.Header.Get("Refresh") != "" || resp.Header.Get("Content-Location") != "":
		// A header response: its body references nothing.
	case strings.HasPrefix(ct, "text/html"):
		p.htmlDoc(base, string(body))
	case strings.HasPrefix(ct, "text/css"):
		p.css(base, string(body))
	case ct == "application/javascript":
		p.js(base, string(body))
	}
	var out []string
	for _, r := range p.refs {
		out = append(out, r.String())
	}
	slices.Sort(out)
	return out
}

// truthRefs returns the references written in the served bytes: those a
// script builds (js-only, constant concatenations) are not.
func truthRefs(refs []Reference) []string {
	var out []string
	for _, r := range refs {
		if !r.unwritten {
			out = append(out, ref{r.URL, r.Kind}.String())
		}
	}
	slices.Sort(out)
	return out
}

// minus returns the elements of a not in b, as multisets.
func minus(a, b []string) []string {
	n := map[string]int{}
	for _, s := range b {
		n[s]++
	}
	var out []string
	for _, s := range a {
		if n[s] > 0 {
			n[s]--
		} else {
			out = append(out, s)
		}
	}
	return out
}

var constructKinds = []string{"navigation", "frame", "redirect", "form", "sitemap", "feed", "embed", "style", "ping", "speculative", "script", "form-post", "js-post", "js-only"}

func TestConstructsServedMatchReferences(t *testing.T) {
	for _, opts := range []Options{
		{Hosts: 3, PagesPerHost: 10, LinkConstructs: true},
		{Seed: 5, Hosts: 2, PagesPerHost: 10, LinkConstructs: true, LoopbackIPs: true},
	} {
		w := NewTestWeb(t, &opts)
		constructs := map[string]int{}
		kinds := map[string]int{}
		for h := range w.hosts {
			for _, c := range constructResources {
				u := "http://" + w.hosts[h].authority + c.path
				resp, body := get(t, w.Client(), u)
				want := c.status
				if want == 0 {
					want = http.StatusOK
				}
				if resp.StatusCode != want {
					t.Errorf("GET %s: status %d, want %d", u, resp.StatusCode, want)
				}
				truth := w.References(u)
				if len(truth) == 0 {
					t.Errorf("References(%q) is empty", u)
				}
				got := extractRefs(t, u, resp, body)
				if want := truthRefs(truth); !slices.Equal(got, want) {
					t.Errorf("%s: served but not in References: %q; in References but not served: %q", u, minus(got, want), minus(want, got))
				}
				for _, r := range truth {
					constructs[r.Construct]++
					kinds[r.Kind]++
				}
			}
		}
		for _, k := range constructKinds {
			if kinds[k] == 0 {
				t.Errorf("no reference of kind %q", k)
			}
		}
		for _, c := range []string{
			"a[href]", "area[href]", "a[ping]", "link[rel=alternate]", "link[rel=alternate type=rss]", "link[rel=alternate type=atom]",
			"link[rel=next]", "link[rel=prev]", "link[rel=canonical]", "link[rel=preload]", "link[rel=prefetch]", "link[rel=modulepreload]",
			"link[rel=icon]", "link[rel=shortcut icon]", "link[rel=stylesheet]", "link[rel=manifest]", "link[rel=sitemap]",
			"frame[src]", "iframe[src]", "iframe[srcdoc] a[href]", "iframe[srcdoc] img[src]",
			"img[src]", "img[srcset]", "img[lowsrc]", "img[dynsrc]", "img[longdesc]", "source[src]", "source[srcset]",
			"audio[src]", "video[src]", "track[src]", "video[poster]", "embed[src]", "object[data]", "object[codebase]",
			"applet[code]", "applet[codebase]", "applet[archive]", "script[src]", "input[src]",
			"form[action]", "input[formaction]", "button[formaction]", "isindex[action]",
			"blockquote[cite]", "q[cite]", "del[cite]", "ins[cite]", "body[background]", "table[background]", "td[background]",
			"meta[http-equiv=refresh]", "meta[http-equiv=content-location]",
			"svg image[href]", "svg image[xlink:href]", "svg use[href]", "svg use[xlink:href]", "svg a[href]", "svg a[xlink:href]",
			"svg script[href]", "svg script[xlink:href]", "<style> url()", "<style> @import", `style="" url()`, "css url()", "css @import",
			"Link rel=preload", "Link rel=next", "Link rel=prev", "Link rel=stylesheet", "Link rel=icon", "Link rel=alternate type=atom",
			"Link rel=sitemap", "Refresh", "Content-Location", "Location (302)", "Location (201)", "script text", "onclick",
			"DOCTYPE system identifier", "html[manifest]", "link[rel=import]", "base[href]", "text URL", "text path", "comment URL",
			"comment a[href]", "conditional comment link[href]", "meta[name=msapplication-TileImage]", "meta[property=og:image]",
			"meta[http-equiv=Content-Security-Policy] report-uri", "img[data-src]", "noscript img[src]", "param[value]",
			"script string literal", "script concatenation", "fetch()", "XMLHttpRequest.open GET", "XMLHttpRequest.open POST",
			"fetch() POST", "$.get", "$.ajax POST", "location.href", "window.open", "fetch() of a metadata address",
			"script-built URL", "javascript: URL", ".js string literal", ".js fetch()", ".js sendBeacon",
		} {
			if constructs[c] == 0 {
				t.Errorf("no reference with construct %q", c)
			}
		}
	}
}

// TestConstructsWrongBaseShows checks that the style sheet and the <base>
// page are built so that resolving against the wrong base gives URLs the
// web does not serve.
func TestConstructsWrongBaseShows(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, LinkConstructs: true})
	served := map[string]bool{}
	for _, u := range w.ConstructURLs() {
		served[u] = true
	}
	check := func(resource, wrongBase string) {
		t.Helper()
		c, _ := constructRes(resource)
		_, raws := w.expand(0, c.body)
		wb, _ := url.Parse(wrongBase)
		n := 0
		for _, r := range raws {
			if u, ok := resolveRef(wb, r.ref, c.isHTML()); ok && !strings.HasPrefix(r.ref, "/") && !strings.Contains(r.ref, "//") {
				n++
				if served[u] {
					t.Errorf("%s: %q resolved against %s gives %s, which the web serves", resource, r.ref, wrongBase, u)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no relative references", resource)
		}
	}
	check("/constructs/style.css", "http://h0.test/constructs/pages/css.html")
	check("/constructs/pages/base.html", "http://h0.test/constructs/pages/base.html")
}

// targetTypeWant is the Content-Type each kind of target must answer with,
// written independently of targetTypes.
var targetTypeWant = map[string]string{
	".html": "text/html; charset=utf-8", "/": "text/html; charset=utf-8", ".png": "image/png", ".css": "text/css",
	".js": "application/javascript", ".vtt": "text/vtt", ".mp3": "audio/mpeg", ".mp4": "video/mp4",
	".pdf": "application/pdf", ".class": "application/java-vm", ".jar": "application/java-archive",
	".svg": "image/svg+xml", ".woff": "font/woff", ".woff2": "font/woff2", ".txt": "text/plain; charset=utf-8",
	".webmanifest": "application/manifest+json", ".rss": "application/rss+xml", ".atom": "application/atom+xml",
	".xml": "application/xml", ".json": "application/json", ".dtd": "application/xml-dtd", ".appcache": "text/cache-manifest",
	".swf": "application/x-shockwave-flash",
}

func TestConstructTargets(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 2, PagesPerHost: 10, LinkConstructs: true})
	all := w.ConstructURLs()
	inAll := map[string]bool{}
	for _, u := range all {
		inAll[u] = true
	}
	if !slices.IsSorted(all) || len(all) != 2*(len(constructResources)+len(w.ctargets)) {
		t.Fatalf("ConstructURLs() = %d URLs (sorted: %v), want %d", len(all), slices.IsSorted(all), 2*(len(constructResources)+len(w.ctargets)))
	}
	home := map[string]bool{}
	for _, s := range w.Seeds() {
		home[s] = true
	}
	// Every reference to the web is to a construct URL (so a crawl of the
	// constructs is finite), and no construct URL is disallowed. Two
	// references leave the web: a DOCTYPE's DTD and a script's fetch of a
	// cloud metadata address.
	outside := map[string]bool{}
	for _, u := range all {
		for _, r := range w.References(u) {
			if _, _, ok := w.locate(r.URL); !ok {
				outside[r.URL] = true
				continue
			}
			if !inAll[r.URL] {
				t.Errorf("References(%s) has %s, not in ConstructURLs", u, r.URL)
			}
		}
		if w.Disallowed("polite/1.0", u) {
			t.Errorf("%s is disallowed", u)
		}
	}
	if want := []string{"http://169.254.169.254/latest/meta-data/", "http://www.w3.org/TR/html4/frameset.dtd"}; !slices.Equal(slices.Sorted(maps.Keys(outside)), want) {
		t.Errorf("references outside the web: %v, want %v", slices.Sorted(maps.Keys(outside)), want)
	}
	for _, u := range all {
		_, pq, _ := w.locate(u)
		if !strings.HasPrefix(pq, constructTargetDir) {
			continue
		}
		resp, body := get(t, w.Client(), u)
		pq, _, _ = strings.Cut(pq, "?")
		ext := pq[strings.LastIndexByte(pq, '/'):]
		if i := strings.LastIndexByte(ext, '.'); i >= 0 {
			ext = ext[i:]
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != targetTypeWant[ext] || len(body) == 0 || len(body) > 1024 {
			t.Errorf("GET %s: %d %q, %d bytes; want 200 %q, a small body", u, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), targetTypeWant[ext])
			continue
		}
		switch ext {
		case ".png":
			if _, err := png.Decode(bytes.NewReader(body)); err != nil {
				t.Errorf("GET %s: not a PNG: %v", u, err)
			}
		case ".webmanifest":
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("GET %s: not JSON: %v", u, err)
			}
		case ".rss", ".atom", ".xml", ".svg":
			d := xml.NewDecoder(bytes.NewReader(body))
			for {
				tok, err := d.Token()
				if err != nil {
					if err.Error() != "EOF" {
						t.Errorf("GET %s: bad XML: %v", u, err)
					}
					break
				}
				if cd, ok := tok.(xml.CharData); ok && strings.HasPrefix(string(cd), "http") && !home[string(cd)] {
					t.Errorf("GET %s lists %s, want only the home page", u, cd)
				}
			}
		case ".html", "/":
			if refs := extractRefs(t, u, resp, body); len(refs) > 0 {
				t.Errorf("GET %s: a target references %v", u, refs)
			}
		}
	}
	// Targets answer with any query (a GET form adds one); resources and
	// unknown paths do not.
	for u, want := range map[string]int{
		"http://h0.test/constructs/t/form-get.html?q=crawler":   http.StatusOK,
		"http://h1.test/constructs/t/a-query.html?a=1&b=2":      http.StatusOK,
		"http://h0.test/constructs/t/img,comma-480.png":         http.StatusOK,
		"http://h0.test/constructs/t/nothing.html":              http.StatusNotFound,
		"http://h0.test/constructs/pages/html.html?x=1":         http.StatusNotFound,
		"http://h0.test/constructs/pages/":                      http.StatusNotFound,
		"http://h0.test/constructs/t/style-commented-out.png":   http.StatusNotFound,
		"http://h0.test/constructs/pages/t/sheet-bg.png":        http.StatusNotFound,
		"http://h0.test/constructs/pages/../pages/forms.html":   http.StatusOK,
		"http://h1.test/constructs/t/based/srcdoc-based.html":   http.StatusOK,
		"http://h1.test/constructs/t/applet-codebase/":          http.StatusOK,
		"http://h1.test/constructs/t/hdr-content-location.html": http.StatusOK,
	} {
		if resp, _ := get(t, w.Client(), u); resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", u, resp.StatusCode, want)
		}
	}
}

func TestConstructsRobots(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 8, PagesPerHost: 10, LinkConstructs: true, RobotsVariety: true})
	for _, u := range w.ConstructURLs() {
		h, _, _ := w.locate(u)
		if got, want := w.Disallowed("polite/1.0", u), h == 5; got != want {
			t.Errorf("Disallowed(%s) = %v, want %v (only the host whose robots.txt answers 500)", u, got, want)
		}
	}
}

func TestReferencesDeterministicAndNormalized(t *testing.T) {
	opts := Options{Seed: 9, Hosts: 3, PagesPerHost: 10, LinkConstructs: true}
	a, b := NewTestWeb(t, &opts), NewTestWeb(t, &opts)
	opts.Seed = 10
	c := NewTestWeb(t, &opts)
	if !slices.Equal(a.ConstructURLs(), b.ConstructURLs()) || !slices.Equal(a.ConstructURLs(), c.ConstructURLs()) {
		t.Errorf("ConstructURLs differ between webs of the same hosts")
	}
	for _, u := range a.ConstructURLs() {
		ra := a.References(u)
		if !slices.Equal(ra, b.References(u)) || !slices.Equal(ra, c.References(u)) {
			t.Errorf("References(%s) differs between webs", u)
		}
		for _, r := range ra {
			if n, ok := normalizeURL(r.URL); !ok || n != r.URL {
				t.Errorf("References(%s) has %q, not normalized", u, r.URL)
			}
			if !slices.Contains(constructKinds, r.Kind) || r.Construct == "" {
				t.Errorf("References(%s) has kind %q, construct %q", u, r.Kind, r.Construct)
			}
		}
	}
	// Any form of a URL gives its references; other URLs give none.
	want := a.References("http://h1.test/constructs/pages/html.html")
	if got := a.References("HTTP://H1.TEST:80/constructs/x/../pages/html.html#top"); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("References of a redundant form = %d references, want %d", len(got), len(want))
	}
	for _, u := range []string{a.Seeds()[0], a.Pages()[3], "http://h0.test/constructs/t/a-root.html", "http://example.com/constructs/", "not a URL"} {
		if got := a.References(u); got != nil {
			t.Errorf("References(%q) = %v, want nil", u, got)
		}
	}
	// Ground truth in LoopbackIPs mode names the hosts by address.
	ip := NewTestWeb(t, &Options{Hosts: 2, PagesPerHost: 5, LinkConstructs: true, LoopbackIPs: true})
	s := ip.Seeds()[1]
	for _, r := range ip.References(s + "constructs/pages/html.html") {
		if !strings.HasPrefix(r.URL, strings.TrimSuffix(s, "/")) && !strings.HasPrefix(r.URL, strings.TrimSuffix(ip.Seeds()[0], "/")) {
			t.Errorf("LoopbackIPs: reference %s is not on the web's addresses", r.URL)
		}
	}
}

func TestLinkConstructsOff(t *testing.T) {
	base := Options{Seed: 2, Hosts: 4, PagesPerHost: 40, Now: fixedClock, Epoch: fixedNow,
		RobotsVariety: true, Faults: Faults{MalformedHTML: true, LegacyCharsets: true}}
	on := base
	on.LinkConstructs = true
	woff, won := NewTestWeb(t, &base), NewTestWeb(t, &on)
	for _, ua := range []string{"polite/1.0", "evilbot"} {
		if !slices.Equal(woff.Reachable(ua), won.Reachable(ua)) {
			t.Errorf("Reachable(%q) changes with LinkConstructs", ua)
		}
		do, dn := woff.Depths(ua), won.Depths(ua)
		for u, d := range do {
			if dn[u] != d {
				t.Errorf("Depths(%q)[%s] = %d with LinkConstructs, %d without", ua, u, dn[u], d)
			}
		}
	}
	if !slices.Equal(woff.FaultURLs(), won.FaultURLs()) {
		t.Errorf("FaultURLs changes with LinkConstructs")
	}
	if woff.ConstructURLs() != nil || woff.References("http://h0.test/constructs/") != nil {
		t.Errorf("without LinkConstructs, ConstructURLs or References is not nil")
	}
	for _, u := range []string{"http://h0.test/constructs/", "http://h1.test/constructs/style.css", "http://h1.test/constructs/t/img-src.png", "http://h0.test/constructs/created"} {
		if resp, _ := get(t, woff.Client(), u); resp.StatusCode != http.StatusNotFound {
			t.Errorf("without LinkConstructs, GET %s: %d, want 404", u, resp.StatusCode)
		}
	}
	// Only the home pages differ: by one link to /constructs/, added last.
	for _, u := range woff.Pages() {
		_, b0 := get(t, woff.Client(), u)
		_, b1 := get(t, won.Client(), u)
		isHome := slices.Contains(woff.Seeds(), u)
		link := []byte(`<li><a href="/constructs/">Link constructs</a></li>` + "\n")
		switch {
		case isHome && !bytes.Equal(bytes.Replace(b1, link, nil, 1), b0):
			t.Errorf("home page %s differs by more than the link to /constructs/", u)
		case !isHome && !bytes.Equal(b0, b1):
			t.Errorf("page %s changes with LinkConstructs", u)
		case bytes.Contains(b0, []byte("/constructs/")):
			t.Errorf("page %s links to /constructs/ without LinkConstructs", u)
		}
	}
	// A polite crawler that follows a, area, frame and iframe still finds
	// exactly Reachable, at the same depths, when the constructs are on.
	got := politeCrawl(t, won, "polite/1.0")
	want := won.Depths("polite/1.0")
	if len(got) != len(want) {
		t.Errorf("crawl with LinkConstructs fetched %d pages, want %d", len(got), len(want))
	}
	for u, d := range want {
		if got[u] != d {
			t.Errorf("crawl with LinkConstructs: %s at depth %d, want %d", u, got[u], d)
		}
	}
	fetched := map[string]bool{}
	for _, u := range won.Log().Fetched() {
		fetched[u] = true
	}
	for _, h := range won.Seeds() {
		if !fetched[h+"constructs/"] || !fetched[h+"constructs/t/a-relative.html"] {
			t.Errorf("the crawl did not reach %sconstructs/ and its links", h)
		}
	}
}
