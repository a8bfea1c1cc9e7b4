package flavor

import "github.com/kueueplay/kueueplay/core"

// Plan is what every assignment in one ClusterQueue reads of it, resolved
// once instead of for each head: the gates' effect on the flavor search
// (FlavorFungibility, the preference order), the resource group covering
// pods, whether the queue may preempt while borrowing, and each group's
// ResourceFlavors. It depends only on the ClusterQueue's spec, the
// ResourceFlavors and the gates, none of which a run changes: a caller
// keeps one per ClusterQueue (Input.Plan). A Plan is never changed once
// made.
type Plan struct {
	cq *core.ClusterQueue
	// fungible is the FlavorFungibility gate; order the preference
	// order (preferenceOrder).
	fungible bool
	order    order
	// podsGroup is the group covering pods, -1 for none (groupOf).
	podsGroup int
	// preemptWhileBorrowing is flavorassigner.canPreemptWhileBorrowing:
	// borrowWithinCohort is set and not Never.
	preemptWhileBorrowing bool
	// flavors are the ResourceFlavors of each group's flavors, by group
	// and index (nil for one that does not exist).
	flavors [][]*core.ResourceFlavor
}

// NewPlan resolves what assignments read of ClusterQueue cq, given the
// ResourceFlavors that exist and the gates.
func NewPlan(cq *core.ClusterQueue, flavors map[core.FlavorName]*core.ResourceFlavor, gates core.FeatureGates) *Plan {
	p := &Plan{
		cq:                    cq,
		fungible:              gates.Enabled(core.GateFlavorFungibility),
		order:                 preferenceOrder(cq.FlavorFungibility, gates),
		podsGroup:             groupOf(cq, core.ResourcePods),
		preemptWhileBorrowing: cq.Preemption.BorrowWithinCohort != "" && cq.Preemption.BorrowWithinCohort != core.PreemptionNever,
		flavors:               make([][]*core.ResourceFlavor, len(cq.ResourceGroups)),
	}
	for gi := range cq.ResourceGroups {
		g := &cq.ResourceGroups[gi]
		p.flavors[gi] = make([]*core.ResourceFlavor, len(g.Flavors))
		for i, f := range g.Flavors {
			p.flavors[gi][i] = flavors[f.Name]
		}
	}
	return p
}

// For reports whether p was resolved for ClusterQueue cq.
func (p *Plan) For(cq *core.ClusterQueue) bool { return p != nil && p.cq == cq }
