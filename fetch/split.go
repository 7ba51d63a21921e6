package fetch

import (
	"bytes"
	"strconv"
)

// payloadOffset returns where the payload begins in b, the bytes of an
// HTTP/1.x response from its first byte, as net/http's client reads them
// (http.ReadResponse in the transport's loop; FuzzPayloadOffset compares
// the two): a line ends at LF, with or without a CR before it; a line
// that begins with a space or a tab continues the header line before it,
// even when it holds nothing else; the first empty line (LF or CRLF alone)
// ends the header. An interim response (1xx, except 101 Switching
// Protocols, which is final) has no body: the client skips it and reads
// the next response, so the payload begins after the final response's
// header. ok is false when b holds no end of that header. What
// ReadResponse would reject besides (a field with no colon, a malformed
// status line) is not checked: the client never hands such a response
// over.
func payloadOffset(b []byte) (off int, ok bool) {
	pos := 0
	for {
		i := bytes.IndexByte(b[pos:], '\n')
		if i < 0 {
			return 0, false
		}
		status := b[pos : pos+i]
		pos += i + 1
		for { // the header's lines
			i := bytes.IndexByte(b[pos:], '\n')
			if i < 0 {
				return 0, false
			}
			line := b[pos : pos+i]
			pos += i + 1
			if len(line) == 0 || len(line) == 1 && line[0] == '\r' {
				break
			}
			for pos < len(b) && (b[pos] == ' ' || b[pos] == '\t') { // continued
				i := bytes.IndexByte(b[pos:], '\n')
				if i < 0 {
					return 0, false
				}
				pos += i + 1
			}
		}
		if !interim(status) {
			return pos, true
		}
	}
}

// interim reports whether the status line (its LF cut off) is one of an
// interim response that the client skips, reading its status code as
// http.ReadResponse does.
func interim(line []byte) bool {
	line = bytes.TrimSuffix(line, []byte("\r"))
	_, status, ok := bytes.Cut(line, []byte(" "))
	if !ok {
		return false
	}
	code, _, _ := bytes.Cut(bytes.TrimLeft(status, " "), []byte(" "))
	if len(code) != 3 {
		return false
	}
	n, err := strconv.Atoi(string(code))
	return err == nil && n >= 100 && n <= 199 && n != 101
}
