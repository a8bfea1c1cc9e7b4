package trace_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

// BenchmarkWriteJSON writes the JSON trace of Kueue's scalability shape
// at 1,500 and 15,000 workloads (what `kueueplay run -o json` does after
// the simulation), reporting the bytes written per run.
//
//	go test ./core/trace -run '^$' -bench WriteJSON -benchmem
func BenchmarkWriteJSON(b *testing.B) {
	benchWrite(b, "json-bytes", trace.WriteJSON)
}

// BenchmarkFormat is the text format's cost on Kueue's scalability shape
// (what `kueueplay run` spends beyond the simulation).
func BenchmarkFormat(b *testing.B) {
	benchWrite(b, "text-bytes", trace.Format)
}

// benchWrite simulates Kueue's scalability shape at 1,500 and 15,000
// workloads once each, then times write on the whole trace into a byte
// counter, reported as metric.
func benchWrite(b *testing.B, metric string, write func(io.Writer, *trace.Trace) error) {
	for _, n := range []int{1500, 15000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var in bytes.Buffer
			if _, err := scalability.Write(&in, n, 100*time.Millisecond); err != nil {
				b.Fatal(err)
			}
			sc, err := scenario.Decode("scalability.yaml", in.Bytes())
			if err != nil {
				b.Fatal(err)
			}
			tr := sim.Run(sc, sim.Options{})
			var c countWriter
			b.ResetTimer()
			for b.Loop() {
				c = 0
				if err := write(&c, tr); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(c), metric)
		})
	}
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)
