package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/quota"
)

// overcommit warns when the workloads pasted with status.admission use more
// of a flavor-resource than a ClusterQueue or Cohort can hold: a root of
// the cohort tree (or a ClusterQueue without a cohort) beyond its subtree
// quota, or a ClusterQueue or Cohort with a borrowingLimit beyond its
// subtree quota plus that limit. Kueue accepts such a state (a dump taken
// after quotas were lowered, or hand-written admissions) and keeps the
// workloads admitted; it admits nothing more there until the usage drops,
// and neither does the playground, whose available capacity is then 0.
//
// The usage is added up as the simulation does (quota.Tree.AddUsage, in
// document order), with the LendingLimit gate as the Scenario object sets
// it. Each warning is at the ClusterQueue or Cohort object, or for a cohort
// only named by ClusterQueues, at the first of them by name.
func (d *decoder) overcommit(sc *core.Scenario) {
	// Most inputs paste no admission: no tree to build for them.
	if !slices.ContainsFunc(sc.Workloads, func(w core.Workload) bool { return w.Admission != nil }) {
		return
	}
	gates := core.FeatureGates{}.With(sc.Gates)
	t := quota.Build(sc.ClusterQueues, sc.Cohorts, gates.Enabled(core.GateLendingLimit))
	for i := range sc.Workloads {
		w := &sc.Workloads[i]
		if w.Admission == nil {
			continue
		}
		if qi := t.ClusterQueue(w.Admission.ClusterQueue); qi >= 0 {
			t.AddUsageMap(qi, w.AdmissionUsage())
		}
	}
	positions := map[string]core.Pos{}
	cqs := slices.Clone(sc.ClusterQueues)
	slices.SortFunc(cqs, func(a, b core.ClusterQueue) int { return strings.Compare(a.Name, b.Name) })
	for _, c := range cqs {
		positions["ClusterQueue/"+c.Name] = c.Pos
		if _, ok := positions["Cohort/"+c.Cohort]; c.Cohort != "" && !ok {
			positions["Cohort/"+c.Cohort] = c.Pos
		}
	}
	for _, c := range sc.Cohorts {
		positions["Cohort/"+c.Name] = c.Pos
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		kind := "Cohort"
		if n.IsClusterQueue {
			kind = "ClusterQueue"
		}
		for _, fr := range t.UsageKeys(i) {
			used := t.Used(i, fr)
			limit, what, ok := capacity(n, fr)
			if !ok || used <= limit {
				continue
			}
			r := fr.Resource
			d.diags = append(d.diags, core.Diagnostic{
				Pos:      positions[kind+"/"+n.Name],
				Severity: core.SeverityWarning,
				Object:   kind + "/" + n.Name,
				Message: fmt.Sprintf("over-committed: the admitted workloads of the input use %s of %s in flavor %s here, more than the %s it can hold (%s); Kueue keeps them admitted and admits nothing more here until the usage drops, and so does the playground",
					core.FormatAmount(r, used), r, fr.Flavor, core.FormatAmount(r, limit), what),
			})
		}
	}
}

// capacity is the most a node can hold of fr, and how that is made up, for
// the nodes whose limit the over-commitment check applies to: roots, and
// nodes with a borrowingLimit. ok is false for the others (their ancestors
// bound them).
func capacity(n *quota.Node, fr core.FlavorResource) (limit core.Amount, what string, ok bool) {
	sub := n.SubtreeQuota[fr]
	r := fr.Resource
	if n.Parent < 0 {
		if n.IsClusterQueue {
			return sub, "its nominal quota, with no cohort to borrow from", true
		}
		return sub, "the quota of its whole tree", true
	}
	if bl := n.Quotas[fr].BorrowingLimit; bl != nil {
		return sub + *bl, fmt.Sprintf("quota %s plus borrowingLimit %s", core.FormatAmount(r, sub), core.FormatAmount(r, *bl)), true
	}
	return 0, "", false
}
