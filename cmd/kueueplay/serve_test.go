package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/api"
	"github.com/kueueplay/kueueplay/ui/sharelink"
	"github.com/kueueplay/kueueplay/ui/view"
)

// testSite writes a small built site into dir/site next to a secret file
// that must never be served, and returns the site folder.
func testSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	files := map[string]string{
		"secret.txt":                       "TOP SECRET",
		"site/index.html":                  "<!doctype html><title>index</title>",
		"site/app.js":                      "console.log('plain')",
		"site/app.js.gz":                   "GZIP-BYTES",
		"site/app.js.br":                   "BROTLI-BYTES",
		"site/kueueplay.wasm":              "\x00asm\x01\x00\x00\x00",
		"site/kueueplay.wasm.gz":           "WASM-GZIP",
		"site/style.css":                   "body{}",
		"site/favicon.svg":                 "<svg xmlns='http://www.w3.org/2000/svg'/>",
		"site/scenarios/index.json":        "[]",
		"site/scenarios/default.yaml":      "kind: Scenario",
		"site/.hidden":                     "hidden",
		"site/sub/readme.txt":              "sub",
		"site/scenarios/default.yaml.br/x": "a directory named like a compressed sibling",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join("..", "secret.txt"), filepath.Join(site, "link.txt")); err != nil {
		t.Logf("no symlink case: %v", err)
	}
	return site
}

func TestServeHandler(t *testing.T) {
	h, err := newSiteHandler(testSite(t))
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, method, target, accept string
		status                       int
		ctype, encoding, vary, cache string
		body                         string // exact body, when set
	}{
		{name: "root is index.html", target: "/", status: 200, ctype: "text/html; charset=utf-8", cache: "no-cache", body: "<!doctype html><title>index</title>"},
		{name: "index.html", target: "/index.html", status: 200, ctype: "text/html; charset=utf-8", cache: "no-cache"},
		{name: "head", method: "HEAD", target: "/", status: 200, ctype: "text/html; charset=utf-8", body: ""},
		{name: "brotli preferred", target: "/app.js", accept: "gzip, deflate, br", status: 200, ctype: "text/javascript; charset=utf-8", encoding: "br", vary: "Accept-Encoding", body: "BROTLI-BYTES"},
		{name: "gzip only", target: "/app.js", accept: "gzip", status: 200, ctype: "text/javascript; charset=utf-8", encoding: "gzip", vary: "Accept-Encoding", body: "GZIP-BYTES"},
		{name: "br refused by q=0", target: "/app.js", accept: "br;q=0, gzip;q=0.5", status: 200, encoding: "gzip", vary: "Accept-Encoding", body: "GZIP-BYTES"},
		{name: "wildcard", target: "/app.js", accept: "*", status: 200, encoding: "br", vary: "Accept-Encoding", body: "BROTLI-BYTES"},
		{name: "identity", target: "/app.js", status: 200, ctype: "text/javascript; charset=utf-8", vary: "Accept-Encoding", body: "console.log('plain')"},
		{name: "everything refused", target: "/app.js", accept: "gzip;q=0, br;q=0", status: 200, vary: "Accept-Encoding", body: "console.log('plain')"},
		{name: "wasm gzip", target: "/kueueplay.wasm", accept: "gzip, br", status: 200, ctype: "application/wasm", encoding: "gzip", vary: "Accept-Encoding", body: "WASM-GZIP"},
		{name: "wasm plain", target: "/kueueplay.wasm", status: 200, ctype: "application/wasm", vary: "Accept-Encoding", body: "\x00asm\x01\x00\x00\x00"},
		{name: "css", target: "/style.css", accept: "gzip", status: 200, ctype: "text/css; charset=utf-8", body: "body{}"},
		{name: "json", target: "/scenarios/index.json", status: 200, ctype: "application/json", body: "[]"},
		{name: "svg", target: "/favicon.svg", status: 200, ctype: "image/svg+xml"},
		{name: "yaml, directory is no sibling", target: "/scenarios/default.yaml", accept: "br", status: 200, ctype: "text/plain; charset=utf-8", body: "kind: Scenario"},
		{name: "missing", target: "/nope.js", status: 404},
		{name: "traversal", target: "/../go.mod", status: 404},
		{name: "traversal to secret", target: "/../secret.txt", status: 404},
		{name: "encoded traversal", target: "/%2e%2e/secret.txt", status: 404},
		{name: "encoded slash traversal", target: "/..%2fsecret.txt", status: 404},
		{name: "deep traversal", target: "/scenarios/../../secret.txt", status: 404},
		{name: "symlink out of the folder", target: "/link.txt", status: 404},
		{name: "dotfile", target: "/.hidden", status: 404},
		{name: "directory without index", target: "/sub/", status: 404},
		{name: "directory without slash", target: "/sub", status: 404},
		{name: "post", method: "POST", target: "/", status: 405},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = "GET"
			}
			req := httptest.NewRequest(method, tc.target, nil)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d (body %q)", res.StatusCode, tc.status, body)
			}
			hd := res.Header
			for k, want := range map[string]string{
				"Content-Security-Policy": contentSecurityPolicy,
				"X-Content-Type-Options":  "nosniff",
				"Referrer-Policy":         "no-referrer",
				"Content-Encoding":        tc.encoding,
			} {
				if got := hd.Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if tc.ctype != "" && hd.Get("Content-Type") != tc.ctype {
				t.Errorf("Content-Type = %q, want %q", hd.Get("Content-Type"), tc.ctype)
			}
			if hd.Get("Vary") != tc.vary {
				t.Errorf("Vary = %q, want %q", hd.Get("Vary"), tc.vary)
			}
			if tc.cache != "" && hd.Get("Cache-Control") != tc.cache {
				t.Errorf("Cache-Control = %q, want %q", hd.Get("Cache-Control"), tc.cache)
			}
			if tc.body != "" || method == "HEAD" {
				if string(body) != tc.body {
					t.Errorf("body %q, want %q", body, tc.body)
				}
			}
			if strings.Contains(string(body), "SECRET") {
				t.Errorf("served a file outside the folder: %q", body)
			}
			if tc.status == 405 && hd.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow = %q", hd.Get("Allow"))
			}
		})
	}
}

func TestAcceptsEncoding(t *testing.T) {
	for _, tc := range []struct {
		header, coding string
		want           bool
	}{
		{"", "br", false},
		{"gzip, br", "br", true},
		{"GZIP", "gzip", true},
		{"br;q=0", "br", false},
		{"br; q=0.001", "br", true},
		{"*;q=0.1", "gzip", true},
		{"*, gzip;q=0", "gzip", false},
		{"*;q=0", "br", false},
		{"deflate", "gzip", false},
	} {
		if got := acceptsEncoding(tc.header, tc.coding); got != tc.want {
			t.Errorf("acceptsEncoding(%q, %q) = %t, want %t", tc.header, tc.coding, got, tc.want)
		}
	}
}

func TestServeMissingDir(t *testing.T) {
	var stdout, stderr strings.Builder
	code := run([]string{"serve", "-dir", filepath.Join(t.TempDir(), "nope")}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "run make site first") {
		t.Errorf("exit %d, stderr %q; want 1 and a hint to run make site", code, stderr.String())
	}
	empty := t.TempDir()
	stderr.Reset()
	if code := run([]string{"serve", "-dir", empty}, strings.NewReader(""), &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "no index.html") {
		t.Errorf("exit %d, stderr %q; want 1 and no index.html", code, stderr.String())
	}
}

// TestServeLifecycle starts the server on a free port, fetches the page
// and stops it the way SIGINT does (the context ends).
func TestServeLifecycle(t *testing.T) {
	site := testSite(t)
	shares := filepath.Join(t.TempDir(), "shares")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := serve(ctx, []string{"-addr", "127.0.0.1:0", "-dir", site, "-shares", shares}, pw, io.Discard)
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the banner: %v", err)
	}
	go io.Copy(io.Discard, pr)
	url := regexp.MustCompile(`^serving (http://127\.0\.0\.1:\d+/) `).FindStringSubmatch(line)
	if url == nil {
		t.Fatalf("banner %q", line)
	}
	res, err := http.Get(url[1])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "<title>index</title>") {
		t.Errorf("GET %s: %d %q", url[1], res.StatusCode, body)
	}

	// The API is mounted beside the site, with short links in -shares.
	res, err = http.Get(url[1] + "v1/examples/default?format=yaml")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "kind: Scenario") {
		t.Errorf("GET /v1/examples/default: %d %.100q", res.StatusCode, body)
	}
	frag := sharelink.Encode(view.Shared{Example: "default", Step: 2})
	res, err = http.Post(url[1]+"v1/share", "text/plain", strings.NewReader(frag))
	if err != nil {
		t.Fatal(err)
	}
	var link struct{ ID, URL string }
	json.NewDecoder(res.Body).Decode(&link)
	res.Body.Close()
	if res.StatusCode != 201 || link.URL != url[1]+"s/"+link.ID {
		t.Fatalf("POST /v1/share: %d %+v", res.StatusCode, link)
	}
	if _, err := os.Stat(filepath.Join(shares, link.ID)); err != nil {
		t.Errorf("the short link is not in the -shares directory: %v", err)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err = noFollow.Get(link.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "../#"+frag {
		t.Errorf("GET %s: %d, Location %q", link.URL, res.StatusCode, res.Header.Get("Location"))
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after shutdown, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop")
	}
}

func TestDisplayAddr(t *testing.T) {
	h := httptest.NewServer(http.NotFoundHandler())
	defer h.Close()
	bound := h.Listener.Addr()
	port := bound.String()[strings.LastIndex(bound.String(), ":")+1:]
	for asked, want := range map[string]string{
		"localhost:8080": "localhost:" + port,
		":8080":          "localhost:" + port,
		"0.0.0.0:8080":   "localhost:" + port,
		"127.0.0.1:0":    "127.0.0.1:" + port,
		"[::1]:0":        "[::1]:" + port,
	} {
		if got := displayAddr(asked, bound); got != want {
			t.Errorf("displayAddr(%q) = %q, want %q", asked, got, want)
		}
	}
}

// startServe runs serve with args (and a test site, no short links) on a
// free port until the test ends, and returns its URL.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(ctx, append([]string{"-addr", "127.0.0.1:0", "-dir", testSite(t), "-shares", ""}, args...), pw, io.Discard)
		pw.Close()
	}()
	t.Cleanup(func() { cancel(); <-done })
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the banner: %v", err)
	}
	go io.Copy(io.Discard, pr)
	url := regexp.MustCompile(`^serving (http://127\.0\.0\.1:\d+/) `).FindStringSubmatch(line)
	if url == nil {
		t.Fatalf("banner %q", line)
	}
	return url[1]
}

// TestServeLimits: -limits chooses the API's limits, the paid profile by
// default, and a setting api.ParseLimits refuses is a usage error.
func TestServeLimits(t *testing.T) {
	free, paid := api.FreeLimits, api.PaidLimits
	if paid.MaxObjects <= free.MaxObjects {
		t.Fatalf("the paid profile's object limit %d is not above the free one's %d", paid.MaxObjects, free.MaxObjects)
	}
	// One object more than the free profile takes.
	var sc strings.Builder
	sc.WriteString("apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: flavors}\nspec: {}\n")
	for i := range free.MaxObjects + 1 {
		fmt.Fprintf(&sc, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: f%d}\n", i)
	}
	simulate := func(url string) (int, string, int64) {
		t.Helper()
		res, err := http.Post(url+"v1/simulate", "text/plain", strings.NewReader(sc.String()))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body struct {
			Error struct {
				Code  string
				Limit int64
			}
		}
		json.NewDecoder(res.Body).Decode(&body)
		return res.StatusCode, body.Error.Code, body.Error.Limit
	}
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		code   string
		limit  int64
	}{
		{"default: paid", nil, 200, "", 0},
		{"paid", []string{"-limits", "paid"}, 200, "", 0},
		{"free", []string{"-limits", "free"}, 422, "object_limit", int64(free.MaxObjects)},
		{"paid with an override", []string{"-limits", "paid,objects=5"}, 422, "object_limit", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, code, limit := simulate(startServe(t, tc.args...))
			if status != tc.status || code != tc.code || limit != tc.limit {
				t.Errorf("simulate %d objects: %d %q limit %d; want %d %q limit %d", free.MaxObjects+1, status, code, limit, tc.status, tc.code, tc.limit)
			}
		})
	}

	var stderr strings.Builder
	if code := serve(context.Background(), []string{"-limits", "enterprise", "-dir", testSite(t)}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "-limits") {
		t.Errorf("-limits enterprise: exit %d, stderr %q; want 2 and the flag named", code, stderr.String())
	}
}
