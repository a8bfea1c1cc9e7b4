package trace

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kueueplay/kueueplay/core"
)

// Format writes the trace as text, one line per decision, in a fixed
// layout that golden files and reviewers diff:
//
//	#003 t=2s cycle=2  cycle
//	  head      team-a        team-a/train-2
//	  decide    team-a/train-2  cq=team-a prio=0 order=1 mode=Fit borrowing=0 -> Admitted
//	    podset  main x3  requests cpu=3,memory=600Mi
//	      group cpu,memory  started from the first flavor
//	        try   0 on-demand  Fit  borrow=0  stop: fits without borrowing  [best]
//	      chosen on-demand: ...
//	  usage     ClusterQueue team-a on-demand/cpu used=3 nominal=4 ...
//
// Usage lines are printed only for rows that changed in the step.
func Format(w io.Writer, tr *Trace) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "# %s scenario=%q\n", tr.Version, tr.Scenario)
	var gates []string
	for _, g := range tr.Gates {
		gates = append(gates, fmt.Sprintf("%s=%t", g.Name, g.Enabled))
	}
	fmt.Fprintf(b, "# gates %s\n", strings.Join(gates, " "))
	var prev []UsageRow
	for i := range tr.Steps {
		st := &tr.Steps[i]
		formatStep(b, st, prev)
		prev = st.Usage
	}
	fmt.Fprintf(b, "# end %s at t=%s after %d cycles\n", tr.End, ms(tr.EndMs), tr.Cycles)
	for _, ws := range tr.Workloads {
		fmt.Fprintf(b, "final %-30s %-11s", ws.Workload, ws.Status)
		if len(ws.Admission) > 0 {
			fmt.Fprintf(b, " %s", formatAdmission(ws.Admission))
		}
		if ws.Message != "" {
			fmt.Fprintf(b, " msg=%q", ws.Message)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func ms(v int64) string { return (time.Duration(v) * time.Millisecond).String() }

func formatStep(b *strings.Builder, st *Step, prev []UsageRow) {
	fmt.Fprintf(b, "#%03d t=%s cycle=%d %s\n", st.Index, ms(st.TimeMs), st.Cycle, st.Kind)
	for _, e := range st.Events {
		subject := e.Workload
		if subject == "" {
			subject = e.ClusterQueue
		}
		fmt.Fprintf(b, "  %-9s %s: %s\n", e.Kind, subject, e.Message)
	}
	for _, h := range st.Heads {
		fmt.Fprintf(b, "  head      %s %s\n", h.ClusterQueue, h.Workload)
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
	prevByKey := map[string]UsageRow{}
	for _, r := range prev {
		prevByKey[r.Node+"\x00"+r.Flavor+"\x00"+r.Resource] = r
	}
	for _, r := range st.Usage {
		p, ok := prevByKey[r.Node+"\x00"+r.Flavor+"\x00"+r.Resource]
		if ok && p.Used == r.Used && p.Available == r.Available && p.Lent == r.Lent && st.Index != 0 {
			continue
		}
		if st.Index == 0 && r.Used == 0 && r.Lent == 0 {
			continue
		}
		q := func(v int64) string { return core.FormatAmount(core.ResourceName(r.Resource), v) }
		fmt.Fprintf(b, "  usage     %s %s %s/%s used=%s nominal=%s subtree=%s borrowed=%s lent=%s heldBack=%s available=%s\n",
			r.Kind, r.Node, r.Flavor, r.Resource, q(r.Used), q(r.Nominal), q(r.SubtreeQuota), q(r.Borrowed), q(r.Lent), q(r.HeldBack), q(r.Available))
	}
}

func formatDecision(b *strings.Builder, d *Decision) {
	fmt.Fprintf(b, "  decide    %s cq=%s prio=%d order=%d", d.Workload, d.ClusterQueue, d.Priority, d.Order)
	if d.Mode != "" {
		fmt.Fprintf(b, " mode=%s borrowing=%d", d.Mode, d.Borrowing)
	}
	fmt.Fprintf(b, " -> %s", d.Outcome)
	if d.Requeue != "" {
		fmt.Fprintf(b, " requeue=%s(%s)", d.Requeue, d.RequeueReason)
	}
	b.WriteString("\n")
	for _, ps := range d.PodSets {
		var reqs []string
		for _, q := range ps.Requests {
			reqs = append(reqs, q.Resource+"="+q.Text)
		}
		fmt.Fprintf(b, "    podset  %s x%d mode=%s requests %s\n", ps.PodSet, ps.Count, ps.Mode, strings.Join(reqs, ","))
		for _, g := range ps.Groups {
			if g.Unavailable != "" {
				fmt.Fprintf(b, "      group %s: %s\n", strings.Join(g.Resources, ","), g.Unavailable)
				continue
			}
			fmt.Fprintf(b, "      group %s: %s\n", strings.Join(g.Resources, ","), g.Resume)
			for _, a := range g.Attempts {
				fmt.Fprintf(b, "        try %d %s %s borrow=%d: %s", a.Index, a.Flavor, a.Mode, a.Borrowing, a.Rule)
				if a.Best {
					b.WriteString(" [best]")
				}
				if len(a.Reasons) > 0 {
					fmt.Fprintf(b, " (%s)", strings.Join(a.Reasons, "; "))
				}
				if len(a.PreemptionTargets) > 0 {
					fmt.Fprintf(b, " oracle-targets=%s", strings.Join(a.PreemptionTargets, ","))
				}
				b.WriteString("\n")
			}
			if g.Chosen != "" {
				fmt.Fprintf(b, "      chosen %s: %s; next attempt index %d\n", g.Chosen, g.Why, g.TriedIndex)
			} else {
				b.WriteString("      chosen none\n")
			}
			if g.PreferenceNote != "" {
				fmt.Fprintf(b, "      note %s\n", g.PreferenceNote)
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
		fmt.Fprintf(b, "    admit   %s\n", formatAdmission(d.Admission))
	}
	if d.Message != "" {
		fmt.Fprintf(b, "    message %q\n", d.Message)
	}
	if d.Explanation != "" {
		fmt.Fprintf(b, "    why     %s\n", d.Explanation)
	}
}

func formatPreemption(b *strings.Builder, p *Preemption) {
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

func formatAdmission(a []PodSetFlavors) string {
	var parts []string
	for _, ps := range a {
		var fs []string
		for _, f := range ps.Flavors {
			fs = append(fs, f.Resource+":"+f.Flavor)
		}
		parts = append(parts, ps.PodSet+"{"+strings.Join(fs, ",")+"}")
	}
	return strings.Join(parts, " ")
}
