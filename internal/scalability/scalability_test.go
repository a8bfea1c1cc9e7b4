package scalability_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

// TestWrite decodes the scenario at a few sizes and checks its shape: 30
// ClusterQueues in 5 cohorts, one LocalQueue each, and the three classes
// with their requests, priorities, runtimes and arrivals.
func TestWrite(t *testing.T) {
	type class struct {
		Count    int
		CPU      int64
		Priority int32
		Runtime  time.Duration
		Last     time.Duration // the latest arrival
	}
	cases := map[string]struct {
		total int
		want  map[string]class // per ClusterQueue
	}{
		"a tenth of Kueue's test": {total: 1500, want: map[string]class{
			"small":  {35, 1000, 50, 200 * time.Millisecond, 35 * 100 * time.Millisecond},
			"medium": {10, 5000, 100, 500 * time.Millisecond, 10 * 500 * time.Millisecond},
			"large":  {5, 20000, 200, time.Second, 5 * 1200 * time.Millisecond},
		}},
		"the smallest: one of each class": {total: 1, want: map[string]class{
			"small":  {1, 1000, 50, 200 * time.Millisecond, 100 * time.Millisecond},
			"medium": {1, 5000, 100, 500 * time.Millisecond, 500 * time.Millisecond},
			"large":  {1, 20000, 200, time.Second, 1200 * time.Millisecond},
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			n, err := scalability.Write(&b, tc.total, 100*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.Decode("scale.yaml", b.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if len(sc.Warnings) > 0 {
				t.Errorf("warnings: %v", sc.Warnings)
			}
			if len(sc.Workloads) != n {
				t.Errorf("Write reported %d workloads, the file has %d", n, len(sc.Workloads))
			}
			cohorts := map[string]int{}
			for _, cq := range sc.ClusterQueues {
				cohorts[cq.Cohort]++
			}
			if diff := cmp.Diff(map[string]int{"cohort-0": 6, "cohort-1": 6, "cohort-2": 6, "cohort-3": 6, "cohort-4": 6}, cohorts); diff != "" {
				t.Errorf("ClusterQueues per cohort (-want +got):\n%s", diff)
			}
			if sc.CycleDuration != 100*time.Millisecond {
				t.Errorf("cycleDuration %v, want 100ms", sc.CycleDuration)
			}
			if len(sc.LocalQueues) != 30 {
				t.Errorf("%d LocalQueues, want 30", len(sc.LocalQueues))
			}
			got := map[string]map[string]class{}
			for _, w := range sc.Workloads {
				cls, _, _ := strings.Cut(w.Name, "-")
				if got[w.Namespace] == nil {
					got[w.Namespace] = map[string]class{}
				}
				c := got[w.Namespace][cls]
				c.Count++
				c.CPU = int64(w.PodSets[0].Requests["cpu"])
				c.Priority, c.Runtime, c.Last = w.Priority, *w.Runtime, max(c.Last, w.Arrival)
				got[w.Namespace][cls] = c
			}
			for q := range 6 {
				for co := range 5 {
					ns := fmt.Sprintf("cq-0-%d-cohort-%d", q, co)
					if diff := cmp.Diff(tc.want, got[ns]); diff != "" {
						t.Errorf("%s classes (-want +got):\n%s", ns, diff)
					}
				}
			}
		})
	}
}
