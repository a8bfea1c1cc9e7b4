package trace_test

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

// BenchmarkWriteJSON writes the JSON trace of Kueue's scalability shape
// at 1,500 workloads (what `kueueplay run -o json` does after the
// simulation), reporting the bytes written per run.
//
//	go test ./core/trace -run '^$' -bench WriteJSON -benchmem
func BenchmarkWriteJSON(b *testing.B) {
	var in bytes.Buffer
	if _, err := scalability.Write(&in, 1500, 100*time.Millisecond); err != nil {
		b.Fatal(err)
	}
	sc, err := scenario.Decode("scalability.yaml", in.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	tr := sim.Run(sc, sim.Options{})
	var n countWriter
	b.ResetTimer()
	for b.Loop() {
		n = 0
		if err := trace.WriteJSON(&n, tr); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "json-bytes")
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)
