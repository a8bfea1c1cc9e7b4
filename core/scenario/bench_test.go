package scenario

import (
	"testing"

	"github.com/kueueplay/kueueplay/internal/hostile"
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
