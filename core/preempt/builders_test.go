package preempt_test

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/preempt"
	"github.com/kueueplay/kueueplay/core/quota"
)

const (
	cpu = core.ResourceCPU
	mem = core.ResourceMemory
)

func fr(f core.FlavorName, r core.ResourceName) core.FlavorResource {
	return core.FlavorResource{Flavor: f, Resource: r}
}

func ptr[T any](v T) *T { return &v }

// wlWrapper builds a workload holding quota in a ClusterQueue, in the
// style of Kueue's MakeWorkload(...).ReserveQuotaAt(...). Times are
// offsets from Kueue tests' "now".
type wlWrapper struct {
	w  preempt.Workload
	cq string
}

// admitted starts a workload of priority 0 that reserved quota in cq at
// "now".
func admitted(key, cq string) *wlWrapper {
	return &wlWrapper{cq: cq, w: preempt.Workload{Key: key, ClusterQueue: cq, Usage: map[core.FlavorResource]core.Amount{}}}
}

func (w *wlWrapper) Priority(p int32) *wlWrapper { w.w.Priority = p; return w }

// Use adds assigned usage (the admission's resource usage).
func (w *wlWrapper) Use(f core.FlavorName, r core.ResourceName, q string) *wlWrapper {
	w.w.Usage[fr(f, r)] += coretest.Amount(r, q)
	return w
}

// ReservedAt sets when quota was reserved, relative to "now".
func (w *wlWrapper) ReservedAt(d time.Duration) *wlWrapper {
	w.w.Reserved = preempt.Stamp{At: d}
	return w
}

// Created sets the queue-order timestamp, relative to "now".
func (w *wlWrapper) Created(d time.Duration) *wlWrapper {
	w.w.QueueTime = preempt.Stamp{At: d}
	return w
}

// Evicted marks the workload as evicted and still terminating.
func (w *wlWrapper) Evicted() *wlWrapper { w.w.Evicted = true; return w }

// incomingWrapper builds the preemptor: its ClusterQueue, priority, and
// the flavor assignment's usage, with the flavor-resources in Preempt mode.
type incomingWrapper struct {
	p  preempt.Preemptor
	cq string
}

func incoming(cq string) *incomingWrapper {
	return &incomingWrapper{cq: cq, p: preempt.Preemptor{Key: "in", Usage: map[core.FlavorResource]core.Amount{}, Need: map[core.FlavorResource]bool{}}}
}

func (i *incomingWrapper) Priority(p int32) *incomingWrapper { i.p.Priority = p; return i }

func (i *incomingWrapper) Created(d time.Duration) *incomingWrapper {
	i.p.QueueTime = preempt.Stamp{At: d}
	return i
}

// Preempt adds a request assigned to a flavor in Preempt mode.
func (i *incomingWrapper) Preempt(f core.FlavorName, r core.ResourceName, q string) *incomingWrapper {
	i.p.Usage[fr(f, r)] += coretest.Amount(r, q)
	i.p.Need[fr(f, r)] = true
	return i
}

// Fit adds a request assigned to a flavor in Fit mode.
func (i *incomingWrapper) Fit(f core.FlavorName, r core.ResourceName, q string) *incomingWrapper {
	i.p.Usage[fr(f, r)] += coretest.Amount(r, q)
	return i
}

// cohortWrapper builds a core.Cohort (Kueue's MakeCohort).
type cohortWrapper struct{ c core.Cohort }

func makeCohort(name string) *cohortWrapper { return &cohortWrapper{c: core.Cohort{Name: name}} }

func (w *cohortWrapper) Parent(p string) *cohortWrapper { w.c.Parent = p; return w }

// Quota adds a resource group with one flavor; nominal quotas are given per
// resource in order.
func (w *cohortWrapper) Quota(f core.FlavorName, resources []core.ResourceName, nominal ...string) *cohortWrapper {
	g := core.ResourceGroup{CoveredResources: resources}
	fq := core.FlavorQuotas{Name: f}
	for i, r := range resources {
		fq.Resources = append(fq.Resources, core.ResourceQuota{Name: r, Nominal: coretest.Amount(r, nominal[i])})
	}
	g.Flavors = append(g.Flavors, fq)
	w.c.ResourceGroups = append(w.c.ResourceGroups, g)
	return w
}

func (w *cohortWrapper) Obj() core.Cohort { return w.c }

// world is a built snapshot and the preemptor ready for a call.
type world struct {
	s     *preempt.Snapshot
	byKey map[string]*preempt.Workload
}

// build makes the Snapshot as the simulator does: the quota tree, every
// holder's usage added to its ClusterQueue's node, and Queues and Holders
// filled by node index (holders by key).
func build(t *testing.T, cqs []core.ClusterQueue, cohorts []core.Cohort, holders []*wlWrapper) *world {
	t.Helper()
	tree := quota.Build(cqs, cohorts, true)
	s := &preempt.Snapshot{
		Tree:    tree,
		Queues:  make([]*core.ClusterQueue, len(tree.Nodes)),
		Holders: make([][]*preempt.Workload, len(tree.Nodes)),
	}
	for i := range cqs {
		n := tree.ClusterQueue(cqs[i].Name)
		s.Queues[n] = &cqs[i]
	}
	w := &world{s: s, byKey: map[string]*preempt.Workload{}}
	sorted := slices.Clone(holders)
	slices.SortFunc(sorted, func(a, b *wlWrapper) int { return strings.Compare(a.w.Key, b.w.Key) })
	for i, h := range sorted {
		n := tree.ClusterQueue(h.cq)
		if n < 0 {
			t.Fatalf("workload %s: unknown ClusterQueue %s", h.w.Key, h.cq)
		}
		wl := h.w
		wl.Usage = maps.Clone(h.w.Usage)
		wl.Index = i
		wl.Node = n
		tree.AddUsageMap(n, wl.Usage)
		s.Holders[n] = append(s.Holders[n], &wl)
		w.byKey[wl.Key] = &wl
	}
	return w
}

// preemptor resolves the incoming workload's ClusterQueue.
func (w *world) preemptor(t *testing.T, in *incomingWrapper) *preempt.Preemptor {
	t.Helper()
	n := w.s.Tree.ClusterQueue(in.cq)
	if n < 0 || w.s.Queues[n] == nil {
		t.Fatalf("incoming: unknown ClusterQueue %s", in.cq)
	}
	p := in.p
	p.Node = n
	p.Queue = w.s.Queues[n]
	return &p
}

// targets returns Targets for the given workload keys, each freeing all of
// its usage.
func (w *world) targets(t *testing.T, keys ...string) []preempt.Target {
	t.Helper()
	var out []preempt.Target
	for _, k := range keys {
		wl, ok := w.byKey[k]
		if !ok {
			t.Fatalf("unknown workload %s", k)
		}
		out = append(out, preempt.Target{W: wl, Frees: wl.Usage})
	}
	return out
}

// usage is every node's usage by node name, without zero entries.
func usage(tree *quota.Tree) map[string]map[core.FlavorResource]core.Amount {
	out := map[string]map[core.FlavorResource]core.Amount{}
	for i, n := range tree.Nodes {
		m := map[core.FlavorResource]core.Amount{}
		for _, k := range tree.UsageKeys(i) {
			if v := tree.Used(i, k); v != 0 {
				m[k] = v
			}
		}
		if len(m) > 0 {
			out[n.Name] = m
		}
	}
	return out
}

// target is a chosen workload and its preemption reason, as compared.
type target struct {
	Key    string
	Reason string
}

func simplify(ts []preempt.Target) []target {
	var out []target
	for _, t := range ts {
		out = append(out, target{Key: t.W.Key, Reason: t.Reason})
	}
	slices.SortFunc(out, func(a, b target) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// kueueClusterQueues are defaultClusterQueues of Kueue v0.16.1's
// TestPreemption (pkg/scheduler/preemption/preemption_test.go). In
// Resource(name, nominal, borrowingLimit, lendingLimit) the second and
// third values are limits, written here with Limits(res, borrowing,
// lending).
func kueueClusterQueues() []core.ClusterQueue {
	mk := coretest.MakeClusterQueue
	lp, any, never := core.PreemptionLowerPriority, core.PreemptionAny, core.PreemptionNever
	return []core.ClusterQueue{
		mk("standalone").
			Group(cpu).Flavor("default", "6").
			Group(mem).Flavor("alpha", "3Gi").Flavor("beta", "3Gi").
			Preemption(lp, never, never, nil).Obj(),
		mk("c1").Cohort("cohort").
			Group(cpu, mem).Flavor("default", "6", "3Gi").Limits(cpu, "6", "").Limits(mem, "3Gi", "").
			Preemption(lp, lp, never, nil).Obj(),
		mk("c2").Cohort("cohort").
			Group(cpu, mem).Flavor("default", "6", "3Gi").Limits(cpu, "6", "").Limits(mem, "3Gi", "").
			Preemption(never, any, never, nil).Obj(),
		mk("d1").Cohort("cohort-no-limits").
			Group(cpu, mem).Flavor("default", "6", "3Gi").
			Preemption(lp, lp, never, nil).Obj(),
		mk("d2").Cohort("cohort-no-limits").
			Group(cpu, mem).Flavor("default", "6", "3Gi").
			Preemption(never, any, never, nil).Obj(),
		mk("l1").Cohort("legion").
			Group(cpu, mem).Flavor("default", "6", "3Gi").Limits(cpu, "12", "").Limits(mem, "6Gi", "").
			Preemption(lp, lp, never, nil).Obj(),
		mk("preventStarvation").
			Group(cpu).Flavor("default", "6").
			Preemption(core.PreemptionLowerOrNewerEqualPriority, never, never, nil).Obj(),
		mk("a_standard").Cohort("with_shared_cq").
			Group(cpu).Flavor("default", "1").Limits(cpu, "12", "").
			Preemption(never, lp, lp, ptr[int32](0)).Obj(),
		mk("b_standard").Cohort("with_shared_cq").
			Group(cpu).Flavor("default", "1").Limits(cpu, "12", "").
			Preemption(lp, any, lp, ptr[int32](0)).Obj(),
		mk("a_best_effort").Cohort("with_shared_cq").
			Group(cpu).Flavor("default", "1").Limits(cpu, "12", "").
			Preemption(never, lp, lp, ptr[int32](0)).Obj(),
		mk("b_best_effort").Cohort("with_shared_cq").
			Group(cpu).Flavor("default", "0").Limits(cpu, "13", "").
			Preemption(never, lp, lp, ptr[int32](0)).Obj(),
		mk("shared").Cohort("with_shared_cq").
			Group(cpu).Flavor("default", "10").Obj(),
		mk("lend1").Cohort("cohort-lend").
			Group(cpu).Flavor("default", "6").Limits(cpu, "", "4").
			Preemption(lp, lp, never, nil).Obj(),
		mk("lend2").Cohort("cohort-lend").
			Group(cpu).Flavor("default", "6").Limits(cpu, "", "2").
			Preemption(lp, lp, never, nil).Obj(),
		mk("a").Cohort("cohort-three").
			Group(cpu, mem).Flavor("default", "2", "2").
			Preemption(lp, any, never, nil).Obj(),
		mk("b").Cohort("cohort-three").
			Group(cpu, mem).Flavor("default", "2", "2").Obj(),
		mk("c").Cohort("cohort-three").
			Group(cpu, mem).Flavor("default", "2", "2").Obj(),
	}
}

// hierCQ is a ClusterQueue of Kueue's TestHierarchicalPreemptions: in
// cohort, with cpu nominal quota (empty for a flavor with no resources)
// and withinClusterQueue LowerPriority / reclaimWithinCohort Any unless
// changed.
func hierCQ(name, cohort, nominal string) *coretest.ClusterQueueWrapper {
	w := coretest.MakeClusterQueue(name).Cohort(cohort).
		Preemption(core.PreemptionLowerPriority, core.PreemptionAny, core.PreemptionNever, nil)
	if nominal != "" {
		w.Group(cpu).Flavor("default", nominal)
	}
	return w
}

// cpuCohort is a Cohort with a cpu quota in flavor default ("" for none).
func cpuCohort(name, parent, nominal string) core.Cohort {
	c := makeCohort(name).Parent(parent)
	if nominal != "" {
		c.Quota("default", []core.ResourceName{cpu}, nominal)
	}
	return c.Obj()
}
