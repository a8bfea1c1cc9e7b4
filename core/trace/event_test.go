package trace_test

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/trace"
)

func dur(d time.Duration) *time.Duration { return &d }

// TestEventText pins the words each event's facts say, as the engine
// wrote them when it formatted them itself (the goldens hold them in
// context), and that Message, when set, is the words.
func TestEventText(t *testing.T) {
	cpu := []trace.Quantity{{Flavor: "default", Resource: "cpu", Amount: 1500, Text: "1500m"}, {Flavor: "default", Resource: "memory", Amount: 1 << 30, Text: "1Gi"}}
	for name, c := range map[string]struct {
		e    trace.Event
		want string
	}{
		"arrival": {trace.Event{Kind: trace.EventArrival, Workload: "team-a/w", ClusterQueue: "cq", LocalQueue: "lq"},
			"created in LocalQueue team-a/lq, queued in ClusterQueue cq"},
		"arrival with words": {trace.Event{Kind: trace.EventArrival, Workload: "team-a/w", LocalQueue: "lq", Message: "created; LocalQueue lq doesn't exist"},
			"created; LocalQueue lq doesn't exist"},
		"arrival without a LocalQueue": {trace.Event{Kind: trace.EventArrival, Workload: "team-a/w"}, ""},
		"finish at the end of its runtime": {trace.Event{Kind: trace.EventFinish, Workload: "a/w", Runtime: dur(90 * time.Second), Quota: cpu},
			"ran for its runtime 1m30s and finished; its quota is released (default/cpu 1500m, default/memory 1Gi)"},
		"finish of a runtime of zero, not admitted": {trace.Event{Kind: trace.EventFinish, Workload: "a/w", Runtime: dur(0)},
			"ran for its runtime 0s and finished"},
		"finish by scenario event": {trace.Event{Kind: trace.EventFinish, Workload: "a/w", Quota: cpu[:1]},
			"finished (scenario event); its quota is released (default/cpu 1500m)"},
		"finish releasing no quota of any resource": {trace.Event{Kind: trace.EventFinish, Workload: "a/w", Quota: []trace.Quantity{}},
			"finished (scenario event); its quota is released ()"},
		"delete": {trace.Event{Kind: trace.EventDelete, Workload: "a/w"}, "deleted (scenario event)"},
		"release": {trace.Event{Kind: trace.EventRelease, Workload: "a/w", Quota: cpu[:1]},
			"terminated: its quota is released (default/cpu 1500m) and it is queued again"},
		"release with words": {trace.Event{Kind: trace.EventRelease, Workload: "a/w", Quota: cpu[:1], Message: "terminated: ...; it is inactive"},
			"terminated: ...; it is inactive"},
		"evict by preemption": {trace.Event{Kind: trace.EventEvict, Workload: "a/w", Preemptor: "b/p", Reason: "InCohortReclamation", Delay: 30 * time.Second},
			"evicted by b/p (InCohortReclamation); it releases its quota after its termination delay of 30s"},
		"evict without delay": {trace.Event{Kind: trace.EventEvict, Workload: "a/w", Preemptor: "b/p", Reason: "InClusterQueue"},
			"evicted by b/p (InClusterQueue); it releases its quota after its termination delay of 0s"},
		"evict by a stopped queue": {trace.Event{Kind: trace.EventEvict, Workload: "a/w", Reason: "ClusterQueueStopped"}, ""},
		"requeue": {trace.Event{Kind: trace.EventRequeue, ClusterQueue: "cq", Workloads: []string{"a/x", "b/y"}},
			"parked workloads of the cohort tree go back to their queues: a/x, b/y"},
		"inactive": {trace.Event{Kind: trace.EventInactive, ClusterQueue: "cq", Message: "flavor f is missing"}, "flavor f is missing"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := c.e.Text(); got != c.want {
				t.Errorf("Text() = %q, want %q", got, c.want)
			}
		})
	}
}

// TestEventJSON pins an event's JSON: no message when its facts say it,
// durations in Go's syntax, a quota even when empty; and the way back.
func TestEventJSON(t *testing.T) {
	for name, c := range map[string]struct {
		e    trace.Event
		want string
	}{
		"arrival": {trace.Event{Kind: trace.EventArrival, Workload: "a/w", ClusterQueue: "cq", LocalQueue: "lq"},
			`{"kind":"arrival","workload":"a/w","clusterQueue":"cq","localQueue":"lq"}`},
		"finish": {trace.Event{Kind: trace.EventFinish, Workload: "a/w", Runtime: dur(1500 * time.Millisecond),
			Quota: []trace.Quantity{{Flavor: "f", Resource: "cpu", Amount: 1000, Text: "1"}}},
			`{"kind":"finish","workload":"a/w","runtime":"1.5s","quota":[{"flavor":"f","resource":"cpu","amount":1000}]}`},
		"finish of a runtime of zero releasing an empty quota": {trace.Event{Kind: trace.EventFinish, Workload: "a/w", Runtime: dur(0), Quota: []trace.Quantity{}},
			`{"kind":"finish","workload":"a/w","runtime":"0s","quota":[]}`},
		"evict": {trace.Event{Kind: trace.EventEvict, Workload: "a/w", Preemptor: "b/p", Reason: "InClusterQueue", Delay: time.Minute},
			`{"kind":"evict","workload":"a/w","preemptor":"b/p","reason":"InClusterQueue","delay":"1m0s"}`},
		"requeue": {trace.Event{Kind: trace.EventRequeue, ClusterQueue: "cq", Workloads: []string{"a/x"}},
			`{"kind":"requeue","clusterQueue":"cq","workloads":["a/x"]}`},
		"words": {trace.Event{Kind: trace.EventDelete, Workload: "a/w", Message: "ignored: the workload is finished"},
			`{"kind":"delete","workload":"a/w","message":"ignored: the workload is finished"}`},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := json.Marshal(trace.Step{Events: []trace.Event{c.e}})
			if err != nil {
				t.Fatal(err)
			}
			want := `{"index":0,"kind":"","timeMs":0,"cycle":0,"changed":false,"events":[` + c.want + `]}`
			if string(got) != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
			var back trace.Step
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]trace.Event{c.e}, back.Events); d != "" {
				t.Errorf("decode(encode(event)) differs (-want +got):\n%s", d)
			}
		})
	}
}

// TestEventJSONBadDuration: a duration Go cannot read is an error.
func TestEventJSONBadDuration(t *testing.T) {
	for name, data := range map[string]string{
		"runtime": `{"kind":"finish","runtime":"soon"}`,
		"delay":   `{"kind":"evict","delay":"3 days"}`,
	} {
		t.Run(name, func(t *testing.T) {
			var e trace.Event
			if err := json.Unmarshal([]byte(data), &e); err == nil {
				t.Errorf("%s: decoded as %+v, want an error", data, e)
			}
		})
	}
}

// TestEngineEventsHaveWords: every event the engine writes for the
// gallery's scenarios says something, from its Message or its facts (an
// event kind or case the rules of Text do not know must keep its words).
func TestEngineEventsHaveWords(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios (%v)", err)
	}
	for _, f := range files {
		tr := runScenario(t, f)
		for _, st := range tr.Steps {
			for _, e := range st.Events {
				if e.Text() == "" {
					t.Errorf("%s step %d: event %+v has no words", filepath.Base(f), st.Index, e)
				}
			}
		}
	}
}
