package conformance

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/workload"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

// TestComparisonSeesKueueChanges changes one queued workload on Kueue's
// side only, at one step, in ways the harness itself never does, and
// checks that the comparison reports that workload at that step. The
// comparison looks at each step only at the workloads that can have
// changed (comparer); each case is one way a change reaches it. The
// workload changed is one the engine did not change in that step, so
// that only Kueue's side can bring it to the comparison.
func TestComparisonSeesKueueChanges(t *testing.T) {
	var buf bytes.Buffer
	if _, err := scalability.Write(&buf, 300, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	const message = "written by the test"
	cases := []struct {
		name string
		// change changes workload key on Kueue's side; nil changes
		// nothing (the two sides then agree throughout).
		change func(w *world, key string) error
		// kueue is what Kueue's side of the difference must say.
		kueue func(v string) bool
	}{
		{
			name: "nothing changed",
		},
		{
			name: "its status is written",
			change: func(w *world, key string) error {
				wl, _, err := w.get(key)
				if err != nil {
					return err
				}
				apimeta.SetStatusCondition(&wl.Status.Conditions, metav1.Condition{
					Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionFalse, Reason: "Pending", Message: message,
				})
				if err := w.cl.Status().Update(w.ctx, wl); err != nil {
					return err
				}
				return w.sync()
			},
			kueue: func(v string) bool { return strings.Contains(v, message) },
		},
		{
			name: "it leaves its ClusterQueue's heap",
			change: func(w *world, key string) error {
				w.queues.DeleteWorkload(logr.Discard(), workload.Reference(key))
				return nil
			},
			kueue: func(v string) bool { return strings.HasPrefix(v, "pending") && !strings.Contains(v, "(queued)") },
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Decode("scalability-300.yaml", buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			changedKey, changedStep := "", -1
			perturb := func(s *sim.State, ts *trace.Step, w *world, c *comparer) error {
				if tc.change == nil || changedStep >= 0 || ts.Index < 2 {
					return nil
				}
				var queued []string
				for k := range w.placement().queued {
					if i := c.index[k]; c.seen[i] == s.Workload(i) {
						queued = append(queued, k)
					}
				}
				if len(queued) == 0 {
					return nil
				}
				changedKey, changedStep = slices.Min(queued), ts.Index
				return tc.change(w, changedKey)
			}
			res, err := run(sc, runOptions{perturb: perturb})
			if err != nil {
				t.Fatal(err)
			}
			if tc.change == nil {
				if !res.Agreed() {
					t.Fatalf("the two sides disagree with nothing changed:\n%s", res.Report("scalability-300.yaml"))
				}
				return
			}
			if changedStep < 0 {
				t.Fatal("no step had a queued workload to change")
			}
			i := slices.IndexFunc(res.Differences, func(d Difference) bool { return d.Workload == changedKey })
			if i < 0 {
				t.Fatalf("changed %s at step %d; the comparison reported: %v", changedKey, changedStep, res.Differences)
			}
			if d := res.Differences[i]; d.Step != changedStep || !tc.kueue(d.Kueue) {
				t.Errorf("changed %s at step %d; the comparison reported %s", changedKey, changedStep, d)
			}
		})
	}
}
