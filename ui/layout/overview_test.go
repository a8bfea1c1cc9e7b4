package layout

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/view"
)

// TestGoldenOverview compares the overview of two runs (three
// ClusterQueues sharing a cohort with two preemptions; a cohort tree with
// lending limits) with testdata/overview-NAME.golden.
func TestGoldenOverview(t *testing.T) {
	for _, name := range []string{"kep4378-horizontal-stall-gate-off", "hierarchy-cohort-lending-limit"} {
		t.Run(name, func(t *testing.T) {
			n := Overview(view.New(run(t, name, nil)).Overview())
			checkTree(t, "Overview", n)
			golden(t, "overview-"+name+".golden", pretty(n))
		})
	}
}

// TestOverviewEveryScenario checks the overview of every scenario
// against the allow-lists and the page contract: one chart box per chart
// of the view-model, each naming its series, a timeline box counting the
// lanes and preemptions, one table row per summary group.
func TestOverviewEveryScenario(t *testing.T) {
	for _, name := range allScenarios(t) {
		t.Run(name, func(t *testing.T) {
			o := view.New(run(t, name, nil)).Overview()
			n := Overview(o)
			checkTree(t, "Overview", n)
			boxes := map[string]*view.Node{}
			for _, b := range find(n, func(n *view.Node) bool { return n.Attr("data-chart") != "" }) {
				if boxes[b.Attr("data-chart")] != nil {
					t.Errorf("data-chart=%s twice", b.Attr("data-chart"))
				}
				boxes[b.Attr("data-chart")] = b
				if len(find(b, func(n *view.Node) bool { return hasClass(n, "chart") && n.Tag == "div" })) != 1 {
					t.Errorf("data-chart=%s has no div.chart to draw in", b.Attr("data-chart"))
				}
			}
			charts := []view.Chart{}
			for _, u := range o.Usage {
				charts = append(charts, u.Chart)
			}
			if len(o.Pending.Series) > 1 {
				charts = append(charts, o.Pending)
			}
			for _, c := range charts {
				b := boxes[c.ID]
				if b == nil {
					t.Errorf("no box for chart %s", c.ID)
					continue
				}
				var labels []string
				for _, s := range c.Series {
					labels = append(labels, s.Label)
				}
				if got := strings.Split(b.Attr("data-series"), "|"); !cmp.Equal(labels, got) || b.Attr("data-series-count") != itoa(len(labels)) {
					t.Errorf("chart %s: data-series %q (count %s), want %q", c.ID, got, b.Attr("data-series-count"), labels)
				}
			}
			wantBoxes := len(charts)
			if len(o.Timeline.Lanes) > 0 {
				wantBoxes++
				tl := boxes["timeline"]
				if tl == nil || tl.Attr("data-lanes") != itoa(len(o.Timeline.Lanes)) || tl.Attr("data-preemptions") != itoa(len(o.Timeline.Preemptions)) {
					t.Errorf("timeline box %v for %d lanes, %d preemptions", tl, len(o.Timeline.Lanes), len(o.Timeline.Preemptions))
				}
			}
			if len(boxes) != wantBoxes {
				t.Errorf("%d chart boxes, want %d", len(boxes), wantBoxes)
			}
			rows := find(n, func(n *view.Node) bool { return n.Tag == "tr" && n.Attr("data-priority") != "" })
			if len(rows) != len(o.Summary.Groups)+len(o.Summary.ByPriority) {
				t.Errorf("%d admission rows for %d groups and %d priorities", len(rows), len(o.Summary.Groups), len(o.Summary.ByPriority))
			}
			if got := find(n, func(n *view.Node) bool { return n.Tag == "tr" && n.Attr("data-flavor") != "" }); len(got) != len(o.Summary.Usage) {
				t.Errorf("%d average usage rows for %d", len(got), len(o.Summary.Usage))
			}
		})
	}
}

func TestOverviewLayout(t *testing.T) {
	chart := func(id, node string, depth int) view.UsageChart {
		return view.UsageChart{Chart: view.Chart{ID: id, Title: node, Unit: "CPU", Series: []view.Series{{Label: "f used"}, {Label: "f quota"}}}, Kind: "ClusterQueue", Node: node, Depth: depth}
	}
	many := func(n int) []view.UsageChart {
		var cs []view.UsageChart
		for i := range n {
			cs = append(cs, chart("usage-"+itoa(i), "cq-"+itoa(i), 0))
		}
		return cs
	}
	tests := []struct {
		name string
		o    view.Overview
		// open lists the usage groups (data-root) shown open; groups all
		// of them; parts the overview's parts; empty their "empty" notes.
		open, groups []string
		empty        []string
		admission    []string // the admission table's rows: first cells
	}{
		{
			name:   "nothing: every part says so",
			o:      view.Overview{},
			empty:  []string{"No quota: the run has no ClusterQueue with resource groups.", "No ClusterQueues.", "No workload was created or admitted.", "No workloads.", "No quota."},
			groups: nil, open: nil,
		},
		{
			name: "a cohort tree's charts share its group",
			o: view.Overview{Usage: []view.UsageChart{chart("usage-0", "pool", 0), chart("usage-1", "pool", 0), chart("usage-2", "a", 1), chart("usage-3", "lone", 0)},
				Pending: view.Chart{ID: "pending", Series: []view.Series{{Label: "all ClusterQueues"}, {Label: "a"}}}},
			groups: []string{"pool", "lone"}, open: []string{"pool", "lone"},
			empty: []string{"No workload was created or admitted.", "No workloads.", "No quota."},
		},
		{
			name: "many charts: only the first group open",
			o:    view.Overview{Usage: many(openUsageCharts + 1)},
			groups: func() []string {
				var g []string
				for i := range openUsageCharts + 1 {
					g = append(g, "cq-"+itoa(i))
				}
				return g
			}(),
			open:  []string{"cq-0"},
			empty: []string{"No ClusterQueues.", "No workload was created or admitted.", "No workloads.", "No quota."},
		},
		{
			name: "the admission table: by ClusterQueue and priority, then all; no time without an admission",
			o: view.Overview{Summary: trace.Summary{
				Groups:     []trace.GroupSummary{{ClusterQueue: "a", Priority: 10, Count: 2, Created: 2, Admitted: 2, AvgToAdmitMs: 1500, P95ToAdmitMs: 2000, MaxToAdmitMs: 2000}, {ClusterQueue: "", Priority: 0, Count: 1, Created: 1, NotAdmitted: 1}},
				ByPriority: []trace.GroupSummary{{Priority: 10, Count: 2, Created: 2, Admitted: 2, AvgToAdmitMs: 1500, P95ToAdmitMs: 2000, MaxToAdmitMs: 2000}, {Priority: 0, Count: 1, Created: 1, NotAdmitted: 1}},
			}},
			admission: []string{"a 10 2 2 2 0 0 0 1.5s 2s 2s", "(none) 0 1 1 0 1 0 0 - - -", "all 10 2 2 2 0 0 0 1.5s 2s 2s", "all 0 1 1 0 1 0 0 - - -"},
			empty:     []string{"No quota: the run has no ClusterQueue with resource groups.", "No ClusterQueues.", "No workload was created or admitted.", "No quota."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Overview(&tt.o)
			checkTree(t, "Overview", n)
			var groups, open, empty, admission []string
			for _, g := range find(n, func(n *view.Node) bool { return hasClass(n, "usage-group") }) {
				groups = append(groups, g.Attr("data-root"))
				for _, a := range g.Attrs {
					if a.Name == "open" {
						open = append(open, g.Attr("data-root"))
					}
				}
			}
			for _, e := range find(n, func(n *view.Node) bool { return hasClass(n, "empty") }) {
				empty = append(empty, e.Text)
			}
			for _, r := range find(n, func(n *view.Node) bool { return n.Tag == "tr" && n.Attr("data-priority") != "" }) {
				admission = append(admission, allText(r))
			}
			if d := cmp.Diff(tt.groups, groups); d != "" {
				t.Errorf("groups (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.open, open); d != "" {
				t.Errorf("open groups (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.empty, empty); d != "" {
				t.Errorf("empty notes (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.admission, admission); d != "" {
				t.Errorf("admission rows (-want +got):\n%s", d)
			}
			parts := find(n, func(n *view.Node) bool { return hasClass(n, "overview-part") })
			var names []string
			for _, p := range parts {
				names = append(names, p.Attr("data-part"))
			}
			if d := cmp.Diff([]string{"usage", "pending", "timeline", "admission", "avg-usage"}, names); d != "" {
				t.Errorf("parts (-want +got):\n%s", d)
			}
		})
	}
}

// TestOverviewLongTablesClosed checks that a summary table of more than
// openTableRows rows starts in a closed part marked data-lazy (the page
// makes its rows when it is opened), and a shorter one open.
func TestOverviewLongTablesClosed(t *testing.T) {
	groups := func(n int) []trace.GroupSummary {
		g := make([]trace.GroupSummary, n)
		for i := range g {
			g[i] = trace.GroupSummary{ClusterQueue: "cq-" + itoa(i), Count: 1, Created: 1, NotAdmitted: 1}
		}
		return g
	}
	usage := func(n int) []trace.UsageSummary {
		u := make([]trace.UsageSummary, n)
		for i := range u {
			u[i] = trace.UsageSummary{ClusterQueue: "cq-" + itoa(i), Flavor: "default", Resource: "cpu"}
		}
		return u
	}
	for _, tt := range []struct {
		name                   string
		groups, byPrio, usages int
		want                   map[string]string
	}{
		{"short", 2, 1, 3, map[string]string{"admission": "open", "avg-usage": "open"}},
		{"at the limit", openTableRows - 1, 1, openTableRows, map[string]string{"admission": "open", "avg-usage": "open"}},
		{"long", 90, 3, openTableRows + 1, map[string]string{"admission": "closed lazy", "avg-usage": "closed lazy"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := Overview(&view.Overview{Summary: trace.Summary{Groups: groups(tt.groups), ByPriority: groups(tt.byPrio), Usage: usage(tt.usages)}})
			checkTree(t, "Overview", n)
			got := map[string]string{}
			for _, p := range find(n, func(n *view.Node) bool { return hasClass(n, "overview-part") }) {
				name := p.Attr("data-part")
				if name != "admission" && name != "avg-usage" {
					continue
				}
				var state []string
				for _, a := range p.Attrs {
					if a.Name == "open" {
						state = append(state, "open")
					}
				}
				if state == nil {
					state = append(state, "closed")
				}
				if p.Attr("data-lazy") == "true" {
					state = append(state, "lazy")
				}
				got[name] = strings.Join(state, " ")
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("open table parts (-want +got):\n%s", d)
			}
		})
	}
}
