package trawl

import (
	"net/url"
	"path"
	"regexp"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/trawl-dev/trawl/urlnorm"
)

// Filter decides whether a discovered URL is queued. Filters see every seed
// and every followed link, after normalization and before the frontier's
// duplicate elimination. Allow must be safe for concurrent use and fast: it
// runs once per extracted link. The Candidate is valid only during the call
// (the crawler reuses it for the next link): keep a copy, not the pointer.
type Filter interface {
	Allow(r *Candidate) bool
}

// FilterFunc adapts a function to a Filter.
type FilterFunc func(r *Candidate) bool

// Allow calls f(r).
func (f FilterFunc) Allow(r *Candidate) bool { return f(r) }

// All allows a URL that every filter allows (true for no filters).
func All(fs ...Filter) Filter {
	fs = append([]Filter(nil), fs...)
	return NamedFilter("All("+filterNames(fs)+")", FilterFunc(func(r *Candidate) bool {
		for _, f := range fs {
			if !f.Allow(r) {
				return false
			}
		}
		return true
	}))
}

// Any allows a URL that at least one filter allows (false for no filters).
func Any(fs ...Filter) Filter {
	fs = append([]Filter(nil), fs...)
	return NamedFilter("Any("+filterNames(fs)+")", FilterFunc(func(r *Candidate) bool {
		for _, f := range fs {
			if f.Allow(r) {
				return true
			}
		}
		return false
	}))
}

// Not allows what f rejects.
func Not(f Filter) Filter {
	return NamedFilter("Not("+filterNames([]Filter{f})+")", FilterFunc(func(r *Candidate) bool { return !f.Allow(r) }))
}

// parseSeeds parses and normalizes seed URLs for the filters below; invalid
// seeds are ignored here (New reports them).
func parseSeeds(seeds []string) []*url.URL {
	var out []*url.URL
	for _, s := range seeds {
		n, err := urlnorm.Normalize(s)
		if err != nil {
			continue
		}
		if u, err := url.Parse(n); err == nil {
			out = append(out, u)
		}
	}
	return out
}

// SameHost allows URLs whose host (and port) is one of the seeds' hosts.
// The scheme may differ: http://a/ and https://a/ are the same site.
func SameHost(seeds ...string) Filter {
	hosts := make(map[string]bool)
	for _, u := range parseSeeds(seeds) {
		hosts[urlnorm.Key(u)] = true
	}
	return NamedFilter("SameHost", FilterFunc(func(r *Candidate) bool { return hosts[urlnorm.Key(r.URL)] }))
}

// SameDomain allows URLs whose registrable domain (eTLD+1, from the public
// suffix list) is one of the seeds': a seed http://www.example.co.uk/ allows
// http://news.example.co.uk/. Hosts that are IP addresses or have no public
// suffix are compared whole.
func SameDomain(seeds ...string) Filter {
	domains := make(map[string]bool)
	for _, u := range parseSeeds(seeds) {
		domains[registrable(u.Hostname())] = true
	}
	return NamedFilter("SameDomain", FilterFunc(func(r *Candidate) bool { return domains[registrable(r.URL.Hostname())] }))
}

func registrable(host string) string {
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return d
}

// UnderPath allows URLs under a seed's directory, on the seed's scheme and
// host: the seed http://a/b/c.html allows http://a/b/ and everything below
// it, such as http://a/b/d/e.html, but not http://a/bc or http://a/.
func UnderPath(seeds ...string) Filter {
	var prefixes []string
	for _, u := range parseSeeds(seeds) {
		dir := u.EscapedPath()
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			dir = dir[:i+1]
		} else {
			dir = "/"
		}
		prefixes = append(prefixes, u.Scheme+"://"+u.Host+dir)
	}
	return NamedFilter("UnderPath", FilterFunc(func(r *Candidate) bool {
		s := r.URL.String()
		for _, p := range prefixes {
			if strings.HasPrefix(s, p) {
				return true
			}
		}
		return false
	}))
}

// MatchURL allows URLs that match at least one of the regular expressions.
// Combine with Not to deny: Not(MatchURL(re)).
func MatchURL(res ...*regexp.Regexp) Filter {
	res = append([]*regexp.Regexp(nil), res...)
	pats := make([]string, len(res))
	for i, re := range res {
		pats[i] = "`" + re.String() + "`"
	}
	return NamedFilter("MatchURL("+strings.Join(pats, ", ")+")", FilterFunc(func(r *Candidate) bool {
		s := r.URL.String()
		for _, re := range res {
			if re.MatchString(s) {
				return true
			}
		}
		return false
	}))
}

// BinaryExtensions are the file extensions SkipExtensions skips by default:
// images, audio, video, archives, executables, fonts and office documents.
func BinaryExtensions() []string {
	return []string{
		".gif", ".jpg", ".jpeg", ".png", ".bmp", ".ico", ".svg", ".webp", ".tif", ".tiff", ".psd",
		".mp3", ".wav", ".ogg", ".flac", ".m4a", ".aac",
		".mp4", ".avi", ".mov", ".mkv", ".webm", ".wmv", ".flv", ".mpg", ".mpeg",
		".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".tar", ".iso", ".dmg",
		".exe", ".msi", ".bin", ".deb", ".rpm", ".apk", ".jar",
		".pdf", ".ps", ".eps", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt",
		".woff", ".woff2", ".ttf", ".otf", ".eot", ".css", ".js",
	}
}

// SkipExtensions rejects URLs whose path ends in one of exts (compared
// case-insensitively; include the dot). With no arguments it uses
// BinaryExtensions().
func SkipExtensions(exts ...string) Filter {
	if len(exts) == 0 {
		exts = BinaryExtensions()
	}
	set := make(map[string]bool, len(exts))
	for _, e := range exts {
		set[strings.ToLower(e)] = true
	}
	return NamedFilter("SkipExtensions", FilterFunc(func(r *Candidate) bool {
		ext := path.Ext(r.URL.Path)
		return ext == "" || !set[strings.ToLower(ext)]
	}))
}
