package view

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/scenariotest"
)

// update rewrites the golden files: go test ./ui/view -update. Review the
// diff; never set it in CI.
var update = flag.Bool("update", false, "rewrite ui/view/testdata golden files from the current code")

const scenarioDir = "../../testdata/scenarios"

// decodeScenario decodes testdata/scenarios/NAME.yaml.
func decodeScenario(t testing.TB, name string) *core.Scenario {
	t.Helper()
	sc, err := scenariotest.Load(filepath.Join(scenarioDir, name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// run simulates testdata/scenarios/NAME.yaml with optional gate overrides.
func run(t testing.TB, name string, gates core.FeatureGates) *trace.Trace {
	t.Helper()
	return sim.Run(decodeScenario(t, name), sim.Options{Gates: gates})
}

// allScenarios lists the names of every scenario under testdata/scenarios.
func allScenarios(t testing.TB) []string {
	t.Helper()
	files, err := scenariotest.Files(scenarioDir)
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in %s: %v", scenarioDir, err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".yaml"))
	}
	return names
}

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui/view -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

// goldenView is what a golden file holds for one scenario.
type goldenView struct {
	Timeline []Mark     `json:"timeline"`
	Log      []LogEntry `json:"log"`
	Steps    []Step     `json:"steps"`
}

// TestGoldenViews renders every step of a few real scenarios and compares
// the whole view-model, as indented JSON, with testdata/NAME.view.json.
func TestGoldenViews(t *testing.T) {
	for _, name := range []string{
		"default",
		"hierarchy-cohort-quota",
		"lending-two-queues",
		"preemption-fill-back",
		"kep4378-claims-gate-on",
	} {
		t.Run(name, func(t *testing.T) {
			tr := run(t, name, nil)
			m := New(tr)
			g := goldenView{Timeline: Timeline(tr), Log: EventLog(tr)}
			for i := range m.Len() {
				g.Steps = append(g.Steps, m.Step(i))
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(g); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".view.json", buf.Bytes())
		})
	}
}

// TestEveryScenario builds every step of every scenario and checks what
// must hold whatever the scenario: bars add up, the forest holds every
// node once, lists are consistent, titles are set.
func TestEveryScenario(t *testing.T) {
	for _, name := range allScenarios(t) {
		t.Run(name, func(t *testing.T) {
			tr := run(t, name, nil)
			m := New(tr)
			if got := len(Timeline(tr)); got != len(tr.Steps) {
				t.Errorf("Timeline has %d marks for %d steps", got, len(tr.Steps))
			}
			for i := range m.Len() {
				st := m.Step(i)
				if st.Index != i || st.Total != len(tr.Steps) || st.Title == "" {
					t.Fatalf("step %d: header index=%d total=%d title=%q", i, st.Index, st.Total, st.Title)
				}
				rows := 0
				seen := map[string]bool{}
				Walk(st.Quota, func(n *QuotaNode) {
					key := n.Kind + "/" + n.Name
					if seen[key] {
						t.Errorf("step %d: %s twice in the forest", i, key)
					}
					seen[key] = true
					for _, c := range n.Children {
						if c.Depth != n.Depth+1 {
							t.Errorf("step %d: %s depth %d under %s depth %d", i, c.Name, c.Depth, n.Name, n.Depth)
						}
					}
					for _, b := range n.Bars {
						rows++
						checkBar(t, i, n.Name, b)
					}
				})
				if usage, _ := tr.StateAt(i); rows != len(usage) {
					t.Errorf("step %d: %d bars for %d usage rows", i, rows, len(usage))
				}
				for _, q := range st.Queues {
					if !seen["ClusterQueue/"+q.ClusterQueue] {
						t.Errorf("step %d: queue %s not in the forest", i, q.ClusterQueue)
					}
				}
				for _, d := range st.Decisions {
					if d.Sentence == "" || !strings.HasPrefix(d.Sentence, d.Workload) {
						t.Errorf("step %d: sentence %q does not start with %s", i, d.Sentence, d.Workload)
					}
				}
			}
		})
	}
}

func checkBar(t *testing.T, step int, node string, b Bar) {
	t.Helper()
	at := int64(0)
	var inQuota int64
	for _, s := range b.Segments {
		if s.Start != at || s.Size <= 0 {
			t.Errorf("step %d %s %s: segment %+v does not follow at %d", step, node, b.Label, s, at)
		}
		at += s.Size
		if s.Kind != SegBorrowed {
			inQuota += s.Size
		}
	}
	if inQuota != b.QuotaAt {
		t.Errorf("step %d %s %s: segments within the quota sum to %d, quota %d", step, node, b.Label, inQuota, b.QuotaAt)
	}
	if at > b.Scale || b.BorrowingLimitAt > b.Scale || b.QuotaAt > b.Scale {
		t.Errorf("step %d %s %s: bar beyond its scale %d: end %d, limit %d", step, node, b.Label, b.Scale, at, b.BorrowingLimitAt)
	}
}

func TestFormatTime(t *testing.T) {
	tests := []struct {
		name string
		ms   int64
		want string
	}{
		{"zero", 0, "0s"},
		{"seconds", 2000, "2s"},
		{"minutes and seconds", 90_000, "1m30s"},
		{"whole minute", 60_000, "1m"},
		{"whole hour", 3_600_000, "1h"},
		{"hour and minutes", 5_400_000, "1h30m"},
		{"hour and seconds", 3_605_000, "1h0m5s"},
		{"fraction", 1500, "1.5s"},
		{"milliseconds", 250, "250ms"},
		{"ten seconds", 10_000, "10s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, FormatTime(tt.ms)); d != "" {
				t.Errorf("FormatTime(%d) (-want +got):\n%s", tt.ms, d)
			}
		})
	}
}

func i64(v int64) *int64 { return &v }

func TestMakeBar(t *testing.T) {
	tests := []struct {
		name  string
		row   trace.UsageRow
		scale int64
		root  bool
		want  []Segment
		limit int64
		text  string
	}{
		{
			name:  "used within nominal",
			row:   trace.UsageRow{Kind: "ClusterQueue", Resource: "cpu", Used: 4000, Nominal: 6000, SubtreeQuota: 6000, Available: 2000},
			scale: 6000,
			want: []Segment{
				{Kind: SegUsed, Start: 0, Size: 4000, Amount: "4", Title: "used within the quota: 4"},
				{Kind: SegFree, Start: 4000, Size: 2000, Amount: "2", Title: "free: 2"},
			},
			limit: -1,
			text:  "used 4 of 6; 2 available",
		},
		{
			name:  "borrowing beyond nominal, with a borrowing limit",
			row:   trace.UsageRow{Kind: "ClusterQueue", Resource: "cpu", Used: 5000, Nominal: 2000, SubtreeQuota: 2000, Borrowed: 3000, BorrowingLimit: i64(4000), Available: 1000},
			scale: 6000,
			want: []Segment{
				{Kind: SegUsed, Start: 0, Size: 2000, Amount: "2", Title: "used within the quota: 2"},
				{Kind: SegBorrowed, Start: 2000, Size: 3000, Amount: "3", Title: "borrowed beyond the quota: 3"},
			},
			limit: 6000,
			text:  "used 5 of 2, borrowed 3, borrowing limit 4; 1 available",
		},
		{
			name:  "lending limit holds back, the rest is lent",
			row:   trace.UsageRow{Kind: "ClusterQueue", Resource: "cpu", Used: 0, Nominal: 10000, SubtreeQuota: 10000, Lent: 4000, HeldBack: 6000, LendingLimit: i64(4000), Available: 6000},
			scale: 10000,
			want: []Segment{
				{Kind: SegHeldBack, Start: 0, Size: 6000, Amount: "6", Title: "held back by the lending limit: 6"},
				{Kind: SegLent, Start: 6000, Size: 4000, Amount: "4", Title: "lent to the cohort: 4"},
			},
			limit: -1,
			text:  "used 0 of 10, lent 4, held back 6, lending limit 4; 6 available",
		},
		{
			name:  "usage covers part of the held-back quota",
			row:   trace.UsageRow{Kind: "ClusterQueue", Resource: "memory", Used: 2 << 30, Nominal: 8 << 30, SubtreeQuota: 8 << 30, Lent: 1 << 30, HeldBack: 4 << 30, Available: 2 << 30},
			scale: 8 << 30,
			want: []Segment{
				{Kind: SegUsed, Start: 0, Size: 2 << 30, Amount: "2Gi", Title: "used within the quota: 2Gi"},
				{Kind: SegHeldBack, Start: 2 << 30, Size: 2 << 30, Amount: "2Gi", Title: "held back by the lending limit: 2Gi"},
				{Kind: SegLent, Start: 4 << 30, Size: 1 << 30, Amount: "1Gi", Title: "lent to the cohort: 1Gi"},
				{Kind: SegFree, Start: 5 << 30, Size: 3 << 30, Amount: "3Gi", Title: "free: 3Gi"},
			},
			limit: -1,
			text:  "used 2Gi of 8Gi, lent 1Gi, held back 4Gi; 2Gi available",
		},
		{
			name:  "cohort with its own quota",
			row:   trace.UsageRow{Kind: "Cohort", Resource: "cpu", Used: 15000, Nominal: 3000, SubtreeQuota: 5000, Borrowed: 10000},
			scale: 15000,
			want: []Segment{
				{Kind: SegUsed, Start: 0, Size: 5000, Amount: "5", Title: "used within the quota: 5"},
				{Kind: SegBorrowed, Start: 5000, Size: 10000, Amount: "10", Title: "borrowed beyond the quota: 10"},
			},
			limit: -1,
			text:  "used 15 of 5 (own 3), borrowed 10; 0 available",
		},
		{
			name: "a root ClusterQueue over-committed by pasted admissions",
			row:  trace.UsageRow{Kind: "ClusterQueue", Resource: "cpu", Used: 3000, Nominal: 2000, SubtreeQuota: 2000, Borrowed: 1000},
			root: true, scale: 3000,
			want: []Segment{
				{Kind: SegUsed, Start: 0, Size: 2000, Amount: "2", Title: "used within the quota: 2"},
				{Kind: SegOverCommitted, Start: 2000, Size: 1000, Amount: "1", Title: "over-committed, more than it can hold: 1"},
			},
			limit: -1,
			text:  "used 3 of 2, borrowed 1, over-committed by 1; 0 available",
		},
		{
			name:  "beyond the borrowing limit",
			row:   trace.UsageRow{Kind: "ClusterQueue", Resource: "cpu", Used: 7000, Nominal: 2000, SubtreeQuota: 2000, Borrowed: 5000, BorrowingLimit: i64(4000)},
			scale: 7000,
			want: []Segment{
				{Kind: SegUsed, Start: 0, Size: 2000, Amount: "2", Title: "used within the quota: 2"},
				{Kind: SegBorrowed, Start: 2000, Size: 4000, Amount: "4", Title: "borrowed beyond the quota: 4"},
				{Kind: SegOverCommitted, Start: 6000, Size: 1000, Amount: "1", Title: "over-committed, more than it can hold: 1"},
			},
			limit: 6000,
			text:  "used 7 of 2, borrowed 5, borrowing limit 4, over-committed by 1; 0 available",
		},
		{
			name:  "no quota at all",
			row:   trace.UsageRow{Kind: "ClusterQueue", Resource: "example.com/gpu", Available: 2},
			scale: 0,
			limit: -1,
			text:  "used 0 of 0; 2 available",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := makeBar(&tt.row, tt.scale, tt.root)
			if d := cmp.Diff(tt.want, b.Segments); d != "" {
				t.Errorf("segments (-want +got):\n%s", d)
			}
			if b.BorrowingLimitAt != tt.limit {
				t.Errorf("BorrowingLimitAt = %d, want %d", b.BorrowingLimitAt, tt.limit)
			}
			if d := cmp.Diff(tt.text, b.Text); d != "" {
				t.Errorf("text (-want +got):\n%s", d)
			}
			if b.Scale < 1 {
				t.Errorf("scale %d < 1", b.Scale)
			}
		})
	}
}

func TestSentence(t *testing.T) {
	tests := []struct {
		name string
		d    trace.Decision
		want string
	}{
		{
			name: "admitted without borrowing",
			d: trace.Decision{Workload: "team-a/train-2", Outcome: trace.OutcomeAdmitted, Admission: []trace.PodSetFlavors{
				{PodSet: "main", Flavors: []trace.ResourceFlavor{{Resource: "cpu", Flavor: "on-demand"}, {Resource: "memory", Flavor: "on-demand"}}}}},
			want: "team-a/train-2 was admitted on on-demand (cpu, memory) without borrowing",
		},
		{
			name: "admitted on two flavors by borrowing",
			d: trace.Decision{Workload: "w", Outcome: trace.OutcomeAdmitted, Borrowing: 2, Admission: []trace.PodSetFlavors{
				{PodSet: "driver", Flavors: []trace.ResourceFlavor{{Resource: "cpu", Flavor: "on-demand"}}},
				{PodSet: "workers", Flavors: []trace.ResourceFlavor{{Resource: "cpu", Flavor: "spot"}, {Resource: "memory", Flavor: "spot"}}},
			}},
			want: "w was admitted on on-demand (cpu) and spot (cpu, memory) by borrowing (level 2)",
		},
		{
			name: "preempting one target",
			d: trace.Decision{Workload: "b/p2", Outcome: trace.OutcomePreempting, Preemption: &trace.Preemption{
				Targets: []trace.Target{{Workload: "t/slow", Reason: "InCohortReclamation"}}}},
			want: "b/p2 preempts t/slow (InCohortReclamation) and waits for it to terminate",
		},
		{
			name: "preempting two targets, one already evicted",
			d: trace.Decision{Workload: "b/p2", Outcome: trace.OutcomePreempting, Preemption: &trace.Preemption{
				Targets: []trace.Target{{Workload: "t/a", Reason: "InClusterQueue"}, {Workload: "t/b", Reason: "InClusterQueue", AlreadyEvicted: true}}}},
			want: "b/p2 preempts t/a (InClusterQueue) and t/b (InClusterQueue, already evicted) and waits for them to terminate",
		},
		{
			name: "waiting for a target already evicted",
			d: trace.Decision{Workload: "b/p2", Outcome: trace.OutcomePreempting, Preemption: &trace.Preemption{
				Targets: []trace.Target{{Workload: "t/b", Reason: "InCohortReclaimWhileBorrowing", AlreadyEvicted: true}}}},
			want: "b/p2 waits for t/b (InCohortReclaimWhileBorrowing, already evicted) to terminate",
		},
		{
			name: "skipped for overlapping targets",
			d:    trace.Decision{Workload: "x", Outcome: trace.OutcomeSkipped, SkipReason: "overlappingTargets", Message: "Workload has overlapping preemption targets with another workload"},
			want: "x was skipped: its preemption targets overlap targets another workload claimed in this cycle",
		},
		{
			name: "skipped as it no longer fits",
			d:    trace.Decision{Workload: "x", Outcome: trace.OutcomeSkipped, SkipReason: "noLongerFits", Message: "Workload no longer fits after processing another workload"},
			want: "x was skipped: it no longer fits after an earlier workload of this cycle took the capacity",
		},
		{
			name: "needs preemption with a reservation, parked",
			d: trace.Decision{Workload: "team-a/train-4", Outcome: trace.OutcomeNeedsPreemption, Requeue: "parked",
				Reserved: []trace.Quantity{{Flavor: "on-demand", Resource: "cpu", Amount: 4000, Text: "4"}}},
			want: "team-a/train-4 needs preemption but no workload can be preempted; on-demand/cpu 4 is reserved for it for the rest of the cycle; it is parked until something changes in its cohort",
		},
		{
			name: "no fit",
			d:    trace.Decision{Workload: "a/big", Outcome: trace.OutcomeNoFit},
			want: "a/big does not fit in any flavor",
		},
		{
			name: "inadmissible with an explanation",
			d:    trace.Decision{Workload: "web/first", Outcome: trace.OutcomeInadmissible, Message: "Workload namespace doesn't match ClusterQueue selector", Explanation: "namespace web does not match"},
			want: "web/first is inadmissible: namespace web does not match",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, sentence(&tt.d)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestStepTitle(t *testing.T) {
	tests := []struct {
		name string
		st   trace.Step
		want string
	}{
		{"initial", trace.Step{Kind: trace.StepInitial}, "Initial state"},
		{"initial with admitted", trace.Step{Kind: trace.StepInitial, Events: []trace.Event{{Kind: trace.EventArrival}, {Kind: trace.EventArrival}}},
			"Initial state: 2 workloads start admitted"},
		{"cycle", trace.Step{Kind: trace.StepCycle, Cycle: 3, TimeMs: 2000, Decisions: []trace.Decision{
			{Outcome: trace.OutcomeAdmitted}, {Outcome: trace.OutcomePreempting}, {Outcome: trace.OutcomeNoFit}, {Outcome: trace.OutcomeNeedsPreemption},
		}}, "Cycle 3 at 2s: 1 admitted, 1 preempting, 2 pending"},
		{"cycle with evictions", trace.Step{Kind: trace.StepCycle, Cycle: 1, Events: []trace.Event{{Kind: trace.EventEvict}},
			Decisions: []trace.Decision{{Outcome: trace.OutcomePreempting}, {Outcome: trace.OutcomeSkipped}}},
			"Cycle 1 at 0s: 1 preempting, 1 skipped, 1 evicted"},
		{"events", trace.Step{Kind: trace.StepEvents, TimeMs: 20_000, Events: []trace.Event{
			{Kind: trace.EventFinish}, {Kind: trace.EventRequeue}, {Kind: trace.EventArrival}, {Kind: trace.EventArrival},
		}}, "Events at 20s: 1 finished, 2 arrived, parked workloads requeued"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, stepTitle(&tt.st)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestStepClampsAndEmptyTrace(t *testing.T) {
	tr := run(t, "default", nil)
	m := New(tr)
	if got := m.Step(-5).Index; got != 0 {
		t.Errorf("Step(-5).Index = %d, want 0", got)
	}
	if got, want := m.Step(1<<30).Index, len(tr.Steps)-1; got != want {
		t.Errorf("Step(huge).Index = %d, want %d", got, want)
	}
	empty := New(&trace.Trace{})
	if st := empty.Step(3); st.Total != 0 || st.Title == "" {
		t.Errorf("empty trace step = %+v", st)
	}
	if FirstDifference(&trace.Trace{}, &trace.Trace{}) != nil {
		t.Error("two empty traces differ")
	}
	if len(Timeline(&trace.Trace{})) != 0 || len(EventLog(&trace.Trace{})) != 0 {
		t.Error("empty trace has marks or log entries")
	}
}

// TestQueues checks the head, the nominated workload and capped lists.
func TestQueues(t *testing.T) {
	st := trace.Step{
		Kind:  trace.StepCycle,
		Heads: []trace.Head{{ClusterQueue: "cq", Workload: "ns/popped"}},
		Queues: []trace.QueueState{
			{ClusterQueue: "cq", Active: true, Pending: []string{"ns/a", "ns/b"}, PendingCount: 60, AdmittedCount: 1, Admitted: []string{"ns/x"}},
			{ClusterQueue: "off", InactiveReason: "flavor missing"},
		},
	}
	got := queues(st.Queues, st.Heads)
	want := []Queue{
		{ClusterQueue: "cq", Active: true, Head: "ns/a", Nominated: "ns/popped",
			Pending: List{Names: []string{"ns/a", "ns/b"}, Count: 60, More: 58}, Admitted: List{Names: []string{"ns/x"}, Count: 1},
			Text: "head ns/a; 60 pending, 1 admitted"},
		{ClusterQueue: "off", InactiveReason: "flavor missing", Text: "inactive (flavor missing); empty"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestEventLogOrder: in a cycle, each eviction follows the decision that
// caused it.
func TestEventLogOrder(t *testing.T) {
	tr := &trace.Trace{Steps: []trace.Step{{
		Kind: trace.StepCycle, Cycle: 1,
		Events: []trace.Event{
			{Kind: trace.EventEvict, Workload: "t/1", Message: "evicted by a/p"},
			{Kind: trace.EventEvict, Workload: "t/2", Message: "evicted by b/p"},
		},
		Decisions: []trace.Decision{
			{Workload: "a/p", Outcome: trace.OutcomePreempting, Preemption: &trace.Preemption{Targets: []trace.Target{{Workload: "t/1", Reason: "InClusterQueue"}}}},
			{Workload: "b/p", Outcome: trace.OutcomePreempting, Preemption: &trace.Preemption{Targets: []trace.Target{{Workload: "t/2", Reason: "InClusterQueue"}}}},
		},
	}}}
	var got []string
	for _, e := range EventLog(tr) {
		got = append(got, e.Kind+" "+e.Workload)
	}
	want := []string{"decision a/p", "evict t/1", "decision b/p", "evict t/2"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestTimelineNoChange finds a cycle that changed nothing in a real trace:
// kep4378-claims-gate-on's cycles 3 and 4 only repeat cycle 2.
func TestTimelineNoChange(t *testing.T) {
	tr := run(t, "kep4378-claims-gate-on", nil)
	var got []int
	for _, m := range Timeline(tr) {
		if m.NoChange {
			got = append(got, m.Step)
		}
	}
	if d := cmp.Diff([]int{5, 6}, got); d != "" {
		t.Errorf("NoChange steps (-want +got):\n%s", d)
	}
}
