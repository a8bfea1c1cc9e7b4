package quota_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/quota"
)

var cpu = core.FlavorResource{Flavor: "default", Resource: core.ResourceCPU}

func cq(name, nominal, borrowing, lending string) core.ClusterQueue {
	return coretest.MakeClusterQueue(name).Cohort("all").Group(core.ResourceCPU).
		Flavor("default", nominal).Limits(core.ResourceCPU, borrowing, lending).Obj()
}

// TestKEP1224 covers the integration cases of KEP-1224's test plan: how
// much cq-a can borrow given the other queues' lending limits and its own
// borrowing limit. Amounts are milli-cpu.
func TestKEP1224(t *testing.T) {
	cases := map[string]struct {
		queues []core.ClusterQueue
		want   core.Amount // PotentialAvailable for cq-a (nominal 10)
	}{
		"two queues, b lends 4, a unlimited": {
			queues: []core.ClusterQueue{cq("cq-a", "10", "", ""), cq("cq-b", "10", "", "4")},
			want:   14000,
		},
		"two queues, b lends 4, a may borrow 2": {
			queues: []core.ClusterQueue{cq("cq-a", "10", "2", ""), cq("cq-b", "10", "", "4")},
			want:   12000,
		},
		"three queues, b lends 4, c unlimited": {
			queues: []core.ClusterQueue{cq("cq-a", "10", "", ""), cq("cq-b", "10", "", "4"), cq("cq-c", "10", "", "")},
			want:   24000,
		},
		"three queues, b lends 4, c unlimited, a may borrow 5": {
			queues: []core.ClusterQueue{cq("cq-a", "10", "5", ""), cq("cq-b", "10", "", "4"), cq("cq-c", "10", "", "")},
			want:   15000,
		},
		"three queues, b lends 4, c lends 3": {
			queues: []core.ClusterQueue{cq("cq-a", "10", "", ""), cq("cq-b", "10", "", "4"), cq("cq-c", "10", "", "3")},
			want:   17000,
		},
		"three queues, b lends 4, c lends 3, a may borrow 5": {
			queues: []core.ClusterQueue{cq("cq-a", "10", "5", ""), cq("cq-b", "10", "", "4"), cq("cq-c", "10", "", "3")},
			want:   15000,
		},
		"three queues, b lends 4, c lends 3, a may borrow 9": {
			queues: []core.ClusterQueue{cq("cq-a", "10", "9", ""), cq("cq-b", "10", "", "4"), cq("cq-c", "10", "", "3")},
			want:   17000,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tree := quota.Build(tc.queues, nil, true)
			a := tree.ClusterQueue("cq-a")
			if got := tree.PotentialAvailable(a, cpu); got != tc.want {
				t.Errorf("PotentialAvailable(cq-a) = %d, want %d", got, tc.want)
			}
			if got := tree.Available(a, cpu); got != tc.want {
				t.Errorf("Available(cq-a) with nothing used = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestLendingExample is the worked example in the package comment.
func TestLendingExample(t *testing.T) {
	tree := quota.Build([]core.ClusterQueue{cq("cq-a", "10", "", "4"), cq("cq-b", "0", "", "")}, nil, true)
	a, b, all := tree.ClusterQueue("cq-a"), tree.ClusterQueue("cq-b"), tree.Cohort("all")
	tree.AddUsage(a, cpu, 9000)
	got := map[string]core.Amount{
		"cohort subtree": tree.Nodes[all].SubtreeQuota[cpu],
		"cohort usage":   tree.Used(all, cpu),
		"a available":    tree.Available(a, cpu),
		"b available":    tree.Available(b, cpu),
		"b potential":    tree.PotentialAvailable(b, cpu),
	}
	want := map[string]core.Amount{
		"cohort subtree": 4000, "cohort usage": 3000, "a available": 1000, "b available": 1000, "b potential": 4000,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	tree.RemoveUsage(a, cpu, 9000)
	if u := tree.Used(all, cpu); u != 0 {
		t.Errorf("cohort usage after removal = %d, want 0", u)
	}
	// With the LendingLimit gate off the limit is ignored.
	off := quota.Build([]core.ClusterQueue{cq("cq-a", "10", "", "4"), cq("cq-b", "0", "", "")}, nil, false)
	if got := off.PotentialAvailable(off.ClusterQueue("cq-b"), cpu); got != 10000 {
		t.Errorf("gate off: PotentialAvailable(cq-b) = %d, want 10000", got)
	}
}

// TestBorrowingHeight checks LowestSubtreeThatFits on a two-level tree.
func TestBorrowingHeight(t *testing.T) {
	queues := []core.ClusterQueue{
		coretest.MakeClusterQueue("a").Cohort("left").Group(core.ResourceCPU).Flavor("default", "2").Obj(),
		coretest.MakeClusterQueue("b").Cohort("left").Group(core.ResourceCPU).Flavor("default", "2").Obj(),
		coretest.MakeClusterQueue("c").Cohort("right").Group(core.ResourceCPU).Flavor("default", "4").Obj(),
	}
	cohorts := []core.Cohort{{Name: "left", Parent: "root"}, {Name: "right", Parent: "root"}}
	tree := quota.Build(queues, cohorts, true)
	a := tree.ClusterQueue("a")
	cases := map[string]struct {
		val        core.Amount
		wantHeight int
		wantSub    bool
	}{
		"within nominal":           {val: 2000, wantHeight: 0, wantSub: true},
		"borrow inside left":       {val: 4000, wantHeight: 1, wantSub: true},
		"borrow from the root":     {val: 6000, wantHeight: 2, wantSub: false},
		"more than the whole tree": {val: 9000, wantHeight: 2, wantSub: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h, sub := tree.LowestSubtreeThatFits(a, cpu, tc.val)
			if h != tc.wantHeight || sub != tc.wantSub {
				t.Errorf("LowestSubtreeThatFits(%d) = (%d, %t), want (%d, %t)", tc.val, h, sub, tc.wantHeight, tc.wantSub)
			}
		})
	}
}

// TestID checks that every flavor-resource a quota names gets its place
// in (flavor, resource) order, found the same way in a small tree (names
// compared) and a large one (a map), also from a copy of its names (other
// strings), and that a flavor-resource no quota names has none (-1)
// until usage is added for it.
func TestID(t *testing.T) {
	for _, tc := range []struct {
		name    string
		flavors int
	}{
		{"two flavor-resources, compared", 1},
		{"eight, compared", 4},
		{"twelve, in a map", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := coretest.MakeClusterQueue("cq").Group(core.ResourceCPU, core.ResourceMemory)
			var want []core.FlavorResource
			for i := range tc.flavors {
				f := core.FlavorName(string(rune('a' + i)))
				b = b.Flavor(f, "1", "1Gi")
				want = append(want, core.FlavorResource{Flavor: f, Resource: core.ResourceCPU}, core.FlavorResource{Flavor: f, Resource: core.ResourceMemory})
			}
			tree := quota.Build([]core.ClusterQueue{b.Obj()}, nil, true)
			got := make([]core.FlavorResource, tree.Width())
			for _, fr := range want {
				copied := core.FlavorResource{Flavor: core.FlavorName([]byte(fr.Flavor)), Resource: core.ResourceName([]byte(fr.Resource))}
				id := tree.ID(fr)
				if id < 0 || id >= len(got) || tree.ID(copied) != id {
					t.Fatalf("ID(%v) = %d, ID of a copy = %d, want the same number in [0, %d)", fr, id, tree.ID(copied), len(got))
				}
				got[id] = fr
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("flavor-resources by ID (-want +got):\n%s", d)
			}
			unknown := core.FlavorResource{Flavor: "z", Resource: core.ResourceCPU}
			if id := tree.ID(unknown); id != -1 {
				t.Errorf("ID(%v) = %d before any usage, want -1", unknown, id)
			}
			node := tree.ClusterQueue("cq")
			tree.AddUsage(node, unknown, 5)
			if id := tree.ID(unknown); id != len(want) || tree.Used(node, unknown) != 5 {
				t.Errorf("after AddUsage: ID(%v) = %d, Used = %d, want %d and 5", unknown, id, tree.Used(node, unknown), len(want))
			}
		})
	}
}

// TestVersion checks that every change to usage moves the version, even
// one that adds nothing or meets a new flavor-resource, that Restored
// puts it back, and that a clone starts at its original's.
func TestVersion(t *testing.T) {
	gpu := core.FlavorResource{Flavor: "default", Resource: "gpu"}
	cases := map[string]struct {
		change func(*quota.Tree, int)
	}{
		"add":                       {func(tr *quota.Tree, i int) { tr.AddUsage(i, cpu, 1000) }},
		"remove":                    {func(tr *quota.Tree, i int) { tr.RemoveUsage(i, cpu, 1000) }},
		"add nothing":               {func(tr *quota.Tree, i int) { tr.AddUsage(i, cpu, 0) }},
		"add a new flavor-resource": {func(tr *quota.Tree, i int) { tr.AddUsage(i, gpu, 1) }},
		"add a usage map":           {func(tr *quota.Tree, i int) { tr.AddUsageMap(i, map[core.FlavorResource]core.Amount{cpu: 1}) }},
		"remove a usage map by ID":  {func(tr *quota.Tree, i int) { tr.RemoveUsageID(i, tr.ID(cpu), 1) }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tr := quota.Build([]core.ClusterQueue{cq("cq-a", "10", "", ""), cq("cq-b", "10", "", "")}, nil, true)
			i := tr.ClusterQueue("cq-a")
			v := tr.Version()
			tc.change(tr, i)
			if tr.Version() == v {
				t.Fatalf("Version() = %d after the change, want another than %d", tr.Version(), v)
			}
			if c := tr.Clone(); c.Version() != tr.Version() {
				t.Errorf("clone's Version() = %d, want %d", c.Version(), tr.Version())
			}
			tr.Restored(v)
			if tr.Version() != v {
				t.Errorf("Version() = %d after Restored(%d), want %d", tr.Version(), v, v)
			}
		})
	}
}
