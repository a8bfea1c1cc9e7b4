package main

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestSiteCSPMatchesServer keeps the policy in site/index.html's meta
// element equal to the header kueueplay serve sends.
func TestSiteCSPMatchesServer(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "site", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindSubmatch(page)
	if m == nil {
		t.Fatal("site/index.html has no Content-Security-Policy meta element")
	}
	if got := html.UnescapeString(string(m[1])); got != contentSecurityPolicy {
		t.Errorf("site/index.html CSP\n  %s\nserve.go CSP\n  %s", got, contentSecurityPolicy)
	}
}
