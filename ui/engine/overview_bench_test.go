package engine_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/internal/scalability"
	"github.com/kueueplay/kueueplay/ui/engine"
	"github.com/kueueplay/kueueplay/ui/view"
)

// BenchmarkOverview is the worker's Overview build (Session.Overview:
// the series computed, the panel laid out, the series encoded and the
// columns filled) for Kueue's scalability test at 15,000 workloads, the
// gallery's largest example: "after-run" by a pass over the trace (what
// a Session without a builder does), "built-in-run" from what the run's
// view.OverviewBuilder gathered as it went (engine.SimulateOverview, what
// the worker does). The run itself is outside the timer. (The Session
// keeps the Overview it computed: each iteration computes it again.)
//
//	go test ./ui/engine -run '^$' -bench Overview -benchmem -count 4
func BenchmarkOverview(b *testing.B) {
	tr, ob := scalabilityRun(b)
	for _, bb := range []struct {
		name string
		ob   *view.OverviewBuilder
	}{{"after-run", nil}, {"built-in-run", ob}} {
		b.Run(bb.name, func(b *testing.B) {
			s := engine.NewSession([]*trace.Trace{tr}, nil)
			s.SetOverview(bb.ob)
			for b.Loop() {
				engine.ComputeOverview(s)
			}
			_, series, _, err := s.Overview()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(series)), "series-bytes")
		})
	}
}

// BenchmarkSimulateOverview is the 15,000-workload run without and with
// its Overview built as it goes (engine.Simulate, SimulateOverview): what
// the builder adds to the run. gcs/op is the garbage collections a run
// triggers (in WebAssembly, with no concurrent marker, each walks the
// run's trace so far; compare with GOGC=400, the worker's setting).
//
//	GOGC=400 go test ./ui/engine -run '^$' -bench SimulateOverview -benchmem -benchtime 3x
func BenchmarkSimulateOverview(b *testing.B) {
	sc := scalabilityScenario(b)
	for _, bb := range []struct {
		name string
		run  func() error
	}{
		{"without", func() error { _, _, err := engine.Simulate(sc, view.Variant{}, 0, nil); return err }},
		{"with", func() error { _, _, _, err := engine.SimulateOverview(sc, view.Variant{}, 0, nil); return err }},
	} {
		b.Run(bb.name, func(b *testing.B) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				if err := bb.run(); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.NumGC-before.NumGC)/float64(b.N), "gcs/op")
		})
	}
}

// BenchmarkOverviewEncode is the series' encoding alone, for the same
// Overview: encoding/json (what the worker used before) and by hand.
func BenchmarkOverviewEncode(b *testing.B) {
	tr, _ := scalabilityRun(b)
	o := view.New(tr).Overview()
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(stripped(*o)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("by-hand", func(b *testing.B) {
		for b.Loop() {
			engine.AppendOverviewJSON(nil, o)
		}
	})
}

// scalabilityScenario is Kueue's scalability test at 15,000 workloads,
// decoded.
func scalabilityScenario(b *testing.B) *core.Scenario {
	b.Helper()
	var in bytes.Buffer
	if _, err := scalability.Write(&in, scalability.Baseline, 100*time.Millisecond); err != nil {
		b.Fatal(err)
	}
	sc, d := engine.Decode("scalability-kueue.yaml", in.Bytes())
	if !d.OK {
		b.Fatal(d.Diagnostics, d.Error)
	}
	return sc
}

// scalabilityRun is the run of Kueue's scalability test at 15,000
// workloads, and its Overview built as it ran.
func scalabilityRun(b *testing.B) (*trace.Trace, *view.OverviewBuilder) {
	b.Helper()
	tr, _, ob, err := engine.SimulateOverview(scalabilityScenario(b), view.Variant{}, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	return tr, ob
}

// BenchmarkStep is the worker's part of one step of the e2e budget's
// scenario (the example with the most steps, docs-run-deployment.yaml,
// 104 steps): Session.Step laying out every panel of each step in turn.
//
//	go test ./ui/engine -run '^$' -bench 'Step$' -benchmem
func BenchmarkStep(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "scenarios", "docs-run-deployment.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	sc, d := engine.Decode("docs-run-deployment.yaml", data)
	if !d.OK {
		b.Fatal(d.Diagnostics, d.Error)
	}
	tr, _, err := engine.Simulate(sc, view.Variant{}, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	s := engine.NewSession([]*trace.Trace{tr}, nil)
	n := len(tr.Steps)
	i := 0
	for b.Loop() {
		s.Step(0, i%n)
		i++
	}
}
