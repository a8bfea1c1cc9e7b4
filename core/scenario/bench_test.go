package scenario

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/internal/hostile"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

// BenchmarkDecodeHostile decodes each hostile-input case small enough for
// the playground page (1 MiB), where decoding runs on the page's only
// thread and so bounds how long the page can be held:
//
//	go test -run '^$' -bench DecodeHostile -benchmem ./core/scenario
func BenchmarkDecodeHostile(b *testing.B) {
	for _, c := range hostile.Cases() {
		data, err := c.Input("../../testdata/hostile")
		if err != nil {
			b.Fatal(err)
		}
		if len(data) > 1<<20 {
			continue
		}
		b.Run(c.Name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Decode(c.Name+".yaml", data)
			}
		})
	}
}

// BenchmarkDecodeScalability decodes Kueue's scheduler scalability shape
// (internal/scalability) at 1,500 and 15,000 workloads, the file sizes
// users paste from a real cluster (issue 20), given as Data and, as the
// CLI gives it, as Text (-text: no copy of the input is made):
//
//	go test -run '^$' -bench DecodeScalability -benchmem ./core/scenario
func BenchmarkDecodeScalability(b *testing.B) {
	for _, n := range []int{1500, 15000} {
		var buf bytes.Buffer
		if _, err := scalability.Write(&buf, n, 100*time.Millisecond); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Decode("scale.yaml", data); err != nil {
					b.Fatal(err)
				}
			}
		})
		text := string(data)
		b.Run(strconv.Itoa(n)+"-text", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := DecodeFiles([]Input{{Name: "scale.yaml", Text: text}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
