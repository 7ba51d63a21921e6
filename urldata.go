package trawl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/trawl-dev/trawl/frontier"
)

// urlData is what the crawler knows about a queued URL besides what
// frontier.Request has fields for: the metadata it was queued with
// (Page.Meta), whether it is a sitemap, what a sitemap said of it, and
// whether its HEAD probe was sent. It travels with the URL in
// frontier.Request.Data, so it survives a restart with a persistent
// frontier and reaches the agent that owns the URL in a cluster; nothing
// about a URL is kept in a map of the crawler's. A URL with none of it has
// no Data, and costs the frontier nothing.
type urlData struct {
	meta    map[string]string
	sitemap uint8        // 0; 1: queued as a sitemap; 2: listed by a sitemap index
	info    *SitemapInfo // what a sitemap said of the URL, nil if nothing
	getNext bool         // its revisit's HEAD probe was sent: the GET is due
	// scope is, for a sitemap a host's robots.txt named, that host's
	// origin ("https://a.test"): the sitemap may list any URL of it
	// (sitemaps.org's cross-submission). "" for other sitemaps, which may
	// list only URLs under their own directory.
	scope string
	// guessed marks a sitemap queued as the host's /sitemap.xml because
	// its robots.txt named none: a 404 or 410 there is an answer, not an
	// error.
	guessed bool
}

// The encoding: a version byte, a flags byte, then the parts the flags
// announce: the sitemap information (lastmod in Unix seconds as a varint,
// priority in thousandths as a varint, -1 for none, changefreq as a byte
// index into changeFreqs), the scope (a length and bytes) and the metadata
// (a count, then each key and value as a length and bytes, keys in sorted
// order).
const (
	dataVersion = 1

	flagSitemap      = 1 << 0
	flagSitemapIndex = 1 << 1
	flagInfo         = 1 << 2
	flagMeta         = 1 << 3
	flagGetNext      = 1 << 4
	flagScope        = 1 << 5
	flagGuessed      = 1 << 6
)

var changeFreqs = [...]string{"", "always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}

// errMetaTooLarge is returned for metadata that does not fit
// frontier.MaxData once encoded.
var errMetaTooLarge = fmt.Errorf("trawl: metadata larger than %d bytes encoded", frontier.MaxData)

func (d *urlData) empty() bool {
	return len(d.meta) == 0 && d.sitemap == 0 && d.info == nil && !d.getNext && d.scope == "" && !d.guessed
}

// encode returns d's encoding, nil for an empty d.
func (d *urlData) encode() ([]byte, error) {
	if d.empty() {
		return nil, nil
	}
	var flags byte
	switch d.sitemap {
	case 1:
		flags |= flagSitemap
	case 2:
		flags |= flagSitemapIndex
	}
	if d.info != nil {
		flags |= flagInfo
	}
	if len(d.meta) > 0 {
		flags |= flagMeta
	}
	if d.getNext {
		flags |= flagGetNext
	}
	if d.scope != "" {
		flags |= flagScope
	}
	if d.guessed {
		flags |= flagGuessed
	}
	b := []byte{dataVersion, flags}
	if in := d.info; in != nil {
		var lastMod int64
		if !in.LastMod.IsZero() {
			lastMod = in.LastMod.Unix()
		}
		prio := int64(-1)
		if in.Priority >= 0 {
			prio = int64(in.Priority*1000 + 0.5)
		}
		b = binary.AppendVarint(b, lastMod)
		b = binary.AppendVarint(b, prio)
		b = append(b, byte(max(slices.Index(changeFreqs[:], in.ChangeFreq), 0)))
	}
	if d.scope != "" {
		b = appendString(b, d.scope)
	}
	if len(d.meta) > 0 {
		b = binary.AppendUvarint(b, uint64(len(d.meta)))
		for _, k := range slices.Sorted(maps.Keys(d.meta)) {
			b = appendString(b, k)
			b = appendString(b, d.meta[k])
		}
	}
	if len(b) > frontier.MaxData {
		return nil, errMetaTooLarge
	}
	return b, nil
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

var errBadData = errors.New("trawl: unreadable URL data")

// decodeURLData decodes what encode wrote; nil gives an empty urlData.
func decodeURLData(b []byte) (urlData, error) {
	var d urlData
	if len(b) == 0 {
		return d, nil
	}
	if len(b) < 2 || b[0] != dataVersion {
		return d, errBadData
	}
	flags, r := b[1], b[2:]
	switch {
	case flags&flagSitemapIndex != 0:
		d.sitemap = 2
	case flags&flagSitemap != 0:
		d.sitemap = 1
	}
	d.getNext = flags&flagGetNext != 0
	d.guessed = flags&flagGuessed != 0
	if flags&flagInfo != 0 {
		var ok bool
		if d.info, r, ok = decodeInfo(r); !ok {
			return urlData{}, errBadData
		}
	}
	if flags&flagScope != 0 {
		var ok bool
		if d.scope, r, ok = readString(r); !ok {
			return urlData{}, errBadData
		}
	}
	if flags&flagMeta != 0 {
		count, n := binary.Uvarint(r)
		if n <= 0 || count > uint64(len(r)) {
			return d, errBadData
		}
		r = r[n:]
		d.meta = make(map[string]string, count)
		for range count {
			var k, v string
			var ok bool
			if k, r, ok = readString(r); !ok {
				return urlData{}, errBadData
			}
			if v, r, ok = readString(r); !ok {
				return urlData{}, errBadData
			}
			d.meta[k] = v
		}
	}
	return d, nil
}

// decodeInfo decodes the sitemap information at the start of b and
// returns the rest.
func decodeInfo(b []byte) (*SitemapInfo, []byte, bool) {
	lastMod, n := binary.Varint(b)
	if n <= 0 {
		return nil, nil, false
	}
	b = b[n:]
	prio, n := binary.Varint(b)
	if n <= 0 || len(b) < n+1 || int(b[n]) >= len(changeFreqs) {
		return nil, nil, false
	}
	in := &SitemapInfo{ChangeFreq: changeFreqs[b[n]], Priority: -1}
	if lastMod != 0 {
		in.LastMod = time.Unix(lastMod, 0).UTC()
	}
	if prio >= 0 {
		in.Priority = float64(prio) / 1000
	}
	return in, b[n+1:], true
}

func readString(b []byte) (string, []byte, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return "", nil, false
	}
	return string(b[k : k+int(n)]), b[k+int(n):], true
}
