package sim_test

import (
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestRequeueBackoff checks that a pending workload pasted with
// status.requeueState.requeueAt is created at once but queued only when
// its backoff ends (WorkloadReconciler.Reconcile waits for it), 30s after
// the latest condition timestamp of the file.
func TestRequeueBackoff(t *testing.T) {
	in := `apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: rf}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups: [{coveredResources: [cpu], flavors: [{name: rf, resources: [{name: cpu, nominalQuota: "4"}]}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: team}
spec: {clusterQueue: cq}
` + "---\n" + strings.TrimPrefix(backoffWorkload, "---\n")
	sc, err := scenario.Decode("backoff.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	tr := sim.Run(sc, sim.Options{})
	var created, admitted int64 = -1, -1
	for _, st := range tr.Steps {
		for _, ev := range st.Events {
			if ev.Workload == "team/backoff" && ev.Kind == trace.EventArrival && created < 0 {
				created = st.TimeMs
				if !strings.Contains(ev.Text(), "not queued before its backoff ends at 30s") {
					t.Errorf("arrival message %q does not say when the backoff ends", ev.Text())
				}
			}
		}
		for _, d := range st.Decisions {
			if d.Workload == "team/backoff" && d.Outcome == trace.OutcomeAdmitted && admitted < 0 {
				admitted = st.TimeMs
			}
		}
	}
	if created != 0 || admitted != 30_000 {
		t.Errorf("created at %d ms and admitted at %d ms, want 0 and 30000", created, admitted)
	}
}

// backoffWorkload was evicted for PodsReadyTimeout a minute before the dump
// and may be queued again 30s after it.
const backoffWorkload = `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: backoff, namespace: team}
spec:
  queueName: q
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
status:
  requeueState: {count: 1, requeueAt: "2026-11-25T10:00:30Z"}
  conditions:
  - {type: Evicted, status: "True", reason: PodsReadyTimeout, message: Exceeded the PodsReady timeout, lastTransitionTime: "2026-11-25T09:59:00Z"}
  - {type: Requeued, status: "False", reason: PodsReadyTimeout, message: Exceeded the PodsReady timeout, lastTransitionTime: "2026-11-25T10:00:00Z"}
`
