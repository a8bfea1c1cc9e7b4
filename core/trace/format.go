package trace

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kueueplay/kueueplay/core"
)

// Format writes the trace as text, one line per decision, in a fixed
// layout that golden files and reviewers diff:
//
//	# gates FlavorFungibility=true ...
//	# policy team-a/rp strategy=required podSelector="" matchLabelKeys=batch.kubernetes.io/job-name
//	#   unit static priority=5 maxCount=4 nodeSelector="tier=static"
//	#   unit spot priority=1 maxCount=unlimited nodeSelector="tier=spot"
//	#003 t=2s cycle=2  cycle
//	  head      team-a        team-a/train-2
//	  decide    team-a/train-2  cq=team-a prio=0 order=1 mode=Fit borrowing=0 -> Admitted
//	    podset  main x3  requests cpu=3,memory=600Mi
//	      group cpu,memory  started from the first flavor
//	        try   0 on-demand  Fit  borrow=0  stop: fits without borrowing  [best]
//	      chosen on-demand: ...
//	  scaledown team-a/web 6->2
//	    remove  team-a/web-5 on spot-2 cost=1: pod-deletion-cost 1, lower than ...
//	  place     team-a/train-2-main-0 -> static-1 owner=team-a/train-2 policy=team-a/rp group="batch.kubernetes.io/job-name=train-2" unit=static cost=5 feasible=2/5: bound to ...
//	    verdict static-1 unit=static total=974 [chosen]: NodeAffinity=skipped NodeResourcesFit=84/84*1=84 ResourcePolicy=100/100*5=500 ...
//	    verdict spot-1 unit=spot total=574: NodeAffinity=skipped NodeResourcesFit=84/84*1=84 ResourcePolicy=20/20*5=100 ...
//	    verdict static-2 unit=static rejected NodeResourcesFit: Insufficient cpu
//	    (+2 more nodes)
//	  place     team-a/train-2-main-1 pending owner=team-a/train-2 policy=team-a/rp ... feasible=0/5: 0/5 nodes are available: ...
//	  usage     ClusterQueue team-a on-demand/cpu used=3 nominal=4 ...
//	  node      static-1 pods=3/110 cpu=3/4 memory=3Gi/16Gi units=team-a/rp/static [team-a/train-2-main-0 unit=team-a/rp/static cost=5, team-a/web-0 unit=team-a/rp/static cost=5 terminating, ...]
//	  unit      team-a/rp/static group="batch.kubernetes.io/job-name=train-2" count=1 live=1 maxCount=4
//	  pending   team-a/train-2-main-1 (team-a/train-2): 0/5 nodes are available: ...
//
// The header lists each ResourcePolicy and its units (scenarios with
// Nodes). In a step, what happened comes first: events, heads, decisions,
// claims, then the scale-downs (applied with the step's events) and the
// placements (tried at the end of the step), in that order. A placement
// line counts the feasible nodes out of the nodes it has a verdict for
// (listed plus omitted); each verdict line gives a feasible node's total
// and every plugin's raw/normalized*weight=weighted score ("feasible, not
// scored" when scoring was skipped), or the filter that rejected the node. Then comes the state after the step: usage,
// nodes, unit counts and pending pods, each printed only when it changed
// since the previous step: a usage or node row whose values changed
// (every node at step 0), a unit count that changed or disappeared (then
// with count=0), the pending pods when the set of pods and messages
// changed ("pending none" when it became empty).
func Format(w io.Writer, tr *Trace) error {
	f := NewFormatter(w)
	for i := range tr.Steps {
		f.Step(tr, &tr.Steps[i])
	}
	return f.Close(tr)
}

// Formatter writes the text format of a trace whose steps come one at a
// time (sim.Options.Sink), so that a long run is never held whole: Step
// for each step in order, then Close. Format is the same for a whole
// trace.
type Formatter struct {
	b         *bufio.Writer
	started   bool
	prev      Step
	havePrev  bool
	prevUsage []UsageRow
	nodeLines map[string]string
	replay    *Replay
}

// NewFormatter returns a Formatter writing to w (buffered: Close flushes).
func NewFormatter(w io.Writer) *Formatter {
	r := NewReplay(nil)
	r.usageOnly = true // the text prints usage, not queues
	return &Formatter{b: bufio.NewWriterSize(w, 64<<10), nodeLines: map[string]string{}, replay: r}
}

// header writes tr's header lines once, before the first step.
func (f *Formatter) header(tr *Trace) {
	if f.started {
		return
	}
	f.started = true
	b := f.b
	fmt.Fprintf(b, "# %s scenario=%q\n", tr.Version, tr.Scenario)
	var gates []string
	for _, g := range tr.Gates {
		gates = append(gates, fmt.Sprintf("%s=%t", g.Name, g.Enabled))
	}
	fmt.Fprintf(b, "# gates %s\n", strings.Join(gates, " "))
	if c := tr.Configuration; c != nil {
		formatConfiguration(b, c)
	}
	for i := range tr.Policies {
		formatPolicy(b, &tr.Policies[i])
	}
}

// Step writes st, the step after the last one written; tr gives the
// header (its Steps are not read).
func (f *Formatter) Step(tr *Trace, st *Step) {
	f.header(tr)
	f.replay.Push(st)
	var prev *Step
	if f.havePrev {
		prev = &f.prev
	}
	formatStep(f.b, st, prev, f.prevUsage, f.replay.Usage(), f.nodeLines)
	f.prev, f.havePrev = *st, true
	f.prevUsage = append(f.prevUsage[:0], f.replay.Usage()...)
}

// Close writes the end of the trace (tr's End, EndMs, Cycles and
// Workloads) and flushes.
func (f *Formatter) Close(tr *Trace) error {
	f.header(tr)
	b := f.b
	fmt.Fprintf(b, "# end %s at t=%s after %d cycles\n", tr.End, ms(tr.EndMs), tr.Cycles)
	for i := range tr.Workloads {
		ws := &tr.Workloads[i]
		b.WriteString("final ")
		writePadded(b, ws.Workload, 30)
		b.WriteByte(' ')
		writePadded(b, string(ws.Status), 11)
		if len(ws.Admission) > 0 {
			b.WriteByte(' ')
			writeAdmission(b, ws.Admission)
		}
		if ws.Message != "" {
			b.WriteString(" msg=")
			writeQuoted(b, ws.Message)
		}
		b.WriteByte('\n')
	}
	return b.Flush()
}

func ms(v int64) string { return (time.Duration(v) * time.Millisecond).String() }

// formatStep writes step st; prev and usage are the full usage rows
// after the step before it and after it.
func formatStep(b *bufio.Writer, st *Step, prevStep *Step, prev, usage []UsageRow, nodeLines map[string]string) {
	if st.Index >= 0 { // #%03d
		b.WriteByte('#')
		for n := 100; n > 1 && st.Index < n; n /= 10 {
			b.WriteByte('0')
		}
		writeInt(b, int64(st.Index))
	} else {
		fmt.Fprintf(b, "#%03d", st.Index)
	}
	b.WriteString(" t=")
	b.WriteString(ms(st.TimeMs))
	b.WriteString(" cycle=")
	writeInt(b, int64(st.Cycle))
	b.WriteByte(' ')
	b.WriteString(string(st.Kind))
	b.WriteByte('\n')
	for i := range st.Events {
		e := &st.Events[i]
		subject := e.Workload
		if subject == "" {
			subject = e.ClusterQueue
		}
		b.WriteString("  ")
		writePadded(b, string(e.Kind), 9)
		b.WriteByte(' ')
		b.WriteString(subject)
		b.WriteString(": ")
		b.Write(e.appendText(b.AvailableBuffer()))
		b.WriteByte('\n')
	}
	for _, h := range st.Heads {
		b.WriteString("  head      ")
		b.WriteString(h.ClusterQueue)
		b.WriteByte(' ')
		b.WriteString(h.Workload)
		b.WriteByte('\n')
	}
	for i := range st.Decisions {
		formatDecision(b, &st.Decisions[i])
	}
	for _, c := range st.Claims {
		var by []string
		for _, x := range c.By {
			by = append(by, x.Preemptor+" "+quantities(x.Claimed))
		}
		fmt.Fprintf(b, "  claim     %s of %s: %s\n", c.Target, quantities(c.Original), strings.Join(by, "; "))
	}
	for i := range st.ScaleDowns {
		formatScaleDown(b, &st.ScaleDowns[i])
	}
	for i := range st.Placements {
		formatPlacement(b, &st.Placements[i])
	}
	// Rows keep their order between steps unless the layout changed
	// (then the step is Full and rows are looked up by key).
	var prevByKey map[string]UsageRow
	if !sameUsageLayout(prev, usage) {
		prevByKey = map[string]UsageRow{}
		for _, r := range prev {
			prevByKey[r.Node+"\x00"+r.Flavor+"\x00"+r.Resource] = r
		}
	}
	for i, r := range usage {
		var p UsageRow
		ok := prevByKey == nil && i < len(prev)
		if ok {
			p = prev[i]
		} else if prevByKey != nil {
			p, ok = prevByKey[r.Node+"\x00"+r.Flavor+"\x00"+r.Resource]
		}
		if ok && p.Used == r.Used && p.Available == r.Available && p.Lent == r.Lent && st.Index != 0 {
			continue
		}
		if st.Index == 0 && r.Used == 0 && r.Lent == 0 {
			continue
		}
		res := core.ResourceName(r.Resource)
		b.WriteString("  usage     ")
		for _, s := range [...]string{r.Kind, " ", r.Node, " ", r.Flavor, "/", r.Resource} {
			b.WriteString(s)
		}
		for _, f := range [...]struct {
			k string
			v int64
		}{{" used=", r.Used}, {" nominal=", r.Nominal}, {" subtree=", r.SubtreeQuota}, {" borrowed=", r.Borrowed},
			{" lent=", r.Lent}, {" heldBack=", r.HeldBack}, {" available=", r.Available}} {
			b.WriteString(f.k)
			b.WriteString(core.FormatAmount(res, f.v))
		}
		b.WriteByte('\n')
	}
	formatPlacementState(b, st, prevStep, nodeLines)
}

func formatDecision(b *bufio.Writer, d *Decision) {
	b.WriteString("  decide    ")
	b.WriteString(d.Workload)
	b.WriteString(" cq=")
	b.WriteString(d.ClusterQueue)
	b.WriteString(" prio=")
	writeInt(b, int64(d.Priority))
	b.WriteString(" order=")
	writeInt(b, int64(d.Order))
	if d.Mode != "" {
		b.WriteString(" mode=")
		b.WriteString(d.Mode)
		b.WriteString(" borrowing=")
		writeInt(b, int64(d.Borrowing))
	}
	b.WriteString(" -> ")
	b.WriteString(string(d.Outcome))
	if d.Requeue != "" {
		b.WriteString(" requeue=")
		b.WriteString(d.Requeue)
		b.WriteByte('(')
		b.WriteString(d.RequeueReason)
		b.WriteByte(')')
	}
	b.WriteByte('\n')
	for _, ps := range d.PodSets {
		b.WriteString("    podset  ")
		b.WriteString(ps.PodSet)
		b.WriteString(" x")
		writeInt(b, int64(ps.Count))
		b.WriteString(" mode=")
		b.WriteString(ps.Mode)
		b.WriteString(" requests ")
		for i, q := range ps.Requests {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(q.Resource)
			b.WriteByte('=')
			b.WriteString(q.Text)
		}
		b.WriteByte('\n')
		for i := range ps.Groups {
			g := &ps.Groups[i]
			b.WriteString("      group ")
			writeJoined(b, g.Resources, ",")
			b.WriteString(": ")
			if g.Unavailable != "" {
				b.WriteString(g.Unavailable)
				b.WriteByte('\n')
				continue
			}
			g.writeResume(b)
			b.WriteByte('\n')
			for k := range g.Attempts {
				a := &g.Attempts[k]
				b.WriteString("        try ")
				writeInt(b, int64(a.Index))
				b.WriteByte(' ')
				b.WriteString(a.Flavor)
				b.WriteByte(' ')
				b.WriteString(a.Mode)
				b.WriteString(" borrow=")
				writeInt(b, int64(a.Borrowing))
				b.WriteString(": ")
				b.WriteString(a.RuleText())
				if a.Best {
					b.WriteString(" [best]")
				}
				if len(a.Reasons) > 0 {
					b.WriteString(" (")
					for r := range a.Reasons {
						if r > 0 {
							b.WriteString("; ")
						}
						b.WriteString(a.Reasons[r].Text(a.Flavor))
					}
					b.WriteByte(')')
				}
				if len(a.PreemptionTargets) > 0 {
					b.WriteString(" oracle-targets=")
					writeJoined(b, a.PreemptionTargets, ",")
				}
				b.WriteByte('\n')
			}
			if g.Chosen != "" {
				b.WriteString("      chosen ")
				b.WriteString(g.Chosen)
				b.WriteString(": ")
				g.writeWhy(b)
				b.WriteString("; next attempt index ")
				writeInt(b, int64(g.TriedIndex))
				b.WriteByte('\n')
			} else {
				b.WriteString("      chosen none\n")
			}
			if g.PreferenceNote != "" {
				b.WriteString("      note ")
				b.WriteString(g.PreferenceNote)
				b.WriteByte('\n')
			}
		}
	}
	if r := d.Recomputed; r != nil {
		fmt.Fprintf(b, "    recompute targets %s already claimed; was mode=%s", strings.Join(r.Overlapping, ","), r.BeforeMode)
		if r.BeforePreemption != nil {
			var ts []string
			for _, t := range r.BeforePreemption.Targets {
				ts = append(ts, t.Workload)
			}
			fmt.Fprintf(b, " targets=%s", strings.Join(ts, ","))
		}
		b.WriteString("\n")
	}
	if p := d.Preemption; p != nil {
		formatPreemption(b, p)
	}
	if len(d.Reserved) > 0 {
		fmt.Fprintf(b, "    reserve %s\n", quantities(d.Reserved))
	}
	if len(d.Admission) > 0 {
		b.WriteString("    admit   ")
		writeAdmission(b, d.Admission)
		b.WriteByte('\n')
	}
	if d.Message != "" {
		b.WriteString("    message ")
		writeQuoted(b, d.Message)
		b.WriteByte('\n')
	}
	if d.Explanation != "" {
		b.WriteString("    why     ")
		b.WriteString(d.Explanation)
		b.WriteByte('\n')
	}
}

func formatPreemption(b *bufio.Writer, p *Preemption) {
	fmt.Fprintf(b, "    preempt needs %s: %s\n", strings.Join(p.Resources, ","), p.Summary)
	for i, c := range p.Candidates {
		ev := ""
		if c.Evicted {
			ev = " evicted"
		}
		fmt.Fprintf(b, "      cand %d %s cq=%s prio=%d%s list=%s reason=%s: %s", i+1, c.Workload, c.ClusterQueue, c.Priority, ev, c.List, c.Reason, c.Why)
		if len(c.Claimable) > 0 {
			fmt.Fprintf(b, " claimable=%s", quantities(c.Claimable))
		}
		b.WriteString("\n")
	}
	for _, ps := range p.Passes {
		var steps []string
		for _, s := range ps.Steps {
			st := s.Action + " " + s.Workload
			if s.Why != "" {
				st += " (" + s.Why + ")"
			}
			steps = append(steps, st)
		}
		if len(steps) == 0 {
			steps = []string{"no candidate to remove"}
		}
		fmt.Fprintf(b, "      pass allowBorrowing=%t fits=%t: %s\n", ps.AllowBorrowing, ps.Fits, strings.Join(steps, "; "))
	}
	for _, t := range p.Targets {
		fmt.Fprintf(b, "      target %s cq=%s reason=%s", t.Workload, t.ClusterQueue, t.Reason)
		if t.AlreadyEvicted {
			b.WriteString(" already-evicted")
		}
		if len(t.Claims) > 0 {
			fmt.Fprintf(b, " claims=%s", quantities(t.Claims))
		}
		if t.Message != "" {
			fmt.Fprintf(b, " msg=%q", t.Message)
		}
		b.WriteString("\n")
	}
}

func quantities(qs []Quantity) string {
	var out []string
	for _, q := range qs {
		out = append(out, q.Flavor+"/"+q.Resource+"="+q.Text)
	}
	return strings.Join(out, ",")
}

// writeInt writes v in decimal (%d).
// writeJoined writes ss separated by sep (strings.Join without the
// string).
func writeJoined(b *bufio.Writer, ss []string, sep string) {
	for i, s := range ss {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s)
	}
}

func writeInt(b *bufio.Writer, v int64) {
	b.Write(strconv.AppendInt(b.AvailableBuffer(), v, 10))
}

// writePadded writes s padded with spaces to width runes (%-<width>s).
func writePadded(b *bufio.Writer, s string, width int) {
	b.WriteString(s)
	for n := utf8.RuneCountInString(s); n < width; n++ {
		b.WriteByte(' ')
	}
}

// writeQuoted writes s as %q does (strconv.Quote): as it is between
// quotes when it is printable ASCII without a quote or backslash.
func writeQuoted(b *bufio.Writer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			b.Write(strconv.AppendQuote(b.AvailableBuffer(), s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// writeAdmission writes an admission as "main{cpu:a,memory:b} other{...}".
func writeAdmission(b *bufio.Writer, a []PodSetFlavors) {
	for i, ps := range a {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ps.PodSet)
		b.WriteByte('{')
		for k, f := range ps.Flavors {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(f.Resource)
			b.WriteByte(':')
			b.WriteString(f.Flavor)
		}
		b.WriteByte('}')
	}
}

func formatPolicy(b *bufio.Writer, p *Policy) {
	fmt.Fprintf(b, "# policy %s strategy=%s podSelector=%q", p.Policy, p.Strategy, p.PodSelector)
	if len(p.MatchLabelKeys) > 0 {
		fmt.Fprintf(b, " matchLabelKeys=%s", strings.Join(p.MatchLabelKeys, ","))
	}
	if p.IgnoreTerminatingPod {
		b.WriteString(" ignoreTerminatingPod=true")
	}
	b.WriteString("\n")
	for _, u := range p.Units {
		fmt.Fprintf(b, "#   unit %s priority=%d maxCount=%s nodeSelector=%q\n", u.Unit, u.Priority, maxCount(u.MaxCount), u.NodeSelector)
	}
}

func maxCount(m *int32) string {
	if m == nil {
		return "unlimited"
	}
	return fmt.Sprint(*m)
}

func formatScaleDown(b *bufio.Writer, sd *ScaleDown) {
	fmt.Fprintf(b, "  scaledown %s %d->%d\n", sd.Owner, sd.From, sd.To)
	for _, r := range sd.Removed {
		where := "pending"
		if r.Node != "" {
			where = "on " + r.Node
		}
		fmt.Fprintf(b, "    remove  %s %s%s: %s\n", r.Pod, where, cost(r.DeletionCost), r.Why)
	}
}

// cost renders a pod-deletion-cost as " cost=N", or nothing for a pod
// without one.
func cost(c *int32) string {
	if c == nil {
		return ""
	}
	return fmt.Sprintf(" cost=%d", *c)
}

func formatPlacement(b *bufio.Writer, p *Placement) {
	if p.Node != "" {
		fmt.Fprintf(b, "  place     %s -> %s", p.Pod, p.Node)
	} else {
		fmt.Fprintf(b, "  place     %s pending", p.Pod)
	}
	if p.Owner != "" {
		fmt.Fprintf(b, " owner=%s", p.Owner)
	}
	if p.Policy != "" {
		fmt.Fprintf(b, " policy=%s", p.Policy)
	}
	if p.Group != "" {
		fmt.Fprintf(b, " group=%q", p.Group)
	}
	if p.Unit != "" {
		fmt.Fprintf(b, " unit=%s", p.Unit)
	}
	fmt.Fprintf(b, "%s feasible=%d/%d: %s\n", cost(p.DeletionCost), p.Feasible, len(p.Nodes)+p.NodesOmitted, p.Message)
	for i := range p.Nodes {
		v := &p.Nodes[i]
		fmt.Fprintf(b, "    verdict %s", v.Node)
		if v.Unit != "" {
			fmt.Fprintf(b, " unit=%s", v.Unit)
		}
		chosen := ""
		if p.Node != "" && v.Node == p.Node {
			chosen = " [chosen]"
		}
		switch {
		case v.Filter != "" || len(v.Reasons) > 0:
			fmt.Fprintf(b, " rejected %s: %s%s\n", v.Filter, strings.Join(v.Reasons, "; "), chosen)
		case len(v.Scores) == 0:
			fmt.Fprintf(b, " feasible, not scored%s\n", chosen)
		default:
			var scores []string
			for _, s := range v.Scores {
				if s.Skipped {
					scores = append(scores, s.Plugin+"=skipped")
					continue
				}
				scores = append(scores, fmt.Sprintf("%s=%d/%d*%s=%d", s.Plugin, s.Raw, s.Normalized, weight(p.Weights, s.Plugin), s.Weighted))
			}
			fmt.Fprintf(b, " total=%d%s: %s\n", v.Total, chosen, strings.Join(scores, " "))
		}
	}
	if p.NodesOmitted > 0 {
		fmt.Fprintf(b, "    (+%d more nodes)\n", p.NodesOmitted)
	}
}

// weight is the plugin's weight in ws, or "?" when ws does not list it.
func weight(ws []PluginWeight, plugin string) string {
	for _, w := range ws {
		if w.Plugin == plugin {
			return fmt.Sprint(w.Weight)
		}
	}
	return "?"
}

// formatPlacementState writes the nodes, unit counts and pending pods
// that changed in the step. nodeLines holds the last line written for
// each node; a step lists only the nodes that changed (every node at step
// 0), and a node's line is written when it differs from its last one.
func formatPlacementState(b *bufio.Writer, st, prev *Step, nodeLines map[string]string) {
	var prevUnits []UnitCount
	var prevPending []PendingPod
	prevPendingCount := 0
	if prev != nil {
		prevUnits, prevPending, prevPendingCount = prev.UnitCounts, prev.PendingPods, prev.PendingCount
	}
	if len(st.Nodes)+len(st.UnitCounts)+len(st.PendingPods)+len(nodeLines)+len(prevUnits)+len(prevPending) == 0 {
		return // no placement layer
	}
	for i := range st.Nodes {
		n := &st.Nodes[i]
		line := nodeLine(n)
		if nodeLines[n.Node] == line {
			continue
		}
		nodeLines[n.Node] = line
		b.WriteString(line)
	}

	unitKey := func(u *UnitCount) string { return u.Policy + "\x00" + u.Unit + "\x00" + u.Group }
	before := map[string]string{}
	for i := range prevUnits {
		before[unitKey(&prevUnits[i])] = unitLine(&prevUnits[i])
	}
	seen := map[string]bool{}
	for i := range st.UnitCounts {
		u := &st.UnitCounts[i]
		seen[unitKey(u)] = true
		line := unitLine(u)
		if before[unitKey(u)] != line {
			b.WriteString(line)
		}
	}
	for _, u := range prevUnits {
		if !seen[unitKey(&u)] {
			u.Count, u.Live = 0, 0
			b.WriteString(unitLine(&u))
		}
	}

	pendingKeys := func(ps []PendingPod) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Pod+"\x00"+p.Owner+"\x00"+p.Message)
		}
		return slices.Sorted(slices.Values(out))
	}
	if slices.Equal(pendingKeys(prevPending), pendingKeys(st.PendingPods)) && prevPendingCount == st.PendingCount {
		return
	}
	if len(st.PendingPods) == 0 {
		b.WriteString("  pending   none\n")
	}
	for _, p := range st.PendingPods {
		fmt.Fprintf(b, "  pending   %s (%s): %s\n", p.Pod, p.Owner, p.Message)
	}
	if more := st.PendingCount - len(st.PendingPods); more > 0 {
		fmt.Fprintf(b, "  pending   (+%d more)\n", more)
	}
}

func nodeLine(n *NodeState) string {
	b := &strings.Builder{}
	fmt.Fprintf(b, "  node      %s pods=%d", n.Node, n.PodCount)
	var res []string
	for _, r := range n.Resources {
		// The pods resource counts the same pods as PodCount: print its
		// allocatable beside the count instead of a second pods= column.
		if r.Resource == "pods" && r.Requested.Amount == int64(n.PodCount) {
			fmt.Fprintf(b, "/%s", r.Allocatable.Text)
			continue
		}
		res = append(res, fmt.Sprintf("%s=%s/%s", r.Resource, r.Requested.Text, r.Allocatable.Text))
	}
	for _, r := range res {
		b.WriteString(" " + r)
	}
	if len(n.Units) > 0 {
		fmt.Fprintf(b, " units=%s", strings.Join(n.Units, ","))
	}
	if len(n.Pods) > 0 {
		var pods []string
		for _, p := range n.Pods {
			s := p.Pod
			if p.Unit != "" {
				s += " unit=" + p.Unit
			}
			s += cost(p.DeletionCost)
			if p.Terminating {
				s += " terminating"
			}
			pods = append(pods, s)
		}
		if more := n.PodCount - len(n.Pods); more > 0 {
			pods = append(pods, fmt.Sprintf("+%d more", more))
		}
		fmt.Fprintf(b, " [%s]", strings.Join(pods, ", "))
	}
	b.WriteString("\n")
	return b.String()
}

func unitLine(u *UnitCount) string {
	b := &strings.Builder{}
	fmt.Fprintf(b, "  unit      %s/%s", u.Policy, u.Unit)
	if u.Group != "" {
		fmt.Fprintf(b, " group=%q", u.Group)
	}
	fmt.Fprintf(b, " count=%d live=%d maxCount=%s\n", u.Count, u.Live, maxCount(u.MaxCount))
	return b.String()
}

// formatConfiguration writes the header lines of a run's Kueue
// Configuration:
//
//	# configuration ConfigMap/kueue-system/kueue-manager-config config.kueue.x-k8s.io/v1beta2 at cm.yaml:41:7
//	#   excludeResourcePrefixes example.com/
//	#   transformation example.com/gpu Replace {example.com/credits: 10}
//	#   gates LendingLimit=false
func formatConfiguration(b *bufio.Writer, c *Configuration) {
	fmt.Fprintf(b, "# configuration %s %s", c.Source, c.APIVersion)
	if c.Line > 0 {
		fmt.Fprintf(b, " at %s:%d:%d", c.File, c.Line, c.Col)
	}
	b.WriteString("\n")
	if len(c.ExcludeResourcePrefixes) > 0 {
		fmt.Fprintf(b, "#   excludeResourcePrefixes %s\n", strings.Join(c.ExcludeResourcePrefixes, " "))
	}
	for _, t := range c.Transformations {
		fmt.Fprintf(b, "#   transformation %s\n", t)
	}
	if len(c.Gates) > 0 {
		gates := make([]string, len(c.Gates))
		for i, g := range c.Gates {
			gates[i] = fmt.Sprintf("%s=%t", g.Name, g.Enabled)
		}
		fmt.Fprintf(b, "#   gates %s\n", strings.Join(gates, " "))
	}
}
