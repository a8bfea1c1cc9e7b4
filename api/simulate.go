package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/view"
)

// defaultFile names the scenario in diagnostics when the request does not.
const defaultFile = "scenario.yaml"

// validateResponse is POST /v1/validate's answer.
type validateResponse struct {
	// Valid is true when the scenario has no error (warnings allowed).
	Valid       bool              `json:"valid"`
	Diagnostics []core.Diagnostic `json:"diagnostics"`
}

// validate answers 200 with the diagnostics, whether or not the scenario
// is valid: the request itself succeeded.
func (h *Handler) validate(w http.ResponseWriter, r *http.Request) error {
	body, err := h.readBody(w, r)
	if err != nil {
		return err
	}
	file, err := fileParam(r)
	if err != nil {
		return err
	}
	res := validateResponse{Valid: true, Diagnostics: []core.Diagnostic{}}
	sc, err := scenario.Decode(file, body)
	var de *core.DiagnosticsError
	switch {
	case err == nil:
		res.Diagnostics = append(res.Diagnostics, sc.Warnings...)
		if lerr := h.checkObjects(sc); lerr != nil {
			// Valid for the engine, too big for this API: say so as a
			// diagnostic, where an editor shows it.
			res.Diagnostics = append(res.Diagnostics, core.Diagnostic{
				Pos: core.Pos{File: file, Line: 1, Col: 1}, Severity: core.SeverityWarning, Message: lerr.Message})
		}
	case errors.As(err, &de):
		res.Valid = false
		res.Diagnostics = append(res.Diagnostics, de.Diagnostics...)
	default:
		return &apiError{Status: http.StatusUnprocessableEntity, Code: "invalid_scenario", Message: err.Error()}
	}
	return writeJSON(w, http.StatusOK, res)
}

// fileParam is the ?file= name diagnostics use.
func fileParam(r *http.Request) (string, error) {
	return checkFile(r.URL.Query().Get("file"))
}

// checkFile bounds the file name diagnostics use; "" is defaultFile.
func checkFile(f string) (string, error) {
	if f == "" {
		return defaultFile, nil
	}
	if len(f) > 200 || strings.ContainsFunc(f, func(c rune) bool { return c < ' ' || c == 0x7f }) {
		return "", badRequest("bad_parameter", "file: at most 200 printable characters")
	}
	return f, nil
}

// simulateRequest is POST /v1/simulate's JSON envelope (Content-Type
// application/json). A body of any other type is the scenario itself,
// with the same options as query parameters: ?gates=A=true,B=false
// &settings=key=value,...&from=N&to=M&format=json|text&file=NAME.
type simulateRequest struct {
	Scenario string          `json:"scenario"`
	Gates    map[string]bool `json:"gates,omitempty"`
	Settings view.Settings   `json:"settings"`
	// From and To select the steps returned (inclusive; To defaults to
	// the last step).
	From   *int   `json:"from,omitempty"`
	To     *int   `json:"to,omitempty"`
	Format string `json:"format,omitempty"`
	File   string `json:"file,omitempty"`
}

// simulateResponse is the JSON answer: the trace, with Steps restricted to
// [From, To] of Total.
type simulateResponse struct {
	Warnings []core.Diagnostic `json:"warnings"`
	From     int               `json:"from"`
	To       int               `json:"to"`
	Total    int               `json:"total"`
	Trace    *trace.Trace      `json:"trace"`
}

func (h *Handler) simulate(w http.ResponseWriter, r *http.Request) error {
	body, err := h.readBody(w, r)
	if err != nil {
		return err
	}
	req, err := parseSimulateRequest(r, body)
	if err != nil {
		return err
	}
	if req.Format != "" && req.Format != "json" && req.Format != "text" {
		return badRequest("bad_parameter", "format %q: want json or text", req.Format)
	}
	// The steps in the range are written as the run makes them (the
	// trace's JSON or text into out), and no step is kept: the request's
	// memory follows its answer, not its run. The answer is sent only
	// once the run is known to be within the limits and the range valid.
	from, to := 0, math.MaxInt
	if req.From != nil {
		from = *req.From
	}
	if req.To != nil {
		to = *req.To
	}
	if from < 0 || to < from {
		return badRequest("bad_range", "steps from %d to %d: want 0 <= from <= to", from, to)
	}
	var out chunks
	var writeStep func(*trace.Trace, *trace.Step)
	var closeOut func(*trace.Trace) error
	if req.Format == "text" {
		f := trace.NewFormatter(&out)
		writeStep, closeOut = f.Step, f.Close
	} else {
		jw := trace.NewJSONWriter(&out)
		writeStep, closeOut = jw.Step, jw.Close
	}
	rs := &trace.RangeSink{From: from, To: to, Write: writeStep}
	run, err := h.run(req.File, []byte(req.Scenario), view.Variant{Gates: req.Gates, Settings: req.Settings}, rs.Step)
	if err != nil {
		return err
	}
	total := rs.Steps
	if from >= total {
		return badRequest("bad_range", "step %d: the run has %d steps (0 to %d)", from, total, total-1)
	}
	to = min(to, total-1)
	if err := closeOut(run.trace); err != nil {
		return err
	}
	if req.Format == "text" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		out.writeTo(w, 0)
		return nil
	}
	// simulateResponse's fields, in its order, around the trace's JSON
	// (TestSimulateStreamed checks the bytes are json.Marshal's).
	head, err := json.Marshal(simulateResponse{
		Warnings: append(nonNil(slices.Clone(run.sc.Warnings)), gateWarnings(req.Gates)...), From: from, To: to, Total: total,
	})
	if err != nil {
		return err
	}
	const null = `null}`
	if !bytes.HasSuffix(head, []byte(null)) {
		return fmt.Errorf("simulate: the answer's head %q does not end with the trace", head)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(head[:len(head)-len(null)])
	out.writeTo(w, 1) // the trace without its closing newline
	w.Write([]byte("}\n"))
	return nil
}

// chunks is an answer kept in pieces of chunkSize bytes, so that it
// grows without copying itself (a bytes.Buffer holds up to twice what it
// was written while it grows).
type chunks struct {
	full [][]byte
	last []byte
}

const chunkSize = 64 << 10

func (c *chunks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(c.last) == cap(c.last) {
			if c.last != nil {
				c.full = append(c.full, c.last)
			}
			c.last = make([]byte, 0, chunkSize)
		}
		k := min(len(p), cap(c.last)-len(c.last))
		c.last = append(c.last, p[:k]...)
		p = p[k:]
	}
	return n, nil
}

// writeTo writes what c holds to w but its last trim bytes.
func (c *chunks) writeTo(w io.Writer, trim int) {
	for _, b := range c.full {
		w.Write(b)
	}
	w.Write(c.last[:max(0, len(c.last)-trim)])
}

// gateWarnings are the warnings about gate overrides the engine does not
// simulate (core.GateNote), by gate name; a file setting them gets the same
// warnings from the decoder.
func gateWarnings(gates map[string]bool) []core.Diagnostic {
	var out []core.Diagnostic
	for _, name := range slices.Sorted(maps.Keys(gates)) {
		if note := core.GateNote(name, gates[name]); note != "" {
			out = append(out, core.Diagnostic{Severity: core.SeverityWarning, Field: "gates[" + name + "]", Message: note})
		}
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func parseSimulateRequest(r *http.Request, body []byte) (simulateRequest, error) {
	var req simulateRequest
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "application/json" {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			return req, badRequest("bad_json", "the JSON envelope: %v (fields: scenario, gates, settings, from, to, format, file)", err)
		}
		for name := range req.Gates {
			if err := core.ValidateGateName(name); err != nil {
				return req, badRequest("bad_parameter", "gates: %v", err)
			}
		}
		if err := req.Settings.Validate(); err != nil {
			return req, badRequest("bad_parameter", "settings: %v", err)
		}
	} else {
		q := r.URL.Query()
		req.Scenario = string(body)
		var err error
		if req.Gates, err = view.ParseGates(q.Get("gates")); err != nil {
			return req, badRequest("bad_parameter", "gates: %v", err)
		}
		if req.Settings, err = view.ParseSettings(q.Get("settings")); err != nil {
			return req, badRequest("bad_parameter", "%v", err)
		}
		for _, p := range []struct {
			name string
			dst  **int
		}{{"from", &req.From}, {"to", &req.To}} {
			if v := q.Get(p.name); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 {
					return req, badRequest("bad_parameter", "%s %q: want a step number (0, 1, 2, ...)", p.name, v)
				}
				*p.dst = &n
			}
		}
		req.Format = q.Get("format")
		req.File = q.Get("file")
	}
	var err error
	if req.File, err = checkFile(req.File); err != nil {
		return req, err
	}
	if strings.TrimSpace(req.Scenario) == "" {
		return req, badRequest("empty_scenario", "no scenario: send its YAML as the request body (or in the JSON envelope's scenario field)")
	}
	return req, nil
}

// aRun is a decoded scenario and its trace (without its steps when they
// went to a sink).
type aRun struct {
	sc    *core.Scenario
	trace *trace.Trace
}

// run decodes, checks the limits, applies the variant and simulates within
// the cycle and work budgets. With a sink, the steps go to it as they
// come (sim.Options.Sink) and the trace returned has none.
func (h *Handler) run(file string, data []byte, v view.Variant, sink func(*trace.Trace, *trace.Step)) (*aRun, error) {
	sc, err := scenario.Decode(file, data)
	if err != nil {
		var de *core.DiagnosticsError
		if errors.As(err, &de) {
			n := 0
			for _, d := range de.Diagnostics {
				if d.Severity == core.SeverityError {
					n++
				}
			}
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Code: "invalid_scenario",
				Message: fmt.Sprintf("the scenario has %d error(s); the first: %s", n, firstError(de.Diagnostics)), Diagnostics: de.Diagnostics}
		}
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Code: "invalid_scenario", Message: err.Error()}
	}
	if lerr := h.checkObjects(sc); lerr != nil {
		return nil, lerr
	}
	lim := h.limits
	// The decoder fills in core.DefaultMaxCycles when spec.maxCycles is
	// unset; that value is above the API's bound either way, so it counts
	// as unset.
	explicit := sc.MaxCycles != core.DefaultMaxCycles
	if explicit && sc.MaxCycles > lim.MaxCycles {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Code: "cycle_limit", Limit: int64(lim.MaxCycles),
			Message: fmt.Sprintf("spec.maxCycles is %d; this API runs at most %d cycles (lower it, or run the scenario with the kueueplay CLI)", sc.MaxCycles, lim.MaxCycles)}
	}
	if sc, err = v.Settings.Apply(sc); err != nil {
		return nil, badRequest("bad_parameter", "settings: %v", err)
	}
	if !explicit {
		c := *sc
		c.MaxCycles = lim.MaxCycles
		sc = &c
	}
	var work int64
	nodes := len(sc.Nodes)
	steps := 0
	if sink != nil {
		next := sink
		sink = func(tr *trace.Trace, st *trace.Step) { steps++; next(tr, st) }
	}
	tr := sim.Run(sc, sim.Options{Gates: core.FeatureGates(v.Gates), Sink: sink, Stop: func(st *trace.Step) bool {
		work += stepWork(st, nodes)
		return work > lim.MaxWork
	}})
	if sink == nil {
		steps = len(tr.Steps)
	}
	switch {
	case tr.End == "stopped":
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Code: "work_limit", Limit: lim.MaxWork,
			Message: fmt.Sprintf("the simulation needs more work than this API allows per request (%d units; it had used %d by step %d, cycle %d); run it with the kueueplay CLI or in the playground",
				lim.MaxWork, work, steps-1, tr.Cycles)}
	case tr.End == "maxCycles" && !explicit:
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Code: "cycle_limit", Limit: int64(lim.MaxCycles),
			Message: fmt.Sprintf("the simulation did not settle within this API's %d cycles; set spec.maxCycles to truncate it on purpose, or run it with the kueueplay CLI", lim.MaxCycles)}
	}
	return &aRun{sc: sc, trace: tr}, nil
}

func firstError(ds []core.Diagnostic) string {
	for _, d := range ds {
		if d.Severity == core.SeverityError {
			return d.String()
		}
	}
	return "(none)"
}

// checkObjects enforces Limits.MaxObjects.
func (h *Handler) checkObjects(sc *core.Scenario) *apiError {
	n := objectCount(sc)
	if n <= h.limits.MaxObjects {
		return nil
	}
	return &apiError{Status: http.StatusUnprocessableEntity, Code: "object_limit", Limit: int64(h.limits.MaxObjects),
		Message: fmt.Sprintf("the scenario has %d objects and events; this API takes at most %d (run it with the kueueplay CLI)", n, h.limits.MaxObjects)}
}

// objectCount is what Limits.MaxObjects bounds: the scenario's objects
// and events.
func objectCount(sc *core.Scenario) int {
	return len(sc.Flavors) + len(sc.ClusterQueues) + len(sc.Cohorts) + len(sc.LocalQueues) + len(sc.Namespaces) +
		len(sc.Workloads) + len(sc.Nodes) + len(sc.Deployments) + len(sc.ResourcePolicies) + len(sc.Events)
}

// stepWork is the work a step cost, in units that track the engine's CPU
// time (about 0.2 to 0.35 µs each natively, BenchmarkWork): one per step,
// event, queue head, usage row, claim and scale-down; per queue one plus an
// eighth of the workloads it holds; per decision (a nomination, with its
// flavor assignment and preemption search) 100, plus 10 per flavor attempt
// and one per preemption target; per pod placement one per node scored.
// The weights come from fitting BenchmarkWork's shapes. It reads only the
// trace, so it is the same natively and in WebAssembly.
func stepWork(st *trace.Step, nodes int) int64 {
	w := 1 + len(st.Events) + len(st.Heads) + len(st.Usage) + len(st.Claims) + len(st.ScaleDowns)
	for _, q := range st.Queues {
		w += 1 + (q.PendingCount+q.ParkedCount+q.AdmittedCount+q.TerminatingCount)/8
	}
	for _, d := range st.Decisions {
		w += 100
		for _, ps := range d.PodSets {
			for _, g := range ps.Groups {
				w += 10 * len(g.Attempts)
			}
		}
		if d.Preemption != nil {
			w += len(d.Preemption.Targets)
		}
	}
	w += len(st.Placements) * max(nodes, 1)
	return int64(w)
}
