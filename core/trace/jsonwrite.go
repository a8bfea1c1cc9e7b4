package trace

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/kueueplay/kueueplay/core"
)

// jsonHead and jsonTail are Trace's fields before and after Steps, with
// the same names, tags and order (TestWriteJSONFields keeps them so).
type jsonHead struct {
	Version       string         `json:"version"`
	Scenario      string         `json:"scenario,omitempty"`
	Description   string         `json:"description,omitempty"`
	Gates         []Gate         `json:"gates"`
	Configuration *Configuration `json:"configuration,omitempty"`
	Policies      []Policy       `json:"policies,omitempty"`
}

type jsonTail struct {
	End       string            `json:"end"`
	EndMs     int64             `json:"endMs"`
	Cycles    int               `json:"cycles"`
	Workloads []WorkloadState   `json:"workloads"`
	Warnings  []core.Diagnostic `json:"warnings,omitempty"`
}

// WriteJSON writes tr as json.NewEncoder(w).Encode(tr) does, byte for
// byte, but one step at a time: the whole document is never in memory
// (a 15,000-workload run's trace is tens of MB of JSON).
func WriteJSON(w io.Writer, tr *Trace) error {
	jw := NewJSONWriter(w)
	if tr.Steps == nil {
		jw.nullSteps = true
	}
	for i := range tr.Steps {
		jw.Step(tr, &tr.Steps[i])
	}
	return jw.Close(tr)
}

// JSONWriter writes a trace as JSON while its steps come one at a time
// (sim.Options.Sink): Step for each step in order, then Close. The bytes
// are those of encoding/json for the whole trace (with the steps it was
// given).
type JSONWriter struct {
	b         *bufio.Writer
	started   bool
	steps     int
	nullSteps bool
	err       error
	// buf is the step being written, kept from one step to the next.
	buf jsonBuf
}

// NewJSONWriter returns a JSONWriter writing to w (buffered: Close
// flushes).
func NewJSONWriter(w io.Writer) *JSONWriter {
	return &JSONWriter{b: bufio.NewWriterSize(w, 64<<10)}
}

// header writes the fields before the steps once.
func (j *JSONWriter) header(tr *Trace) {
	if j.started {
		return
	}
	j.started = true
	head, err := json.Marshal(jsonHead{tr.Version, tr.Scenario, tr.Description, tr.Gates, tr.Configuration, tr.Policies})
	if err != nil {
		j.err = err
		return
	}
	j.b.Write(head[:len(head)-1]) // without its closing brace; it has at least "version"
	j.b.WriteString(`,"steps":`)
}

// Step writes st; tr gives the header (its Steps are not read).
func (j *JSONWriter) Step(tr *Trace, st *Step) {
	j.header(tr)
	if j.err != nil {
		return
	}
	if j.steps == 0 {
		j.b.WriteByte('[')
	} else {
		j.b.WriteByte(',')
	}
	j.steps++
	data, err := j.buf.step(st)
	if err != nil {
		j.err = err
		return
	}
	j.b.Write(data)
}

// Close writes the fields after the steps (tr's End, EndMs, Cycles,
// Workloads and Warnings) and flushes.
func (j *JSONWriter) Close(tr *Trace) error {
	j.header(tr)
	if j.err != nil {
		return j.err
	}
	switch {
	case j.steps > 0:
		j.b.WriteByte(']')
	case j.nullSteps:
		j.b.WriteString("null")
	default:
		j.b.WriteString("[]")
	}
	tail, err := json.Marshal(jsonTail{tr.End, tr.EndMs, tr.Cycles, tr.Workloads, tr.Warnings})
	if err != nil {
		return err
	}
	j.b.WriteByte(',')
	j.b.Write(tail[1:]) // without its opening brace
	j.b.WriteByte('\n')
	return j.b.Flush()
}
