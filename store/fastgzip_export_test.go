package store

// NewFastGzipMember gives the external tests and benchmarks FastGzip's
// encoder: each call appends to dst the gzip member holding p.
func NewFastGzipMember() func(dst, p []byte) []byte {
	z := &fastGzip{}
	return z.member
}
