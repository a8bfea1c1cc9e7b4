package api

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/kueueplay/kueueplay/ui/sharelink"
	"github.com/kueueplay/kueueplay/ui/view"
)

// Store keeps short links: immutable values under content-derived keys.
// Implementations: DirStore (a directory, natively), MemStore (tests), and
// Workers KV (cmd/worker).
type Store interface {
	// Get returns the value stored under key; ok is false when there is
	// none.
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	// Put stores value under key.
	Put(ctx context.Context, key string, value []byte) error
}

// idLength is the length of a short link's id: base64url of the first 96
// bits of the SHA-256 of the shared state's canonical JSON.
const idLength = 16

// shareID derives the id from the state, so a link can never point to
// other content: the same state always gets the same id, and a stored id
// is never overwritten.
func shareID(sh view.Shared) string {
	canonical, err := json.Marshal(sh) // map keys sorted: canonical
	if err != nil {                    // cannot happen: strings, ints, maps of bools
		panic(err)
	}
	sum := sha256.Sum256(canonical)
	return base64.RawURLEncoding.EncodeToString(sum[:])[:idLength]
}

// validID reports whether id can be a short link's id.
func validID(id string) bool {
	if len(id) != idLength {
		return false
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// shareResponse is the answer of POST /v1/share and GET /v1/share/<id>.
type shareResponse struct {
	ID string `json:"id"`
	// URL is the short link (https://host/s/<id>).
	URL string `json:"url"`
	// Fragment is the share fragment the link opens (without '#').
	Fragment string `json:"fragment"`
	// Shared is the state the fragment holds (GET /v1/share/<id> only).
	Shared *view.Shared `json:"shared,omitempty"`
}

// share stores a share fragment (the body: "v1.…", or a whole playground
// link, whose part after '#' is taken) and answers its short link: 201
// when it is new, 200 when the same state was shared before.
func (h *Handler) share(w http.ResponseWriter, r *http.Request) error {
	if h.store == nil {
		return errNoStore
	}
	body, err := h.readBody(w, r)
	if err != nil {
		return err
	}
	frag := strings.TrimSpace(string(body))
	if _, after, ok := strings.Cut(frag, "#"); ok {
		frag = after
	}
	sh, err := sharelink.Decode(frag)
	if err == nil {
		err = sh.Validate()
	}
	if err != nil {
		return badRequest("bad_fragment", "the body must be a playground share fragment (v1.…): %v", err)
	}
	id := shareID(sh)
	frag = sharelink.Encode(sh)
	ctx := r.Context()
	status := http.StatusOK
	if _, ok, err := h.store.Get(ctx, id); err != nil {
		return storeError(err)
	} else if !ok {
		if err := h.store.Put(ctx, id, []byte(frag)); err != nil {
			return storeError(err)
		}
		status = http.StatusCreated
	}
	return writeJSON(w, status, shareResponse{ID: id, URL: baseURL(r) + "/s/" + id, Fragment: frag})
}

// shared answers GET /v1/share/<id> (asJSON) and GET /s/<id> (a redirect
// to the playground: ../#v1.…, so a playground under a sub-path works;
// ?embed=1 is kept for embedding).
func (h *Handler) shared(w http.ResponseWriter, r *http.Request, id string, asJSON bool) error {
	if h.store == nil {
		return errNoStore
	}
	notFound := &apiError{Status: http.StatusNotFound, Code: "no_such_link",
		Message: fmt.Sprintf("no short link %q (ids are %d characters of A-Z, a-z, 0-9, - and _)", id, idLength)}
	if !validID(id) {
		return notFound
	}
	val, ok, err := h.store.Get(r.Context(), id)
	if err != nil {
		return storeError(err)
	}
	if !ok {
		return notFound
	}
	frag := string(val)
	sh, err := sharelink.Decode(frag)
	if err != nil {
		return &apiError{Status: http.StatusInternalServerError, Code: "store_corrupt",
			Message: fmt.Sprintf("the stored link %s cannot be read: %v", id, err)}
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	if asJSON {
		return writeJSON(w, http.StatusOK, shareResponse{ID: id, URL: baseURL(r) + "/s/" + id, Fragment: frag, Shared: &sh})
	}
	target := "../"
	if r.URL.Query().Get("embed") == "1" {
		target += "?embed=1"
	}
	// Written as is (http.Redirect would make it absolute from the
	// request's path, wrong behind a prefix-stripping proxy).
	w.Header().Set("Location", target+"#"+frag)
	w.WriteHeader(http.StatusFound)
	return nil
}

var errNoStore = &apiError{Status: http.StatusNotImplemented, Code: "no_share_store",
	Message: "this server keeps no short links; share the playground's #v1.… link instead"}

func storeError(err error) error {
	return &apiError{Status: http.StatusBadGateway, Code: "store_failed", Message: "the short-link store failed: " + err.Error()}
}

// baseURL is the scheme and host the request reached.
func baseURL(r *http.Request) string {
	scheme := r.URL.Scheme
	if scheme == "" {
		scheme = "http"
		if r.TLS != nil {
			scheme = "https"
		}
		if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
			scheme = p
		}
	}
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	return scheme + "://" + host
}
