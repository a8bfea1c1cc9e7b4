package preempt

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
)

// TestQuantities checks that a list held in place and one that outgrew
// its place list what was added, in order.
func TestQuantities(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
	}{
		{"empty", 0},
		{"in place", 2},
		{"one more than the place", 3},
		{"longer", 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var q quantities
			want := []quantity{}
			for i := range tc.n {
				x := quantity{fr: core.FlavorResource{Flavor: "f", Resource: core.ResourceName(rune('a' + i))}, id: i, v: core.Amount(10 * i)}
				q.add(x)
				want = append(want, x)
			}
			if d := cmp.Diff(want, append([]quantity{}, q.list()...), cmp.AllowUnexported(quantity{})); d != "" {
				t.Errorf("list (-want +got):\n%s", d)
			}
		})
	}
}
