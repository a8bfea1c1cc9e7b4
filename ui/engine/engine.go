// Package engine is the work the playground's Web Worker does for the
// page (wasm/worker.go is its glue): decode the scenario's text, simulate
// it under each variant, and hand the result to the page's main thread,
// which only renders (issue 20: at 15,000 workloads decoding and
// simulating take seconds, and must not hold the page's only thread).
//
// What crosses between the two threads is JSON: the decoded scenario's
// summary (Decoded), the progress line, and each run's trace in its JSON
// form (the trace's one contract) in pieces (EncodeTrace), which
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
func Simulate(sc *core.Scenario, v view.Variant, maxSteps int, stop func(*trace.Step) bool) (tr *trace.Trace, capped bool, err error) {
	sc2, err := v.Settings.Apply(sc)
	if err != nil {
		return nil, false, err
	}
	tr = sim.Run(sc2, sim.Options{
		Gates: core.FeatureGates(maps.Clone(v.Gates)),
		Stop: func(st *trace.Step) bool {
			if maxSteps > 0 && st.Index+1 >= maxSteps {
				capped = true
				return true
			}
			return stop != nil && stop(st)
		},
	})
	return tr, capped, nil
}

// EncodeTrace is the trace as the worker sends it: head, its JSON with no
// steps, and its steps as JSON arrays of about chunk bytes each (at least
// one step each), so that the page can read a run of tens of MB a piece at
// a time and let the browser paint in between (TraceReader).
func EncodeTrace(tr *trace.Trace, chunk int) (head []byte, steps [][]byte, err error) {
	h := *tr
	h.Steps = nil
	if head, err = json.Marshal(&h); err != nil {
		return nil, nil, err
	}
	var b []byte
	for i := range tr.Steps {
		st, err := json.Marshal(&tr.Steps[i])
		if err != nil {
			return nil, nil, err
		}
		if len(b) > 0 && len(b)+len(st) > chunk {
			steps = append(steps, append(b, ']'))
			b = nil
		}
		if len(b) == 0 {
			b = append(b, '[')
		} else {
			b = append(b, ',')
		}
		b = append(b, st...)
	}
	if len(b) > 0 {
		steps = append(steps, append(b, ']'))
	}
	return head, steps, nil
}

// TraceReader puts a trace EncodeTrace wrote back together: its head,
// then each piece of its steps in order. The trace it makes writes the
// same JSON as the one the worker simulated (TestTraceRoundTrip), so a
// download from the page is the bytes the CLI writes.
type TraceReader struct{ tr trace.Trace }

// NewTraceReader starts a trace from its head.
func NewTraceReader(head []byte) (*TraceReader, error) {
	r := &TraceReader{}
	if err := json.Unmarshal(head, &r.tr); err != nil {
		return nil, fmt.Errorf("the engine's trace: %w", err)
	}
	r.tr.Steps = nil
	return r, nil
}

// Add reads the next piece of the steps.
func (r *TraceReader) Add(piece []byte) error {
	var steps []trace.Step
	if err := json.Unmarshal(piece, &steps); err != nil {
		return fmt.Errorf("the engine's trace, steps from %d: %w", len(r.tr.Steps), err)
	}
	r.tr.Steps = append(r.tr.Steps, steps...)
	return nil
}

// Trace is the trace read so far.
func (r *TraceReader) Trace() *trace.Trace { return &r.tr }
