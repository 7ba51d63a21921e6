// Command dirspider crawls the part of a site under its start URLs'
// directories: for http://a/b/c.html it fetches http://a/b/ and below, and
// never leaves that directory.
//
//	go run ./examples/dirspider -demo
//	go run ./examples/dirspider -out pages https://example.com/docs/index.html
//
// Run it with -h for the flags.
package main

import (
	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/trawlcli"
)

func main() {
	trawlcli.Program{
		Name:  "dirspider",
		Usage: "dirspider crawls only the URLs under the directories of the start URLs.",
		Scope: trawl.UnderPath,
	}.Main()
}
