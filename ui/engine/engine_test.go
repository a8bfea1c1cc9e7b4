package engine_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/engine"
	"github.com/kueueplay/kueueplay/ui/layout"
	"github.com/kueueplay/kueueplay/ui/view"
)

func readScenario(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "scenarios", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDecode(t *testing.T) {
	def := readScenario(t, "default.yaml")
	tests := []struct {
		name    string
		text    []byte
		wantOK  bool
		check   func(t *testing.T, d engine.Decoded)
		wantErr string // a diagnostic containing it
	}{
		{
			name:   "default example",
			text:   def,
			wantOK: true,
			check: func(t *testing.T, d engine.Decoded) {
				if d.Name != "default" || !strings.Contains(d.Description, "team-a fills its on-demand quota") {
					t.Errorf("name %q, description %q: want the default scenario's", d.Name, d.Description)
				}
			},
		},
		{
			name:    "broken YAML",
			text:    []byte("kind: ClusterQueue\napiVersion: kueue.x-k8s.io/v1beta2\nmetadata: {name: q}\nspec: {cohort: [}\n"),
			wantErr: "",
		},
		{
			name:    "unknown kind",
			text:    []byte("apiVersion: v1\nkind: Banana\nmetadata: {name: b}\n"),
			wantErr: "Banana",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, d := engine.Decode("s.yaml", tt.text)
			if d.OK != tt.wantOK || (sc != nil) != tt.wantOK {
				t.Fatalf("OK = %v, scenario %v; want OK %v (diagnostics %v, error %q)", d.OK, sc != nil, tt.wantOK, d.Diagnostics, d.Error)
			}
			if tt.check != nil {
				tt.check(t, d)
			}
			if !tt.wantOK {
				found := d.Error != "" && strings.Contains(d.Error, tt.wantErr)
				for _, dg := range d.Diagnostics {
					found = found || strings.Contains(dg.Message, tt.wantErr)
				}
				if !found {
					t.Errorf("no diagnostic or error containing %q: %v %q", tt.wantErr, d.Diagnostics, d.Error)
				}
			}
		})
	}
}

func TestSimulate(t *testing.T) {
	sc, d := engine.Decode("default.yaml", readScenario(t, "default.yaml"))
	if !d.OK {
		t.Fatal(d.Diagnostics, d.Error)
	}
	full, capped, err := engine.Simulate(sc, view.Variant{}, 0, nil)
	if err != nil || capped {
		t.Fatalf("Simulate = capped %v, %v", capped, err)
	}
	if len(full.Steps) < 6 {
		t.Fatalf("the default scenario ran %d steps; the cases below need 6", len(full.Steps))
	}
	tests := []struct {
		name       string
		variant    view.Variant
		maxSteps   int
		stop       func(*trace.Step) bool
		wantSteps  int
		wantEnd    string
		wantCapped bool
		wantErr    string
	}{
		{name: "to the end", wantSteps: len(full.Steps), wantEnd: full.End},
		{name: "stopped by the caller after step 3", stop: func(st *trace.Step) bool { return st.Index == 2 }, wantSteps: 3, wantEnd: "stopped"},
		{name: "capped at 4 steps", maxSteps: 4, wantSteps: 4, wantEnd: "stopped", wantCapped: true},
		{name: "a bound the run does not reach", maxSteps: len(full.Steps) + 1, wantSteps: len(full.Steps), wantEnd: full.End},
		{name: "a setting Kueue rejects", variant: view.Variant{Settings: view.Settings{ReclaimWithinCohort: "Never", BorrowWithinCohort: "LowerPriority"}}, wantErr: "borrowWithinCohort LowerPriority needs reclaimWithinCohort"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, capped, err := engine.Simulate(sc, tt.variant, tt.maxSteps, tt.stop)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := (struct {
				Steps  int
				End    string
				Capped bool
			}{len(tr.Steps), tr.End, capped}); got.Steps != tt.wantSteps || got.End != tt.wantEnd || got.Capped != tt.wantCapped {
				t.Errorf("got %+v, want %d steps, end %q, capped %v", got, tt.wantSteps, tt.wantEnd, tt.wantCapped)
			}
		})
	}
}

// TestTraceRoundTrip: what the page's main thread reads back
// (DecodeTrace) is the trace the worker simulated: it writes the same
// JSON, and every step's view is the same, for every gallery scenario.
func TestTraceRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios (%v)", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			sc, d := engine.Decode(filepath.Base(f), readScenario(t, filepath.Base(f)))
			if !d.OK {
				t.Fatal(d.Diagnostics, d.Error)
			}
			tr, _, err := engine.Simulate(sc, view.Variant{}, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Pieces of 4 KB: most scenarios take several.
			head, pieces, err := engine.EncodeTrace(tr, 4096)
			if err != nil {
				t.Fatal(err)
			}
			r, err := engine.NewTraceReader(head)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range pieces {
				if err := r.Add(p); err != nil {
					t.Fatal(err)
				}
			}
			back := r.Trace()
			var want, again bytes.Buffer
			if err := trace.WriteJSON(&want, tr); err != nil {
				t.Fatal(err)
			}
			if err := trace.WriteJSON(&again, back); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want.Bytes(), again.Bytes()) {
				t.Fatalf("the trace read back writes different JSON:\n%s", cmp.Diff(want.String(), again.String()))
			}
			// The panels drawn from seven steps spread over the run are the
			// same (the views themselves differ where JSON cannot tell an
			// empty list from none). reflect.DeepEqual first: cmp.Diff over
			// every step's trees takes seconds.
			vw, vg := view.New(tr), view.New(back)
			n := vw.Len()
			for k := range 7 {
				i := k * (n - 1) / 6
				w, g := vw.Step(i), vg.Step(i)
				for _, panel := range []func(view.Step) *view.Node{layout.Decisions, layout.Quota, layout.Queues} {
					if pw, pg := panel(w), panel(g); !reflect.DeepEqual(pw, pg) {
						t.Fatalf("step %d's panels differ (-want +got):\n%s", i, cmp.Diff(pw, pg))
					}
				}
			}
		})
	}
}

func TestEncodeTracePieces(t *testing.T) {
	sc, d := engine.Decode("default.yaml", readScenario(t, "default.yaml"))
	if !d.OK {
		t.Fatal(d.Diagnostics, d.Error)
	}
	tr, _, err := engine.Simulate(sc, view.Variant{}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		chunk int
		want  int // pieces
	}{
		{name: "a step a piece when pieces are tiny", chunk: 1, want: len(tr.Steps)},
		{name: "all in one piece when it is large", chunk: 1 << 30, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, pieces, err := engine.EncodeTrace(tr, tt.chunk)
			if err != nil {
				t.Fatal(err)
			}
			if len(pieces) != tt.want {
				t.Errorf("%d pieces, want %d", len(pieces), tt.want)
			}
		})
	}
}

func TestTraceReaderRejectsGarbage(t *testing.T) {
	if _, err := engine.NewTraceReader([]byte(`{"steps": 3`)); err == nil {
		t.Error("NewTraceReader accepted a broken head")
	}
	r, err := engine.NewTraceReader([]byte(`{"version": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add([]byte(`{"index": 1}`)); err == nil {
		t.Error("Add accepted steps that are not a list")
	}
}
