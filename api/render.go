package api

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"

	"github.com/kueueplay/kueueplay/ui/sharelink"
	"github.com/kueueplay/kueueplay/ui/view"
)

// render draws one step as a self-contained SVG (view.SVG: quota bars,
// queues, the step's decisions, no script or external reference), so a
// README or a docs page without JavaScript can show a picture the engine
// drew. Parameters:
//
//	s=v1.…        a share fragment (what follows # in a share link); or
//	example=NAME  a bundled example
//	step=N        the step (default: the fragment's step, else 0)
//	theme=light|dark, width=600..2000
func (h *Handler) render(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	var sh view.Shared
	switch s, ex := q.Get("s"), q.Get("example"); {
	case s != "" && ex != "":
		return badRequest("bad_parameter", "give either s (a share fragment) or example, not both")
	case s != "":
		var err error
		if sh, err = sharelink.Decode(s); err != nil {
			return badRequest("bad_fragment", "s: %v (pass what follows # in a playground share link)", err)
		}
		if err := sh.Validate(); err != nil {
			return badRequest("bad_fragment", "s: %v", err)
		}
	case ex != "":
		sh.Example = strings.TrimSuffix(ex, ".yaml")
		if !view.ValidExampleName(sh.Example) {
			return badRequest("bad_parameter", "example %q: not an example name", ex)
		}
	default:
		return badRequest("bad_parameter", "no scenario: pass s=<share fragment> or example=<name>")
	}
	step := sh.Step
	if v := q.Get("step"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return badRequest("bad_parameter", "step %q: want a step number (0, 1, 2, ...)", v)
		}
		step = n
	}
	opts := view.SVGOptions{Theme: q.Get("theme")}
	if opts.Theme != "" && opts.Theme != "light" && opts.Theme != "dark" {
		return badRequest("bad_parameter", "theme %q: want light or dark", opts.Theme)
	}
	if v := q.Get("width"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 600 || n > 2000 {
			return badRequest("bad_parameter", "width %q: want 600 to 2000 pixels", v)
		}
		opts.Width = n
	}
	text, file := sh.Scenario, defaultFile
	if text == "" {
		if sh.Example == "" {
			return badRequest("bad_fragment", "s: the fragment holds no scenario")
		}
		file = sh.Example + ".yaml"
		data, err := h.exampleFile(file)
		if err != nil {
			return err
		}
		text = string(data)
	}
	run, err := h.run(file, []byte(text), view.Variant{Gates: sh.Gates, Settings: sh.Settings}, nil)
	if err != nil {
		return err
	}
	if n := len(run.trace.Steps); step >= n {
		return badRequest("bad_range", "step %d: the run has %d steps (0 to %d)", step, n, n-1)
	}
	opts.Heading = run.sc.Name
	if opts.Heading == "" {
		opts.Heading = sh.Example
	}
	svg := view.SVG(view.Build(run.trace, step), opts).String()
	hd := w.Header()
	hd.Set("Content-Type", "image/svg+xml")
	// The picture depends only on the URL (and the engine's version).
	hd.Set("Cache-Control", "public, max-age=3600")
	w.Write([]byte(svg))
	return nil
}

// exampleFile reads a bundled example by file name.
func (h *Handler) exampleFile(file string) ([]byte, error) {
	if h.examples != nil {
		data, err := fs.ReadFile(h.examples, file)
		if err == nil {
			return data, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return nil, &apiError{Status: http.StatusNotFound, Code: "no_such_example",
		Message: fmt.Sprintf("no example named %q (GET /v1/examples lists them)", strings.TrimSuffix(file, ".yaml"))}
}
