package extract

import (
	"bytes"
	"net/url"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
	"github.com/trawl-dev/trawl/internal/ascii"
)

// Bounds of the static reading of one script, beyond Options.MaxScriptLen.
const (
	maxJSNesting = 256  // brackets tracked; deeper ones are counted, not tracked
	maxJSURLs    = 1000 // candidate URLs of one script
	maxJSConsts  = 256  // string constants remembered for concatenation
	maxJSOperand = 64   // operands of one concatenation
)

// ScriptLinks returns the URLs a static reading of the JavaScript src
// finds (see Options.Scripts and the package doc), as Links of Kind
// Script with Tag "script", resolved against base and normalized; a nil
// base keeps only absolute URLs. For a fetched .js file, base is the
// script's own URL: a browser resolves what a script fetches against the
// document that runs it, which a crawler reading the file alone does not
// know, so relative literals may resolve differently than in a browser
// (root-relative and absolute ones do not). The work is linear in
// min(len(src), MaxScriptLen); at most MaxLinks links. Safe for
// concurrent use.
func ScriptLinks(src []byte, base *url.URL, opts *Options) []Link {
	lim := opts.limits()
	norm := normalizerOf(opts)
	var s jsScanner
	var out []Link
	s.scan(src, lim, func(v []byte) {
		if len(out) >= lim.maxLinks || len(v) > lim.maxAttrLen || skipHref(v) {
			return
		}
		if u, err := norm.ResolveString(base, string(v)); err == nil {
			out = append(out, Link{URL: u, Tag: "script", Kind: Script})
		}
	})
	return out
}

// jsScanner reads one script at a time over tdewolff/parse's JavaScript
// lexer and collects the URLs it names. Its buffers are reused from one
// script to the next.
//
// What it reads: every string literal (and template literal without
// substitutions) that looks like a URL (looksLikeURL, testValue); string
// concatenations whose operands are literals or constants ("var base =
// '/api'; fetch(base + '/items')"); and, with the laxer testSink, what
// reaches a sink that takes a URL: fetch, XMLHttpRequest's open,
// window.open, location (and location.href, .assign, .replace),
// href/src assignments, jQuery's $.ajax/$.get/$.getJSON/$.getScript/.load,
// axios.get, importScripts, Worker, EventSource, history.pushState and
// replaceState, import, and the url property of an object literal. The
// URL of a request with another method than GET or HEAD (a method or type
// property, XMLHttpRequest's first argument, $.post, axios.post,
// navigator.sendBeacon) is left out.
type jsScanner struct {
	buf     []byte    // the script, copied, with room for the lexer's NUL
	vals    []byte    // values of candidates and constants
	cands   []jsCand  // candidate URLs in order
	consts  []jsConst // string constants
	frames  []jsFrame // open brackets
	deep    int       // brackets beyond maxJSNesting
	nextID  int       // frame ids
	prev    [3]jsTok  // the last significant tokens, prev[0] the latest
	chain   jsChain
	scratch []byte
}

type jsTok struct {
	tt   js.TokenType
	data []byte // into buf, valid during the scan
}

// jsCand is a candidate URL: vals[start:end].
type jsCand struct {
	start, end int
	sink       bool // where a URL must be: test with testSink
	frame      int  // id of the sink call it is the URL of, or 0
	drop       bool // the URL of a request that is not GET or HEAD
}

type jsConst struct {
	name       []byte // into buf
	start, end int    // vals[start:end]
}

// Kinds of call that take a URL.
type jsCall uint8

const (
	callNone  jsCall = iota
	callGet          // its URL argument is fetched with GET unless a method says otherwise
	callPost         // its URL argument is sent a POST: never a reference
	callOpen         // open(method, url) of XMLHttpRequest, or window.open(url)
	callNames        // its arguments are names, selectors, ad units, module ids: no URLs
)

type jsFrame struct {
	open   js.TokenType // OpenParenToken, OpenBraceToken, OpenBracketToken
	call   jsCall
	id     int
	arg    int  // arguments seen so far (commas at this level)
	urlArg int  // which argument is the URL; -1 until open's first argument says
	post   bool // a method other than GET or HEAD was given
}

// Contexts a concatenation starts in.
type jsCtx uint8

const (
	ctxPlain  jsCtx = iota // a literal among others: testValue
	ctxSink                // where a URL must be: testSink
	ctxConst               // the value of a variable: remembered, and testValue
	ctxMethod              // a method or type property: the request's method
	ctxArg                 // an argument of a call: decided by the call
)

// jsChain is the concatenation being read: vals[start:].
type jsChain struct {
	active   bool
	operand  bool // a '+' was read: the next token is an operand
	broken   bool // an operand was not a constant: the value is a prefix
	literal  bool // one operand at least was a literal
	suffix   bool // the concatenation continues one whose start is unknown: x + "/y"
	operands int
	start    int
	ctx      jsCtx
	name     []byte // the variable, for ctxConst
	frame    int    // index in frames of the call, for ctxArg; -1 none
	arg      int
}

// scan reads src and calls emit with each URL found, in order. It reuses
// the scanner's buffers. emit's argument is valid only during the call.
func (s *jsScanner) scan(src []byte, lim limits, emit func([]byte)) {
	if len(src) > lim.maxScriptLen {
		src = src[:lim.maxScriptLen]
	}
	s.buf = append(append(s.buf[:0], src...), 0)[:len(src)] // room for the NUL
	s.vals, s.cands, s.consts, s.frames = s.vals[:0], s.cands[:0], s.consts[:0], s.frames[:0]
	s.deep, s.nextID, s.prev, s.chain = 0, 0, [3]jsTok{}, jsChain{}
	in := parse.NewInputBytes(s.buf)
	l := js.NewLexer(in)
	for steps := 2*len(src) + 16; steps > 0; steps-- {
		tt, data := l.Next()
		switch tt {
		case js.ErrorToken:
			if in.Err() != nil {
				steps = 0 // the end
			}
			continue // an error: the lexer has moved on past it
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
			continue
		case js.DivToken, js.DivEqToken:
			if !operandEnd(s.prev[0].tt) {
				tt, data = l.RegExp()
				if tt == js.ErrorToken {
					continue
				}
			}
		}
		s.token(jsTok{tt, data}, lim)
	}
	s.endChain(lim)
	in.Restore()
	for _, c := range s.cands {
		v := trimURLSpace(s.vals[c.start:c.end])
		t := testValue
		if c.sink {
			t = testSink
		}
		if c.drop || !looksLikeURL(v, t) {
			continue
		}
		if hostPath(v) {
			// "static.example.com/js/x.js": a host without its scheme,
			// which the script puts in front; not a relative path.
			s.scratch = append(append(s.scratch[:0], "//"...), v...)
			v = s.scratch
		}
		emit(v)
	}
	s.buf = s.buf[:0]
}

// operandEnd reports tokens after which '/' divides rather than starts a
// regular expression.
func operandEnd(tt js.TokenType) bool {
	switch {
	case tt == js.CloseParenToken, tt == js.CloseBracketToken, tt == js.CloseBraceToken, tt == js.StringToken,
		tt == js.TemplateToken, tt == js.TemplateEndToken, tt == js.RegExpToken, tt == js.PrivateIdentifierToken,
		tt == js.ThisToken, tt == js.SuperToken, tt == js.NullToken, tt == js.TrueToken, tt == js.FalseToken:
		return true
	case js.IsNumeric(tt), js.IsIdentifier(tt):
		return true
	}
	return false
}

// token handles one significant token.
func (s *jsScanner) token(t jsTok, lim limits) {
	if s.chain.active {
		if s.chain.operand && simpleOperand(t.tt) {
			s.chain.operand = false
			if !s.operand(t, lim) {
				s.chain.broken = true
			}
			s.shift(t)
			return
		}
		if !s.chain.operand && t.tt == js.AddToken {
			s.chain.operand = true
			s.shift(t)
			return
		}
		if s.chain.operand {
			s.chain.broken = true // "a" + (b), "a" + f(x) ...
		}
		s.endChain(lim)
	}
	switch t.tt {
	case js.StringToken, js.TemplateToken, js.TemplateStartToken:
		s.startChain(lim)
		s.operand(t, lim)
		if t.tt == js.TemplateStartToken {
			s.chain.broken = true
		}
	case js.OpenParenToken, js.OpenBraceToken, js.OpenBracketToken:
		s.push(t.tt)
	case js.CloseParenToken, js.CloseBraceToken, js.CloseBracketToken:
		s.pop()
	case js.CommaToken:
		if n := len(s.frames); n > 0 && s.deep == 0 {
			s.frames[n-1].arg++
		}
	default:
		if js.IsIdentifier(t.tt) && s.constant(t.data) >= 0 {
			s.startChain(lim)
			s.operand(t, lim)
		}
	}
	s.shift(t)
}

// simpleOperand reports tokens that can be an operand of a concatenation
// by themselves: literals, numbers, identifiers.
func simpleOperand(tt js.TokenType) bool {
	return tt == js.StringToken || tt == js.TemplateToken || tt == js.TemplateStartToken || js.IsNumeric(tt) || js.IsIdentifier(tt)
}

func (s *jsScanner) shift(t jsTok) {
	s.prev[2], s.prev[1], s.prev[0] = s.prev[1], s.prev[0], t
}

// is reports whether t is the identifier (or keyword) name.
func (t jsTok) is(name string) bool {
	return (js.IsIdentifierName(t.tt) || t.tt == js.ImportToken) && string(t.data) == name
}

// isAny reports whether t is one of the names.
func (t jsTok) isAny(names ...string) bool {
	for _, n := range names {
		if t.is(n) {
			return true
		}
	}
	return false
}

// push opens a bracket; a '(' after a callee that takes a URL opens a
// call.
func (s *jsScanner) push(tt js.TokenType) {
	if len(s.frames) >= maxJSNesting || s.deep > 0 {
		s.deep++
		return
	}
	f := jsFrame{open: tt, urlArg: 0}
	if tt == js.OpenParenToken {
		f.call, f.urlArg = s.callee()
	}
	if f.call != callNone {
		s.nextID++
		f.id = s.nextID
	}
	s.frames = append(s.frames, f)
}

// callee returns the kind of call whose '(' follows the last tokens, and
// which argument is its URL.
func (s *jsScanner) callee() (jsCall, int) {
	c, dot, obj := s.prev[0], s.prev[1], s.prev[2]
	member := dot.tt == js.DotToken
	lib := member && obj.isAny("$", "jQuery", "axios", "$http", "http")
	switch {
	case c.tt == js.ImportToken:
		return callGet, 0
	case !js.IsIdentifierName(c.tt):
		return callNone, 0
	case c.isAny("fetch", "importScripts", "EventSource", "Worker", "SharedWorker", "Request", "getScript", "getJSON", "ajax"):
		return callGet, 0
	case c.is("load") && member && obj.tt == js.CloseParenToken: // $("#x").load(url), not gapi.load(name)
		return callGet, 0
	case c.is("get") && lib:
		return callGet, 0
	case c.isAny("post", "put", "patch", "delete") && lib, c.is("sendBeacon"):
		return callPost, 0
	case c.isAny("assign", "replace") && member && obj.is("location"):
		return callGet, 0
	case c.isAny("pushState", "replaceState") && member:
		return callGet, 2
	case c.is("open"):
		return callOpen, -1
	case c.isAny("defineSlot", "defineOutOfPageSlot", "getElementById", "getElementsByClassName", "getElementsByTagName", "querySelector",
		"querySelectorAll", "createElement", "addEventListener", "removeEventListener", "getItem", "setItem", "require", "define", "gtag", "ga"):
		return callNames, 0
	}
	return callNone, 0
}

// pop closes a bracket; a call with a method other than GET or HEAD
// drops its URL.
func (s *jsScanner) pop() {
	if s.deep > 0 {
		s.deep--
		return
	}
	n := len(s.frames)
	if n == 0 {
		return
	}
	f := s.frames[n-1]
	s.frames = s.frames[:n-1]
	if f.post {
		for i := len(s.cands) - 1; i >= 0; i-- {
			if s.cands[i].frame == f.id {
				s.cands[i].drop = true
			}
		}
	}
}

// sinkFrame returns the index of the innermost open call that takes a
// URL, or -1.
func (s *jsScanner) sinkFrame() int {
	for i := len(s.frames) - 1; i >= 0; i-- {
		if s.frames[i].call != callNone {
			return i
		}
	}
	return -1
}

// constant returns the index of the constant named name, or -1.
func (s *jsScanner) constant(name []byte) int {
	for i := len(s.consts) - 1; i >= 0; i-- {
		if string(s.consts[i].name) == string(name) {
			return i
		}
	}
	return -1
}

// startChain starts a concatenation at its first operand, in the context
// the tokens before it give.
func (s *jsScanner) startChain(lim limits) {
	c := jsChain{active: true, start: len(s.vals), frame: -1}
	p0, p1, p2 := s.prev[0], s.prev[1], s.prev[2]
	switch {
	case p0.tt == js.EqToken && js.IsIdentifierName(p1.tt):
		switch {
		case p1.isAny("location", "href", "src"):
			c.ctx = ctxSink
		case p2.tt != js.DotToken:
			c.ctx, c.name = ctxConst, p1.data
		}
	case p0.tt == js.ColonToken && (js.IsIdentifierName(p1.tt) || p1.tt == js.StringToken):
		key := p1.data
		if p1.tt == js.StringToken && len(key) >= 2 {
			key = key[1 : len(key)-1]
		}
		switch string(key) {
		case "url", "href", "src":
			c.ctx, c.frame = ctxSink, s.sinkFrame()
		case "method", "type":
			c.ctx, c.frame = ctxMethod, s.sinkFrame()
		case "event", "name", "id", "key", "class", "className", "selector", "label", "category", "action", "title", "text":
			c.suffix = true // values that name things, not URLs ({event: "gtm.js"})
		}
	case p0.tt == js.OpenParenToken || p0.tt == js.CommaToken || p0.tt == js.OpenBracketToken:
		n := len(s.frames)
		switch {
		case n == 0 || s.deep > 0:
		case s.frames[n-1].call != callNone:
			c.ctx, c.frame, c.arg = ctxArg, n-1, s.frames[n-1].arg
		case n > 1 && s.frames[n-1].open == js.OpenBracketToken && s.frames[n-2].call == callNames:
			c.suffix = true // require(["app/main"])
		}
	case p0.tt == js.FromToken || p0.tt == js.ImportToken:
		c.ctx = ctxSink // import ... from "x", import "x"
	case p0.tt == js.AddToken:
		c.suffix = true // (a ? "http://x/" : "http://y/") + "js/z.js": not a URL by itself
	}
	s.chain = c
}

// operand appends the value of t to the concatenation and reports whether
// it had one: a literal, a decimal integer or a constant.
func (s *jsScanner) operand(t jsTok, lim limits) bool {
	c := &s.chain
	if c.broken || c.operands >= maxJSOperand {
		return false
	}
	c.operands++
	switch {
	case t.tt == js.StringToken, t.tt == js.TemplateToken, t.tt == js.TemplateStartToken:
		c.literal = true
		s.vals = appendJSString(s.vals, t.data)
	case t.tt == js.IntegerToken || t.tt == js.DecimalToken && onlyDigits(t.data):
		s.vals = append(s.vals, t.data...)
	case js.IsIdentifier(t.tt):
		i := s.constant(t.data)
		if i < 0 {
			return false
		}
		k := s.consts[i]
		s.vals = append(s.vals, s.vals[k.start:k.end]...)
	default:
		return false
	}
	if len(s.vals)-c.start > lim.maxAttrLen {
		s.vals = s.vals[:c.start+lim.maxAttrLen]
		c.broken = true
	}
	return true
}

func onlyDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// endChain ends the concatenation: it becomes a candidate URL, a
// constant, or a request's method.
func (s *jsScanner) endChain(lim limits) {
	c := s.chain
	s.chain = jsChain{}
	if !c.active {
		return
	}
	v := s.vals[c.start:]
	if c.suffix || c.broken && c.ctx != ctxMethod && bytes.IndexByte(v, '?') < 0 {
		// Only a prefix is known ("/user/" + id): not a URL, unless it
		// is one with the query left to fill in ("/search?q=" + q).
		s.vals = s.vals[:c.start]
		if f := c.frame; c.ctx == ctxArg && s.frames[f].call == callOpen && c.arg == 0 {
			s.frames[f].urlArg = 0
		}
		return
	}
	switch c.ctx {
	case ctxMethod:
		if c.frame >= 0 && isHTTPMethod(v) && !isSafeMethod(v) {
			s.frames[c.frame].post = true
		}
		s.vals = s.vals[:c.start]
		return
	case ctxConst:
		if !c.broken && len(s.consts) < maxJSConsts {
			s.consts = append(s.consts, jsConst{name: c.name, start: c.start, end: len(s.vals)})
		}
	case ctxArg:
		f := &s.frames[c.frame]
		if f.call == callNames {
			s.vals = s.vals[:c.start]
			return
		}
		if f.call == callOpen && c.arg == 0 {
			if isHTTPMethod(v) {
				f.urlArg, f.post = 1, !isSafeMethod(v) // XMLHttpRequest's open(method, url)
				return
			}
			f.urlArg = 0 // window.open(url)
		}
		if c.arg == f.urlArg {
			s.candidate(c.start, true, f.id, f.call == callPost)
			return
		}
	case ctxSink:
		id := 0
		if c.frame >= 0 {
			id = s.frames[c.frame].id
		}
		s.candidate(c.start, true, id, c.frame >= 0 && s.frames[c.frame].call == callPost)
		return
	}
	if c.literal {
		s.candidate(c.start, false, 0, false)
	}
}

func (s *jsScanner) candidate(start int, sink bool, frame int, drop bool) {
	if len(s.cands) < maxJSURLs && len(s.vals) > start {
		s.cands = append(s.cands, jsCand{start: start, end: len(s.vals), sink: sink, frame: frame, drop: drop})
	}
}

func isHTTPMethod(v []byte) bool {
	for _, m := range []string{"get", "head", "post", "put", "delete", "patch", "options"} {
		if len(v) == len(m) && ascii.EqualFold(v, m) {
			return true
		}
	}
	return false
}

func isSafeMethod(v []byte) bool { return ascii.EqualFold(v, "get") || ascii.EqualFold(v, "head") }

// appendJSString appends the value of a string or template literal token
// (quotes or backticks included; a template head ends in "${") with its
// escapes decoded: \n \t and the like, \xHH, \uHHHH, \u{H...}, line
// continuations, and any other escaped character as itself.
func appendJSString(dst, tok []byte) []byte {
	if len(tok) < 2 {
		return dst
	}
	end := len(tok) - 1
	if tok[0] == '`' && len(tok) >= 3 && tok[len(tok)-2] == '$' && tok[len(tok)-1] == '{' {
		end = len(tok) - 2
	}
	b := tok[1:end]
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			dst = append(dst, c)
			continue
		}
		i++
		switch c = b[i]; c {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b', 'f', 'v':
			dst = append(dst, ' ') // nothing a URL holds
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// A legacy octal escape, "\75" for '=', up to \377.
			r, j := rune(c-'0'), i+1
			for ; j < len(b) && j < i+3 && '0' <= b[j] && b[j] <= '7' && r*8+rune(b[j]-'0') <= 0xFF; j++ {
				r = r*8 + rune(b[j]-'0')
			}
			dst = utf8.AppendRune(dst, r)
			i = j - 1
		case '\r', '\n':
			if c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
		case 'x':
			if r, ok := hexRune(b, i+1, 2); ok {
				dst = utf8.AppendRune(dst, r)
				i += 2
			}
		case 'u':
			if i+1 < len(b) && b[i+1] == '{' {
				j := i + 2
				for j < len(b) && b[j] != '}' && j-i < 10 {
					j++
				}
				if r, ok := hexRune(b, i+2, j-i-2); ok && j < len(b) {
					dst = utf8.AppendRune(dst, r)
					i = j
				}
			} else if r, ok := hexRune(b, i+1, 4); ok {
				dst = utf8.AppendRune(dst, r)
				i += 4
			}
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// hexRune reads n hex digits at b[i:].
func hexRune(b []byte, i, n int) (rune, bool) {
	if n <= 0 || n > 6 || i+n > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+n] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c|0x20 && c|0x20 <= 'f':
			r = r<<4 | rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	if r > utf8.MaxRune {
		return 0, false
	}
	return r, true
}
