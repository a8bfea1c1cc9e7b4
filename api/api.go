// Package api is kueueplay's HTTP API: one net/http handler that runs in
// three places with the same code, inside `kueueplay serve`, as the
// Cloudflare Worker (cmd/worker, built to WebAssembly with
// github.com/syumai/workers) and under a local workerd in the tests.
//
// Endpoints (JSON unless said otherwise; README "The HTTP API" has
// examples):
//
//	POST /v1/validate            scenario YAML in; {"valid", "diagnostics"} out
//	POST /v1/simulate            scenario YAML in (or a JSON envelope); the trace out
//	GET  /v1/render.svg          ?s=<share fragment>|example=<name>&step=<n>: one step as SVG
//	POST /v1/share               a share fragment (v1.…) in; {"id", "url", "fragment"} out
//	GET  /v1/share/<id>          the stored fragment and its state
//	GET  /s/<id>                 redirects to the playground holding that fragment
//	GET  /v1/examples            the gallery's index
//	GET  /v1/examples/<name>     one example (?format=yaml for the file itself)
//
// Every error is a JSON object {"error": {"status", "code", "message",
// ...}} with a 4xx status for anything the request did wrong (5xx only for
// a failing share store or a bug). The limits (Limits) bound what one
// request may cost. Cross-origin calls are allowed for validate, simulate
// and render.svg, so documentation pages on other hosts can use them, and
// for nothing else.
//
// The handler keeps no state between requests except the parsed gallery
// (built once) and what it writes to the share Store, so one instance may
// serve any number of requests, concurrently.
package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"

	"github.com/kueueplay/kueueplay/gallery"
)

// Limits bound what one request may cost. The zero value of a field means
// its default (DefaultLimits). FreeLimits and PaidLimits are the named
// profiles (api/limits.go), for the Workers Free and Paid plans.
type Limits struct {
	// MaxBodyBytes bounds a request body (413 beyond it).
	MaxBodyBytes int64
	// MaxObjects bounds the objects of one scenario: flavors, queues,
	// cohorts, namespaces, workloads, nodes, Deployments, ResourcePolicies
	// and events (422 beyond it).
	MaxObjects int
	// MaxCycles bounds the scheduling cycles one simulation may run. A
	// scenario whose spec.maxCycles asks for more is refused; one that sets
	// none runs with this bound and is refused if it does not settle
	// within it (422).
	MaxCycles int
	// MaxWork is the CPU budget of one simulation, in work units (see
	// stepWork): a deterministic count of what the engine did, so the same
	// request is refused or served the same way natively and on Workers,
	// where the clock does not advance during computation (422 beyond it).
	MaxWork int64
}

// DefaultLimits are the limits New uses for unset fields: the free
// profile (FreeLimits), the one that fits anywhere the API runs.
var DefaultLimits = FreeLimits

func (l Limits) withDefaults() Limits {
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = DefaultLimits.MaxBodyBytes
	}
	if l.MaxObjects <= 0 {
		l.MaxObjects = DefaultLimits.MaxObjects
	}
	if l.MaxCycles <= 0 {
		l.MaxCycles = DefaultLimits.MaxCycles
	}
	if l.MaxWork <= 0 {
		l.MaxWork = DefaultLimits.MaxWork
	}
	return l
}

// Config configures New.
type Config struct {
	// Examples holds the gallery's *.yaml files at its root
	// (kueueplay.Examples()); nil serves an empty gallery.
	Examples fs.FS
	// Store keeps short links; nil makes /v1/share and /s/ answer 501.
	Store Store
	// Limits bound each request; zero fields take DefaultLimits.
	Limits Limits
}

// Handler is the API. Create it with New.
type Handler struct {
	examples fs.FS
	store    Store
	limits   Limits

	galleryOnce sync.Once
	gallery     []gallery.Entry
	galleryErr  error
}

// New returns the API handler. It serves the paths under /v1/ and /s/ and
// answers 404 for everything else, so a server mounts it on those two
// prefixes (cmd/kueueplay does).
func New(cfg Config) *Handler {
	return &Handler{examples: cfg.Examples, store: cfg.Store, limits: cfg.Limits.withDefaults()}
}

// corsPaths are the endpoints any origin may call.
var corsPaths = map[string]bool{
	"/v1/validate":   true,
	"/v1/simulate":   true,
	"/v1/render.svg": true,
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			writeError(w, &apiError{Status: http.StatusInternalServerError, Code: "internal",
				Message: fmt.Sprintf("internal error (a bug in kueueplay, please report it): %v", v)})
		}
	}()
	p := r.URL.Path
	if corsPaths[p] {
		hd.Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			hd.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			hd.Set("Access-Control-Allow-Headers", "Content-Type")
			hd.Set("Access-Control-Max-Age", "86400")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	var err error
	switch {
	case p == "/v1/validate":
		err = h.method(w, r, http.MethodPost, h.validate)
	case p == "/v1/simulate":
		err = h.method(w, r, http.MethodPost, h.simulate)
	case p == "/v1/render.svg":
		err = h.method(w, r, http.MethodGet, h.render)
	case p == "/v1/share":
		err = h.method(w, r, http.MethodPost, h.share)
	case strings.HasPrefix(p, "/v1/share/"):
		err = h.method(w, r, http.MethodGet, func(w http.ResponseWriter, r *http.Request) error {
			return h.shared(w, r, strings.TrimPrefix(p, "/v1/share/"), true)
		})
	case strings.HasPrefix(p, "/s/"):
		err = h.method(w, r, http.MethodGet, func(w http.ResponseWriter, r *http.Request) error {
			return h.shared(w, r, strings.TrimPrefix(p, "/s/"), false)
		})
	case p == "/v1/examples" || p == "/v1/examples/":
		err = h.method(w, r, http.MethodGet, h.examplesIndex)
	case strings.HasPrefix(p, "/v1/examples/"):
		err = h.method(w, r, http.MethodGet, func(w http.ResponseWriter, r *http.Request) error {
			return h.example(w, r, strings.TrimPrefix(p, "/v1/examples/"))
		})
	default:
		err = &apiError{Status: http.StatusNotFound, Code: "not_found",
			Message: fmt.Sprintf("no endpoint at %s; see GET /v1/examples, POST /v1/validate, POST /v1/simulate, GET /v1/render.svg, POST /v1/share", p)}
	}
	if err != nil {
		writeError(w, err)
	}
}

// method runs f for requests with the given method (and HEAD for GET);
// anything else is a 405 naming the allowed method.
func (h *Handler) method(w http.ResponseWriter, r *http.Request, m string, f func(http.ResponseWriter, *http.Request) error) error {
	if r.Method == m || m == http.MethodGet && r.Method == http.MethodHead {
		return f(w, r)
	}
	allow := m
	if m == http.MethodGet {
		allow = "GET, HEAD"
	}
	w.Header().Set("Allow", allow)
	return &apiError{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
		Message: fmt.Sprintf("%s %s: use %s", r.Method, r.URL.Path, m)}
}

// apiError is an error response.
type apiError struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Limit is the bound that was exceeded, for the limit errors.
	Limit int64 `json:"limit,omitempty"`
	// Diagnostics are the scenario's problems, for invalid_scenario.
	Diagnostics any `json:"diagnostics,omitempty"`
}

func (e *apiError) Error() string { return e.Message }

func badRequest(code, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: code, Message: fmt.Sprintf(format, args...)}
}

func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{Status: http.StatusInternalServerError, Code: "internal", Message: err.Error()}
	}
	w.Header().Del("Cache-Control")
	writeJSON(w, ae.Status, struct {
		Error *apiError `json:"error"`
	}{ae})
}

// writeJSON writes v as compact JSON and a newline.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
	return nil
}

// readBody reads the whole body within the size limit.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength > h.limits.MaxBodyBytes {
		return nil, h.tooLarge(r.ContentLength)
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.limits.MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, h.tooLarge(-1)
		}
		return nil, badRequest("bad_body", "reading the request body: %v", err)
	}
	return data, nil
}

func (h *Handler) tooLarge(n int64) error {
	size := "more than that"
	if n >= 0 {
		size = fmt.Sprintf("%d bytes", n)
	}
	return &apiError{Status: http.StatusRequestEntityTooLarge, Code: "body_too_large", Limit: h.limits.MaxBodyBytes,
		Message: fmt.Sprintf("the request body may hold at most %d bytes; this one has %s (run large scenarios with the kueueplay CLI)", h.limits.MaxBodyBytes, size)}
}
