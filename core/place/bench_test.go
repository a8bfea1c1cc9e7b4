package place

import (
	"fmt"
	"testing"

	"github.com/kueueplay/kueueplay/core"
)

// BenchmarkPlace places 10,000 pods one after another on 1,000 nodes in
// three ResourcePolicy units (the placement-cost target), with
// every filter and score; "rows" also builds each placement's node
// verdicts (Schedule), "brief" does not (ScheduleBrief, what the
// simulation uses past trace.MaxDetailedPlacements in a step):
//
//	go test ./core/place -run '^$' -bench Place -benchtime 3x
func BenchmarkPlace(b *testing.B) {
	var nodes []core.Node
	for i := range 1000 {
		tier := []string{"ondemand", "spot", "other"}[i%3]
		n := node(fmt.Sprintf("node-%04d", i), 64, 256, "tier", tier)
		if i%10 == 0 {
			n = withTaint(n, "maintenance", "", "PreferNoSchedule")
		}
		nodes = append(nodes, n)
	}
	rp := policy("ns", "rp", core.ResourcePolicyPrefer,
		unit("od", 5, ptr32(3000), "tier", "ondemand"), unit("spot", 2, nil, "tier", "spot"))
	rp.MatchLabelKeys = []string{"job"}
	pods := make([]*Pod, 10000)
	for i := range pods {
		pods[i] = pod("ns", fmt.Sprintf("p-%05d", i), 500, 2, "job", fmt.Sprintf("j%d", i%20))
	}
	for _, bc := range []struct {
		name     string
		schedule func(*Cluster, *Pod) Decision
	}{{"rows", (*Cluster).Schedule}, {"brief", (*Cluster).ScheduleBrief}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := New(nodes, []core.ResourcePolicy{rp}, nil)
				placedN := 0
				for _, p := range pods {
					d := bc.schedule(c, p)
					if d.Fits {
						c.Bind(p, d.Binding)
						placedN++
					}
				}
				if placedN != len(pods) {
					b.Fatalf("placed %d of %d pods", placedN, len(pods))
				}
			}
		})
	}
}
