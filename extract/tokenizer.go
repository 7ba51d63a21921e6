package extract

import (
	"bytes"
	"io"

	"github.com/trawl-dev/trawl/internal/ascii"
	"golang.org/x/net/html"
)

// tokenizer splits an HTML document into the tokens of
// golang.org/x/net/html's Tokenizer, with the same boundaries, types and
// raw-text rules (script, style, textarea, title and the other elements
// whose content is one text token), so that the Extractor reads the same
// page either way. It exists for speed: x/net/html's Tokenizer reads its
// input one byte at a time through a method call and copies every
// attribute name of every start tag to deduplicate them, which made it the
// largest single cost of a crawl of small pages (about a quarter of the
// CPU of a crawl of the PostgreSQL manual). This one finds the next '<',
// a closing quote or the end of a raw text element with bytes.IndexByte and
// walks tags in a tight loop over its buffer.
//
// It implements only what the Extractor calls: Next, Raw, Text, TagAttr
// (delegated to an x/net/html Tokenizer over the raw tag, for the rare
// attribute values the Extractor does not decode itself),
// NextIsNotRawText and Err. CDATA sections are read as bogus comments, as
// x/net/html does unless AllowCDATA is set (the Extractor never sets it).
// FuzzTokenizer and TestTokenizerCorpora compare the two token by token on
// generated input and on every real page in the repository's corpora.
//
// Like x/net/html with a bounded buffer, it never holds more than
// MaxTokenLen bytes of one token: a token that needs more ends the scan
// with errTokenTooLong, after a text, raw text or comment token cut at
// that length (as x/net/html returns what it had read when its reader
// fails), or at once for a tag.
type tokenizer struct {
	r       io.Reader
	buf     []byte // buf[start:end] is the current token; bytes after end are read but not scanned
	hint    int    // size of the first read: the reader's Len()+1 if it has one
	max     int    // MaxTokenLen
	readErr error  // the reader's error (io.EOF at the end), once it returned one
	err     error  // the error that ends the token stream
	noProg  int

	start, end   int // the current token's raw bytes
	dStart, dEnd int // its data, for Text
	tt           html.TokenType
	hitEnd       bool   // the scan of the current token ran into the end of what can be read
	rawTag       string // the element whose content the next token is, "" for none
	textIsRaw    bool   // Text does not unescape
	convertNUL   bool   // Text replaces NUL in a text token

	// The start tag's attributes, for the self-closing test: the end of
	// the value of each attribute a Tokenizer would keep (the first of
	// each name, names not empty).
	attrs     []tagAttr
	manyAttrs bool                // attrNames holds the names of attrs
	attrNames map[string]struct{} // for tags of more than manyAttrs attributes

	ht       *html.Tokenizer // TagAttr's tokenizer over the current tag
	htTok    int             // the token ht was made for (tokens counts Next calls)
	tokens   int
	htReader bytes.Reader
}

type tagAttr struct{ keyStart, keyEnd, valEnd int }

// maxKeptBuf is the largest buffer a tokenizer keeps for its next
// document; a longer page's buffer goes to the collector.
const maxKeptBuf = 1 << 20

// reset starts tokenizing r, with tokens of at most max bytes.
func (z *tokenizer) reset(r io.Reader, max int) {
	if cap(z.buf) > maxKeptBuf {
		z.buf = nil
	}
	z.r, z.buf, z.max = r, z.buf[:0], max
	z.hint = 0
	if l, ok := r.(interface{ Len() int }); ok {
		z.hint = l.Len() + 1 // the whole document and the read that says EOF
	}
	z.readErr, z.err, z.noProg = nil, nil, 0
	z.start, z.end, z.dStart, z.dEnd = 0, 0, 0, 0
	z.tt, z.hitEnd, z.rawTag, z.textIsRaw, z.convertNUL = html.ErrorToken, false, "", false, false
	z.ht, z.htTok = nil, -1
}

// Err returns the error that ended the token stream: io.EOF at the end
// of the input, errTokenTooLong, or the reader's error.
func (z *tokenizer) Err() error { return z.err }

// Raw returns the current token's bytes. Text may change them (it
// converts newlines in place, as x/net/html's does).
func (z *tokenizer) Raw() []byte { return z.buf[z.start:z.end] }

// NextIsNotRawText tells the tokenizer that the element just started has
// markup content (it is inside SVG or MathML).
func (z *tokenizer) NextIsNotRawText() { z.rawTag = "" }

// Next scans the next token and returns its type.
func (z *tokenizer) Next() html.TokenType {
	z.tokens++
	z.start = z.end
	z.dStart, z.dEnd = z.end, z.end
	if z.err != nil {
		z.tt = html.ErrorToken
		return z.tt
	}
	for {
		lim, limited := len(z.buf), false
		if lim-z.start >= z.max {
			lim, limited = z.start+z.max, true
		}
		if z.scan(z.buf[z.start:lim], limited || z.readErr != nil) {
			if z.hitEnd {
				if limited {
					z.err = errTokenTooLong
				} else {
					z.err = z.readErr
				}
			}
			return z.tt
		}
		z.fill()
	}
}

// fill reads more input after the current token's start, dropping what
// came before it. When the token already fills more than half the buffer,
// the buffer doubles (up to MaxTokenLen and a read); then fill reads until
// the buffer is full, so that a token rescanned after each fill costs time
// in proportion to its length, however the reader splits the input.
func (z *tokenizer) fill() {
	if z.start > 0 {
		n := copy(z.buf, z.buf[z.start:])
		z.buf = z.buf[:n]
		z.start, z.end, z.dStart, z.dEnd = 0, 0, 0, 0
	}
	if 2*len(z.buf) > cap(z.buf) || cap(z.buf) == 0 {
		c := max(2*cap(z.buf), 4096, z.hint)
		if lim := z.max + 4096; c > lim {
			c = max(lim, len(z.buf)+1)
		}
		if c > cap(z.buf) {
			nb := make([]byte, len(z.buf), c)
			copy(nb, z.buf)
			z.buf = nb
		}
	}
	for len(z.buf) < cap(z.buf) {
		n, err := z.r.Read(z.buf[len(z.buf):cap(z.buf)])
		z.buf = z.buf[:len(z.buf)+n]
		switch {
		case err != nil:
			z.readErr = err
			return
		case n == 0:
			if z.noProg++; z.noProg >= 100 {
				z.readErr = io.ErrNoProgress
				return
			}
		default:
			z.noProg = 0
		}
	}
}

// scan reads the token at the start of b, which holds every byte that is
// read and may be part of it. atEnd says no more will come (the end of
// the input, or of MaxTokenLen); without it, scan returns false when the
// token may go on past b. It sets the token's type, extent and data, and
// hitEnd when it ran into the end of b with atEnd.
func (z *tokenizer) scan(b []byte, atEnd bool) bool {
	z.hitEnd = false
	if z.rawTag != "" {
		n, ok := scanRawText(b, z.rawTag, atEnd)
		if !ok {
			return false
		}
		tag := z.rawTag
		if tag != "plaintext" {
			z.rawTag = ""
		}
		if n > 0 {
			z.hitEnd = n == len(b) && atEnd
			z.setText(n)
			z.textIsRaw = tag != "textarea" && tag != "title"
			z.convertNUL = true
			return true
		}
	}
	z.textIsRaw, z.convertNUL = false, false
	j := 0
	for {
		i := bytes.IndexByte(b[j:], '<')
		if i < 0 {
			return z.textToEnd(b, atEnd)
		}
		i += j
		if i+1 >= len(b) {
			return z.textToEnd(b, atEnd)
		}
		c := b[i+1]
		if !(isASCIILetter(c) || c == '/' || c == '!' || c == '?') {
			j = i + 1
			continue
		}
		if i > 0 {
			z.setText(i)
			return true
		}
		switch {
		case isASCIILetter(c):
			return z.scanTag(b, atEnd, true)
		case c == '/':
			return z.scanEndTag(b, atEnd)
		case c == '!':
			return z.scanMarkup(b, atEnd)
		default: // '?': a bogus comment, the '?' included
			return z.untilCloseAngle(b, 1, atEnd)
		}
	}
}

func (z *tokenizer) setText(n int) {
	z.tt = html.TextToken
	z.end = z.start + n
	z.dStart, z.dEnd = z.start, z.end
}

// textToEnd makes all of b a text token, or asks for more input.
func (z *tokenizer) textToEnd(b []byte, atEnd bool) bool {
	if !atEnd {
		return false
	}
	z.hitEnd = true
	if len(b) == 0 {
		z.tt = html.ErrorToken
		return true
	}
	z.setText(len(b))
	return true
}

// scanRawText returns the length of the raw text at the start of b: up to
// the element's end tag, or all of b at the end of the input. ok is false
// when more input is needed to tell.
func scanRawText(b []byte, tag string, atEnd bool) (n int, ok bool) {
	if tag == "plaintext" {
		return len(b), atEnd
	}
	if tag == "script" {
		return scanScript(b, atEnd)
	}
	j := 0
	for {
		i := bytes.IndexByte(b[j:], '<')
		if i < 0 {
			return len(b), atEnd
		}
		i += j
		if i+1 >= len(b) {
			return len(b), atEnd
		}
		if b[i+1] != '/' {
			j = i + 1
			continue
		}
		switch k := rawEndTag(b, i+2, tag); {
		case k == needInput:
			return len(b), atEnd
		case k == endTagFound:
			return i, true
		default:
			j = k
		}
	}
}

const (
	needInput   = -1 // rawEndTag ran out of input
	endTagFound = -2 // rawEndTag found the end tag
)

// rawEndTag tests for tag's name at b[p:] (after "</"), followed by a
// space, '/' or '>'. It returns endTagFound, needInput, or where to go on
// scanning: the byte that did not match.
func rawEndTag(b []byte, p int, tag string) int {
	for i := 0; i < len(tag); i++ {
		if p+i >= len(b) {
			return needInput
		}
		if c := b[p+i]; c != tag[i] && c != tag[i]-('a'-'A') {
			return p + i
		}
	}
	q := p + len(tag)
	if q >= len(b) {
		return needInput
	}
	switch b[q] {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return endTagFound
	}
	return q
}

// scanScript is scanRawText for <script>, with the HTML rules for
// "<!--" and "<script" inside a script, which can hide "</script>".
func scanScript(b []byte, atEnd bool) (n int, ok bool) {
	const (
		data = iota
		escaped
		doubleEscaped
	)
	state, dashes := data, 0
	need := func() (int, bool) { return len(b), atEnd }
	k := 0
	for {
		if state == data {
			i := bytes.IndexByte(b[k:], '<')
			if i < 0 {
				return need()
			}
			k += i + 1
			if k >= len(b) {
				return need()
			}
			switch b[k] {
			case '/':
				switch r := rawEndTag(b, k+1, "script"); r {
				case needInput:
					return need()
				case endTagFound:
					return k - 1, true
				default:
					k = r
				}
			case '!':
				// "<!--" starts the escaped state; "<!-" and "<!" do not.
				if k+1 >= len(b) {
					return need()
				}
				if b[k+1] != '-' {
					k++
					continue
				}
				if k+2 >= len(b) {
					return need()
				}
				if b[k+2] != '-' {
					k += 2
					continue
				}
				k += 3
				state, dashes = escaped, 2
			}
			continue
		}
		if k >= len(b) {
			return need()
		}
		c := b[k]
		k++
		switch c {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 {
				state, dashes = data, 0
				continue
			}
		case '<':
			dashes = 0
			if k >= len(b) {
				return need()
			}
			if state == doubleEscaped {
				if b[k] != '/' {
					continue
				}
				switch r := rawEndTag(b, k+1, "script"); r {
				case needInput:
					return need()
				case endTagFound:
					k += 1 + len("script") + 1
					state = escaped
				default:
					k = r
				}
				continue
			}
			switch c := b[k]; {
			case c == '/':
				switch r := rawEndTag(b, k+1, "script"); r {
				case needInput:
					return need()
				case endTagFound:
					return k - 1, true
				default:
					k = r
				}
			case isASCIILetter(c):
				switch r := rawEndTag(b, k, "script"); r {
				case needInput:
					return need()
				case endTagFound:
					k += len("script") + 1
					state = doubleEscaped
				default:
					k = r
				}
			default:
				// Anything else after '<' goes back to plain script
				// data, where it is read again.
				state = data
			}
			continue
		}
		dashes = 0
	}
}

// scanEndTag reads a token that starts with "</".
func (z *tokenizer) scanEndTag(b []byte, atEnd bool) bool {
	if len(b) < 3 {
		if !atEnd {
			return false
		}
		// "</" at the end of the input is text.
		z.hitEnd = true
		z.setText(len(b))
		return true
	}
	switch c := b[2]; {
	case c == '>':
		// "</>" is nothing; a Tokenizer calls it an empty comment.
		z.tt = html.CommentToken
		z.end = z.start + 3
		return true
	case isASCIILetter(c):
		return z.scanTag(b, atEnd, false)
	}
	return z.untilCloseAngle(b, 2, atEnd)
}

// untilCloseAngle makes b[:k] a comment, up to and with the next '>' at
// or after p, its data from p to that '>'.
func (z *tokenizer) untilCloseAngle(b []byte, p int, atEnd bool) bool {
	i := bytes.IndexByte(b[p:], '>')
	z.tt = html.CommentToken
	z.dStart = z.start + p
	if i < 0 {
		if !atEnd {
			return false
		}
		z.hitEnd = true
		z.end = z.start + len(b)
		z.dEnd = z.end
		return true
	}
	z.dEnd = z.dStart + i
	z.end = z.dEnd + 1
	return true
}

// scanMarkup reads a token that starts with "<!": a comment, a doctype or
// a bogus comment.
func (z *tokenizer) scanMarkup(b []byte, atEnd bool) bool {
	if len(b) < 4 {
		if !atEnd {
			return false
		}
		z.tt = html.CommentToken
		z.hitEnd = true
		z.end = z.start + len(b)
		z.dStart, z.dEnd = z.start+2, z.end
		if len(b) == 3 && b[2] == '>' {
			z.dEnd--
		}
		return true
	}
	if b[2] == '-' && b[3] == '-' {
		return z.scanComment(b, atEnd)
	}
	const doctype = "DOCTYPE"
	for i := 0; i < len(doctype); i++ {
		if 2+i >= len(b) {
			if !atEnd {
				return false
			}
			return z.untilCloseAngle(b, 2, atEnd)
		}
		if c := b[2+i]; c != doctype[i] && c != doctype[i]+('a'-'A') {
			return z.untilCloseAngle(b, 2, atEnd)
		}
	}
	k := 2 + len(doctype)
	for k < len(b) && isSpace(b[k]) {
		k++
	}
	if k == len(b) {
		if !atEnd {
			return false
		}
		z.tt = html.DoctypeToken
		z.hitEnd = true
		z.end = z.start + k
		z.dStart, z.dEnd = z.end, z.end
		return true
	}
	if !z.untilCloseAngle(b, k, atEnd) {
		return false
	}
	z.tt = html.DoctypeToken
	return true
}

// scanComment reads a comment from "<!--" to "-->" (or "--!>"; "<!-->"
// and "<!--->" are empty comments).
func (z *tokenizer) scanComment(b []byte, atEnd bool) bool {
	z.tt = html.CommentToken
	z.dStart = z.start + 4
	dashes, beginning := 0, true
	k := 4
	for ; k < len(b); k++ {
		switch b[k] {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				z.end = z.start + k + 1
				z.dEnd = max(z.end-len("-->"), z.dStart)
				return true
			}
		case '!':
			if dashes < 2 {
				break
			}
			if k+1 >= len(b) {
				k = len(b)
				continue // to the end of the input
			}
			k++
			switch b[k] {
			case '>':
				z.end = z.start + k + 1
				z.dEnd = max(z.end-len("--!>"), z.dStart)
				return true
			case '-':
				dashes, beginning = 1, false
				continue
			}
		}
		dashes, beginning = 0, false
	}
	if !atEnd {
		return false
	}
	z.hitEnd = true
	z.end = z.start + len(b)
	z.dEnd = max(z.end-abruptCommentTail(b[4:]), z.dStart)
	return true
}

// abruptCommentTail is how many bytes at the end of an unterminated
// comment's text are the start of its end ("--!", "--" or "-").
func abruptCommentTail(t []byte) int {
	switch {
	case bytes.HasSuffix(t, []byte("--!")):
		return 3
	case bytes.HasSuffix(t, []byte("--")):
		return 2
	case bytes.HasSuffix(t, []byte("-")):
		return 1
	}
	return 0
}

// scanTag reads a start tag (start true) or an end tag: its name and
// attributes up to the '>' that ends it. A tag cut by the end of the input
// is no token: an ErrorToken.
func (z *tokenizer) scanTag(b []byte, atEnd bool, start bool) bool {
	cut := func() bool {
		if !atEnd {
			return false
		}
		z.hitEnd = true
		z.tt = html.ErrorToken
		return true
	}
	nameStart := 1
	if !start {
		nameStart = 2
	}
	k := nameStart + 1
	nameEnd := -1
	for ; k < len(b); k++ {
		c := b[k]
		if isSpace(c) {
			nameEnd = k
			k++
			break
		}
		if c == '/' || c == '>' {
			nameEnd = k
			break
		}
	}
	if nameEnd < 0 {
		return cut()
	}
	if start {
		z.attrs = z.attrs[:0]
		if z.manyAttrs {
			clear(z.attrNames)
			z.manyAttrs = false
		}
	}
	for {
		for k < len(b) && isSpace(b[k]) {
			k++
		}
		if k >= len(b) {
			return cut()
		}
		if b[k] == '>' {
			k++
			break
		}
		// The attribute name: up to a space, '/', '>' or an '=' that is
		// not its first byte.
		keyStart := k
		for ; k < len(b); k++ {
			c := b[k]
			if isSpace(c) || c == '/' || c == '>' || c == '=' && k != keyStart {
				break
			}
		}
		if k >= len(b) {
			return cut()
		}
		keyEnd, valEnd := k, k
		for k < len(b) && isSpace(b[k]) {
			k++
		}
		if k >= len(b) {
			return cut()
		}
		switch b[k] {
		case '/':
			k++
		case '=':
			k++
			for k < len(b) && isSpace(b[k]) {
				k++
			}
			if k >= len(b) {
				return cut()
			}
			switch q := b[k]; q {
			case '>':
			case '"', '\'':
				i := bytes.IndexByte(b[k+1:], q)
				if i < 0 {
					return cut()
				}
				valEnd = k + 1 + i
				k = valEnd + 1
			default:
				for k++; k < len(b); k++ {
					if c := b[k]; isSpace(c) || c == '>' {
						break
					}
				}
				if k >= len(b) {
					return cut()
				}
				valEnd = k
				if b[k] != '>' {
					k++
				}
			}
		}
		if start && keyEnd > keyStart {
			z.keep(b, keyStart, keyEnd, valEnd)
		}
	}
	z.end = z.start + k
	z.dStart, z.dEnd = z.start+nameStart, z.start+nameEnd
	if !start {
		z.tt = html.EndTagToken
		return true
	}
	z.tt = html.StartTagToken
	if b[k-2] == '/' && (len(z.attrs) == 0 || k-2 != z.attrs[len(z.attrs)-1].valEnd-1) {
		z.tt = html.SelfClosingTagToken
	}
	z.rawTag = rawTextTag(b[nameStart:nameEnd])
	return true
}

// keep notes an attribute of a start tag, unless one of the same name
// (ASCII case folded) came before it. Past a few attributes the names go
// into a set, so that a hostile tag of a million attributes costs time in
// proportion to its length.
func (z *tokenizer) keep(b []byte, keyStart, keyEnd, valEnd int) {
	key := b[keyStart:keyEnd]
	if z.manyAttrs {
		k := lowerName(key)
		if _, dup := z.attrNames[k]; dup {
			return
		}
		z.attrNames[k] = struct{}{}
	} else {
		for _, a := range z.attrs {
			if bytesFoldASCII(b[a.keyStart:a.keyEnd], key) {
				return
			}
		}
		if len(z.attrs) == manyAttrs {
			z.manyAttrs = true
			if z.attrNames == nil {
				z.attrNames = make(map[string]struct{})
			}
			for _, a := range z.attrs {
				z.attrNames[lowerName(b[a.keyStart:a.keyEnd])] = struct{}{}
			}
			z.attrNames[lowerName(key)] = struct{}{}
		}
	}
	z.attrs = append(z.attrs, tagAttr{keyStart, keyEnd, valEnd})
}

// manyAttrs is how many attributes a start tag may have before keep
// looks names up in a set rather than comparing with each.
const manyAttrs = 16

// lowerName returns b with ASCII letters lower-cased, as a new string.
func lowerName(b []byte) string {
	s := []byte(string(b))
	lowerASCII(s)
	return string(s)
}

// rawTextTag returns the lower-case name of an element whose content a
// Tokenizer reads as one text token, or "".
func rawTextTag(name []byte) string {
	for _, t := range rawTextTags {
		if ascii.EqualFold(name, t) {
			return t
		}
	}
	return ""
}

// bytesFoldASCII reports whether a and b are equal with ASCII letters
// case-folded (and nothing else: x/net/html lower-cases ASCII only).
func bytesFoldASCII(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if c, d := a[i], b[i]; c != d && !(isASCIILetter(c) && c^0x20 == d) {
			return false
		}
	}
	return true
}

var rawTextTags = [...]string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp"}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// Text returns the data of a text, comment or doctype token as a
// Tokenizer's Text does: newlines converted, NUL replaced where it would
// be, character references decoded unless the text is raw. Like that
// method, it returns the data once per token.
func (z *tokenizer) Text() []byte {
	switch z.tt {
	case html.TextToken, html.CommentToken, html.DoctypeToken:
	default:
		return nil
	}
	s := z.buf[z.dStart:z.dEnd]
	z.dStart, z.dEnd = z.end, z.end
	s = convertNewlines(s)
	if (z.convertNUL || z.tt == html.CommentToken) && bytes.IndexByte(s, 0) >= 0 {
		s = bytes.ReplaceAll(s, []byte{0}, []byte("\ufffd"))
	}
	if !z.textIsRaw && bytes.IndexByte(s, '&') >= 0 {
		s = []byte(html.UnescapeString(string(s)))
	}
	return s
}

// convertNewlines turns "\r\n" and "\r" into "\n", in place.
func convertNewlines(s []byte) []byte {
	i := bytes.IndexByte(s, '\r')
	if i < 0 {
		return s
	}
	w := i
	for r := i; r < len(s); r++ {
		c := s[r]
		if c == '\r' {
			c = '\n'
			if r+1 < len(s) && s[r+1] == '\n' {
				r++
			}
		}
		s[w] = c
		w++
	}
	return s[:w]
}

// TagAttr returns the attributes of the current start tag one by one, as
// a Tokenizer's TagAttr does (names lower-cased, values decoded, the first
// of each name), by running one over the tag's raw bytes.
func (z *tokenizer) TagAttr() (key, val []byte, more bool) {
	if z.tt != html.StartTagToken && z.tt != html.SelfClosingTagToken {
		return nil, nil, false
	}
	if z.htTok != z.tokens {
		z.htTok = z.tokens
		z.htReader.Reset(z.Raw())
		z.ht = html.NewTokenizer(&z.htReader)
		z.ht.Next()
	}
	return z.ht.TagAttr()
}
