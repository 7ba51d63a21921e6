package urlnorm

import (
	"fmt"
	"net/url"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// Resolve resolves ref against base the way browsers do (WHATWG URL Standard).
// A nil base means ref must be absolute.
func Resolve(base *url.URL, ref string) (*url.URL, error) {
	var (
		w   *whatwg.Url
		err error
	)
	if base == nil {
		w, err = whatwg.Parse(ref)
	} else {
		w, err = whatwg.ParseRef(base.String(), ref)
	}
	if err != nil {
		return nil, fmt.Errorf("urlnorm: resolve %q: %w", ref, err)
	}
	u, err := url.Parse(w.Href(false))
	if err != nil {
		return nil, fmt.Errorf("urlnorm: resolve %q: %w", ref, err)
	}
	return u, nil
}
