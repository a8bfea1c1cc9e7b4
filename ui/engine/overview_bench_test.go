package engine_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/internal/scalability"
	"github.com/kueueplay/kueueplay/ui/engine"
	"github.com/kueueplay/kueueplay/ui/view"
)

// BenchmarkOverview is the worker's Overview build (Session.Overview:
// the series computed, the panel laid out, the series encoded and the
// columns filled) for Kueue's scalability test at 15,000 workloads, the
// gallery's largest example. The run itself is outside the timer.
//
//	go test ./ui/engine -run '^$' -bench Overview -benchmem -count 4
func BenchmarkOverview(b *testing.B) {
	s, _ := scalabilitySession(b)
	b.ResetTimer()
	var size int
	for b.Loop() {
		_, series, _, err := s.Overview()
		if err != nil {
			b.Fatal(err)
		}
		size = len(series)
	}
	b.ReportMetric(float64(size), "series-bytes")
}

// BenchmarkOverviewEncode is the series' encoding alone, for the same
// Overview: encoding/json (what the worker used before) and by hand.
func BenchmarkOverviewEncode(b *testing.B) {
	_, tr := scalabilitySession(b)
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

// scalabilitySession is a Session holding the run, and the run, of Kueue's scalability
// test at 15,000 workloads.
func scalabilitySession(b *testing.B) (*engine.Session, *trace.Trace) {
	b.Helper()
	var in bytes.Buffer
	if _, err := scalability.Write(&in, scalability.Baseline, 100*time.Millisecond); err != nil {
		b.Fatal(err)
	}
	sc, d := engine.Decode("scalability-kueue.yaml", in.Bytes())
	if !d.OK {
		b.Fatal(d.Diagnostics, d.Error)
	}
	tr, _, err := engine.Simulate(sc, view.Variant{}, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	return engine.NewSession([]*trace.Trace{tr}, nil), tr
}
