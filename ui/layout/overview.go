package layout

import (
	"strconv"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/view"
)

// openUsageCharts is how many usage charts are shown open at first: past
// it only the first cohort tree's group is open, and the others open on
// a click.
const openUsageCharts = 8

// openTableRows is the most rows a summary table of the overview may have
// and still be shown open at first. A longer one (Kueue's scalability
// test: 93 rows of times to admission, 30 of average usage) starts
// closed: the browser then neither styles, lays out nor paints its
// cells, which were most of the cost of opening the Overview (at 15,000
// workloads, 1,300 of its 1,450 elements and the larger part of a
// 120 ms task), and it opens on a click.
const openTableRows = 24

// Overview lays out the run's overview (view.Overview), once per run.
// The charts themselves are drawn by the page's chart bundle
// (web/charts) into the chart boxes, from the same Overview as JSON:
//
//	div.overview
//	  p.overview-run            the run in one line
//	  details.overview-part[data-part=usage] (open)
//	    summary                 "Usage against quota (N charts)"
//	    details.usage-group[data-root=NAME] per cohort tree or lone
//	                            ClusterQueue (open when there are few
//	                            charts, else only the first)
//	      summary               the root's kind and name
//	      div.chart-box[data-chart=usage-N][data-kind][data-node]
//	          [data-resource][data-depth][data-series-count][data-series]
//	        h5.chart-title       "ClusterQueue a: cpu (CPU)"
//	        div.chart            the chart goes here
//	  details.overview-part[data-part=pending] (open)
//	    summary, div.chart-box[data-chart=pending][data-series-count][data-series]
//	  details.overview-part[data-part=timeline] (open)
//	    summary, div.chart-box[data-chart=timeline][data-lanes][data-preemptions]
//	      div.chart-tools       button[data-zoom=in|out|reset|fit], p.chart-help
//	      div.chart
//	  details.overview-part[data-part=admission] (open up to
//	                            openTableRows rows, else closed and
//	                            data-lazy="true")
//	    summary, table.summary-table[data-table=admission]
//	      tr[data-cq][data-priority] per ClusterQueue and priority, then
//	      tr.all[data-priority] over all ClusterQueues
//	  details.overview-part[data-part=avg-usage] (open up to
//	                            openTableRows rows, else closed and
//	                            data-lazy="true")
//	    summary, table.summary-table[data-table=avg-usage]
//	      tr[data-cq][data-flavor][data-resource]
//
// data-series lists a chart's series labels joined by "|" (Kubernetes
// names have no "|"), in the chart's order; data-series-count is their
// number. A run without ClusterQueues or workloads says so instead of the
// part's chart.
func Overview(o *view.Overview) *view.Node {
	root := el("div", "class", "overview")
	s := o.Summary
	run := itoa(o.Steps) + " steps, " + count(s.Workloads, "workload", "workloads") + ", " + count(s.Evictions, "eviction", "evictions") +
		", " + count(s.Cycles, "cycle", "cycles") + "; ended at " + view.FormatTime(o.EndMs)
	if s.End != "" {
		run += " (" + s.End + ")"
	}
	root.Add(txt("p", run+". Click a chart to go to that moment's step; drag across one to zoom, double-click to zoom out.", "class", "overview-run"))

	usage := part("usage", "Usage against quota ("+count(len(o.Usage), "chart", "charts")+")")
	if len(o.Usage) == 0 {
		usage.Add(txt("p", "No quota: the run has no ClusterQueue with resource groups.", "class", "empty"))
	}
	var group *view.Node
	groups, rootName := 0, ""
	for i := range o.Usage {
		c := &o.Usage[i]
		if c.Depth == 0 && (group == nil || rootName != c.Node) {
			rootName = c.Node
			group = el("details", "class", "usage-group", "data-root", c.Node)
			if groups == 0 || len(o.Usage) <= openUsageCharts {
				group.Attrs = append(group.Attrs, view.Attr{Name: "open", Value: ""})
			}
			groups++
			group.Add(txt("summary", c.Kind+" "+c.Node))
			usage.Add(group)
		}
		box := chartBox(&c.Chart, "data-kind", c.Kind, "data-node", c.Node, "data-resource", c.Resource, "data-depth", itoa(c.Depth))
		if group == nil { // a forest always starts with a root; keep the chart anyway
			usage.Add(box)
		} else {
			group.Add(box)
		}
	}
	root.Add(usage)

	pending := part("pending", "Pending workloads (in the queue or parked) per ClusterQueue")
	if len(o.Pending.Series) <= 1 {
		pending.Add(txt("p", "No ClusterQueues.", "class", "empty"))
	} else {
		pending.Add(chartBox(&o.Pending))
	}
	root.Add(pending)

	tl := &o.Timeline
	timeline := part("timeline", "Workloads: waiting, admitted, terminating; preemptions ("+count(len(tl.Lanes), "workload", "workloads")+", "+
		count(len(tl.Preemptions), "preemption", "preemptions")+")")
	if len(tl.Lanes) == 0 {
		timeline.Add(txt("p", "No workload was created or admitted.", "class", "empty"))
	} else {
		box := el("div", "class", "chart-box timeline-box", "data-chart", "timeline", "data-lanes", itoa(len(tl.Lanes)), "data-preemptions", itoa(len(tl.Preemptions)))
		tools := el("div", "class", "chart-tools").Add(
			txt("button", "Zoom in", "type", "button", "class", "small", "data-zoom", "in"),
			txt("button", "Zoom out", "type", "button", "class", "small", "data-zoom", "out"),
			txt("button", "Whole run", "type", "button", "class", "small", "data-zoom", "reset"),
			txt("button", "All lanes", "type", "button", "class", "small", "data-zoom", "fit", "aria-pressed", "false",
				"title", "Squeeze every lane into the chart (or back to readable lanes, which the wheel scrolls)"),
			txt("p", "One lane per workload, by ClusterQueue: a thin line while it waits for its first admission, a bar while admitted, "+
				"a lighter bar while it terminates; a diamond where it was preempted, joined to its preemptor. Drag to zoom; the wheel scrolls the lanes (Ctrl+wheel zooms).", "class", "chart-help"),
		)
		box.Add(tools, el("div", "class", "chart"))
		timeline.Add(box)
	}
	root.Add(timeline)

	root.Add(admissionTable(s))
	root.Add(avgUsageTable(s))
	return root
}

// part is one collapsible part of the overview, open.
func part(name, title string) *view.Node {
	return el("details", "class", "overview-part", "data-part", name, "open", "").Add(txt("summary", title))
}

// closeIfLong closes part, a table's, when the table has more than
// openTableRows rows, and marks it data-lazy: the page makes a closed
// lazy part's elements after its summary only when it is first opened
// (site/boot.js's make), since even closed, the 1,300 cells of Kueue's
// scalability test were a third of the Overview click's task.
func closeIfLong(part *view.Node, rows int) {
	if rows <= openTableRows {
		return
	}
	attrs := part.Attrs[:0]
	for _, a := range part.Attrs {
		if a.Name != "open" {
			attrs = append(attrs, a)
		}
	}
	part.Attrs = append(attrs, view.Attr{Name: "data-lazy", Value: "true"})
}

// chartBox is a chart's container: its title and the div the chart
// bundle draws into.
func chartBox(c *view.Chart, attrs ...string) *view.Node {
	labels := make([]string, len(c.Series))
	for i, s := range c.Series {
		labels[i] = s.Label
	}
	box := el("div", append([]string{"class", "chart-box", "data-chart", c.ID, "data-series-count", itoa(len(c.Series)), "data-series", strings.Join(labels, "|")}, attrs...)...)
	title := c.Title
	if c.Unit != "" {
		title += " (" + c.Unit + ")"
	}
	return box.Add(txt("h5", title, "class", "chart-title"), el("div", "class", "chart"))
}

// admissionTable is trace.Summarize's times from creation to first
// admission, as Kueue's scalability checker reads them: by ClusterQueue
// and priority, then by priority over all ClusterQueues.
func admissionTable(s trace.Summary) *view.Node {
	p := part("admission", "Time from creation to first admission, by ClusterQueue and priority")
	if len(s.Groups) == 0 {
		return p.Add(txt("p", "No workloads.", "class", "empty"))
	}
	closeIfLong(p, len(s.Groups)+len(s.ByPriority))
	t := el("table", "class", "summary-table", "data-table", "admission").Add(
		headRow("ClusterQueue", "priority", "workloads", "created", "admitted", "never", "finished", "evictions", "avg", "p95", "max"))
	body := el("tbody")
	row := func(tr *view.Node, cq string, g trace.GroupSummary) {
		tr.Add(txt("th", cq, "scope", "row"))
		for _, v := range []int{int(g.Priority), g.Count, g.Created, g.Admitted, g.NotAdmitted, g.Finished, g.Evictions} {
			tr.Add(txt("td", itoa(v), "class", "num"))
		}
		for _, v := range []int64{int64(g.AvgToAdmitMs + 0.5), g.P95ToAdmitMs, g.MaxToAdmitMs} {
			w := "-"
			if g.Admitted > 0 {
				w = view.FormatTime(v)
			}
			tr.Add(txt("td", w, "class", "num"))
		}
		body.Add(tr)
	}
	for _, g := range s.Groups {
		cq := g.ClusterQueue
		if cq == "" {
			cq = "(none)"
		}
		row(el("tr", "data-cq", g.ClusterQueue, "data-priority", itoa(int(g.Priority))), cq, g)
	}
	for _, g := range s.ByPriority {
		row(el("tr", "class", "all", "data-priority", itoa(int(g.Priority))), "all", g)
	}
	return p.Add(tableScroll(t.Add(body)))
}

// avgUsageTable is each ClusterQueue's time-weighted average usage over
// the run against its nominal quota, and the peak.
func avgUsageTable(s trace.Summary) *view.Node {
	p := part("avg-usage", "ClusterQueue usage, time-weighted average over the run")
	if len(s.Usage) == 0 {
		return p.Add(txt("p", "No quota.", "class", "empty"))
	}
	closeIfLong(p, len(s.Usage))
	t := el("table", "class", "summary-table", "data-table", "avg-usage").Add(headRow("ClusterQueue", "flavor/resource", "nominal", "avg", "avg/nominal", "peak"))
	body := el("tbody")
	for _, u := range s.Usage {
		r := core.ResourceName(u.Resource)
		pct := "-"
		if u.Nominal > 0 {
			pct = strconv.FormatFloat(u.AvgPct, 'f', 1, 64) + "%"
		}
		avg := int64(u.AvgUsed + 0.5)
		body.Add(el("tr", "data-cq", u.ClusterQueue, "data-flavor", u.Flavor, "data-resource", u.Resource).Add(
			txt("th", u.ClusterQueue, "scope", "row"),
			txt("td", u.Flavor+"/"+u.Resource),
			txt("td", core.FormatAmount(r, core.Amount(u.Nominal)), "class", "num"),
			txt("td", core.FormatAmount(r, core.Amount(avg)), "class", "num"),
			txt("td", pct, "class", "num"),
			txt("td", core.FormatAmount(r, core.Amount(u.Peak)), "class", "num"),
		))
	}
	return p.Add(tableScroll(t.Add(body)))
}
