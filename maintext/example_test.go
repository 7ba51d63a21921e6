package maintext_test

import (
	"fmt"
	"strings"

	"github.com/trawl-dev/trawl/maintext"
)

func ExampleExtract() {
	page := `<html><head><title>Gentle crawling | Example Times</title></head><body>
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul>
<div class="story">
  <h1>Gentle crawling</h1>
  <p>A polite crawler waits between two requests to the same server, obeys robots.txt
  and identifies itself with a User-Agent that names the project.</p>
  <p>It also backs off when a server answers 429 or 503, honouring Retry-After.</p>
  <div class="share"><a href="/s?fb">Facebook</a> <a href="/s?tw">Twitter</a></div>
</div>
<footer>© 2026 Example Times · <a href="/privacy">Privacy</a></footer>
</body></html>`
	text, err := maintext.Extract(strings.NewReader(page))
	if err != nil {
		panic(err)
	}
	fmt.Println(text)
	// Output:
	// Gentle crawling
	//
	// A polite crawler waits between two requests to the same server, obeys robots.txt and identifies itself with a User-Agent that names the project.
	//
	// It also backs off when a server answers 429 or 503, honouring Retry-After.
}

func ExampleExtractWithReason() {
	// A section front: headlines and links, no article.
	page := `<html><body><h1>World news</h1><ul>
<li><a href="/a">Talks resume in Geneva</a></li>
<li><a href="/b">Storm closes ports</a></li>
<li><a href="/c">Markets open higher</a></li>
</ul></body></html>`
	res, err := maintext.ExtractWithReason(strings.NewReader(page))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q: %v\n", res.Text, res.Reason)
	// Output: "": no article
}

func ExampleBTEWindow() {
	// t = tag, w = word: <html><body><div>Menu</div><p>One two three four</p></body></html>
	tokens := "tttwttwwwwttt"
	isTag := make([]bool, len(tokens))
	for i, c := range tokens {
		isTag[i] = c == 't'
	}
	start, end := maintext.BTEWindow(isTag)
	fmt.Println(start, end, tokens[start:end])
	// Output: 6 10 wwww
}

func ExampleExtractMarkdown() {
	page := `<html><head><title>Queue | Docs</title></head><body>
<nav><a href="/">Home</a> <a href="/api">API</a></nav>
<main>
  <h1>Queue</h1>
  <p>A queue hands out the URLs of each host one at a time; see <a href="/politeness">politeness</a> for the delays it keeps.</p>
  <pre>q := frontier.NewMemory()
q.Push(u)</pre>
  <ul><li>Push adds a URL</li><li>Next waits for the next one</li></ul>
  <p>A queue is safe for concurrent use by several workers at once.</p>
</main>
</body></html>`
	md, err := maintext.ExtractMarkdown(strings.NewReader(page))
	if err != nil {
		panic(err)
	}
	fmt.Println(md)
	// Output:
	// # Queue
	//
	// A queue hands out the URLs of each host one at a time; see [politeness](/politeness) for the delays it keeps.
	//
	// ```
	// q := frontier.NewMemory()
	// q.Push(u)
	// ```
	//
	// - Push adds a URL
	// - Next waits for the next one
	//
	// A queue is safe for concurrent use by several workers at once.
}
