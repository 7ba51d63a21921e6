// Command sitespider crawls the sites (hosts) of its start URLs and nothing
// else, politely: robots.txt obeyed, one request at a time per host, a
// delay between requests to a host.
//
//	go run ./examples/sitespider -demo                     # offline demo on loopback
//	go run ./examples/sitespider -out pages https://example.com/
//
// Run it with -h for the flags.
package main

import (
	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/trawlcli"
)

func main() {
	trawlcli.Program{
		Name:  "sitespider",
		Usage: "sitespider crawls the hosts of the start URLs and nothing else.",
		Scope: trawl.SameHost,
	}.Main()
}
