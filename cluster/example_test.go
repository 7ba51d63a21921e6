package cluster_test

import (
	"context"
	"fmt"
	"log"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
)

// Each host belongs to one agent; a new agent takes hosts only for itself.
func ExampleRing() {
	before := cluster.NewRing([]string{"a1", "a2", "a3"}, 0)
	after := cluster.NewRing([]string{"a1", "a2", "a3", "a4"}, 0)
	moved, toNewcomer := 0, 0
	for i := range 1000 {
		host := fmt.Sprintf("site%d.example", i)
		if before.Owner(host) != after.Owner(host) {
			moved++
			if after.Owner(host) == "a4" {
				toNewcomer++
			}
		}
	}
	fmt.Println("hosts moved:", moved == toNewcomer, "about a quarter:", moved > 200 && moved < 300)
	// Output: hosts moved: true about a quarter: true
}

// One agent of a crawl: run the same program on every machine with its
// own name.
func ExampleJoin() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: "agent-1", Crawl: "example", MaxPages: 10_000})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	c, err := trawl.New(
		trawl.WithSeeds("https://example.com/"),
		trawl.WithFrontier(a.Frontier),
		trawl.WithShared(trawl.Shared{Robots: a.Robots(), Pages: a}),
		trawl.WithLimits(trawl.Limits{MaxPages: 10_000}),
	)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Stats().Fetch.Pages, "pages fetched by this agent")
}
