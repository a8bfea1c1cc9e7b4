package engine_test

import (
	"bytes"
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
	s := engine.NewSession([]*trace.Trace{tr}, nil)
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
