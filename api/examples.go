package api

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/kueueplay/kueueplay/gallery"
	"github.com/kueueplay/kueueplay/ui/view"
)

// entries is the gallery's index, built once.
func (h *Handler) entries() ([]gallery.Entry, error) {
	h.galleryOnce.Do(func() {
		h.gallery = []gallery.Entry{}
		if h.examples != nil {
			h.gallery, h.galleryErr = gallery.Index(h.examples)
		}
	})
	return h.gallery, h.galleryErr
}

// examplesIndex is GET /v1/examples: the gallery, in the playground's
// order (package gallery).
func (h *Handler) examplesIndex(w http.ResponseWriter, r *http.Request) error {
	entries, err := h.entries()
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	return writeJSON(w, http.StatusOK, struct {
		Examples []gallery.Entry `json:"examples"`
	}{entries})
}

// exampleResponse is GET /v1/examples/<name>'s answer.
type exampleResponse struct {
	gallery.Entry
	YAML string `json:"yaml"`
}

// example is GET /v1/examples/<name> (with or without .yaml): the entry
// and its YAML, or with ?format=yaml the file itself.
func (h *Handler) example(w http.ResponseWriter, r *http.Request, name string) error {
	name = strings.TrimSuffix(name, ".yaml")
	if !view.ValidExampleName(name) {
		return &apiError{Status: http.StatusNotFound, Code: "no_such_example",
			Message: fmt.Sprintf("%q is not an example name (GET /v1/examples lists them)", name)}
	}
	format := r.URL.Query().Get("format")
	if format != "" && format != "json" && format != "yaml" {
		return badRequest("bad_parameter", "format %q: want json or yaml", format)
	}
	entries, err := h.entries()
	if err != nil {
		return err
	}
	data, err := h.exampleFile(name + ".yaml")
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	if format == "yaml" {
		w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
		w.Write(data)
		return nil
	}
	res := exampleResponse{YAML: string(data)}
	for _, e := range entries {
		if e.File == name+".yaml" {
			res.Entry = e
		}
	}
	return writeJSON(w, http.StatusOK, res)
}
