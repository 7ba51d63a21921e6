package topic_test

import (
	"fmt"
	"strings"

	"github.com/trawl-dev/trawl/topic"
)

func ExampleNew() {
	s, err := topic.New("telescope galaxy comet orbit nebula")
	if err != nil {
		panic(err)
	}
	fmt.Printf("astronomy page: %.2f\n", s.PageScore("The telescope found a comet in orbit around a distant galaxy."))
	fmt.Printf("cooking page:   %.2f\n", s.PageScore("Simmer the garlic in butter and roast the onion."))
	// Output:
	// astronomy page: 0.52
	// cooking page:   0.00
}

// Words that every page of the crawl has lose their weight as the scorer
// learns document frequencies from the pages fetched.
func ExampleScorer_Learn() {
	s, _ := topic.New("galaxy news")
	fmt.Printf("before: %.2f\n", s.PageScore("news of the day"))
	for range 100 {
		s.Learn("news of the day: markets, weather and sport")
	}
	fmt.Printf("after:  %.2f\n", s.PageScore("news of the day"))
	// Output:
	// before: 0.35
	// after:  0.01
}

func ExampleScorer_LinkScore() {
	s, _ := topic.New("telescope galaxy comet")
	page := s.PageScore("Tonight the comet passes close to the galaxy.")
	for _, l := range []struct{ anchor, url string }{
		{"A new comet", "https://sky.example/comets/new"},
		{"Read more", "https://sky.example/telescope-reviews"},
		{"Contact us", "https://sky.example/contact"},
	} {
		fmt.Printf("%.2f %s\n", s.LinkScore(page, l.anchor, l.url), l.anchor)
	}
	// Output:
	// 0.28 A new comet
	// 0.17 Read more
	// 0.12 Contact us
}

func ExampleWithClassifier() {
	// A user's own model: here, a page is relevant when it names a comet.
	isComet := topic.ClassifierFunc(func(text string) bool {
		return strings.Contains(text, "comet")
	})
	s, _ := topic.New("telescope galaxy comet", topic.WithClassifier(isComet))
	score, relevant := s.Observe("The galaxy seen through a telescope.")
	fmt.Printf("score %.2f, relevant %v\n", score, relevant)
	// Output:
	// score 0.42, relevant false
}
