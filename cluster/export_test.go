package cluster

import "github.com/trawl-dev/trawl/frontier"

// EncodeBatchForTest encodes requests as a stream entry's value.
func EncodeBatchForTest(reqs []frontier.Request) string { return encodeBatch(reqs) }
