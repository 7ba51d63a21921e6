// Package content compares trawl's content-block finders (extract.MainText
// and extract.BTE) with go-readability and go-trafilatura on the test split
// of the content evaluation set (shared/data/content-eval, AGPL data read in
// place, never copied). The comparison is a test, opt-in because it is slow:
//
//	cd bench && TRAWL_CONTENT_EVAL=1 go test -run TestCompare -v ./content
//
// It prints one table of macro-averaged bag-of-words precision, recall and
// F1, scored with the metric defined in the data set's README. The library
// itself never imports the competitors; only this module does.
package content
