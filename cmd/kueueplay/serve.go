package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kueueplay/kueueplay"
	"github.com/kueueplay/kueueplay/api"
)

// contentSecurityPolicy is sent with every response; site/index.html
// carries the same policy in a meta element (a test keeps them equal).
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"

// contentTypes fixes the types the playground depends on (application/wasm
// for streaming compilation) instead of trusting the host's mime tables.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".yaml": "text/plain; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".png":  "image/png",
	".ico":  "image/x-icon",
}

// encodings are the precompressed siblings tried, best first.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

func cmdServe(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stdout, stderr)
}

// serve runs the server until ctx is done, then shuts it down gracefully.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("serve", flag.ContinueOnError)
	flags.SetOutput(stderr)
	addr := flags.String("addr", "localhost:8080", "listen on `host:port`")
	dir := flags.String("dir", "build/site", "serve the playground built in `DIR`")
	shares := flags.String("shares", "build/shares", "keep short links (POST /v1/share) in `DIR`; empty: no short links")
	limits := flags.String("limits", "paid", "the API's limits: `free|paid`, optionally with overrides (paid,objects=N,cycles=N,work=N,body=N)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "kueueplay serve: unexpected argument %q\n", flags.Arg(0))
		return 2
	}
	lim, err := api.ParseLimits(*limits)
	if err != nil {
		fmt.Fprintf(stderr, "kueueplay serve: -limits: %v\n", err)
		return 2
	}
	site, err := newSiteHandler(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "kueueplay serve: %v\n", err)
		return 1
	}
	h := newServer(site, *shares, lim)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "kueueplay serve: %v\n", err)
		return 1
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	fmt.Fprintf(stdout, "serving http://%s/ from %s, the API at /v1/ with limits %s (Ctrl+C stops)\n", displayAddr(*addr, ln.Addr()), *dir, *limits)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "kueueplay serve: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		fmt.Fprintf(stderr, "kueueplay serve: shutdown: %v\n", err)
		return 1
	}
	return 0
}

// newServer routes the API's paths (/v1/, /s/) to the API handler, with
// short links in sharesDir and the given limits, and everything else to
// the site.
//
// The limits default to the paid profile (-limits paid): this server runs
// on one's own machine, where the Workers Free plan's 10 ms of CPU per
// request means nothing, and the paid profile still bounds a request to
// seconds of CPU and a trace of tens of megabytes. A server open to
// others can take -limits free.
func newServer(site http.Handler, sharesDir string, lim api.Limits) http.Handler {
	cfg := api.Config{Examples: kueueplay.Examples(), Limits: lim}
	if sharesDir != "" {
		cfg.Store = api.DirStore{Dir: sharesDir}
	}
	a := api.New(cfg)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; strings.HasPrefix(p, "/v1/") || strings.HasPrefix(p, "/s/") {
			a.ServeHTTP(w, r)
			return
		}
		site.ServeHTTP(w, r)
	})
}

// displayAddr is the host the user asked for (localhost rather than
// 127.0.0.1; localhost for an unspecified address) with the port actually
// bound (for -addr :0).
func displayAddr(asked string, bound net.Addr) string {
	host, _, err := net.SplitHostPort(asked)
	if err != nil || host == "" || net.ParseIP(host).IsUnspecified() {
		host = "localhost"
	}
	port := ""
	if ta, ok := bound.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
	}
	return net.JoinHostPort(host, port)
}

// siteHandler serves a built playground folder. Files are opened with
// os.OpenInRoot, so no path (.., symlinks) reaches outside the folder, and
// by path on every request, so a rebuild that replaces the folder (make
// site) is served without a restart.
type siteHandler struct {
	dir string
}

func newSiteHandler(dir string) (*siteHandler, error) {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s does not exist; run make site first", dir)
		}
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		return nil, fmt.Errorf("%s has no index.html; run make site first", dir)
	}
	return &siteHandler{dir: dir}, nil
}

func (h *siteHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", contentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	name = strings.TrimPrefix(name, "/")
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") { // dotfiles, and any ".." left
			http.NotFound(w, r)
			return
		}
	}
	f, st, ok := h.open(name)
	if ok && st.IsDir() {
		f.Close()
		name = path.Join(name, "index.html")
		f, st, ok = h.open(name)
	}
	if !ok || st.IsDir() {
		if ok {
			f.Close()
		}
		http.NotFound(w, r)
		return
	}
	defer f.Close()

	ctype := contentTypes[path.Ext(name)]
	if ctype == "" {
		ctype = mime.TypeByExtension(path.Ext(name))
	}
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	hd.Set("Content-Type", ctype)
	// The file names carry no content hash, so every use revalidates
	// (a cheap 304 through Last-Modified).
	hd.Set("Cache-Control", "no-cache")

	// A precompressed sibling (editor.js.br) is served when the client
	// accepts its encoding; Vary tells caches the response depends on it.
	var varies bool
	for _, enc := range encodings {
		cf, cst, ok := h.open(name + enc.ext)
		if !ok {
			continue
		}
		if cst.IsDir() {
			cf.Close()
			continue
		}
		varies = true
		if !acceptsEncoding(r.Header.Get("Accept-Encoding"), enc.name) {
			cf.Close()
			continue
		}
		defer cf.Close()
		hd.Set("Vary", "Accept-Encoding")
		hd.Set("Content-Encoding", enc.name)
		http.ServeContent(w, r, name, st.ModTime(), cf)
		return
	}
	if varies {
		hd.Set("Vary", "Accept-Encoding")
	}
	http.ServeContent(w, r, name, st.ModTime(), f)
}

func (h *siteHandler) open(name string) (*os.File, fs.FileInfo, bool) {
	if name == "" {
		name = "."
	}
	f, err := os.OpenInRoot(h.dir, name)
	if err != nil {
		return nil, nil, false
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, false
	}
	return f, st, true
}

// acceptsEncoding reports whether an Accept-Encoding header accepts coding
// with a non-zero quality (explicitly or through "*").
func acceptsEncoding(header, coding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		token, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		token = strings.ToLower(strings.TrimSpace(token))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch token {
		case coding:
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}
