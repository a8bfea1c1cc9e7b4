package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/engine"
	"github.com/kueueplay/kueueplay/ui/layout"
	"github.com/kueueplay/kueueplay/ui/view"
)

func readScenario(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "scenarios", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDecode(t *testing.T) {
	def := readScenario(t, "default.yaml")
	tests := []struct {
		name    string
		text    []byte
		wantOK  bool
		check   func(t *testing.T, d engine.Decoded)
		wantErr string // a diagnostic containing it
	}{
		{
			name:   "default example",
			text:   def,
			wantOK: true,
			check: func(t *testing.T, d engine.Decoded) {
				if d.Name != "default" || !strings.Contains(d.Description, "team-a fills its on-demand quota") {
					t.Errorf("name %q, description %q: want the default scenario's", d.Name, d.Description)
				}
			},
		},
		{
			name:    "broken YAML",
			text:    []byte("kind: ClusterQueue\napiVersion: kueue.x-k8s.io/v1beta2\nmetadata: {name: q}\nspec: {cohort: [}\n"),
			wantErr: "",
		},
		{
			name:    "unknown kind",
			text:    []byte("apiVersion: v1\nkind: Banana\nmetadata: {name: b}\n"),
			wantErr: "Banana",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, d := engine.Decode("s.yaml", tt.text)
			if d.OK != tt.wantOK || (sc != nil) != tt.wantOK {
				t.Fatalf("OK = %v, scenario %v; want OK %v (diagnostics %v, error %q)", d.OK, sc != nil, tt.wantOK, d.Diagnostics, d.Error)
			}
			if tt.check != nil {
				tt.check(t, d)
			}
			if !tt.wantOK {
				found := d.Error != "" && strings.Contains(d.Error, tt.wantErr)
				for _, dg := range d.Diagnostics {
					found = found || strings.Contains(dg.Message, tt.wantErr)
				}
				if !found {
					t.Errorf("no diagnostic or error containing %q: %v %q", tt.wantErr, d.Diagnostics, d.Error)
				}
			}
		})
	}
}

func TestSimulate(t *testing.T) {
	sc, d := engine.Decode("default.yaml", readScenario(t, "default.yaml"))
	if !d.OK {
		t.Fatal(d.Diagnostics, d.Error)
	}
	full, capped, err := engine.Simulate(sc, view.Variant{}, 0, nil)
	if err != nil || capped {
		t.Fatalf("Simulate = capped %v, %v", capped, err)
	}
	if len(full.Steps) < 6 {
		t.Fatalf("the default scenario ran %d steps; the cases below need 6", len(full.Steps))
	}
	tests := []struct {
		name       string
		variant    view.Variant
		maxSteps   int
		stop       func(*trace.Step) bool
		wantSteps  int
		wantEnd    string
		wantCapped bool
		wantErr    string
	}{
		{name: "to the end", wantSteps: len(full.Steps), wantEnd: full.End},
		{name: "stopped by the caller after step 3", stop: func(st *trace.Step) bool { return st.Index == 2 }, wantSteps: 3, wantEnd: "stopped"},
		{name: "capped at 4 steps", maxSteps: 4, wantSteps: 4, wantEnd: "stopped", wantCapped: true},
		{name: "a bound the run does not reach", maxSteps: len(full.Steps) + 1, wantSteps: len(full.Steps), wantEnd: full.End},
		{name: "a setting Kueue rejects", variant: view.Variant{Settings: view.Settings{ReclaimWithinCohort: "Never", BorrowWithinCohort: "LowerPriority"}}, wantErr: "borrowWithinCohort LowerPriority needs reclaimWithinCohort"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, capped, err := engine.Simulate(sc, tt.variant, tt.maxSteps, tt.stop)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := (struct {
				Steps  int
				End    string
				Capped bool
			}{len(tr.Steps), tr.End, capped}); got.Steps != tt.wantSteps || got.End != tt.wantEnd || got.Capped != tt.wantCapped {
				t.Errorf("got %+v, want %d steps, end %q, capped %v", got, tt.wantSteps, tt.wantEnd, tt.wantCapped)
			}
		})
	}
}

// run decodes and simulates a testdata scenario under each variant, as
// the worker does, and holds the runs in a Session.
func run(t *testing.T, name string, variants ...view.Variant) (*engine.Session, []*trace.Trace) {
	t.Helper()
	sc, d := engine.Decode(name, readScenario(t, name))
	if !d.OK {
		t.Fatal(d.Diagnostics, d.Error)
	}
	var trs []*trace.Trace
	for _, v := range variants {
		tr, _, err := engine.Simulate(sc, v, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		trs = append(trs, tr)
	}
	return engine.NewSession(trs, nil), trs
}

// TestStep: the panels the worker sends for a step are the ones the page
// laid out itself from the same step, at the indexes asked for (clamped),
// with the placement panels only for scenarios with Nodes.
func TestStep(t *testing.T) {
	tests := []struct {
		name        string
		scenario    string
		step        int
		wantIndex   int // -1: the last step
		wantCluster bool
	}{
		{name: "first step", scenario: "default.yaml", step: 0, wantIndex: 0},
		{name: "a middle step", scenario: "default.yaml", step: 3, wantIndex: 3},
		{name: "before the first step is the first", scenario: "default.yaml", step: -5, wantIndex: 0},
		{name: "past the last step is the last", scenario: "default.yaml", step: 1 << 20, wantIndex: -1},
		{name: "a scenario with Nodes has the placement panels", scenario: "docs-resource-flavor-taints.yaml", step: 1, wantIndex: 1, wantCluster: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, trs := run(t, tt.scenario, view.Variant{})
			m := view.New(trs[0])
			want := tt.wantIndex
			if want < 0 {
				want = m.Len() - 1
			}
			st := m.Step(want)
			w := engine.StepView{
				Index: want, Total: m.Len(), Title: st.Title, Time: st.Time, Cluster: tt.wantCluster,
				Decisions: json.RawMessage(layout.JSON(layout.Decisions(st))),
				Quota:     json.RawMessage(layout.JSON(layout.Quota(st))),
				Queues:    json.RawMessage(layout.JSON(layout.Queues(st))),
				Placement: json.RawMessage("null"),
				Nodes:     json.RawMessage("null"),
			}
			if tt.wantCluster {
				w.Placement, w.Nodes = json.RawMessage(layout.JSON(layout.Placement(st))), json.RawMessage(layout.JSON(layout.Nodes(st)))
			}
			if diff := cmp.Diff(w, s.Step(0, tt.step)); diff != "" {
				t.Errorf("Step(0, %d) (-want +got):\n%s", tt.step, diff)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	gate := map[string]bool{"RefreshAssignmentsDuringSchedulingCycle": true}
	tests := []struct {
		name     string
		variants []view.Variant
		wantDiff bool
	}{
		{name: "one run", variants: []view.Variant{{}}},
		{name: "the same variant twice: no difference", variants: []view.Variant{{}, {}}},
		{name: "KEP-4378 off and on", variants: []view.Variant{{}, {Gates: gate}}, wantDiff: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, trs := run(t, "kep4378-claims-gate-off.yaml", tt.variants...)
			got := s.Summary()
			var want engine.Summary
			for _, tr := range trs {
				ss := engine.SideSummary{Steps: len(tr.Steps), Cycles: tr.Cycles, End: tr.End, EndMs: tr.EndMs, Eventful: []int{}}
				for _, m := range view.Timeline(tr) {
					if !m.NoChange {
						ss.Eventful = append(ss.Eventful, m.Step)
					}
				}
				want.Sides = append(want.Sides, ss)
			}
			if len(trs) == 2 {
				want.Difference = view.FirstDifference(trs[0], trs[1])
				l, r := view.New(trs[0]), view.New(trs[1])
				for i := range l.Len() {
					want.Align = append(want.Align, view.AlignStep(l, r, i))
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Summary (-want +got):\n%s", diff)
			}
			if (got.Difference != nil) != tt.wantDiff {
				t.Errorf("difference %+v, want one: %v", got.Difference, tt.wantDiff)
			}
		})
	}
}

func TestNextEventful(t *testing.T) {
	eventful := []int{0, 2, 5}
	tests := []struct {
		name            string
		from, dir, want int
	}{
		{name: "forward to the next", from: 0, dir: 1, want: 2},
		{name: "forward from between", from: 3, dir: 1, want: 5},
		{name: "forward past the last goes to the end", from: 5, dir: 1, want: 9},
		{name: "back to the previous", from: 5, dir: -1, want: 2},
		{name: "back from between", from: 4, dir: -1, want: 2},
		{name: "back before the first goes to the start", from: 0, dir: -1, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := engine.NextEventful(eventful, 10, tt.from, tt.dir); got != tt.want {
				t.Errorf("NextEventful(%v, 10, %d, %d) = %d, want %d", eventful, tt.from, tt.dir, got, tt.want)
			}
		})
	}
}

// TestDownloads: the trace JSON is what the CLI writes
// (json.Marshal's bytes and a newline), the SVG is view.SVG's.
func TestDownloads(t *testing.T) {
	s, trs := run(t, "default.yaml", view.Variant{})
	got, err := s.TraceJSON(0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(trs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(append(want, '\n'), got) {
		t.Errorf("TraceJSON differs from json.Marshal's:\n%s", cmp.Diff(string(want)+"\n", string(got)))
	}
	opts := view.SVGOptions{Theme: "dark", Heading: "h"}
	if got, want := string(s.SVG(0, 2, opts)), view.SVG(view.New(trs[0]).Step(2), opts).String(); got != want {
		t.Errorf("SVG differs:\n%s", cmp.Diff(want, got))
	}
}

// TestLayouts: the whole-run panels, and the marks left out past
// layout.MaxMarks.
func TestLayouts(t *testing.T) {
	s, trs := run(t, "default.yaml", view.Variant{})
	whole := layout.EventLog(view.EventLog(trs[0]))
	entries := len(whole.Children)
	if entries < 5 {
		t.Fatalf("the default scenario's log has %d entries; the cases below need 5", entries)
	}
	// The parts put back together are the whole log, whatever their size.
	for _, per := range []int{1, 2, entries - 1, entries, entries + 1} {
		t.Run(fmt.Sprintf("%d a part", per), func(t *testing.T) {
			l := s.Layouts(0, per)
			var got []any
			if err := json.Unmarshal(l.EventLog, &got); err != nil {
				t.Fatal(err)
			}
			kids := got[3].([]any)
			if want := min(per, entries); len(kids) != want {
				t.Errorf("the first part has %d entries, want %d", len(kids), want)
			}
			for _, part := range l.LogRest {
				var more []any
				if err := json.Unmarshal(part, &more); err != nil {
					t.Fatal(err)
				}
				if len(more) == 0 || len(more) > per {
					t.Errorf("a part of %d entries, want 1 to %d", len(more), per)
				}
				kids = append(kids, more...)
			}
			got[3] = kids
			var want any
			if err := json.Unmarshal([]byte(layout.JSON(whole)), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, any(got)); diff != "" {
				t.Errorf("the parts put together (-want +got):\n%s", diff)
			}
		})
	}
	l := s.Layouts(0, 100)
	if want := layout.JSON(layout.Marks(view.Timeline(trs[0]))); string(l.Marks) != want {
		t.Errorf("marks differ:\n%s", cmp.Diff(want, string(l.Marks)))
	}
	long := *trs[0]
	for len(long.Steps) <= layout.MaxMarks {
		long.Steps = append(long.Steps, trs[0].Steps...)
	}
	for i := range long.Steps {
		long.Steps[i].Index = i
	}
	if m := engine.NewSession([]*trace.Trace{&long}, nil).Layouts(0, 100).Marks; string(m) != "null" {
		t.Errorf("%d steps (over MaxMarks %d) laid out marks: %.80s…", len(long.Steps), layout.MaxMarks, m)
	}
}

// TestOverviewColumns: the Overview's series carry no spans and no
// values, and its columns give back every lane's spans (kind, from, to)
// and every series' values, read as the page reads them (little-endian
// int32, byte and float64 arrays).
func TestOverviewColumns(t *testing.T) {
	for _, name := range []string{"default.yaml", "docs-cluster-queue-preemption.yaml"} {
		t.Run(name, func(t *testing.T) {
			s, trs := run(t, name, view.Variant{})
			_, series, cols, err := s.Overview()
			if err != nil {
				t.Fatal(err)
			}
			var sent view.Overview
			if err := json.Unmarshal(series, &sent); err != nil {
				t.Fatal(err)
			}
			full := view.New(trs[0]).Overview()
			want := full.Timeline.Lanes
			if len(want) == 0 {
				t.Fatal("no lanes: the case checks nothing")
			}
			if len(sent.Timeline.Lanes) != len(want) || len(cols.Lanes) != 4*(len(want)+1) {
				t.Fatalf("%d lanes sent, %d bytes of offsets; want %d lanes", len(sent.Timeline.Lanes), len(cols.Lanes), len(want))
			}
			u32 := func(b []byte, i int) int {
				return int(b[4*i]) | int(b[4*i+1])<<8 | int(b[4*i+2])<<16 | int(b[4*i+3])<<24
			}
			f64 := func(b []byte, i int) int64 {
				var v uint64
				for k := 7; k >= 0; k-- {
					v = v<<8 | uint64(b[8*i+k])
				}
				return int64(math.Float64frombits(v))
			}
			kinds := []view.SpanKind{view.SpanWaiting, view.SpanAdmitted, view.SpanTerminating}
			var got, wantSpans []string
			for i, l := range want {
				if sent.Timeline.Lanes[i].Spans != nil || sent.Timeline.Lanes[i].Workload != l.Workload {
					t.Errorf("lane %d sent as %+v, want %s without spans", i, sent.Timeline.Lanes[i], l.Workload)
				}
				for _, sp := range l.Spans {
					wantSpans = append(wantSpans, fmt.Sprintf("%d %s %d-%d", i, sp.Kind, sp.FromMs, sp.ToMs))
				}
				for j := u32(cols.Lanes, i); j < u32(cols.Lanes, i+1); j++ {
					got = append(got, fmt.Sprintf("%d %s %d-%d", i, kinds[cols.Kinds[j]], f64(cols.FromMs, j), f64(cols.ToMs, j)))
				}
			}
			if diff := cmp.Diff(wantSpans, got); diff != "" {
				t.Errorf("spans (-want +got):\n%s", diff)
			}
			var wantValues, gotValues []int64
			charts := []view.Chart{}
			for _, u := range full.Usage {
				charts = append(charts, u.Chart)
			}
			charts = append(charts, full.Pending)
			sentCharts := []view.Chart{}
			for _, u := range sent.Usage {
				sentCharts = append(sentCharts, u.Chart)
			}
			sentCharts = append(sentCharts, sent.Pending)
			for i, c := range charts {
				for k, sr := range c.Series {
					if sentCharts[i].Series[k].Values != nil || sentCharts[i].Series[k].Label != sr.Label {
						t.Errorf("chart %s series %d sent as %+v, want %s without values", c.ID, k, sentCharts[i].Series[k], sr.Label)
					}
					wantValues = append(wantValues, sr.Values...)
				}
			}
			for j := range len(cols.Values) / 8 {
				gotValues = append(gotValues, f64(cols.Values, j))
			}
			if len(wantValues) == 0 {
				t.Fatal("no values: the case checks nothing")
			}
			if diff := cmp.Diff(wantValues, gotValues); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOverviewOnce: the Overview is computed on the first call and the
// same values come back after (the worker computes it ahead of the
// page's request), equal to a new Session's.
func TestOverviewOnce(t *testing.T) {
	s, trs := run(t, "docs-cluster-queue-preemption.yaml", view.Variant{})
	panel, series, cols, err := s.Overview()
	if err != nil {
		t.Fatal(err)
	}
	panel2, series2, cols2, err := s.Overview()
	if err != nil {
		t.Fatal(err)
	}
	if &series[0] != &series2[0] || &panel[0] != &panel2[0] || &cols.Values[0] != &cols2.Values[0] {
		t.Error("the second call computed the Overview again")
	}
	fresh, freshSeries, freshCols, err := engine.NewSession(trs, nil).Overview()
	if err != nil {
		t.Fatal(err)
	}
	diffOverview(t, fresh, freshSeries, freshCols, panel2, series2, cols2)
}

// diffOverview reports where an Overview's panel, series and columns
// differ from the ones wanted.
func diffOverview(t *testing.T, wantPanel, wantSeries json.RawMessage, wantCols engine.Columns, panel, series json.RawMessage, cols engine.Columns) {
	t.Helper()
	if diff := cmp.Diff(string(wantPanel), string(panel)); diff != "" {
		t.Errorf("panel (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(string(wantSeries), string(series)); diff != "" {
		t.Errorf("series (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantCols, cols); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
}

// TestLong: a run is long (its Overview computed and sent with its
// answers) past LongRun steps, on the left-hand side.
func TestLong(t *testing.T) {
	_, trs := run(t, "default.yaml", view.Variant{})
	short := trs[0]
	long := *short
	for len(long.Steps) <= engine.LongRun {
		long.Steps = append(long.Steps, short.Steps...)
	}
	for i := range long.Steps {
		long.Steps[i].Index = i
	}
	exact := long
	exact.Steps = long.Steps[:engine.LongRun]
	tests := []struct {
		name   string
		traces []*trace.Trace
		want   bool
	}{
		{name: "short", traces: []*trace.Trace{short}, want: false},
		{name: "exactly LongRun steps", traces: []*trace.Trace{&exact}, want: false},
		{name: "long", traces: []*trace.Trace{&long}, want: true},
		{name: "long on the right only", traces: []*trace.Trace{short, &long}, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := engine.NewSession(tt.traces, nil).Long(); got != tt.want {
				t.Errorf("Long() = %v with %d steps on the left, want %v", got, len(tt.traces[0].Steps), tt.want)
			}
		})
	}
}

// TestSimulateOverview: a Session given the Overview its left-hand run
// computed as it ran (SimulateOverview, SetOverview) answers the panel,
// series and columns a Session computes from the trace alone, for a run
// to its end, one capped by maxSteps and one stopped early; a builder of
// another run is not used.
func TestSimulateOverview(t *testing.T) {
	const name = "docs-cluster-queue-preemption.yaml"
	sc, d := engine.Decode(name, readScenario(t, name))
	if !d.OK {
		t.Fatal(d.Diagnostics, d.Error)
	}
	other, _, otherOB, err := engine.SimulateOverview(sc, view.Variant{}, 3, nil)
	if err != nil || len(other.Steps) != 3 {
		t.Fatalf("a run capped at 3 steps has %d: %v", len(other.Steps), err)
	}
	tests := []struct {
		name     string
		maxSteps int
		stop     func(*trace.Step) bool
		builder  func(*view.OverviewBuilder) *view.OverviewBuilder
	}{
		{name: "whole run"},
		{name: "capped", maxSteps: 4},
		{name: "stopped", stop: func(st *trace.Step) bool { return st.Index >= 2 }},
		{name: "another run's builder", builder: func(*view.OverviewBuilder) *view.OverviewBuilder { return otherOB }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, _, ob, err := engine.SimulateOverview(sc, view.Variant{}, tt.maxSteps, tt.stop)
			if err != nil {
				t.Fatal(err)
			}
			if tt.builder != nil {
				ob = tt.builder(ob)
			}
			s := engine.NewSession([]*trace.Trace{tr}, nil)
			s.SetOverview(ob)
			panel, series, cols, err := s.Overview()
			if err != nil {
				t.Fatal(err)
			}
			wantPanel, wantSeries, wantCols, err := engine.NewSession([]*trace.Trace{tr}, nil).Overview()
			if err != nil {
				t.Fatal(err)
			}
			diffOverview(t, wantPanel, wantSeries, wantCols, panel, series, cols)
		})
	}
}
