package dedup_test

import (
	"fmt"
	"strings"

	"github.com/trawl-dev/trawl/dedup"
)

const story = `The city council voted on Tuesday to expand the network of protected
bike lanes downtown, after a debate that ran past midnight. Supporters said the
lanes would make streets safer for everyone, while several shop owners worried
about losing parking spaces in front of their stores. The plan adds twelve miles
of lanes over the next three years and will be paid for from the transport budget.`

func ExampleDetector_Check() {
	d := dedup.NewDetector()
	page := func(clock, body string) string {
		return "Home | News | Sport | Weather\n" + clock + "\n" + body + "\nAbout us | Contact | Privacy"
	}
	fmt.Println(d.Check("a", page("Tuesday 10:02", story)).Kind)
	// The same page again, reformatted: an exact duplicate.
	fmt.Println(d.Check("b", strings.ToUpper(page("Tuesday 10:02", story))))
	// Served again later, with a new clock line and one word changed.
	m := d.Check("c", page("Wednesday 08:15", strings.Replace(story, "twelve", "fifteen", 1)))
	fmt.Println(m.Kind, m.Of, m.Similarity > 0.75)
	// A different article in the same template.
	fmt.Println(d.Check("d", page("Tuesday 10:02", "Heavy rain is expected across the region this weekend, with flood warnings issued for low-lying areas near the river and the coast.")).Kind)
	// Output:
	// new
	// {exact a 1}
	// near a true
	// new
}

func ExampleDistance() {
	a := dedup.Simhash(story)
	b := dedup.Simhash(strings.Replace(story, "twelve", "fifteen", 1))
	c := dedup.Simhash("Heavy rain is expected across the region this weekend, with flood warnings issued for low-lying areas.")
	fmt.Println(dedup.Distance(a, b) <= 3, dedup.Distance(a, c) > 10)
	// Output: true true
}

func ExampleSketch_Jaccard() {
	a := dedup.MinHash("a rose is a rose is a rose")
	b := dedup.MinHash("a rose is a rose is a tulip")
	// Shingle sets {a rose is a, rose is a rose, is a rose is} and
	// {a rose is a, rose is a rose, is a rose is, rose is a tulip}: the
	// Jaccard similarity is 3/4, and the 128-hash sketch estimates it.
	fmt.Printf("%.2f\n", a.Jaccard(b))
	// Output: 0.73
}

func ExampleIndex() {
	x := dedup.NewIndex(3)
	x.Add(0b1111_0000) // distance 1 from the query
	x.Add(0b1111_0111) // distance 2
	x.Add(0b0000_0111) // distance 6
	for _, fp := range x.Query(0b1111_0100, nil) {
		fmt.Printf("%08b\n", uint64(fp))
	}
	// Unordered output:
	// 11110000
	// 11110111
}

func ExampleURLFingerprint() {
	// The frontier's seen set and any stored fingerprints agree on this
	// value in every process.
	fmt.Printf("%#x\n", dedup.URLFingerprint("https://example.com/"))
	// Output: 0xa40dbfe31cfba1cf
}

func ExampleContentFingerprint() {
	a := dedup.ContentFingerprint("Hello,   World!")
	b := dedup.ContentFingerprint("hello, world!\n")
	fmt.Println(a == b, dedup.NormalizeText("  Hello,\n\tWORLD! "))
	// Output: true hello, world!
}
