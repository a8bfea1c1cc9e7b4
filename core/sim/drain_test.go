package sim_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// drainScenario: ns/run starts admitted in ClusterQueue cq through
// LocalQueue ns/lq, with the given stop policies; it has a termination
// delay of 3s.
const drainScenario = `apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata: {name: drain}
spec: {cycleDuration: 1s, terminationDelay: 3s}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: rf}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  stopPolicy: %s
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: rf
      resources: [{name: cpu, nominalQuota: "4"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: ns}
spec: {clusterQueue: cq, stopPolicy: %s}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: run, namespace: ns}
spec:
  queueName: lq
  podSets:
  - {name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}
status:
  admission:
    clusterQueue: cq
    podSetAssignments:
    - {name: main, count: 1, flavors: {cpu: rf}, resourceUsage: {cpu: "1"}}
`

// drainView is what TestHoldAndDrain checks of ns/run.
type drainView struct {
	Status  string
	Reason  string // Drained.Reason
	Queue   string // heap, parked or none, for a pending workload
	Message string
}

func viewOf(w *sim.Workload) drainView {
	v := drainView{Status: w.Status.String(), Message: w.Message}
	if w.Drained != nil {
		v.Reason = w.Drained.Reason
	}
	if w.Status == sim.Pending {
		switch {
		case w.InHeap:
			v.Queue = "heap"
		case w.Parked:
			v.Queue = "parked"
		default:
			v.Queue = "none"
		}
	}
	return v
}

// TestHoldAndDrain checks that stopPolicy HoldAndDrain on the LocalQueue
// or the ClusterQueue evicts a workload that starts admitted, with Kueue's
// reason and message (WorkloadReconciler.reconcileOnLocalQueueActiveState
// and reconcileOnClusterQueueActiveState), that the workload keeps its
// quota for its termination delay and then is not queued again, and that
// Hold leaves it running.
func TestHoldAndDrain(t *testing.T) {
	admitted := drainView{Status: "admitted"}
	cases := []struct {
		name     string
		cq, lq   string
		atStart  drainView
		eventRsn string // the evict event's Reason, "" for none
		atEnd    drainView
	}{
		{name: "no stop policy", cq: "None", lq: "None", atStart: admitted, atEnd: admitted},
		{name: "ClusterQueue Hold keeps it running", cq: "Hold", lq: "None", atStart: admitted, atEnd: admitted},
		{name: "LocalQueue Hold keeps it running", cq: "None", lq: "Hold", atStart: admitted, atEnd: admitted},
		{
			name: "ClusterQueue HoldAndDrain", cq: "HoldAndDrain", lq: "None",
			atStart:  drainView{Status: "terminating", Reason: "ClusterQueueStopped", Message: "The ClusterQueue is stopped"},
			eventRsn: "ClusterQueueStopped",
			atEnd:    drainView{Status: "pending", Reason: "ClusterQueueStopped", Queue: "parked", Message: "ClusterQueue cq is inactive"},
		},
		{
			name: "LocalQueue HoldAndDrain", cq: "None", lq: "HoldAndDrain",
			atStart:  drainView{Status: "terminating", Reason: "LocalQueueStopped", Message: "The LocalQueue is stopped"},
			eventRsn: "LocalQueueStopped",
			atEnd:    drainView{Status: "pending", Reason: "LocalQueueStopped", Queue: "none", Message: "LocalQueue lq is inactive"},
		},
		{
			name: "both HoldAndDrain: the LocalQueue is reconciled first", cq: "HoldAndDrain", lq: "HoldAndDrain",
			atStart:  drainView{Status: "terminating", Reason: "LocalQueueStopped", Message: "The LocalQueue is stopped"},
			eventRsn: "LocalQueueStopped",
			atEnd:    drainView{Status: "pending", Reason: "LocalQueueStopped", Queue: "none", Message: "LocalQueue lq is inactive"},
		},
		{
			// The queue manager does not know a stopped LocalQueue, so
			// the controller finds no ClusterQueue for the workload.
			name: "ClusterQueue HoldAndDrain behind a held LocalQueue", cq: "HoldAndDrain", lq: "Hold",
			atStart: admitted, atEnd: admitted,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Decode("drain.yaml", []byte(fmt.Sprintf(drainScenario, tc.cq, tc.lq)))
			if err != nil {
				t.Fatal(err)
			}
			var first, last *sim.State
			tr := sim.Run(sc, sim.Options{Observe: func(s *sim.State, _ *trace.Step) {
				if first == nil {
					first = s
				}
				last = s
			}})
			if diff := cmp.Diff(tc.atStart, viewOf(first.Workload(0))); diff != "" {
				t.Errorf("at the start (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.atEnd, viewOf(last.Workload(0))); diff != "" {
				t.Errorf("at the end (-want +got):\n%s", diff)
			}
			var evicts []trace.Event
			for _, ev := range tr.Steps[0].Events {
				if ev.Kind == trace.EventEvict {
					evicts = append(evicts, ev)
				}
			}
			var want []string
			if tc.eventRsn != "" {
				want = []string{"ns/run " + tc.eventRsn}
			}
			var got []string
			for _, ev := range evicts {
				got = append(got, ev.Workload+" "+ev.Reason)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("evict events of the initial step (-want +got):\n%s", diff)
			}
			if tc.eventRsn != "" {
				// The quota is held for the termination delay, then released.
				if got := first.Workload(0).ReleaseAt; got == nil || got.Seconds() != 3 {
					t.Errorf("ReleaseAt = %v, want 3s", got)
				}
				if last.Workload(0).Admission != nil {
					t.Errorf("the drained workload still holds %v at the end", last.Workload(0).Admission.Usage)
				}
			}
		})
	}
}
