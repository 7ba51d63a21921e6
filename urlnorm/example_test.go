package urlnorm_test

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/trawl-dev/trawl/urlnorm"
)

func ExampleResolve() {
	base, _ := url.Parse("http://example.com/docs/guide/intro.html")
	for _, href := range []string{
		"../api/index.html#top",
		"  chapter 2.html\n",
		"\\\\cdn.example.org\\lib.js",
		"//bücher.example/",
		"https://[0:0::1]:443/",
	} {
		u, err := urlnorm.Resolve(base, href)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(u)
	}
	// Output:
	// http://example.com/docs/api/index.html#top
	// http://example.com/docs/guide/chapter%202.html
	// http://cdn.example.org/lib.js
	// http://xn--bcher-kva.example/
	// https://[::1]/
}

func ExampleNormalize() {
	for _, raw := range []string{
		"HTTP://www.Example.COM:80/a/./b/../c/%7euser/%2fdata?#section",
		"https://example.com./search?q=%e2%82%ac&lang=en",
		"mailto:someone@example.com",
	} {
		s, err := urlnorm.Normalize(raw)
		if errors.Is(err, urlnorm.ErrScheme) {
			fmt.Println("skipped:", err)
			continue
		}
		fmt.Println(s)
	}
	// Output:
	// http://www.example.com/a/c/~user/%2Fdata
	// https://example.com/search?q=%E2%82%AC&lang=en
	// skipped: urlnorm: scheme is not http or https: "mailto"
}

func ExampleNew() {
	n := urlnorm.New(
		urlnorm.WithSortQuery(true),
		urlnorm.WithRemoveTracking(true),
		urlnorm.WithRemoveSessionIDs(true),
		urlnorm.WithRemoveDirectoryIndex(true),
		urlnorm.WithFoldWWW(true),
	)
	s, _ := n.Normalize("http://www.example.com/shop/index.php;jsessionid=A1?utm_source=mail&size=m&PHPSESSID=9&color=red")
	fmt.Println(s)
	// Output:
	// http://example.com/shop/?color=red&size=m
}

func ExampleNormalizer_ResolveString() {
	base, _ := url.Parse("https://example.com/blog/2024/post.html")
	n := urlnorm.New()
	for _, href := range []string{"../2023/", "?page=2", "#comments", "javascript:void(0)"} {
		s, err := n.ResolveString(base, href)
		if err != nil {
			fmt.Println("error:", errors.Is(err, urlnorm.ErrScheme))
			continue
		}
		fmt.Println(s)
	}
	// Output:
	// https://example.com/blog/2023/
	// https://example.com/blog/2024/post.html?page=2
	// https://example.com/blog/2024/post.html
	// error: true
}

func ExampleKey() {
	for _, raw := range []string{"http://Example.com:80/a", "https://example.com:8443/b", "http://[::1]:8080/"} {
		u, _ := url.Parse(raw)
		fmt.Println(urlnorm.Key(u))
	}
	// Output:
	// example.com
	// example.com:8443
	// [::1]:8080
}
