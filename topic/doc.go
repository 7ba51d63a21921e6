// Package topic scores pages and links by their similarity to a topic, for
// focused (topic-directed) crawling: a crawler that fetches the links with
// the highest scores first spends its budget on pages about the topic.
//
// A topic is described by words ("football league match goal"), by example
// pages' text (WithExamples), or both. Texts become TF-IDF vectors and are
// compared by cosine similarity. The IDF is learned online from the crawl
// itself: every fetched page is counted once (Learn or Observe), so words
// that every page has ("the", "home", a site's navigation) lose their
// weight as the crawl goes, while the topic's own words keep theirs.
//
// # Quick start
//
//	s, err := topic.New("telescope galaxy orbit nebula comet")
//	if err != nil { ... }
//	// For each fetched page: learn its terms' document frequencies, score
//	// it, and decide whether it is relevant (for the harvest rate).
//	score, relevant := s.Observe(pageText)
//	// For each link found on that page: its priority in the frontier.
//	priority := s.LinkScore(score, anchorText, linkURL)
//
// With the root package, ask for trawl.WithMainText(trawl.MainText) and make
// the calls in the hooks of trawl.WithPriority: Priority.Page (Observe on
// Page.MainText; the crawler keeps the score in Page.Score, and the hook
// sets Page.Relevant to Observe's verdict, which the crawler counts in
// Stats.Pages.Relevant) and Priority.Link (LinkScore with Page.Score,
// Link.Text and Link.URL).
// examples/focusedspider is a complete program doing this.
//
// # The formulas
//
// Terms are maximal runs of Unicode letters, digits and combining marks,
// case-folded (so the scorer works for any language that separates words
// with spaces); in Han, Hiragana and Katakana every character is a term. A
// URL's words are the terms of its host and path (scheme, query and
// fragment left out).
//
// A text's vector has, for each term t, the weight (1 + ln tf) · idf(t),
// with tf the term's count in the text. The topic's vector is the sum of
// one unit vector per source (the description and each example) with
// weights 1 + ln tf, each then multiplied by idf(t) as well. After N
// documents have been learned,
//
//	idf(t) = ln((N + P) / (min(df(t), N) + P/2))
//
// where df(t) is the number of learned documents containing t and P the
// prior (WithPrior, default 10 pseudo-documents in which every term occurs
// with probability one half). Before the crawl has begun every term weighs
// ln 2; a term in every page tends to weight 0; a term in none weighs
// ln(2(N+P)/P).
//
// PageScore(text) is cos(topic, text) in [0, 1]. The score of a link is
//
//	LinkScore = α · cos(topic, source page) + β · cos(topic, anchor text) + γ · cos(topic, URL words)
//
// with α, β, γ set by WithWeights (scaled to sum to 1, so the score is in
// [0, 1]; with trawl's Priority frontier all such scores share one
// best-first front queue). The defaults α = 0.3, β = 0.5, γ = 0.2 were
// measured on crawltest's topic-labelled web (60 hosts of 40 pages, 8
// topics, a topic with a 10% share, 300 pages, harvest rates):
// page alone 0.26–0.31, anchor alone 0.39–0.40, URL alone 0.11–0.12 (as
// breadth-first: crawltest's paths carry no words), and mixes of the three
// 0.29–0.43, within the run-to-run noise of a concurrent crawl. The anchor
// is the best single signal and gets the largest weight; the URL weight is
// kept for real webs, whose paths often name their subject. The source
// page's score carries the topic's locality (pages about a topic link to
// more pages about it) to links whose anchor says nothing ("read more").
//
// A fetched page is relevant when its cosine is at least the threshold
// (WithThreshold), or, with WithClassifier, when the user's Classifier
// says so. The classifier only decides relevance (the harvest); scores and
// so the crawl order stay the TF-IDF ones.
//
// # The relevance threshold, calibrated on real pages
//
// Real pages have far more terms than a topic's few words, so their
// cosines are small: on real documentation pages the relevant ones scored
// 0.02–0.24, and an earlier default of 0.2 (set on crawltest's synthetic
// pages) called almost none of them relevant. The defaults are now set on
// real text: the content-eval set (1379 news and blog pages of 2012 with
// hand-corrected main text, 401 sites; read in place, not part of this
// module), with 12 topics (American football, ice hockey, real estate,
// cars, online advertising, video games, Android phones, health economics,
// sports science, space, education, journalism), each described by 3–5
// words as a user would type them. A page is labelled relevant when its
// site is devoted to the topic, or when reading it showed it is about the
// topic (for each topic the 20 other pages that scored highest were read:
// pooling). The sites are split in two halves (contenteval.Fold); each
// half's pages are observed in a shuffled order, as a crawl would fetch
// them, three times; the cut-off that maximizes the F1 of the relevance
// decision, averaged over the topics, is chosen on one half and measured
// on the other:
//
//	topic given by   tuned on  cut-off  reported on  P     R     F1    F1 at 0.2
//	words            half 0    0.060    half 1       0.64  0.66  0.61  0.11
//	words            half 1    0.080    half 0       0.82  0.55  0.61  0.15
//	3 example pages  half 0    0.175    half 1       0.24  0.21  0.22  0.09
//	3 example pages  half 1    0.125    half 0       0.30  0.73  0.39  0.41
//
// DefaultThreshold (0.07, for a topic given by words alone) and
// DefaultExampleThreshold (0.15, when WithExamples is given, which raises
// every cosine) are the means of the two halves' cut-offs. At 0.07 the
// words-only F1 is 0.64 and 0.65 on the two halves (precision 0.74–0.75,
// recall 0.62–0.66), against 0.11–0.15 at 0.2. Example pages make a weak
// classifier on this set (a site's pages range over many subjects, so
// three of them describe its topic poorly): write the topic's words too.
// On crawltest's topic-labelled web, whose topics are described by three
// example pages, 0.15 gives precision 0.80–0.95 and recall 0.91–0.98
// (0.2 gave 0.86–0.97 and 0.94–0.97). On the Python 3.11 documentation
// (530 pages on loopback), "asyncio coroutine event loop", 100 pages:
// topic-directed order fetched all 17 asyncio pages among its first 28;
// the scorer judged 15 pages relevant, all of them asyncio pages (0.2
// judged 2); breadth-first order fetched 1 asyncio page, and the scorer
// judged 6 relevant, 5 of them index pages listing asyncio's names.
// Caveat: in a focused crawl most pages are on the topic, so the topic's
// own terms become common and their IDF, and so every score, falls as the
// crawl goes; a long focused crawl may want a lower cut-off.
// TestThresholdCalibration (TRAWL_CONTENT_EVAL=1) prints the table.
//
// # Contract
//
// Every score is in [0, 1] and is 0 for text without terms. Scores depend
// on what has been learned so far, so the same link can score differently
// early and late in a crawl. Document frequencies are kept in a fixed table
// of hashed counters (a count-min sketch of two rows of 2^17 counters,
// 1 MiB), so memory does not grow with the crawl's vocabulary; a hash
// collision can only overestimate a term's document frequency (lower its
// weight), and with two rows that needs two collisions at once.
//
// # Evaluation
//
// TestHarvestRate (always on, a few seconds) crawls crawltest's
// topic-labelled web with the same page budget in breadth-first, in-link
// and topic-directed order and asserts that the topic-directed harvest rate
// is at least twice the breadth-first one. With TRAWL_FOCUS_EVAL=1,
// TestEvaluationTable prints the table of examples/focusedspider/README.md
// (several webs and budgets; about two minutes).
//
// # Concurrency
//
// A Scorer is safe for concurrent use by any number of goroutines: Learn
// and Observe update atomic counters, the scoring methods only read them,
// and the topic vector never changes after New. Scoring allocates nothing
// in the steady state (token buffers are pooled per Scorer). A Classifier
// given to WithClassifier must itself be safe for concurrent use.
//
// # Security considerations
//
// Texts, anchors and URLs come from untrusted pages. Tokenizing is a
// single pass over the input with no regular expressions and no recursion;
// invalid UTF-8 bytes separate terms. Memory is the fixed table plus
// buffers proportional to the text being scored (callers bound it: trawl's
// fetcher limits body size).
package topic
