// Package engine is the work the playground's Web Worker does for the
// page (wasm/worker.go is its glue): decode the scenario's text, simulate
// it under each variant, and hand the result to the page's main thread,
// which only renders (issue 20: at 15,000 workloads decoding and
// simulating take seconds, and must not hold the page's only thread).
//
// What crosses between the two threads is JSON: the decoded scenario's
// summary (Decoded), the progress line, and each run's trace in its JSON
// form (the trace's one contract), its steps in pieces written as the run
// makes them (Pieces) and its head once it has ended (Head), which
// TraceReader puts back together into the same trace. The package is pure: no I/O, no clock
// (the caller's Stop callback decides when to pause), no syscall/js.
package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/view"
)

// Request is one run the page asks for: the scenario's text (sent beside
// the request, not in its JSON), the name its diagnostics give it, and
// the variants to simulate (one; two in Compare mode).
type Request struct {
	File     string         `json:"file"`
	Variants []view.Variant `json:"variants"`
	// MaxSteps stops a run at that many steps (the page's bound); 0 is
	// no bound.
	MaxSteps int `json:"maxSteps,omitempty"`
}

// Decoded is what the page needs of a decoded scenario: its problems and,
// when it decoded, what the page shows of it (name, description, Kueue's
// Configuration in words) and its feature gates (the gate checkboxes'
// defaults). OK is false when the scenario did not decode.
type Decoded struct {
	OK            bool              `json:"ok"`
	Diagnostics   []core.Diagnostic `json:"diagnostics,omitempty"`
	Error         string            `json:"error,omitempty"`
	Name          string            `json:"name,omitempty"`
	Description   string            `json:"description,omitempty"`
	Configuration string            `json:"configuration,omitempty"`
	Gates         core.FeatureGates `json:"gates,omitempty"`
}

// Decode decodes text (scenario.Decode) and summarizes it. The scenario is
// nil when it did not decode.
func Decode(file string, text []byte) (*core.Scenario, Decoded) {
	sc, err := scenario.Decode(file, text)
	if err != nil {
		var de *core.DiagnosticsError
		if errors.As(err, &de) {
			return nil, Decoded{Diagnostics: de.Diagnostics}
		}
		return nil, Decoded{Error: err.Error()}
	}
	return sc, Decoded{
		OK:            true,
		Diagnostics:   sc.Warnings,
		Name:          sc.Name,
		Description:   sc.Description,
		Configuration: view.ConfigurationText(sim.TraceConfiguration(sc.Configuration)),
		Gates:         sc.Gates,
	}
}

// Simulate runs sc under v. stop is called after every step, as
// sim.Options.Stop is (true stops the run, which ends "stopped"); capped
// reports that the run reached maxSteps (when > 0) and was stopped there.
// With a sink, each step goes to it as the run makes it
// (sim.Options.Sink; Pieces.Add) and the trace returned has no steps.
func Simulate(sc *core.Scenario, v view.Variant, maxSteps int, stop func(*trace.Step) bool, sink func(*trace.Step)) (tr *trace.Trace, capped bool, err error) {
	sc2, err := v.Settings.Apply(sc)
	if err != nil {
		return nil, false, err
	}
	opts := sim.Options{
		Gates: core.FeatureGates(maps.Clone(v.Gates)),
		Stop: func(st *trace.Step) bool {
			if maxSteps > 0 && st.Index+1 >= maxSteps {
				capped = true
				return true
			}
			return stop != nil && stop(st)
		},
	}
	if sink != nil {
		opts.Sink = func(_ *trace.Trace, st *trace.Step) { sink(st) }
	}
	tr = sim.Run(sc2, opts)
	return tr, capped, nil
}

// Pieces is a run's steps as the worker sends them to the page: JSON
// arrays of about chunk bytes each (at least one step each), written as
// the run makes its steps (Add as Simulate's sink) and taken while it
// goes on (Take), so that the page reads a run of tens of MB a piece at a
// time, letting the browser paint in between, and mostly while the
// worker is still simulating (TraceReader).
type Pieces struct {
	chunk  int
	cur    []byte
	sealed [][]byte
	err    error
}

// NewPieces starts the pieces of a run.
func NewPieces(chunk int) *Pieces { return &Pieces{chunk: chunk} }

// Add writes the next step.
func (p *Pieces) Add(st *trace.Step) {
	if p.err != nil {
		return
	}
	n := len(p.cur)
	if n > 0 && n >= p.chunk {
		p.seal()
		n = 0
	}
	if n == 0 {
		p.cur = append(p.cur, '[')
	} else {
		p.cur = append(p.cur, ',')
	}
	p.cur, p.err = st.AppendJSON(p.cur)
}

func (p *Pieces) seal() {
	p.sealed = append(p.sealed, append(p.cur, ']'))
	p.cur = nil
}

// Take hands over the pieces written since the last Take: the full ones
// and, with all, the one being written too; err is the first step that
// could not be written.
func (p *Pieces) Take(all bool) ([][]byte, error) {
	if all && len(p.cur) > 0 {
		p.seal()
	}
	out := p.sealed
	p.sealed = nil
	return out, p.err
}

// Head is the trace's JSON without its steps: what the worker sends once
// the run has ended, after its pieces.
func Head(tr *trace.Trace) ([]byte, error) {
	h := *tr
	h.Steps = nil
	return json.Marshal(&h)
}

// TraceReader puts a trace the worker sent back together: each piece of
// its steps in order (Add), as they come, then its head (Finish). The
// trace it makes writes the same JSON as the one the worker simulated
// (TestTraceRoundTrip), so a download from the page is the bytes the CLI
// writes.
type TraceReader struct{ steps []trace.Step }

// Add reads the next piece of the steps.
func (r *TraceReader) Add(piece []byte) error {
	var steps []trace.Step
	if err := json.Unmarshal(piece, &steps); err != nil {
		return fmt.Errorf("the engine's trace, steps from %d: %w", len(r.steps), err)
	}
	r.steps = append(r.steps, steps...)
	return nil
}

// Finish reads the trace's head and returns the trace with the steps
// read so far.
func (r *TraceReader) Finish(head []byte) (*trace.Trace, error) {
	tr := &trace.Trace{}
	if err := json.Unmarshal(head, tr); err != nil {
		return nil, fmt.Errorf("the engine's trace: %w", err)
	}
	tr.Steps = r.steps
	return tr, nil
}
