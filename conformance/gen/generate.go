package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// pcgStream is the second PCG word: with the seed as the first, it fixes
// the random stream, so a seed means the same scenario on every platform
// and Go version that keeps math/rand/v2's PCG.
const pcgStream = 0x6b75657565706c61 // "kueuepla"

// Names of deliberately missing objects. Kueue accepts the references and
// leaves the workload pending or the ClusterQueue inactive.
const (
	missingQueue  = "lq-missing"
	missingFlavor = "f-missing"
	// missingTopology is the Topology a flavor may name (Kueue requires
	// nodeLabels then); no scenario has it.
	missingTopology = "topology-missing"
)

// Label and taint keys of the generated flavors.
const (
	labelPool = "example.com/pool"
	labelZone = "example.com/zone"
)

var taintKeys = [...]string{"example.com/spot", "example.com/reserved"}

// generator holds the random stream and the scenario being built.
type generator struct {
	r *rand.Rand
	s *Scenario
	// resources is the scenario's resource universe, in canonical order.
	resources []string
	// joinable are the cohort names a ClusterQueue may join; joinWeights
	// their relative weights.
	joinable    []string
	joinWeights []int
	// flavorOrder is the order most ClusterQueues take flavors in.
	flavorOrder []int
}

// Generate returns the scenario for seed. The same seed always gives the
// same scenario (and the same YAML bytes).
func Generate(seed uint64) *Scenario {
	g := &generator{
		r: rand.New(rand.NewPCG(seed, pcgStream)),
		s: &Scenario{Seed: seed},
	}
	g.settings()
	g.flavors()
	g.universe()
	g.cohorts()
	g.clusterQueues()
	g.localQueues()
	g.workloads()
	g.events()
	g.deployments() // last: the draws before keep their meaning
	return g.s
}

// chance reports true with probability percent/100.
func (g *generator) chance(percent int) bool { return g.r.IntN(100) < percent }

// weighted returns an index into weights, chosen with probability
// proportional to its weight.
func (g *generator) weighted(weights ...int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := g.r.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

// pick returns a random element of list.
func pick[T any](g *generator, list []T) T { return list[g.r.IntN(len(list))] }

// subset returns a random non-empty subset of list, keeping its order;
// each element is kept with probability percent/100.
func subset[T any](g *generator, list []T, percent int) []T {
	var out []T
	for _, x := range list {
		if g.chance(percent) {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		out = append(out, pick(g, list))
	}
	return out
}

// settings draws the Scenario object's fields: the default termination
// delay and, rarely, one of the two gates the conformance runner can flip.
func (g *generator) settings() {
	g.s.TerminationDelaySeconds = g.r.IntN(4)
	if g.chance(10) {
		g.s.Gates = append(g.s.Gates, Gate{Name: GateLendingLimit, Value: false})
	}
	if g.chance(10) {
		g.s.Gates = append(g.s.Gates, Gate{Name: GatePrioritySortingWithinCohort, Value: false})
	}
}

// flavors draws 1 to 5 ResourceFlavors. Some carry node labels (which pod
// set nodeSelectors can match or miss), rarely also a topologyName naming
// a Topology that does not exist (which keeps the ClusterQueues using the
// flavor inactive), and some a NoSchedule taint (which only tolerating pod
// sets, or every pod set when the flavor tolerates its own taint, can use).
func (g *generator) flavors() {
	n := 1 + g.weighted(15, 35, 30, 12, 8)
	for i := range n {
		f := Flavor{Name: fmt.Sprintf("f%d", i)}
		if g.chance(45) {
			f.NodeLabels = append(f.NodeLabels, Label{labelPool, f.Name})
			if g.chance(40) {
				f.NodeLabels = append(f.NodeLabels, Label{labelZone, fmt.Sprintf("z%d", g.r.IntN(2))})
			}
			if g.chance(4) {
				f.TopologyName = missingTopology
			}
		}
		if g.chance(25) {
			key := pick(g, taintKeys[:])
			f.NodeTaints = append(f.NodeTaints, Taint{Key: key, Value: "true", Effect: "NoSchedule"})
			if g.chance(35) {
				f.Tolerations = append(f.Tolerations, Toleration{Key: key, Operator: "Exists", Effect: "NoSchedule"})
			}
		}
		g.s.Flavors = append(g.s.Flavors, f)
	}
	g.flavorOrder = g.r.Perm(n)
}

// universe draws the resources the scenario's quotas and requests use.
func (g *generator) universe() {
	if g.chance(90) {
		g.resources = append(g.resources, ResourceCPU)
	}
	if g.chance(55) {
		g.resources = append(g.resources, ResourceMemory)
	}
	if g.chance(40) {
		g.resources = append(g.resources, ResourceGPU)
	}
	if len(g.resources) == 0 {
		g.resources = append(g.resources, pick(g, []string{ResourceCPU, ResourceMemory, ResourceGPU}))
	}
}

// cohorts draws the cohort layout: none, flat (ClusterQueues name one of
// one or two cohorts, sometimes backed by a root Cohort object with its own
// quota) or hierarchical (a root co0, implicit or an object, with one or
// two child Cohort objects whose parentName is co0; ClusterQueues join a
// child or, less often, the root).
func (g *generator) cohorts() {
	switch g.weighted(15, 40, 45) {
	case 0:
		return
	case 1:
		n := 1 + g.weighted(70, 30)
		for i := range n {
			name := fmt.Sprintf("co%d", i)
			g.joinable = append(g.joinable, name)
			g.joinWeights = append(g.joinWeights, 1)
			if g.chance(30) {
				g.cohortObject(name, "", 60)
			}
		}
	case 2:
		if g.chance(50) {
			g.cohortObject("co0", "", 60)
		}
		g.joinable = append(g.joinable, "co0")
		g.joinWeights = append(g.joinWeights, 1)
		n := 1 + g.weighted(50, 50)
		for i := range n {
			name := fmt.Sprintf("co%d", i+1)
			g.cohortObject(name, "co0", 40)
			g.joinable = append(g.joinable, name)
			g.joinWeights = append(g.joinWeights, 4)
		}
	}
}

// cohortObject adds a Cohort object; with probability quotaPercent it has
// one resource group of its own quota.
func (g *generator) cohortObject(name, parent string, quotaPercent int) {
	c := Cohort{Name: name, Parent: parent}
	if g.chance(quotaPercent) {
		res := subset(g, g.resources, 60)
		nf := min(len(g.s.Flavors), 1+g.weighted(70, 30))
		var flavors []string
		for _, i := range g.r.Perm(len(g.s.Flavors))[:nf] {
			flavors = append(flavors, g.s.Flavors[i].Name)
		}
		c.ResourceGroups = append(c.ResourceGroups, g.resourceGroup(res, flavors, parent != "", true))
	}
	g.s.Cohorts = append(g.s.Cohorts, c)
}

// clusterQueues draws 1 to 5 ClusterQueues: cohort membership, resource
// groups and every policy.
func (g *generator) clusterQueues() {
	n := 1 + g.weighted(10, 30, 30, 20, 10)
	// In a preemptive scenario every ClusterQueue may preempt; elsewhere
	// about half do, so preemption would be rare overall.
	preemptive := g.chance(40)
	for i := range n {
		cq := ClusterQueue{Name: fmt.Sprintf("cq%d", i)}
		if len(g.joinable) > 0 && g.chance(85) {
			cq.Cohort = g.joinable[g.weighted(g.joinWeights...)]
		}
		cq.QueueingStrategy = []string{"", "BestEffortFIFO", "StrictFIFO"}[g.weighted(40, 30, 30)]
		cq.Preemption = g.preemption(preemptive)
		cq.FlavorFungibility = g.fungibility()
		cq.ResourceGroups = g.cqResourceGroups(cq.Cohort != "")
		cq.StopPolicy = g.stopPolicy()
		g.s.ClusterQueues = append(g.s.ClusterQueues, cq)
	}
}

// preemption draws spec.preemption: every value of each field, including
// unset, or, for a preemptive scenario, only values that allow preemption
// within the ClusterQueue and reclaiming within the cohort.
// borrowWithinCohort LowerPriority requires reclaimWithinCohort
// LowerPriority or Any (Kueue's CEL rule), so it is drawn only then;
// maxPriorityThreshold comes only with it.
func (g *generator) preemption(preemptive bool) Preemption {
	p := Preemption{
		WithinClusterQueue:  pick(g, []string{"", "Never", "LowerPriority", "LowerOrNewerEqualPriority"}),
		ReclaimWithinCohort: pick(g, []string{"", "Never", "LowerPriority", "Any"}),
	}
	if preemptive {
		p.WithinClusterQueue = pick(g, []string{"LowerPriority", "LowerOrNewerEqualPriority"})
		p.ReclaimWithinCohort = pick(g, []string{"LowerPriority", "Any"})
	}
	if g.chance(40) {
		p.BorrowWithinCohort = "Never"
		if (p.ReclaimWithinCohort == "LowerPriority" || p.ReclaimWithinCohort == "Any") && g.chance(75) {
			p.BorrowWithinCohort = "LowerPriority"
			if g.chance(40) {
				t := pick(g, []int32{0, 1, 5})
				p.MaxPriorityThreshold = &t
			}
		}
	}
	return p
}

// fungibility draws spec.flavorFungibility: every value of each field,
// including unset. preference needs whenCanBorrow TryNextFlavor and
// whenCanPreempt TryNextFlavor (explicitly or by default).
func (g *generator) fungibility() FlavorFungibility {
	policies := []string{"", "MayStopSearch", "TryNextFlavor"}
	if g.chance(25) {
		return FlavorFungibility{
			WhenCanBorrow:  "TryNextFlavor",
			WhenCanPreempt: pick(g, []string{"", "TryNextFlavor"}),
			Preference:     pick(g, []string{"BorrowingOverPreemption", "PreemptionOverBorrowing"}),
		}
	}
	return FlavorFungibility{WhenCanBorrow: pick(g, policies), WhenCanPreempt: pick(g, policies)}
}

// cqResourceGroups draws 1 to 3 resource groups: the covered resources (a
// subset of the universe) split among them, each with 1 to 3 flavors not
// used by another group. Rarely (2%) one group also names a flavor that
// does not exist, which keeps the ClusterQueue inactive.
func (g *generator) cqResourceGroups(hasCohort bool) []ResourceGroup {
	covered := subset(g, g.resources, 85)
	maxGroups := min(3, len(covered), len(g.s.Flavors))
	groups := 1
	if maxGroups > 1 && g.chance(40) {
		groups = 2 + g.r.IntN(maxGroups-1)
	}
	// Split the covered resources into that many non-empty parts.
	order := g.r.Perm(len(covered))
	parts := make([][]string, groups)
	for i, j := range order {
		k := i
		if i >= groups {
			k = g.r.IntN(groups)
		}
		parts[k] = append(parts[k], covered[j])
	}
	// Most ClusterQueues list the flavors in the scenario's common order,
	// so that ClusterQueues of a cohort share flavors and can lend to each
	// other.
	flavorOrder := g.flavorOrder
	if g.chance(35) {
		flavorOrder = g.r.Perm(len(g.s.Flavors))
	}
	used := 0
	var out []ResourceGroup
	for k, part := range parts {
		slices.SortFunc(part, compareResources)
		left := len(g.s.Flavors) - used - (groups - k - 1) // keep one for each later group
		nf := min(left, 1+g.weighted(60, 30, 10))
		var flavors []string
		for _, i := range flavorOrder[used : used+nf] {
			flavors = append(flavors, g.s.Flavors[i].Name)
		}
		used += nf
		out = append(out, g.resourceGroup(part, flavors, hasCohort, false))
	}
	if g.chance(2) {
		rg := &out[g.r.IntN(len(out))]
		missing := g.resourceGroup(rg.Resources, []string{missingFlavor}, hasCohort, false)
		rg.Flavors = append(rg.Flavors, missing.Flavors...)
	}
	return out
}

// compareResources orders resources cpu, memory, example.com/gpu.
func compareResources(a, b string) int {
	rank := func(r string) int {
		switch r {
		case ResourceCPU:
			return 0
		case ResourceMemory:
			return 1
		}
		return 2
	}
	return rank(a) - rank(b)
}

// resourceGroup draws the quotas of one group. Limits are drawn only when
// the owner has a parent; cohort quotas are smaller than ClusterQueue
// quotas.
func (g *generator) resourceGroup(resources, flavors []string, withLimits, forCohort bool) ResourceGroup {
	rg := ResourceGroup{Resources: slices.Clone(resources)}
	for _, f := range flavors {
		fq := FlavorQuotas{Flavor: f}
		for _, r := range resources {
			fq.Quotas = append(fq.Quotas, g.quota(r, withLimits, forCohort))
		}
		rg.Flavors = append(rg.Flavors, fq)
	}
	return rg
}

// unit is the step quotas of a resource are drawn in: 500m of cpu, 512Mi
// of memory, one device.
func unit(resource string) int64 {
	switch resource {
	case ResourceCPU:
		return 500
	case ResourceMemory:
		return 512
	}
	return 1
}

// quota draws one quota: cpu 1 to 6 CPUs (sometimes a half CPU such as
// 2500m), memory 512Mi to 12Gi, gpu 1 to 3, about half as much for
// cohorts, and zero for 8% of quotas (a queue that can only borrow).
// Borrowing limits are 0 to 4 CPUs, 0 to 8Gi or 0 to 2 devices; lending
// limits are between zero and the nominal quota.
func (g *generator) quota(resource string, withLimits, forCohort bool) Quota {
	q := Quota{Resource: resource}
	scale := 1
	if forCohort {
		scale = 2
	}
	switch resource {
	case ResourceCPU:
		q.Nominal = int64(1+g.r.IntN(6/scale)) * 1000
		if g.chance(15) {
			q.Nominal = int64(g.r.IntN(6/scale))*1000 + 500
		}
	case ResourceMemory:
		q.Nominal = int64(1+g.r.IntN(12/scale)) * 1024
		if g.chance(10) {
			q.Nominal -= 512
		}
	default:
		q.Nominal = int64(1 + g.r.IntN(3/scale))
	}
	if g.chance(8) {
		q.Nominal = 0
	}
	if !withLimits {
		return q
	}
	if g.chance(30) {
		var b int64
		switch resource {
		case ResourceCPU:
			b = int64(g.r.IntN(5)) * 1000
		case ResourceMemory:
			b = int64(g.r.IntN(9)) * 1024
		default:
			b = int64(g.r.IntN(3))
		}
		q.BorrowingLimit = &b
	}
	if g.chance(30) {
		u := unit(resource)
		l := int64(g.r.IntN(int(q.Nominal/u)+1)) * u
		q.LendingLimit = &l
	}
	return q
}

// stopPolicy rarely (4%) stops a ClusterQueue or LocalQueue: Hold or
// HoldAndDrain, equally. (Generated workloads never start admitted, so
// HoldAndDrain drains nothing here; the testdata scenarios cover that.)
func (g *generator) stopPolicy() string {
	if !g.chance(4) {
		return ""
	}
	return pick(g, []string{"Hold", "HoldAndDrain"})
}

// localQueues draws one or two LocalQueues per ClusterQueue, in namespaces
// ns-a, ns-b, ... (two ClusterQueues may share a namespace). LocalQueue
// names are unique across namespaces, so removing objects never makes
// names collide.
func (g *generator) localQueues() {
	nsCount := min(3, len(g.s.ClusterQueues)+1)
	i := 0
	for _, cq := range g.s.ClusterQueues {
		n := 1 + g.weighted(70, 30)
		for range n {
			g.s.LocalQueues = append(g.s.LocalQueues, LocalQueue{
				Namespace:    namespaceName(g.r.IntN(nsCount)),
				Name:         fmt.Sprintf("lq%d", i),
				ClusterQueue: cq.Name,
				StopPolicy:   g.stopPolicy(),
			})
			i++
		}
	}
}

func namespaceName(i int) string { return "ns-" + string(rune('a'+i)) }

// workloads draws 2 to 14 Workloads. Arrivals are shaped so that quota
// changes hands: the workloads of some ClusterQueues all arrive late, after
// others have borrowed their idle quota (so they reclaim it), and
// high-priority workloads often arrive after low-priority ones hold the
// quota (so they preempt). Low-priority workloads more often run until the
// end, so that only preemption frees their quota.
func (g *generator) workloads() {
	late := map[string]bool{}
	for _, cq := range g.s.ClusterQueues {
		late[cq.Name] = g.chance(30)
	}
	n := 2 + g.r.IntN(7) + g.r.IntN(7)
	for i := range n {
		w := Workload{Name: fmt.Sprintf("w%d", i)}
		var cq *ClusterQueue
		if g.chance(2) {
			w.Namespace, w.Queue = namespaceName(g.r.IntN(3)), missingQueue
		} else {
			lq := pick(g, g.s.LocalQueues)
			w.Namespace, w.Queue = lq.Namespace, lq.Name
			cq = g.clusterQueue(lq.ClusterQueue)
		}
		w.Priority = []int32{0, 1, 3, 5, 10, -1, -5}[g.weighted(30, 15, 5, 20, 20, 5, 5)]
		switch {
		case cq != nil && late[cq.Name]:
			w.ArrivalSeconds = 6 + g.r.IntN(15)
		case w.Priority >= 5 && g.chance(50):
			w.ArrivalSeconds = 3 + g.r.IntN(18)
		case !g.chance(30):
			w.ArrivalSeconds = g.r.IntN(21)
		}
		forever := 10
		if w.Priority <= 1 {
			forever = 30
		}
		if !g.chance(forever) {
			rt := 2 + g.r.IntN(29)
			w.RuntimeSeconds = &rt
		}
		if g.chance(20) {
			td := g.r.IntN(6)
			w.TerminationDelaySeconds = &td
		}
		nps := 1 + g.weighted(65, 25, 10)
		for k := range nps {
			w.PodSets = append(w.PodSets, g.podSet(podSetName(k), cq, nps))
		}
		g.s.Workloads = append(g.s.Workloads, w)
	}
}

func podSetName(k int) string {
	if k == 0 {
		return "main"
	}
	return fmt.Sprintf("p%d", k)
}

func (g *generator) clusterQueue(name string) *ClusterQueue {
	for i := range g.s.ClusterQueues {
		if g.s.ClusterQueues[i].Name == name {
			return &g.s.ClusterQueues[i]
		}
	}
	return nil
}

// podSet draws pod set name of a workload with podSets pod sets in cq (nil
// when its LocalQueue does not exist): 1 to 4 pods requesting a subset of
// cq's resources, rarely (1%) one cq does not cover, usually sized to fit
// cq's quota (see fitPodSet), often with a toleration of one of cq's
// tainted flavors and sometimes with a nodeSelector that matches, or
// rarely misses, a flavor's labels.
func (g *generator) podSet(name string, cq *ClusterQueue, podSets int) PodSet {
	ps := PodSet{Name: name, Count: int32(1 + g.weighted(45, 30, 15, 10))}
	covered := g.resources
	var cqFlavors []*Flavor
	if cq != nil {
		covered = nil
		for _, rg := range cq.ResourceGroups {
			covered = append(covered, rg.Resources...)
			for _, fq := range rg.Flavors {
				if f := g.flavor(fq.Flavor); f != nil {
					cqFlavors = append(cqFlavors, f)
				}
			}
		}
		slices.SortFunc(covered, compareResources)
	}
	res := subset(g, covered, 60)
	if g.chance(1) {
		var uncovered []string
		for _, r := range []string{ResourceCPU, ResourceMemory, ResourceGPU} {
			if !slices.Contains(covered, r) {
				uncovered = append(uncovered, r)
			}
		}
		if len(uncovered) > 0 {
			res = append(res, pick(g, uncovered))
			slices.SortFunc(res, compareResources)
		}
	}
	for _, r := range res {
		ps.Requests = append(ps.Requests, Request{Resource: r, Amount: g.request(r)})
	}
	if cq != nil && g.chance(85) {
		fitPodSet(&ps, cq, podSets)
	}
	var tainted, labelled []*Flavor
	for _, f := range cqFlavors {
		if len(f.NodeTaints) > 0 {
			tainted = append(tainted, f)
		}
		if len(f.NodeLabels) > 0 {
			labelled = append(labelled, f)
		}
	}
	if len(tainted) > 0 && g.chance(60) {
		t := pick(g, tainted).NodeTaints[0]
		if g.chance(50) {
			ps.Tolerations = append(ps.Tolerations, Toleration{Key: t.Key, Operator: "Exists", Effect: t.Effect})
		} else {
			ps.Tolerations = append(ps.Tolerations, Toleration{Key: t.Key, Operator: "Equal", Value: t.Value, Effect: t.Effect})
		}
	}
	if len(labelled) > 0 && g.chance(20) {
		l := pick(g, pick(g, labelled).NodeLabels)
		if g.chance(15) {
			l.Value = "elsewhere"
		}
		ps.NodeSelector = append(ps.NodeSelector, l)
	}
	return ps
}

func (g *generator) flavor(name string) *Flavor {
	for i := range g.s.Flavors {
		if g.s.Flavors[i].Name == name {
			return &g.s.Flavors[i]
		}
	}
	return nil
}

// fitPodSet shrinks a pod set so that, with podSets pod sets of the same
// size, the workload fits in the nominal quota of the largest flavor of cq
// for each resource: first fewer pods, then smaller per-pod requests.
// Without it most workloads would never fit anywhere and only exercise the
// NoFit path; with it they fit alone but not all together, which is what
// makes the scheduler borrow and preempt.
func fitPodSet(ps *PodSet, cq *ClusterQueue, podSets int) {
	budget := map[string]int64{}
	for _, rg := range cq.ResourceGroups {
		for _, fq := range rg.Flavors {
			for _, q := range fq.Quotas {
				budget[q.Resource] = max(budget[q.Resource], q.Nominal/int64(podSets))
			}
		}
	}
	for _, r := range ps.Requests {
		if b := budget[r.Resource]; b > 0 {
			ps.Count = max(1, min(ps.Count, int32(b/r.Amount)))
		}
	}
	for i := range ps.Requests {
		r := &ps.Requests[i]
		b := budget[r.Resource]
		for _, smaller := range requestSizes(r.Resource) {
			if r.Amount <= b {
				break
			}
			r.Amount = min(r.Amount, smaller)
		}
	}
}

// requestSizes lists the per-pod request sizes of a resource, largest
// first.
func requestSizes(resource string) []int64 {
	switch resource {
	case ResourceCPU:
		return []int64{3000, 2000, 1500, 1000, 500}
	case ResourceMemory:
		return []int64{4096, 2048, 1024, 512}
	}
	return []int64{2, 1}
}

// request draws a per-pod request: cpu 500m to 3, memory 512Mi to 4Gi,
// gpu 1 or 2.
func (g *generator) request(resource string) int64 {
	switch resource {
	case ResourceCPU:
		return []int64{1000, 2000, 3000, 500, 1500}[g.weighted(45, 15, 5, 25, 10)]
	case ResourceMemory:
		return []int64{1024, 2048, 4096, 512}[g.weighted(40, 30, 10, 20)]
	}
	return []int64{1, 2}[g.weighted(80, 20)]
}

// events draws, for about a third of the scenarios, one or two events that
// finish or delete distinct workloads some seconds after they arrive.
func (g *generator) events() {
	if !g.chance(30) {
		return
	}
	n := min(len(g.s.Workloads), 1+g.weighted(60, 40))
	for _, i := range g.r.Perm(len(g.s.Workloads))[:n] {
		w := &g.s.Workloads[i]
		kind := EventFinish
		if g.chance(40) {
			kind = EventDelete
		}
		g.s.Events = append(g.s.Events, Event{AtSeconds: w.ArrivalSeconds + 1 + g.r.IntN(12), Kind: kind, Workload: w.Key()})
	}
	slices.SortStableFunc(g.s.Events, func(a, b Event) int { return a.AtSeconds - b.AtSeconds })
}

// deployments draws, for about one scenario in eight, a Deployment whose
// pods Kueue queues: 0 to 4 replicas of one pod drawn like a pod set of its
// LocalQueue's ClusterQueue, arriving in the first 10s, and up to two scale
// events to 0 to 5 replicas after it arrives.
func (g *generator) deployments() {
	if len(g.s.LocalQueues) == 0 || !g.chance(12) {
		return
	}
	lq := pick(g, g.s.LocalQueues)
	d := Deployment{Namespace: lq.Namespace, Name: "web", Queue: lq.Name,
		Replicas: int32(g.weighted(10, 35, 30, 15, 10)), ArrivalSeconds: g.r.IntN(10)}
	d.Pod = g.podSet("main", g.clusterQueue(lq.ClusterQueue), 1)
	d.Pod.Count = 1
	for range g.weighted(30, 40, 30) {
		d.Scales = append(d.Scales, Scale{AtSeconds: d.ArrivalSeconds + 1 + g.r.IntN(15), Replicas: int32(g.r.IntN(6))})
	}
	slices.SortStableFunc(d.Scales, func(a, b Scale) int { return a.AtSeconds - b.AtSeconds })
	g.s.Deployments = append(g.s.Deployments, d)
}
