package extract

// ParseSrcset returns the URLs of the image candidates in a srcset
// attribute value (of img or source), in order, as the HTML standard's
// "parse a srcset attribute" algorithm finds them: candidates are separated
// by commas, a URL runs to the next whitespace (so it may contain commas,
// as in "/img?w=1,2 2x"), trailing commas end it, and a candidate whose
// descriptors are invalid ("2q", "1x 2x", a width of 0, a height without
// a width ...) is dropped. The URLs are returned as written, unresolved;
// duplicates are kept. Character references must already be decoded (as
// they are in an attribute value read by an HTML parser).
func ParseSrcset(s string) []string {
	var out []string
	b := []byte(s)
	for i := 0; ; {
		u, next, ok := srcsetNext(b, i)
		if !ok {
			return out
		}
		out = append(out, string(u))
		i = next
	}
}

// srcsetNext returns the URL of the next valid candidate in the srcset
// value b at or after offset i (a subslice of b), with the offset to
// continue from; ok is false when no candidate is left. It allocates
// nothing.
func srcsetNext(b []byte, i int) (u []byte, next int, ok bool) {
	n := len(b)
	for {
		// 1. Skip whitespace and commas.
		for i < n && (isSpace(b[i]) || b[i] == ',') {
			i++
		}
		if i >= n {
			return nil, n, false
		}
		// 2. The URL: up to whitespace.
		start := i
		for i < n && !isSpace(b[i]) {
			i++
		}
		u = b[start:i]
		if u[len(u)-1] == ',' {
			// Trailing commas end the candidate, with no descriptors.
			for len(u) > 0 && u[len(u)-1] == ',' {
				u = u[:len(u)-1]
			}
			if len(u) > 0 {
				return u, i, true
			}
			continue
		}
		// 3. Descriptors, tokenized as the standard does, validated as
		// they come.
		var d descriptors
		i = skipSpace(b, i)
		dstart := i
		inParens := false
	tokenize:
		for ; ; i++ {
			if i >= n {
				if inParens || i > dstart {
					d.add(b[dstart:i])
				}
				break
			}
			c := b[i]
			switch {
			case inParens:
				if c == ')' {
					inParens = false
				}
			case isSpace(c):
				if i > dstart {
					d.add(b[dstart:i])
				}
				i = skipSpace(b, i)
				if i >= n {
					break tokenize
				}
				dstart = i
				i-- // reconsume
			case c == ',':
				if i > dstart {
					d.add(b[dstart:i])
				}
				i++
				break tokenize
			case c == '(':
				inParens = true
			}
		}
		if d.valid() {
			return u, i, true
		}
	}
}

// descriptors validates the descriptors of one srcset candidate, one at a
// time, with the rules of the standard's descriptor parser.
type descriptors struct {
	width, density, height, err bool
}

func (d *descriptors) add(t []byte) {
	if len(t) == 0 || d.err {
		return
	}
	num := t[:len(t)-1]
	switch t[len(t)-1] {
	case 'w':
		if d.width || d.density || !validUint(num) || allZero(num) {
			d.err = true
		}
		d.width = true
	case 'x':
		if d.width || d.density || d.height || !validFloat(num) || negative(num) {
			d.err = true
		}
		d.density = true
	case 'h':
		if d.height || d.density || !validUint(num) || allZero(num) {
			d.err = true
		}
		d.height = true
	default:
		d.err = true
	}
}

func (d *descriptors) valid() bool { return !d.err && !(d.height && !d.width) }

// validUint reports a valid non-negative integer: one or more ASCII digits.
func validUint(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != '0' {
			return false
		}
	}
	return true
}

// validFloat reports a valid floating-point number as HTML defines it:
// -? (digits | digits? "." digits) ([eE] [+-]? digits)?.
func validFloat(b []byte) bool {
	i, n := 0, len(b)
	if i < n && b[i] == '-' {
		i++
	}
	digits := func() int {
		s := i
		for i < n && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - s
	}
	whole := digits()
	if i < n && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else if whole == 0 {
		return false
	}
	if i < n && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < n && (b[i] == '-' || b[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == n
}

// negative reports that the valid float b is below zero: a minus sign and
// a non-zero digit in the mantissa.
func negative(b []byte) bool {
	if len(b) == 0 || b[0] != '-' {
		return false
	}
	for _, c := range b[1:] {
		if c == 'e' || c == 'E' {
			break
		}
		if c >= '1' && c <= '9' {
			return true
		}
	}
	return false
}
