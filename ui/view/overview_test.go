package view

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Builders for overview traces. A step is built in full (its usage rows
// and queues) and the trace goes through trace.Compactor, as the engine's
// does, so the overview reads deltas and Full steps alike.

// row is ClusterQueue node's usage of flavor f/cpu.
func row(node, f string, used, nominal int64) trace.UsageRow {
	return trace.UsageRow{Node: node, Kind: "ClusterQueue", Flavor: f, Resource: "cpu", Used: used, Nominal: nominal, SubtreeQuota: nominal}
}

func cohortRow(node, f string, used, quota int64) trace.UsageRow {
	return trace.UsageRow{Node: node, Kind: "Cohort", Flavor: f, Resource: "cpu", Used: used, SubtreeQuota: quota}
}

func under(r trace.UsageRow, parent string) trace.UsageRow {
	r.Parent = parent
	return r
}

func limited(r trace.UsageRow, bl int64) trace.UsageRow {
	r.BorrowingLimit = &bl
	return r
}

func queue(cq string, pending, parked int) trace.QueueState {
	return trace.QueueState{ClusterQueue: cq, Active: true, PendingCount: pending, ParkedCount: parked}
}

// ostep is a step at ms with events and decisions; usage and queues
// hold after it.
type ostep struct {
	ms        int64
	kind      trace.StepKind
	usage     []trace.UsageRow
	queues    []trace.QueueState
	events    []trace.Event
	decisions []trace.Decision
}

func at(ms int64, usage ...trace.UsageRow) ostep {
	return ostep{ms: ms, kind: trace.StepCycle, usage: usage}
}

func (s ostep) q(qs ...trace.QueueState) ostep { s.queues = qs; return s }

func (s ostep) ev(es ...trace.Event) ostep { s.events = append(s.events, es...); return s }

func (s ostep) admit(wl, cq string) ostep {
	s.decisions = append(s.decisions, trace.Decision{Workload: wl, ClusterQueue: cq, Outcome: trace.OutcomeAdmitted})
	return s
}

func (s ostep) initial() ostep { s.kind = trace.StepInitial; return s }

func arrive(wl, cq string) trace.Event {
	return trace.Event{Kind: trace.EventArrival, Workload: wl, ClusterQueue: cq}
}

func evictBy(wl, cq, by string) trace.Event {
	return trace.Event{Kind: trace.EventEvict, Workload: wl, ClusterQueue: cq, Preemptor: by}
}

func wlEvent(kind trace.EventKind, wl string) trace.Event {
	return trace.Event{Kind: kind, Workload: wl}
}

// otrace compacts the steps into a trace ending at endMs.
func otrace(endMs int64, steps ...ostep) *trace.Trace {
	tr := &trace.Trace{Version: trace.Version, EndMs: endMs}
	var c trace.Compactor
	for i, s := range steps {
		kind := s.kind
		if kind == "" {
			kind = trace.StepCycle
		}
		if i == 0 && s.kind == "" {
			kind = trace.StepInitial
		}
		tr.Steps = append(tr.Steps, c.Compact(trace.Step{Index: i, Kind: kind, TimeMs: s.ms, Usage: s.usage, Queues: s.queues, Events: s.events, Decisions: s.decisions}))
	}
	return tr
}

// points is a chart as "step@ms: label=value ..." lines, gaps as "-".
func points(c Chart) []string {
	var out []string
	for p := range c.Steps {
		line := fmt.Sprintf("%d@%d:", c.Steps[p], c.XMs[p])
		for _, s := range c.Series {
			v := fmt.Sprint(s.Values[p])
			for _, g := range s.Gaps {
				if g == p {
					v = "-"
				}
			}
			line += " " + s.Label + "=" + v
		}
		out = append(out, line)
	}
	return out
}

func TestOverviewUsage(t *testing.T) {
	tests := []struct {
		name   string
		tr     *trace.Trace
		titles []string
		want   [][]string // points of each usage chart
	}{
		{
			name: "a point where usage changes, and one at the end",
			tr: otrace(5000,
				at(0, row("a", "f", 0, 4000)),
				at(1000, row("a", "f", 2000, 4000)),
				at(2000, row("a", "f", 2000, 4000)),
				at(3000, row("a", "f", 1000, 4000)),
			),
			titles: []string{"ClusterQueue a: cpu"},
			want: [][]string{{
				"0@0: f used=0 f quota=4000",
				"1@1000: f used=2000 f quota=4000",
				"3@3000: f used=1000 f quota=4000",
				"3@5000: f used=1000 f quota=4000",
			}},
		},
		{
			name: "no end point when the last step is at the end",
			tr: otrace(1000,
				at(0, row("a", "f", 0, 4000)),
				at(1000, row("a", "f", 1000, 4000)),
			),
			titles: []string{"ClusterQueue a: cpu"},
			want:   [][]string{{"0@0: f used=0 f quota=4000", "1@1000: f used=1000 f quota=4000"}},
		},
		{
			name: "flavors share a chart; the borrowing limit is quota plus limit",
			tr: otrace(2000,
				at(0, limited(row("a", "on-demand", 0, 4000), 2000), row("a", "spot", 0, 1000)),
				at(1000, limited(row("a", "on-demand", 5000, 4000), 2000), row("a", "spot", 0, 1000)),
				at(1500, limited(row("a", "on-demand", 5000, 4000), 2000), row("a", "spot", 1000, 1000)),
			),
			titles: []string{"ClusterQueue a: cpu"},
			want: [][]string{{
				"0@0: on-demand used=0 on-demand quota=4000 on-demand borrowing limit=6000 spot used=0 spot quota=1000",
				"1@1000: on-demand used=5000 on-demand quota=4000 on-demand borrowing limit=6000 spot used=0 spot quota=1000",
				"2@1500: on-demand used=5000 on-demand quota=4000 on-demand borrowing limit=6000 spot used=1000 spot quota=1000",
				"2@2000: on-demand used=5000 on-demand quota=4000 on-demand borrowing limit=6000 spot used=1000 spot quota=1000",
			}},
		},
		{
			name: "a limit added later leaves a gap before it",
			tr: otrace(2000,
				at(0, row("a", "f", 0, 4000)),
				at(1000, limited(row("a", "f", 0, 4000), 1000)),
			),
			titles: []string{"ClusterQueue a: cpu"},
			want: [][]string{{
				"0@0: f used=0 f quota=4000 f borrowing limit=-",
				"1@1000: f used=0 f quota=4000 f borrowing limit=5000",
				"1@2000: f used=0 f quota=4000 f borrowing limit=5000",
			}},
		},
		{
			name: "a row that disappears leaves gaps",
			tr: otrace(3000,
				at(0, row("a", "f", 0, 4000), row("b", "f", 0, 1000)),
				at(1000, row("a", "f", 1000, 4000)),
				at(2000, row("a", "f", 1000, 4000), row("b", "f", 500, 1000)),
			),
			titles: []string{"ClusterQueue a: cpu", "ClusterQueue b: cpu"},
			want: [][]string{
				{"0@0: f used=0 f quota=4000", "1@1000: f used=1000 f quota=4000", "2@3000: f used=1000 f quota=4000"},
				{"0@0: f used=0 f quota=1000", "1@1000: f used=- f quota=-", "2@2000: f used=500 f quota=1000", "2@3000: f used=500 f quota=1000"},
			},
		},
		{
			name: "cohorts first, then their ClusterQueues, in the forest's order",
			tr: otrace(1000,
				at(0, under(row("z", "f", 0, 2000), "pool"), under(row("b", "f", 0, 2000), "pool"), cohortRow("pool", "f", 0, 4000)),
				at(1000, under(row("z", "f", 3000, 2000), "pool"), under(row("b", "f", 0, 2000), "pool"), cohortRow("pool", "f", 1000, 4000)),
			),
			titles: []string{"Cohort pool: cpu", "ClusterQueue b: cpu", "ClusterQueue z: cpu"},
			want: [][]string{
				{"0@0: f used=0 f quota=4000", "1@1000: f used=1000 f quota=4000"},
				{"0@0: f used=0 f quota=2000", "1@1000: f used=0 f quota=2000"},
				{"0@0: f used=0 f quota=2000", "1@1000: f used=3000 f quota=2000"},
			},
		},
		{
			name: "many steps between Full steps",
			tr: func() *trace.Trace {
				var steps []ostep
				for i := range 150 {
					steps = append(steps, at(int64(i)*100, row("a", "f", int64(i/50)*1000, 4000)))
				}
				return otrace(15000, steps...)
			}(),
			titles: []string{"ClusterQueue a: cpu"},
			want: [][]string{{
				"0@0: f used=0 f quota=4000",
				"50@5000: f used=1000 f quota=4000",
				"100@10000: f used=2000 f quota=4000",
				"149@15000: f used=2000 f quota=4000",
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := New(tt.tr).Overview()
			var titles []string
			var got [][]string
			for _, c := range o.Usage {
				titles = append(titles, c.Title)
				got = append(got, points(c.Chart))
			}
			if d := cmp.Diff(tt.titles, titles); d != "" {
				t.Errorf("chart titles (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("points (-want +got):\n%s", d)
			}
		})
	}
}

func TestOverviewPending(t *testing.T) {
	tests := []struct {
		name string
		tr   *trace.Trace
		want []string
	}{
		{
			name: "pending and parked count, per queue and in total",
			tr: otrace(3000,
				at(0).q(queue("a", 0, 0), queue("b", 0, 0)),
				at(1000).q(queue("a", 2, 1), queue("b", 0, 0)),
				at(1500).q(queue("a", 2, 1), queue("b", 0, 0)),
				at(2000).q(queue("a", 0, 0), queue("b", 4, 0)),
			),
			want: []string{
				"0@0: all ClusterQueues=0 a=0 b=0",
				"1@1000: all ClusterQueues=3 a=3 b=0",
				"3@2000: all ClusterQueues=4 a=0 b=4",
				"3@3000: all ClusterQueues=4 a=0 b=4",
			},
		},
		{
			name: "a queue that appears later has a gap before",
			tr: otrace(1000,
				at(0).q(queue("a", 1, 0)),
				at(1000).q(queue("a", 1, 0), queue("b", 2, 0)),
			),
			want: []string{
				"0@0: all ClusterQueues=1 a=1 b=-",
				"1@1000: all ClusterQueues=3 a=1 b=2",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, points(New(tt.tr).Overview().Pending)); d != "" {
				t.Errorf("points (-want +got):\n%s", d)
			}
		})
	}
}

func TestOverviewTimeline(t *testing.T) {
	type lane struct {
		Workload, CQ string
		Spans        []string // "kind from-to (step a-b)"
	}
	tests := []struct {
		name        string
		tr          *trace.Trace
		want        []lane
		preemptions []PreemptionMark
	}{
		{
			name: "waiting, admitted, finished",
			tr: otrace(5000,
				at(0),
				at(1000).ev(arrive("ns/a", "cq")),
				at(2000).admit("ns/a", "cq"),
				at(4000).ev(wlEvent(trace.EventFinish, "ns/a")),
			),
			want: []lane{{"ns/a", "cq", []string{"waiting 1000-2000 (1-2)", "admitted 2000-4000 (2-3)"}}},
		},
		{
			name: "preempted: terminating until the release, then admitted again without a second waiting span",
			tr: otrace(9000,
				at(0),
				at(0).ev(arrive("ns/low", "cq")),
				at(0).admit("ns/low", "cq"),
				at(1000).ev(arrive("ns/high", "cq")),
				at(1000).ev(evictBy("ns/low", "cq", "ns/high")),
				at(3000).ev(wlEvent(trace.EventRelease, "ns/low")),
				at(3000).admit("ns/high", "cq"),
				at(6000).admit("ns/low", "cq"),
			),
			want: []lane{
				{"ns/low", "cq", []string{"waiting 0-0 (1-2)", "admitted 0-1000 (2-4)", "terminating 1000-3000 (4-5)", "admitted 6000-9000 (7-7)"}},
				{"ns/high", "cq", []string{"waiting 1000-3000 (3-6)", "admitted 3000-9000 (6-7)"}},
			},
			preemptions: []PreemptionMark{{Step: 4, TimeMs: 1000, Victim: 0, Preemptor: 1, PreemptorName: "ns/high"}},
		},
		{
			name: "pasted admitted on step 0, and pasted evicted (a release without an eviction)",
			tr: otrace(4000,
				at(0).initial().ev(arrive("ns/held", "cq"), arrive("ns/gone", "cq")),
				at(2000).ev(wlEvent(trace.EventRelease, "ns/gone")),
			),
			want: []lane{
				{"ns/gone", "cq", []string{"terminating 0-2000 (0-1)"}},
				{"ns/held", "cq", []string{"admitted 0-4000 (0-1)"}},
			},
		},
		{
			name: "by ClusterQueue, then creation; deleted while waiting; a preemptor without a lane",
			tr: otrace(3000,
				at(0).initial().ev(arrive("ns/old", "b")),
				at(1000).ev(arrive("ns/z", "a"), arrive("ns/y", "b")),
				at(2000).ev(arrive("ns/x", "a"), wlEvent(trace.EventDelete, "ns/z"), evictBy("ns/old", "b", "ns/other")),
			),
			want: []lane{
				{"ns/z", "a", []string{"waiting 1000-2000 (1-2)"}},
				{"ns/x", "a", []string{"waiting 2000-3000 (2-2)"}},
				{"ns/old", "b", []string{"admitted 0-2000 (0-2)", "terminating 2000-3000 (2-2)"}},
				{"ns/y", "b", []string{"waiting 1000-3000 (1-2)"}},
			},
			preemptions: []PreemptionMark{{Step: 2, TimeMs: 2000, Victim: 2, Preemptor: -1, PreemptorName: "ns/other"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := New(tt.tr).Overview().Timeline
			var got []lane
			for _, l := range tl.Lanes {
				g := lane{Workload: l.Workload, CQ: l.ClusterQueue}
				for _, s := range l.Spans {
					g.Spans = append(g.Spans, fmt.Sprintf("%s %d-%d (%d-%d)", s.Kind, s.FromMs, s.ToMs, s.FromStep, s.ToStep))
				}
				got = append(got, g)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("lanes (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.preemptions, tl.Preemptions); d != "" {
				t.Errorf("preemptions (-want +got):\n%s", d)
			}
		})
	}
}

func TestOverviewStepAt(t *testing.T) {
	o := New(otrace(5000, at(0), at(0), at(1000), at(1000), at(3000))).Overview()
	tests := []struct {
		name string
		ms   int64
		want int
	}{
		{"the last of the steps at a time", 0, 1},
		{"between two times: the earlier", 999, 1},
		{"exactly at a time: its last step", 1000, 3},
		{"after the last step", 4000, 4},
		{"before the first step", -5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := o.StepAt(tt.ms); got != tt.want {
				t.Errorf("StepAt(%d) = %d, want %d", tt.ms, got, tt.want)
			}
		})
	}
}

// TestOverviewEveryScenario checks the charts of every scenario against
// the trace step by step: at every step, each usage series' value at the
// chart's last point at or before the step is the row's value that
// Trace.StateAt rebuilds (the same for the pending counts), and the
// summary is trace.Summarize's.
func TestOverviewEveryScenario(t *testing.T) {
	for _, name := range allScenarios(t) {
		t.Run(name, func(t *testing.T) {
			tr := run(t, name, nil)
			o := New(tr).Overview()
			if d := cmp.Diff(trace.Summarize(tr), o.Summary); d != "" {
				t.Errorf("summary (-want +got):\n%s", d)
			}
			if o.Steps != len(tr.Steps) || len(o.TimesMs) != len(tr.Steps) {
				t.Fatalf("%d steps, %d times, for %d steps", o.Steps, len(o.TimesMs), len(tr.Steps))
			}
			valueAt := func(c *Chart, s *Series, step int) (int64, bool) {
				p := -1
				for k, st := range c.Steps {
					if st <= step {
						p = k
					}
				}
				if p < 0 {
					return 0, false
				}
				for _, g := range s.Gaps {
					if g == p {
						return 0, false
					}
				}
				return s.Values[p], true
			}
			for i := range tr.Steps {
				usage, queues := tr.StateAt(i)
				for _, r := range usage {
					found := false
					for ci := range o.Usage {
						c := &o.Usage[ci]
						if c.Kind != r.Kind || c.Node != r.Node || c.Resource != r.Resource {
							continue
						}
						for si := range c.Series {
							s := &c.Series[si]
							if s.Flavor != r.Flavor {
								continue
							}
							want, ok := map[string]int64{"used": r.Used, "quota": r.SubtreeQuota}[s.Kind]
							if s.Kind == "limit" {
								ok = r.BorrowingLimit != nil
								if ok {
									want = r.SubtreeQuota + *r.BorrowingLimit
								}
							}
							got, has := valueAt(&c.Chart, s, i)
							if has != ok || got != want {
								t.Fatalf("step %d: %s %s: %s is %d (%v), want %d (%v)", i, c.Title, r.Flavor, s.Kind, got, has, want, ok)
							}
							found = found || s.Kind == "used"
						}
					}
					if !found {
						t.Fatalf("step %d: no used series for %s %s %s/%s", i, r.Kind, r.Node, r.Flavor, r.Resource)
					}
				}
				var total int64
				for _, q := range queues {
					total += int64(q.PendingCount + q.ParkedCount)
					for si := range o.Pending.Series {
						s := &o.Pending.Series[si]
						if s.Label == q.ClusterQueue {
							if got, ok := valueAt(&o.Pending, s, i); !ok || got != int64(q.PendingCount+q.ParkedCount) {
								t.Fatalf("step %d: pending of %s is %d (%v), want %d", i, q.ClusterQueue, got, ok, q.PendingCount+q.ParkedCount)
							}
						}
					}
				}
				if len(queues) > 0 {
					if got, _ := valueAt(&o.Pending, &o.Pending.Series[0], i); got != total {
						t.Fatalf("step %d: %d pending in all, want %d", i, got, total)
					}
				}
			}
			for _, c := range append([]Chart{o.Pending}, func() []Chart {
				var cs []Chart
				for _, u := range o.Usage {
					cs = append(cs, u.Chart)
				}
				return cs
			}()...) {
				if len(c.Steps) != len(c.XMs) {
					t.Fatalf("%s: %d steps for %d times", c.ID, len(c.Steps), len(c.XMs))
				}
				for k := 1; k < len(c.XMs); k++ {
					if c.XMs[k] < c.XMs[k-1] || c.Steps[k] < c.Steps[k-1] {
						t.Fatalf("%s: point %d goes back in time", c.ID, k)
					}
				}
				for _, s := range c.Series {
					if len(s.Values) != len(c.XMs) {
						t.Fatalf("%s: series %s has %d values for %d points", c.ID, s.Label, len(s.Values), len(c.XMs))
					}
				}
			}
			// Every admission and eviction of the trace is on a lane.
			admitted, evicted := 0, 0
			for _, st := range tr.Steps {
				for _, d := range st.Decisions {
					if d.Outcome == trace.OutcomeAdmitted {
						admitted++
					}
				}
				for _, e := range st.Events {
					if e.Kind == trace.EventEvict && e.Preemptor != "" {
						evicted++
					}
				}
			}
			spans := 0
			for _, l := range o.Timeline.Lanes {
				for k, s := range l.Spans {
					if s.Kind == SpanAdmitted && !(k == 0 && s.FromStep == 0) {
						spans++
					}
					if s.ToMs < s.FromMs || s.ToStep < s.FromStep {
						t.Errorf("%s: span %d ends before it starts: %+v", l.Workload, k, s)
					}
				}
			}
			if spans != admitted {
				t.Errorf("%d admitted spans after step 0 for %d admissions", spans, admitted)
			}
			if len(o.Timeline.Preemptions) != evicted {
				t.Errorf("%d preemption marks for %d evictions by a preemptor", len(o.Timeline.Preemptions), evicted)
			}
		})
	}
}

// TestOverviewBuilder checks that the Overview built from a run's steps
// as it goes (OverviewBuilder, fed by sim.Options.Stop: full usage, the
// queues' counts without their lists) is the one Model.Overview computes
// from the compacted trace, for every scenario, and that a builder that
// did not see every step of the trace gives none.
func TestOverviewBuilder(t *testing.T) {
	for _, name := range allScenarios(t) {
		t.Run(name, func(t *testing.T) {
			sc := decodeScenario(t, name)
			b := NewOverviewBuilder()
			tr := sim.Run(sc, sim.Options{Stop: func(st *trace.Step) bool {
				b.Step(st)
				return false
			}})
			m := New(tr)
			got := b.Overview(m)
			if got == nil {
				t.Fatalf("no Overview from the builder after %d steps", len(tr.Steps))
			}
			if d := cmp.Diff(m.Overview(), got); d != "" {
				t.Errorf("Overview (-want +got):\n%s", d)
			}
		})
	}
	t.Run("missing-step", func(t *testing.T) {
		tr := run(t, "docs-run-deployment", nil)
		b := NewOverviewBuilder()
		for i := range tr.Steps[:len(tr.Steps)-1] {
			b.Step(&tr.Steps[i])
		}
		if o := b.Overview(New(tr)); o != nil {
			t.Errorf("an Overview of %d steps from %d steps", o.Steps, len(tr.Steps)-1)
		}
	})
	t.Run("out-of-order", func(t *testing.T) {
		tr := run(t, "docs-run-deployment", nil)
		b := NewOverviewBuilder()
		b.Step(&tr.Steps[1])
		for i := range tr.Steps {
			b.Step(&tr.Steps[i])
		}
		if o := b.Overview(New(tr)); o != nil {
			t.Errorf("an Overview from steps out of order")
		}
	})
}
