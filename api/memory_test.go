package api_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/api"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

// BenchmarkSimulateMemory measures what one /v1/simulate request holds
// natively: peak-heap-MB is the largest heap in use (sampled every 100
// µs) above what it was before the request, with the garbage collector
// run at GOGC=5 so that the heap in use is close to what is live, the
// figure an isolate's memory follows when it is short of it; B/op (with
// -benchmem) is what the request allocates in all. Kueue's scalability
// shape at 1,000 workloads (BenchmarkWorkerdSizes' largest simulation
// that fits) and at 3,000, the whole trace and its last step:
//
//	go test ./api -run '^$' -bench SimulateMemory -benchmem -benchtime 5x
func BenchmarkSimulateMemory(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	h := api.New(api.Config{Limits: api.Limits{MaxBodyBytes: 16 << 20, MaxObjects: 1 << 20, MaxCycles: 1 << 20, MaxWork: 1 << 40}})
	for _, size := range []struct {
		name      string
		workloads int
	}{{"scalability-1000", 1000}, {"scalability-3000", 3000}} {
		var in bytes.Buffer
		if _, err := scalability.Write(&in, size.workloads, 100*time.Millisecond); err != nil {
			b.Fatal(err)
		}
		for _, q := range []struct{ name, query string }{{"json", ""}, {"text", "?format=text"}, {"last-step", ""}} {
			b.Run(size.name+"/"+q.name, func(b *testing.B) {
				target := "/v1/simulate" + q.query
				if q.name == "last-step" {
					target = "/v1/simulate?from=" + lastStep(b, h, in.Bytes())
				}
				var peak float64
				var size int
				for b.Loop() {
					runtime.GC()
					base := heapInUse()
					var high atomic.Uint64
					done := make(chan struct{})
					go func() {
						t := time.NewTicker(100 * time.Microsecond)
						defer t.Stop()
						for {
							if v := heapInUse(); v > high.Load() {
								high.Store(v)
							}
							select {
							case <-done:
								return
							case <-t.C:
							}
						}
					}()
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest("POST", target, bytes.NewReader(in.Bytes())))
					close(done)
					if rec.Code != 200 {
						b.Fatalf("status %d: %.300s", rec.Code, rec.Body)
					}
					size = rec.Body.Len()
					peak = max(peak, float64(high.Load()-min(base, high.Load()))/1e6)
				}
				b.ReportMetric(peak, "peak-heap-MB")
				b.ReportMetric(float64(size)/1e6, "answer-MB")
			})
		}
	}
}

// lastStep is the index of the run's last step, from a one-step request.
func lastStep(b *testing.B, h *api.Handler, body []byte) string {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/simulate?from=0&to=0", bytes.NewReader(body)))
	var v struct {
		Total int `json:"total"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || v.Total == 0 {
		b.Fatalf("no total (%v): %.300s", err, rec.Body)
	}
	return strconv.Itoa(v.Total - 1)
}

// heapInUse is the bytes of heap objects, live or not yet swept.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
