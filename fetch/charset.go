package fetch

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/internal/ascii"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// determineEncoding returns what golang.org/x/net/html/charset's
// DetermineEncoding returns for body and contentType, with the same steps
// (byte order mark, the Content-Type's charset, a <meta> in the first 1024
// bytes, UTF-8 if those bytes are valid UTF-8 beyond ASCII, else
// windows-1252) but a faster <meta> prescan: x/net's runs its HTML
// tokenizer over the first KiB (a byte at a time, a map and copies per
// tag), 3 % of the CPU of a crawl of the PostgreSQL manual; [prescan]
// walks the bytes. Where prescan is not sure to read the bytes as x/net's
// tokenizer does, it says so and x/net's DetermineEncoding answers.
func determineEncoding(body []byte, contentType string) (e encoding.Encoding, name string, certain bool) {
	content := body
	if len(content) > 1024 {
		content = content[:1024]
	}
	switch {
	case bytes.HasPrefix(content, []byte{0xfe, 0xff}):
		e, name = charset.Lookup("utf-16be")
		return e, name, true
	case bytes.HasPrefix(content, []byte{0xff, 0xfe}):
		e, name = charset.Lookup("utf-16le")
		return e, name, true
	case bytes.HasPrefix(content, []byte{0xef, 0xbb, 0xbf}):
		e, name = charset.Lookup("utf-8")
		return e, name, true
	}
	// A media type without ';' has no parameters: no need to parse it.
	if strings.IndexByte(contentType, ';') >= 0 {
		if _, params, err := mime.ParseMediaType(contentType); err == nil {
			if cs, ok := params["charset"]; ok {
				if e, name = charset.Lookup(cs); e != nil {
					return e, name, true
				}
			}
		}
	}
	if len(content) > 0 {
		var sure bool
		e, name, sure = prescan(content)
		if !sure {
			return charset.DetermineEncoding(body, contentType)
		}
		if e != nil {
			return e, name, false
		}
	}
	// Try to detect UTF-8, as x/net does: without a partial rune at the end.
	for i := len(content) - 1; i >= 0 && i > len(content)-4; i-- {
		b := content[i]
		if b < 0x80 {
			break
		}
		if utf8.RuneStart(b) {
			content = content[:i]
			break
		}
	}
	if hasHighBit(content) && utf8.Valid(content) {
		return encoding.Nop, "utf-8", false
	}
	return charmap.Windows1252, "windows-1252", false
}

// prescan looks for a <meta> that declares the encoding of a document
// whose first bytes are b, and returns it as golang.org/x/net/html/charset's
// prescan does: the first <meta> start tag, as x/net/html's Tokenizer reads
// the bytes (comments, doctypes, bogus comments, the raw text of script,
// style, title, textarea and the others, quoted and unquoted attribute
// values, a tag cut by the end of b being no tag), with a charset
// attribute, or an http-equiv of content-type and a content naming a
// charset, that names an encoding; UTF-16 read as UTF-8. The first of
// duplicate attributes counts.
//
// It is the byte-level prescan of the WHATWG encoding sniffing algorithm
// ("prescan a byte stream to determine its encoding") adapted to x/net's
// answers, which follow the tokenizer rather than the standard (a <meta>
// inside a <script> or a <title> is text to both). Where matching x/net
// would take more than walking bytes, sure is false and the caller asks
// x/net: a <meta> with '&' (a character reference, which x/net decodes),
// '\r' or NUL in it, or a script whose text has "<!--" before its end tag
// (the escaped script states).
func prescan(b []byte) (e encoding.Encoding, name string, sure bool) {
	i := 0
	for {
		lt := bytes.IndexByte(b[i:], '<')
		if lt < 0 || i+lt+1 >= len(b) {
			return nil, "", true // text to the end
		}
		i += lt + 1
		c := b[i]
		switch {
		case isASCIILetter(c):
			end, ok := scanTag(b, i)
			if !ok {
				return nil, "", true // the tag runs to the end: an error token
			}
			nameEnd := i
			for nameEnd < end && !isTagNameEnd(b[nameEnd]) {
				nameEnd++
			}
			tagName := b[i:nameEnd]
			if ascii.EqualFold(tagName, "meta") {
				e, name, found, sure := metaCharset(b[i-1 : end+1])
				if !sure {
					return nil, "", false
				}
				if found {
					return e, name, true
				}
			}
			i = end + 1
			if raw := rawElement(tagName); raw != "" {
				if raw == "plaintext" {
					return nil, "", true
				}
				j := rawEnd(b, i, raw)
				if j < 0 {
					return nil, "", true // text to the end
				}
				if raw == "script" && bytes.Contains(b[i:j], []byte("<!--")) {
					return nil, "", false
				}
				i = j
			}
		case c == '/':
			if i+1 >= len(b) {
				return nil, "", true // "</" at the end: text
			}
			switch c := b[i+1]; {
			case c == '>':
				i += 2 // "</>"
			case isASCIILetter(c):
				end, ok := scanTag(b, i+1)
				if !ok {
					return nil, "", true
				}
				i = end + 1
			default:
				gt := bytes.IndexByte(b[i+1:], '>')
				if gt < 0 {
					return nil, "", true
				}
				i += 1 + gt + 1
			}
		case c == '!':
			if i+2 < len(b) && b[i+1] == '-' && b[i+2] == '-' {
				end, ok := commentEnd(b, i+3)
				if !ok {
					return nil, "", true
				}
				i = end
				break
			}
			// A doctype or a bogus comment: to the next '>'.
			gt := bytes.IndexByte(b[i+1:], '>')
			if gt < 0 {
				return nil, "", true
			}
			i += 1 + gt + 1
		case c == '?':
			gt := bytes.IndexByte(b[i:], '>')
			if gt < 0 {
				return nil, "", true
			}
			i += gt + 1
		default:
			// '<' then anything else is text; c is read again.
		}
	}
}

// scanTag reads a start or end tag whose name starts at b[i], as
// x/net/html's readTag does, and returns the index of its closing '>' and
// whether there is one (a tag cut by the end of b is an error token).
// The tag's name ends at the first whitespace, '/' or '>'.
func scanTag(b []byte, i int) (end int, ok bool) {
	// The name.
	for ; i < len(b); i++ {
		c := b[i]
		if isSpace(c) {
			i++
			break
		}
		if c == '/' || c == '>' {
			break
		}
	}
	i = skipSpace(b, i)
	for {
		if i >= len(b) {
			return 0, false
		}
		if b[i] == '>' {
			return i, true
		}
		// The attribute's key: an '=' first is part of it.
		k := i
		for ; i < len(b); i++ {
			c := b[i]
			if c == '=' && i == k {
				continue
			}
			if c == '=' || c == '/' || c == '>' || isSpace(c) {
				break
			}
		}
		// Its value.
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case '/':
			i++
		case '=':
			i = skipSpace(b, i+1)
			if i >= len(b) {
				return 0, false
			}
			switch q := b[i]; q {
			case '>':
			case '\'', '"':
				j := bytes.IndexByte(b[i+1:], q)
				if j < 0 {
					return 0, false
				}
				i += 1 + j + 1
			default:
				for ; i < len(b); i++ {
					if c := b[i]; isSpace(c) {
						i++
						break
					} else if c == '>' {
						break
					}
				}
			}
		}
		i = skipSpace(b, i)
	}
}

// metaCharset reads the attributes of a <meta> tag (tag is "<meta ...>")
// as x/net/html/charset's prescan does, and returns the encoding it
// declares, if it does. sure is false when the tag has a byte that x/net
// would change in a value ('&', '\r', NUL).
func metaCharset(tag []byte) (e encoding.Encoding, name string, found, sure bool) {
	if bytes.IndexByte(tag, '&') >= 0 || bytes.IndexByte(tag, '\r') >= 0 || bytes.IndexByte(tag, 0) >= 0 {
		return nil, "", false, false
	}
	const (
		dontKnow = iota
		doNeedPragma
		doNotNeedPragma
	)
	needPragma, gotPragma := dontKnow, false
	var seen [3]bool // http-equiv, content, charset: later duplicates are dropped
	var lower [64]byte
	forEachAttr(tag, func(key, val []byte) {
		var k int
		switch {
		case ascii.EqualFold(key, "http-equiv"):
			k = 0
		case ascii.EqualFold(key, "content"):
			k = 1
		case ascii.EqualFold(key, "charset"):
			k = 2
		default:
			return
		}
		if seen[k] {
			return
		}
		seen[k] = true
		v := append(lower[:0], val...)
		for i, c := range v {
			if 'A' <= c && c <= 'Z' {
				v[i] = c + 0x20
			}
		}
		switch k {
		case 0:
			if string(v) == "content-type" {
				gotPragma = true
			}
		case 1:
			if e == nil {
				name = fromMetaElement(string(v))
				if name != "" {
					e, name = charset.Lookup(name)
					if e != nil {
						needPragma = doNeedPragma
					}
				}
			}
		case 2:
			e, name = charset.Lookup(string(v))
			needPragma = doNotNeedPragma
		}
	})
	if needPragma == dontKnow || needPragma == doNeedPragma && !gotPragma {
		return nil, "", false, true
	}
	if strings.HasPrefix(name, "utf-16") {
		name = "utf-8"
		e = encoding.Nop
	}
	return e, name, e != nil, true
}

// forEachAttr calls fn with the key and value of each attribute of the
// complete tag "<name ...>", as x/net/html's Tokenizer reads them
// (values unquoted, not unescaped), skipping attributes with no key.
func forEachAttr(tag []byte, fn func(key, val []byte)) {
	i := 1
	for ; i < len(tag); i++ {
		c := tag[i]
		if isSpace(c) {
			i++
			break
		}
		if c == '/' || c == '>' {
			break
		}
	}
	i = skipSpace(tag, i)
	for i < len(tag) && tag[i] != '>' {
		k := i
		for ; i < len(tag); i++ {
			c := tag[i]
			if c == '=' && i == k {
				continue
			}
			if c == '=' || c == '/' || c == '>' || isSpace(c) {
				break
			}
		}
		key := tag[k:i]
		var val []byte
		i = skipSpace(tag, i)
		switch tag[i] {
		case '/':
			i++
		case '=':
			i = skipSpace(tag, i+1)
			switch q := tag[i]; q {
			case '>':
			case '\'', '"':
				j := bytes.IndexByte(tag[i+1:], q)
				val = tag[i+1 : i+1+j]
				i += 1 + j + 1
			default:
				v := i
				for ; i < len(tag); i++ {
					if c := tag[i]; isSpace(c) {
						val = tag[v:i]
						i++
						break
					} else if c == '>' {
						val = tag[v:i]
						break
					}
				}
			}
		}
		if len(key) > 0 {
			fn(key, val)
		}
		i = skipSpace(tag, i)
	}
}

// fromMetaElement is x/net/html/charset's: the charset named in a <meta>
// content attribute's value, "" for none.
func fromMetaElement(s string) string {
	for s != "" {
		csLoc := strings.Index(s, "charset")
		if csLoc == -1 {
			return ""
		}
		s = s[csLoc+len("charset"):]
		s = strings.TrimLeft(s, " \t\n\f\r")
		if !strings.HasPrefix(s, "=") {
			continue
		}
		s = s[1:]
		s = strings.TrimLeft(s, " \t\n\f\r")
		if s == "" {
			return ""
		}
		if q := s[0]; q == '"' || q == '\'' {
			s = s[1:]
			closeQuote := strings.IndexRune(s, rune(q))
			if closeQuote == -1 {
				return ""
			}
			return s[:closeQuote]
		}
		end := strings.IndexAny(s, "; \t\n\f\r")
		if end == -1 {
			end = len(s)
		}
		return s[:end]
	}
	return ""
}

// rawElement returns the lower-case name of an element whose content
// x/net/html's Tokenizer reads as one text token, or "".
func rawElement(name []byte) string {
	for _, raw := range [...]string{"script", "style", "title", "textarea", "iframe", "noembed", "noframes", "noscript", "plaintext", "xmp"} {
		if ascii.EqualFold(name, raw) {
			return raw
		}
	}
	return ""
}

// rawEnd returns the index of the "</" that ends the raw text of element
// raw starting at b[i]: the first "</" followed by raw's name in any case
// and whitespace, '/' or '>'. It returns -1 if there is none in b.
func rawEnd(b []byte, i int, raw string) int {
	for {
		j := bytes.Index(b[i:], []byte("</"))
		if j < 0 {
			return -1
		}
		j += i
		n := j + 2 + len(raw)
		if n < len(b) && ascii.EqualFold(b[j+2:n], raw) {
			switch b[n] {
			case ' ', '\n', '\r', '\t', '\f', '/', '>':
				return j
			}
		}
		i = j + 1
	}
}

// commentEnd returns the index just past the end of a comment whose text
// starts at b[i] (after "<!--"), as x/net/html's readComment finds it:
// "-->", "--!>", or '>' before any other byte than '-' ("<!-->",
// "<!--->"). ok is false if the comment runs to the end of b.
func commentEnd(b []byte, i int) (end int, ok bool) {
	dashes, beginning := 0, true
	for ; i < len(b); i++ {
		switch b[i] {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return i + 1, true
			}
		case '!':
			if dashes >= 2 {
				i++
				if i >= len(b) {
					return 0, false
				}
				switch b[i] {
				case '>':
					return i + 1, true
				case '-':
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
	return 0, false
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' }

func isTagNameEnd(c byte) bool { return isSpace(c) || c == '/' || c == '>' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}
