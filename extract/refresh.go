package extract

import "github.com/trawl-dev/trawl/internal/ascii"

// refreshURL returns the URL in the content of a <meta http-equiv=refresh>
// following the HTML standard's "shared declarative refresh steps":
// "5", "5; url=/next", "0;URL='/next'", "3, /next". ok is false when the
// content is malformed or names no URL (a plain reload). The result is a
// subslice of content.
func refreshURL(content []byte) (ref []byte, ok bool) {
	i := 0
	skip := func() {
		for i < len(content) && isSpace(content[i]) {
			i++
		}
	}
	skip()
	start := i
	for i < len(content) && content[i] >= '0' && content[i] <= '9' {
		i++
	}
	if i == start && (i >= len(content) || content[i] != '.') {
		return nil, false
	}
	for i < len(content) && (content[i] >= '0' && content[i] <= '9' || content[i] == '.') {
		i++
	}
	if i < len(content) {
		if c := content[i]; c != ';' && c != ',' && !isSpace(c) {
			return nil, false
		}
	}
	skip()
	if i < len(content) && (content[i] == ';' || content[i] == ',') {
		i++
	}
	skip()
	if i >= len(content) {
		return nil, false
	}
	// Optional "url" ws* "=" ws*.
	if j := i + 3; j <= len(content) && ascii.EqualFold(content[i:j], "url") {
		for j < len(content) && isSpace(content[j]) {
			j++
		}
		if j < len(content) && content[j] == '=' {
			i = j + 1
			skip()
		}
	}
	ref = content[i:]
	if len(ref) > 0 && (ref[0] == '\'' || ref[0] == '"') {
		q := ref[0]
		ref = ref[1:]
		for k, c := range ref {
			if c == q {
				ref = ref[:k]
				break
			}
		}
	}
	return ref, len(ref) > 0
}
