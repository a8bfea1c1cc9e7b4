package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay"
	"github.com/kueueplay/kueueplay/api"
	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestSimulateStreamed: /v1/simulate writes the steps as the run makes
// them, and its answer is byte for byte what marshaling the whole trace,
// sliced to the range, gives (JSON and text), for every gallery example
// and ranges at the start, the middle and the end.
func TestSimulateStreamed(t *testing.T) {
	h := newHandler(api.PaidLimits)
	names, err := fs.Glob(kueueplay.Examples(), "*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no example (%v)", err)
	}
	for _, file := range names {
		name := strings.TrimSuffix(file, ".yaml")
		text := example(t, name)
		tr := wantTrace(t, "scenario.yaml", text, nil)
		warnings := []core.Diagnostic{}
		if tr.Warnings != nil {
			warnings = tr.Warnings
		}
		last := len(tr.Steps) - 1
		for rname, r := range map[string][2]int{"whole": {0, last}, "from 1": {1, last}, "middle": {last / 2, last / 2}, "last": {last, last}} {
			if r[0] > last {
				continue
			}
			t.Run(name+"/"+rname, func(t *testing.T) {
				slice := tr
				if r[0] > 0 || r[1] < last {
					slice = tr.Slice(r[0], r[1])
				}
				data, err := json.Marshal(simulateBody{Warnings: warnings, From: r[0], To: r[1], Total: len(tr.Steps), Trace: slice})
				if err != nil {
					t.Fatal(err)
				}
				target := fmt.Sprintf("/v1/simulate?from=%d&to=%d", r[0], r[1])
				rec := request{target: target, body: text}.do(t, h)
				if rec.Code != 200 {
					t.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				if d := cmp.Diff(string(data)+"\n", rec.Body.String()); d != "" {
					t.Errorf("the JSON answer differs from the whole trace's (-whole +streamed):\n%s", d)
				}
				var want bytes.Buffer
				if err := trace.Format(&want, slice); err != nil {
					t.Fatal(err)
				}
				rec = request{target: target + "&format=text", body: text}.do(t, h)
				if d := cmp.Diff(want.String(), rec.Body.String()); d != "" {
					t.Errorf("the text answer differs from the whole trace's (-whole +streamed):\n%s", d)
				}
			})
		}
	}
}
