module github.com/trawl-dev/trawl/bench

go 1.26.0

replace github.com/trawl-dev/trawl => ../

require (
	github.com/PuerkitoBio/goquery v1.13.0 // indirect
	github.com/PuerkitoBio/purell v1.2.1 // indirect
	github.com/andybalholm/cascadia v1.3.4 // indirect
	github.com/temoto/robotstxt v1.1.2 // indirect
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/text v0.41.0 // indirect
)
