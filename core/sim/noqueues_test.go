package sim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestNoQueues: a run with Options.NoQueues gives the trace of a run
// without it, less every queue (the steps' Queues and queue changes), and
// its Stop and Sink see no queue.
func TestNoQueues(t *testing.T) {
	files, err := filepath.Glob("../../testdata/scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario (%v)", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.DecodeFiles([]scenario.Input{{Name: f, Text: string(data)}})
			if err != nil {
				t.Fatal(err)
			}
			want := sim.Run(sc, sim.Options{})
			for i := range want.Steps {
				st := &want.Steps[i]
				st.Queues, st.QueueChanges, st.QueueDelta = nil, nil, nil
			}
			for _, tc := range []struct {
				name string
				sink bool
			}{{"kept", false}, {"sink", true}} {
				t.Run(tc.name, func(t *testing.T) {
					var queued []int
					opts := sim.Options{NoQueues: true, Stop: func(st *trace.Step) bool {
						if len(st.Queues) > 0 {
							queued = append(queued, st.Index)
						}
						return false
					}}
					var sunk []trace.Step
					if tc.sink {
						opts.Sink = func(_ *trace.Trace, st *trace.Step) { sunk = append(sunk, *st) }
					}
					got := sim.Run(sc, opts)
					if tc.sink {
						got.Steps = sunk
					}
					if len(queued) > 0 {
						t.Errorf("Stop saw queues at steps %v", queued)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("trace (-without NoQueues, queues removed +with NoQueues):\n%s", diff)
					}
				})
			}
		})
	}
}
