package gen

import (
	"errors"
	"fmt"
	"slices"
)

// Size returns the number of objects (ResourceFlavors, Cohorts,
// ClusterQueues, LocalQueues, Workloads, Deployments), pod sets and events
// (scale events included): a rough
// measure of how much there is to read in a reproduction.
func (s *Scenario) Size() int {
	n := len(s.Flavors) + len(s.Cohorts) + len(s.ClusterQueues) + len(s.LocalQueues) + len(s.Workloads) + len(s.Events)
	for _, w := range s.Workloads {
		n += len(w.PodSets)
	}
	for _, d := range s.Deployments {
		n += 1 + len(d.Scales)
	}
	return n
}

// Shrinks returns every scenario one step smaller than s, each a deep copy
// that is still valid, in a deterministic order.
//
// Removals come first, sorted by the size of the result (biggest reductions
// first, ties in a fixed order): a ClusterQueue with its LocalQueues and
// their workloads; a Cohort object (what named it keeps the name, now an
// implicit cohort); a LocalQueue with its workloads; a workload; a resource
// group of a ClusterQueue with two or more, or any resource group of a
// Cohort; a covered resource of a group with two or more; a flavor of a
// group with two or more; a ResourceFlavor nothing references; an event; a
// pod set of a workload with two or more; a request of a pod set with two
// or more; a Deployment; a scale event. Removing a workload also removes
// the events naming it;
// removing resources from a ClusterQueue also removes them from its
// workloads' requests (dropping pod sets and workloads left with nothing
// to request); removing the last reference to a flavor also removes the
// ResourceFlavor.
//
// Simplifications follow, in a fixed order: leave a cohort (a ClusterQueue
// its cohort, a Cohort its parent, with the limits that needed it), drop a
// borrowingLimit or lendingLimit, reset a policy field to unset, set a pod
// count to 1, a priority to 0 or an arrival to 0s, drop a runtime or a
// termination delay, set a Deployment's replicas to 1 or its arrival to
// 0s, remove a flavor's labels, taints or tolerations, a
// pod set's tolerations or nodeSelector, a feature gate, and set the
// default termination delay to 0s.
//
// A candidate that would break a validation rule (for example resetting
// whenCanBorrow while preference needs it) is left out; the step that
// first removes the dependency is offered instead.
func (s *Scenario) Shrinks() []*Scenario {
	var removals, simpler []*Scenario
	try := func(list *[]*Scenario, edit func(c *Scenario)) {
		c := s.clone()
		edit(c)
		if c.validate() == nil {
			*list = append(*list, c)
		}
	}
	remove := func(edit func(c *Scenario)) { try(&removals, edit) }
	simplify := func(edit func(c *Scenario)) { try(&simpler, edit) }

	for i := range s.ClusterQueues {
		remove(func(c *Scenario) { c.removeClusterQueue(i) })
	}
	for i := range s.Cohorts {
		remove(func(c *Scenario) { c.Cohorts = slices.Delete(c.Cohorts, i, i+1) })
	}
	for i := range s.LocalQueues {
		remove(func(c *Scenario) { c.removeLocalQueue(i) })
	}
	for i := range s.Workloads {
		remove(func(c *Scenario) {
			c.removeWorkloads(func(w *Workload) bool { return w.Key() == s.Workloads[i].Key() })
		})
	}
	for i, cq := range s.ClusterQueues {
		for j, rg := range cq.ResourceGroups {
			if len(cq.ResourceGroups) >= 2 {
				remove(func(c *Scenario) {
					c.ClusterQueues[i].ResourceGroups = slices.Delete(c.ClusterQueues[i].ResourceGroups, j, j+1)
					c.trimRequests(cq.Name, rg.Resources)
					c.dropUnreferencedFlavors(groupFlavors(rg))
				})
			}
			if len(rg.Resources) >= 2 {
				for k, r := range rg.Resources {
					remove(func(c *Scenario) {
						removeCovered(&c.ClusterQueues[i].ResourceGroups[j], k)
						c.trimRequests(cq.Name, []string{r})
					})
				}
			}
			if len(rg.Flavors) >= 2 {
				for k, fq := range rg.Flavors {
					remove(func(c *Scenario) {
						g := &c.ClusterQueues[i].ResourceGroups[j]
						g.Flavors = slices.Delete(g.Flavors, k, k+1)
						c.dropUnreferencedFlavors([]string{fq.Flavor})
					})
				}
			}
		}
	}
	for i, co := range s.Cohorts {
		for j, rg := range co.ResourceGroups {
			remove(func(c *Scenario) {
				c.Cohorts[i].ResourceGroups = slices.Delete(c.Cohorts[i].ResourceGroups, j, j+1)
				c.dropUnreferencedFlavors(groupFlavors(rg))
			})
			if len(rg.Resources) >= 2 {
				for k := range rg.Resources {
					remove(func(c *Scenario) { removeCovered(&c.Cohorts[i].ResourceGroups[j], k) })
				}
			}
			if len(rg.Flavors) >= 2 {
				for k, fq := range rg.Flavors {
					remove(func(c *Scenario) {
						g := &c.Cohorts[i].ResourceGroups[j]
						g.Flavors = slices.Delete(g.Flavors, k, k+1)
						c.dropUnreferencedFlavors([]string{fq.Flavor})
					})
				}
			}
		}
	}
	for _, f := range s.Flavors {
		if !s.flavorReferenced(f.Name) {
			remove(func(c *Scenario) { c.dropUnreferencedFlavors([]string{f.Name}) })
		}
	}
	for i := range s.Events {
		remove(func(c *Scenario) { c.Events = slices.Delete(c.Events, i, i+1) })
	}
	for i, d := range s.Deployments {
		remove(func(c *Scenario) { c.Deployments = slices.Delete(c.Deployments, i, i+1) })
		for j := range d.Scales {
			remove(func(c *Scenario) { c.Deployments[i].Scales = slices.Delete(c.Deployments[i].Scales, j, j+1) })
		}
	}
	for i, w := range s.Workloads {
		if len(w.PodSets) >= 2 {
			for j := range w.PodSets {
				remove(func(c *Scenario) { c.Workloads[i].PodSets = slices.Delete(c.Workloads[i].PodSets, j, j+1) })
			}
		}
		for j, ps := range w.PodSets {
			if len(ps.Requests) >= 2 {
				for k := range ps.Requests {
					remove(func(c *Scenario) {
						p := &c.Workloads[i].PodSets[j]
						p.Requests = slices.Delete(p.Requests, k, k+1)
					})
				}
			}
		}
	}
	slices.SortStableFunc(removals, func(a, b *Scenario) int { return a.Size() - b.Size() })

	for i, cq := range s.ClusterQueues {
		if cq.Cohort != "" {
			simplify(func(c *Scenario) {
				c.ClusterQueues[i].Cohort = ""
				dropLimits(c.ClusterQueues[i].ResourceGroups)
			})
		}
	}
	for i, co := range s.Cohorts {
		if co.Parent != "" {
			simplify(func(c *Scenario) {
				c.Cohorts[i].Parent = ""
				dropLimits(c.Cohorts[i].ResourceGroups)
			})
		}
	}
	for _, owner := range s.quotaOwners() {
		for j, rg := range owner(s) {
			for k, fq := range rg.Flavors {
				for l, q := range fq.Quotas {
					if q.BorrowingLimit != nil {
						simplify(func(c *Scenario) { owner(c)[j].Flavors[k].Quotas[l].BorrowingLimit = nil })
					}
					if q.LendingLimit != nil {
						simplify(func(c *Scenario) { owner(c)[j].Flavors[k].Quotas[l].LendingLimit = nil })
					}
				}
			}
		}
	}
	for i, cq := range s.ClusterQueues {
		fields := []struct {
			set   bool
			reset func(cq *ClusterQueue)
		}{
			{cq.QueueingStrategy != "", func(cq *ClusterQueue) { cq.QueueingStrategy = "" }},
			{cq.StopPolicy != "", func(cq *ClusterQueue) { cq.StopPolicy = "" }},
			{cq.Preemption.WithinClusterQueue != "", func(cq *ClusterQueue) { cq.Preemption.WithinClusterQueue = "" }},
			{cq.Preemption.ReclaimWithinCohort != "", func(cq *ClusterQueue) { cq.Preemption.ReclaimWithinCohort = "" }},
			{cq.Preemption.BorrowWithinCohort != "", func(cq *ClusterQueue) {
				cq.Preemption.BorrowWithinCohort, cq.Preemption.MaxPriorityThreshold = "", nil
			}},
			{cq.Preemption.MaxPriorityThreshold != nil, func(cq *ClusterQueue) { cq.Preemption.MaxPriorityThreshold = nil }},
			{cq.FlavorFungibility.WhenCanBorrow != "", func(cq *ClusterQueue) { cq.FlavorFungibility.WhenCanBorrow = "" }},
			{cq.FlavorFungibility.WhenCanPreempt != "", func(cq *ClusterQueue) { cq.FlavorFungibility.WhenCanPreempt = "" }},
			{cq.FlavorFungibility.Preference != "", func(cq *ClusterQueue) { cq.FlavorFungibility.Preference = "" }},
		}
		for _, f := range fields {
			if f.set {
				simplify(func(c *Scenario) { f.reset(&c.ClusterQueues[i]) })
			}
		}
	}
	for i, w := range s.Workloads {
		for j, ps := range w.PodSets {
			if ps.Count > 1 {
				simplify(func(c *Scenario) { c.Workloads[i].PodSets[j].Count = 1 })
			}
		}
		if w.Priority != 0 {
			simplify(func(c *Scenario) { c.Workloads[i].Priority = 0 })
		}
		if w.ArrivalSeconds != 0 {
			simplify(func(c *Scenario) { c.Workloads[i].ArrivalSeconds = 0 })
		}
		if w.RuntimeSeconds != nil {
			simplify(func(c *Scenario) { c.Workloads[i].RuntimeSeconds = nil })
		}
		if w.TerminationDelaySeconds != nil {
			simplify(func(c *Scenario) { c.Workloads[i].TerminationDelaySeconds = nil })
		}
	}
	for i, d := range s.Deployments {
		if d.Replicas != 1 {
			simplify(func(c *Scenario) { c.Deployments[i].Replicas = 1 })
		}
		if d.ArrivalSeconds != 0 {
			simplify(func(c *Scenario) { c.Deployments[i].ArrivalSeconds = 0 })
		}
	}
	for i, lq := range s.LocalQueues {
		if lq.StopPolicy != "" {
			simplify(func(c *Scenario) { c.LocalQueues[i].StopPolicy = "" })
		}
	}
	for i, f := range s.Flavors {
		if len(f.NodeLabels) > 0 {
			// A topologyName needs nodeLabels (the CRD's CEL rule).
			simplify(func(c *Scenario) { c.Flavors[i].NodeLabels, c.Flavors[i].TopologyName = nil, "" })
		}
		if len(f.NodeTaints) > 0 {
			simplify(func(c *Scenario) { c.Flavors[i].NodeTaints = nil })
		}
		if len(f.Tolerations) > 0 {
			simplify(func(c *Scenario) { c.Flavors[i].Tolerations = nil })
		}
		if f.TopologyName != "" {
			simplify(func(c *Scenario) { c.Flavors[i].TopologyName = "" })
		}
	}
	for i, w := range s.Workloads {
		for j, ps := range w.PodSets {
			if len(ps.Tolerations) > 0 {
				simplify(func(c *Scenario) { c.Workloads[i].PodSets[j].Tolerations = nil })
			}
			if len(ps.NodeSelector) > 0 {
				simplify(func(c *Scenario) { c.Workloads[i].PodSets[j].NodeSelector = nil })
			}
		}
	}
	for i := range s.Gates {
		simplify(func(c *Scenario) { c.Gates = slices.Delete(c.Gates, i, i+1) })
	}
	if s.TerminationDelaySeconds != 0 {
		simplify(func(c *Scenario) { c.TerminationDelaySeconds = 0 })
	}
	return append(removals, simpler...)
}

// quotaOwners returns accessors for the resource groups of every
// ClusterQueue, then every Cohort, by position, so that an edit found on s
// can be applied to a clone.
func (s *Scenario) quotaOwners() []func(*Scenario) []ResourceGroup {
	var out []func(*Scenario) []ResourceGroup
	for i := range s.ClusterQueues {
		out = append(out, func(c *Scenario) []ResourceGroup { return c.ClusterQueues[i].ResourceGroups })
	}
	for i := range s.Cohorts {
		out = append(out, func(c *Scenario) []ResourceGroup { return c.Cohorts[i].ResourceGroups })
	}
	return out
}

// removeClusterQueue removes ClusterQueue i, its LocalQueues and their
// workloads.
func (s *Scenario) removeClusterQueue(i int) {
	name := s.ClusterQueues[i].Name
	s.ClusterQueues = slices.Delete(s.ClusterQueues, i, i+1)
	for j := len(s.LocalQueues) - 1; j >= 0; j-- {
		if s.LocalQueues[j].ClusterQueue == name {
			s.removeLocalQueue(j)
		}
	}
}

// removeLocalQueue removes LocalQueue i, its workloads and its
// Deployments.
func (s *Scenario) removeLocalQueue(i int) {
	lq := s.LocalQueues[i]
	s.LocalQueues = slices.Delete(s.LocalQueues, i, i+1)
	s.removeWorkloads(func(w *Workload) bool { return w.Namespace == lq.Namespace && w.Queue == lq.Name })
	s.Deployments = slices.DeleteFunc(s.Deployments, func(d Deployment) bool { return d.Namespace == lq.Namespace && d.Queue == lq.Name })
}

// removeWorkloads removes the workloads drop selects and the events that
// name them.
func (s *Scenario) removeWorkloads(drop func(w *Workload) bool) {
	gone := map[string]bool{}
	s.Workloads = slices.DeleteFunc(s.Workloads, func(w Workload) bool {
		if drop(&w) {
			gone[w.Key()] = true
			return true
		}
		return false
	})
	s.Events = slices.DeleteFunc(s.Events, func(e Event) bool { return gone[e.Workload] })
}

// clusterQueueOf returns the ClusterQueue a workload is submitted to, or ""
// when its LocalQueue does not exist.
func (s *Scenario) clusterQueueOf(w *Workload) string {
	for _, lq := range s.LocalQueues {
		if lq.Namespace == w.Namespace && lq.Name == w.Queue {
			return lq.ClusterQueue
		}
	}
	return ""
}

// trimRequests removes resources from the requests of cq's workloads. Pod
// sets left with no request are removed, and so are workloads left with
// no pod set.
func (s *Scenario) trimRequests(cq string, resources []string) {
	for i := range s.Workloads {
		w := &s.Workloads[i]
		if s.clusterQueueOf(w) != cq {
			continue
		}
		for j := range w.PodSets {
			ps := &w.PodSets[j]
			ps.Requests = slices.DeleteFunc(ps.Requests, func(r Request) bool { return slices.Contains(resources, r.Resource) })
		}
		w.PodSets = slices.DeleteFunc(w.PodSets, func(ps PodSet) bool { return len(ps.Requests) == 0 })
	}
	s.removeWorkloads(func(w *Workload) bool { return len(w.PodSets) == 0 })
	for i := range s.Deployments {
		if d := &s.Deployments[i]; s.clusterQueueOf(&Workload{Namespace: d.Namespace, Queue: d.Queue}) == cq {
			d.Pod.Requests = slices.DeleteFunc(d.Pod.Requests, func(r Request) bool { return slices.Contains(resources, r.Resource) })
		}
	}
	s.Deployments = slices.DeleteFunc(s.Deployments, func(d Deployment) bool { return len(d.Pod.Requests) == 0 })
}

// removeCovered removes the k-th covered resource of a group, with its
// quota in every flavor.
func removeCovered(rg *ResourceGroup, k int) {
	rg.Resources = slices.Delete(rg.Resources, k, k+1)
	for i := range rg.Flavors {
		rg.Flavors[i].Quotas = slices.Delete(rg.Flavors[i].Quotas, k, k+1)
	}
}

// dropLimits clears every borrowingLimit and lendingLimit.
func dropLimits(groups []ResourceGroup) {
	for i := range groups {
		for j := range groups[i].Flavors {
			for k := range groups[i].Flavors[j].Quotas {
				q := &groups[i].Flavors[j].Quotas[k]
				q.BorrowingLimit, q.LendingLimit = nil, nil
			}
		}
	}
}

func groupFlavors(rg ResourceGroup) []string {
	var out []string
	for _, fq := range rg.Flavors {
		out = append(out, fq.Flavor)
	}
	return out
}

// flavorReferenced reports whether a ClusterQueue or Cohort names flavor.
func (s *Scenario) flavorReferenced(flavor string) bool {
	for _, owner := range s.quotaOwners() {
		for _, rg := range owner(s) {
			if slices.Contains(groupFlavors(rg), flavor) {
				return true
			}
		}
	}
	return false
}

// dropUnreferencedFlavors removes the ResourceFlavors among names that
// nothing references any more.
func (s *Scenario) dropUnreferencedFlavors(names []string) {
	s.Flavors = slices.DeleteFunc(s.Flavors, func(f Flavor) bool {
		return slices.Contains(names, f.Name) && !s.flavorReferenced(f.Name)
	})
}

// clone returns a deep copy of s.
func (s *Scenario) clone() *Scenario {
	c := *s
	c.Gates = slices.Clone(s.Gates)
	c.Flavors = make([]Flavor, len(s.Flavors))
	for i, f := range s.Flavors {
		c.Flavors[i] = Flavor{
			Name:         f.Name,
			NodeLabels:   slices.Clone(f.NodeLabels),
			NodeTaints:   slices.Clone(f.NodeTaints),
			Tolerations:  slices.Clone(f.Tolerations),
			TopologyName: f.TopologyName,
		}
	}
	c.Cohorts = make([]Cohort, len(s.Cohorts))
	for i, co := range s.Cohorts {
		c.Cohorts[i] = Cohort{Name: co.Name, Parent: co.Parent, ResourceGroups: cloneGroups(co.ResourceGroups)}
	}
	c.ClusterQueues = make([]ClusterQueue, len(s.ClusterQueues))
	for i, cq := range s.ClusterQueues {
		cq.Preemption.MaxPriorityThreshold = clonePtr(cq.Preemption.MaxPriorityThreshold)
		cq.ResourceGroups = cloneGroups(cq.ResourceGroups)
		c.ClusterQueues[i] = cq
	}
	c.LocalQueues = slices.Clone(s.LocalQueues)
	c.Workloads = make([]Workload, len(s.Workloads))
	for i, w := range s.Workloads {
		w.RuntimeSeconds = clonePtr(w.RuntimeSeconds)
		w.TerminationDelaySeconds = clonePtr(w.TerminationDelaySeconds)
		podSets := make([]PodSet, len(w.PodSets))
		for j, ps := range w.PodSets {
			ps.Requests = slices.Clone(ps.Requests)
			ps.NodeSelector = slices.Clone(ps.NodeSelector)
			ps.Tolerations = slices.Clone(ps.Tolerations)
			podSets[j] = ps
		}
		w.PodSets = podSets
		c.Workloads[i] = w
	}
	c.Events = slices.Clone(s.Events)
	c.Deployments = make([]Deployment, len(s.Deployments))
	for i, d := range s.Deployments {
		d.Pod.Requests = slices.Clone(d.Pod.Requests)
		d.Pod.NodeSelector = slices.Clone(d.Pod.NodeSelector)
		d.Pod.Tolerations = slices.Clone(d.Pod.Tolerations)
		d.Scales = slices.Clone(d.Scales)
		c.Deployments[i] = d
	}
	return &c
}

func cloneGroups(groups []ResourceGroup) []ResourceGroup {
	if groups == nil {
		return nil
	}
	out := make([]ResourceGroup, len(groups))
	for i, rg := range groups {
		flavors := make([]FlavorQuotas, len(rg.Flavors))
		for j, fq := range rg.Flavors {
			quotas := make([]Quota, len(fq.Quotas))
			for k, q := range fq.Quotas {
				q.BorrowingLimit = clonePtr(q.BorrowingLimit)
				q.LendingLimit = clonePtr(q.LendingLimit)
				quotas[k] = q
			}
			flavors[j] = FlavorQuotas{Flavor: fq.Flavor, Quotas: quotas}
		}
		out[i] = ResourceGroup{Resources: slices.Clone(rg.Resources), Flavors: flavors}
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// validate checks the rules the playground's decoder (and Kueue's webhooks
// and CRD rules it mirrors) enforce as errors, for the shapes the
// generator produces. Shrinks keeps only candidates that pass. References
// to a missing LocalQueue or ResourceFlavor are allowed: Kueue accepts
// them. A LocalQueue must name an existing ClusterQueue, so that no shrink
// adds a warning the generator never produces.
func (s *Scenario) validate() error {
	if s.TerminationDelaySeconds < 0 {
		return errors.New("negative terminationDelay")
	}
	for _, g := range s.Gates {
		if g.Name != GateLendingLimit && g.Name != GatePrioritySortingWithinCohort {
			return fmt.Errorf("gate %s is not one the generator may set", g.Name)
		}
	}
	if err := unique("ResourceFlavor", s.Flavors, func(f Flavor) string { return f.Name }); err != nil {
		return err
	}
	if err := unique("Cohort", s.Cohorts, func(c Cohort) string { return c.Name }); err != nil {
		return err
	}
	if err := unique("ClusterQueue", s.ClusterQueues, func(cq ClusterQueue) string { return cq.Name }); err != nil {
		return err
	}
	if err := unique("LocalQueue", s.LocalQueues, func(lq LocalQueue) string { return lq.Namespace + "/" + lq.Name }); err != nil {
		return err
	}
	if err := unique("Workload", s.Workloads, func(w Workload) string { return w.Key() }); err != nil {
		return err
	}
	for _, c := range s.Cohorts {
		if err := validateGroups(c.ResourceGroups, c.Parent != "", false); err != nil {
			return fmt.Errorf("Cohort %s: %w", c.Name, err)
		}
		if err := s.checkCohortCycle(c.Name); err != nil {
			return err
		}
	}
	for _, cq := range s.ClusterQueues {
		if err := validateClusterQueue(&cq); err != nil {
			return fmt.Errorf("ClusterQueue %s: %w", cq.Name, err)
		}
	}
	for _, lq := range s.LocalQueues {
		if !slices.ContainsFunc(s.ClusterQueues, func(cq ClusterQueue) bool { return cq.Name == lq.ClusterQueue }) {
			return fmt.Errorf("LocalQueue %s/%s: ClusterQueue %s does not exist", lq.Namespace, lq.Name, lq.ClusterQueue)
		}
	}
	for _, w := range s.Workloads {
		if err := validateWorkload(&w); err != nil {
			return fmt.Errorf("Workload %s: %w", w.Key(), err)
		}
	}
	if err := unique("Deployment", s.Deployments, func(d Deployment) string { return d.Key() }); err != nil {
		return err
	}
	for _, d := range s.Deployments {
		if s.clusterQueueOf(&Workload{Namespace: d.Namespace, Queue: d.Queue}) == "" {
			return fmt.Errorf("Deployment %s: LocalQueue %s does not exist", d.Key(), d.Queue)
		}
		if d.Replicas < 0 || d.ArrivalSeconds < 0 || len(d.Pod.Requests) == 0 {
			return fmt.Errorf("Deployment %s: negative replicas or arrival, or no request", d.Key())
		}
		for _, sc := range d.Scales {
			if sc.AtSeconds < d.ArrivalSeconds || sc.Replicas < 0 {
				return fmt.Errorf("Deployment %s: scale %+v before it arrives or negative", d.Key(), sc)
			}
		}
	}
	for _, e := range s.Events {
		if e.AtSeconds < 0 || (e.Kind != EventFinish && e.Kind != EventDelete) {
			return fmt.Errorf("invalid event %+v", e)
		}
		if !slices.ContainsFunc(s.Workloads, func(w Workload) bool { return w.Key() == e.Workload }) {
			return fmt.Errorf("event names unknown workload %s", e.Workload)
		}
	}
	return nil
}

func unique[T any](kind string, list []T, key func(T) string) error {
	seen := map[string]bool{}
	for _, x := range list {
		k := key(x)
		if k == "" {
			return fmt.Errorf("%s without a name", kind)
		}
		if seen[k] {
			return fmt.Errorf("duplicate %s %s", kind, k)
		}
		seen[k] = true
	}
	return nil
}

// checkCohortCycle follows parentName from Cohort name through Cohort
// objects and fails if it comes back to a Cohort already visited.
func (s *Scenario) checkCohortCycle(name string) error {
	seen := map[string]bool{}
	for name != "" {
		if seen[name] {
			return fmt.Errorf("Cohort cycle through %s", name)
		}
		seen[name] = true
		i := slices.IndexFunc(s.Cohorts, func(c Cohort) bool { return c.Name == name })
		if i < 0 {
			return nil
		}
		name = s.Cohorts[i].Parent
	}
	return nil
}

// validateGroups mirrors validateResourceGroups and validateFlavorQuotas:
// non-empty groups, each resource and flavor in one group only, one quota
// per covered resource in order, non-negative quantities, limits only with
// a parent, and (for ClusterQueues) lendingLimit at most nominalQuota.
func validateGroups(groups []ResourceGroup, hasParent, isClusterQueue bool) error {
	resources, flavors := map[string]bool{}, map[string]bool{}
	for _, rg := range groups {
		if len(rg.Resources) == 0 || len(rg.Flavors) == 0 {
			return errors.New("a resource group needs at least one resource and one flavor")
		}
		for _, r := range rg.Resources {
			if resources[r] {
				return fmt.Errorf("resource %s in two groups", r)
			}
			resources[r] = true
		}
		for _, fq := range rg.Flavors {
			if flavors[fq.Flavor] {
				return fmt.Errorf("flavor %s in two groups", fq.Flavor)
			}
			flavors[fq.Flavor] = true
			if len(fq.Quotas) != len(rg.Resources) {
				return fmt.Errorf("flavor %s has %d quotas for %d resources", fq.Flavor, len(fq.Quotas), len(rg.Resources))
			}
			for k, q := range fq.Quotas {
				if q.Resource != rg.Resources[k] {
					return fmt.Errorf("flavor %s: quota %d is for %s, not %s", fq.Flavor, k, q.Resource, rg.Resources[k])
				}
				if q.Nominal < 0 || (q.BorrowingLimit != nil && *q.BorrowingLimit < 0) || (q.LendingLimit != nil && *q.LendingLimit < 0) {
					return fmt.Errorf("flavor %s: negative quota for %s", fq.Flavor, q.Resource)
				}
				if !hasParent && (q.BorrowingLimit != nil || q.LendingLimit != nil) {
					return fmt.Errorf("flavor %s: limits on %s without a parent", fq.Flavor, q.Resource)
				}
				if isClusterQueue && q.LendingLimit != nil && *q.LendingLimit > q.Nominal {
					return fmt.Errorf("flavor %s: lendingLimit above nominalQuota for %s", fq.Flavor, q.Resource)
				}
			}
		}
	}
	return nil
}

// validateClusterQueue checks the resource groups and the policy rules:
// enum values, borrowWithinCohort (other than Never) only with
// reclaimWithinCohort LowerPriority or Any, and preference only with
// whenCanBorrow TryNextFlavor and whenCanPreempt TryNextFlavor or unset.
func validateClusterQueue(cq *ClusterQueue) error {
	if err := validateGroups(cq.ResourceGroups, cq.Cohort != "", true); err != nil {
		return err
	}
	p, ff := cq.Preemption, cq.FlavorFungibility
	switch {
	case !slices.Contains([]string{"", "BestEffortFIFO", "StrictFIFO"}, cq.QueueingStrategy),
		!slices.Contains([]string{"", "Never", "LowerPriority", "LowerOrNewerEqualPriority"}, p.WithinClusterQueue),
		!slices.Contains([]string{"", "Never", "LowerPriority", "Any"}, p.ReclaimWithinCohort),
		!slices.Contains([]string{"", "Never", "LowerPriority"}, p.BorrowWithinCohort),
		!slices.Contains([]string{"", "MayStopSearch", "TryNextFlavor"}, ff.WhenCanBorrow),
		!slices.Contains([]string{"", "MayStopSearch", "TryNextFlavor"}, ff.WhenCanPreempt),
		!slices.Contains([]string{"", "BorrowingOverPreemption", "PreemptionOverBorrowing"}, ff.Preference):
		return errors.New("unsupported policy value")
	}
	if p.BorrowWithinCohort == "LowerPriority" && p.ReclaimWithinCohort != "LowerPriority" && p.ReclaimWithinCohort != "Any" {
		return errors.New("borrowWithinCohort LowerPriority needs reclaimWithinCohort LowerPriority or Any")
	}
	if p.MaxPriorityThreshold != nil && p.BorrowWithinCohort != "LowerPriority" {
		return errors.New("maxPriorityThreshold without borrowWithinCohort LowerPriority")
	}
	if ff.Preference != "" && (ff.WhenCanBorrow != "TryNextFlavor" || (ff.WhenCanPreempt != "" && ff.WhenCanPreempt != "TryNextFlavor")) {
		return errors.New("preference needs whenCanBorrow and whenCanPreempt TryNextFlavor")
	}
	return nil
}

// validateWorkload checks 1 to 8 pod sets with unique names, at least one
// pod and one request each, and non-negative times.
func validateWorkload(w *Workload) error {
	if w.Queue == "" {
		return errors.New("no queueName")
	}
	if len(w.PodSets) == 0 || len(w.PodSets) > 8 {
		return fmt.Errorf("%d pod sets", len(w.PodSets))
	}
	if err := unique("pod set", w.PodSets, func(ps PodSet) string { return ps.Name }); err != nil {
		return err
	}
	for _, ps := range w.PodSets {
		if ps.Count < 1 || len(ps.Requests) == 0 {
			return fmt.Errorf("pod set %s is empty", ps.Name)
		}
		if err := unique("request", ps.Requests, func(r Request) string { return r.Resource }); err != nil {
			return err
		}
		for _, r := range ps.Requests {
			if r.Amount < 0 {
				return fmt.Errorf("pod set %s: negative request", ps.Name)
			}
		}
	}
	if w.ArrivalSeconds < 0 || (w.RuntimeSeconds != nil && *w.RuntimeSeconds < 0) || (w.TerminationDelaySeconds != nil && *w.TerminationDelaySeconds < 0) {
		return errors.New("negative time")
	}
	return nil
}
