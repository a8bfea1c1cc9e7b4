package scenario

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// CRD list limits (kubebuilder MaxItems / MaxProperties markers in
// apis/kueue/v1beta2) and the totals checked by
// pkg/webhooks/clusterqueue_webhook.go.
const (
	maxResourceGroups      = 16  // ClusterQueueSpec/CohortSpec.resourceGroups
	maxCoveredResources    = 64  // ResourceGroup.coveredResources
	maxFlavorsPerGroup     = 64  // ResourceGroup.flavors
	maxResourcesPerFlavor  = 64  // FlavorQuotas.resources
	maxTotalFlavors        = 256 // validateTotalFlavors
	maxTotalCovered        = 256 // validateTotalCoveredResources
	maxFlavorResourcePairs = 512 // validateFlavorResourceCombinations
	maxFlavorNodeLabels    = 8   // ResourceFlavorSpec.nodeLabels
	maxFlavorTaints        = 8   // ResourceFlavorSpec.nodeTaints
	maxFlavorTolerations   = 8   // ResourceFlavorSpec.tolerations
	maxPodSets             = 8   // WorkloadSpec.podSets
)

// resourceFlavor decodes a ResourceFlavor (same shape in v1beta1 and
// v1beta2) and validates it like ValidateResourceFlavor
// (pkg/webhooks/resourceflavor_webhook.go) plus the CRD's CEL rules.
func (d *decoder) resourceFlavor(st *state, o *rawObject) {
	m, rest := d.begin(o, false, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	rf := core.ResourceFlavor{Name: core.FlavorName(m.name), Pos: d.pos(o.node)}
	for _, p := range rest {
		switch p.name {
		case "spec":
			var topology *yaml.Node
			for _, q := range d.pairs(p.val, "spec") {
				fp := join("spec", q.name)
				switch q.name {
				case "nodeLabels":
					var keys, vals map[string]*yaml.Node
					rf.NodeLabels, keys, vals = d.stringMap(q.val, fp)
					d.checkLabels(rf.NodeLabels, keys, vals, fp)
					if len(rf.NodeLabels) > maxFlavorNodeLabels {
						d.errorf(q.val, fp, "must have at most %d labels, got %d", maxFlavorNodeLabels, len(rf.NodeLabels))
					}
				case "nodeTaints":
					var n int
					if rf.NodeTaints, n = d.taints(q.val, fp); n > maxFlavorTaints {
						d.errorf(q.val, fp, "must have at most %d items, got %d", maxFlavorTaints, n)
					}
				case "tolerations":
					var n int
					if rf.Tolerations, n = d.tolerations(q.val, fp); n > maxFlavorTolerations {
						d.errorf(q.val, fp, "must have at most %d items, got %d", maxFlavorTolerations, n)
					}
				case "topologyName":
					if s, ok := d.str(q.val, fp); ok {
						topology = q.val
						rf.TopologyName = s
						// linkTopologies warns, once the Topologies are known.
						st.flavorTopologies = append(st.flavorTopologies, flavorTopology{ref{name: s, node: q.val, path: fp}, m.label})
					}
				default:
					d.unknown(q, "spec")
				}
			}
			if topology != nil && len(rf.NodeLabels) == 0 {
				// CEL rule on ResourceFlavorSpec.
				d.errorf(topology, "spec.topologyName", "at least one nodeLabel is required when topology is set")
			}
		default:
			d.unknown(p, "")
		}
	}
	if m.name == "" || !d.register(st, "ResourceFlavor", "", m.name, m.nameNode, "") {
		return
	}
	st.flavors = append(st.flavors, rf)
	st.flavorNames[m.name] = true
}

func hasKey(ps []pair, name string) bool {
	for _, p := range ps {
		if p.name == name {
			return true
		}
	}
	return false
}

// rgConfig mirrors validationConfig in pkg/webhooks/common.go.
type rgConfig struct {
	// hasParent: the ClusterQueue has a cohort / the Cohort has a parent.
	hasParent bool
	// isCohort selects the message "must be nil when parent is empty".
	isCohort bool
	// enforceLendingLimit: lendingLimit <= nominalQuota (ClusterQueues only).
	enforceLendingLimit bool
	// lendingLimitGate: Kueue validates lendingLimit only while the
	// LendingLimit feature gate is on.
	lendingLimitGate bool
}

// resourceGroups decodes spec.resourceGroups of a ClusterQueue or Cohort and
// validates it like validateResourceGroups, validateTotalFlavors,
// validateTotalCoveredResources and validateFlavorResourceCombinations
// (pkg/webhooks/clusterqueue_webhook.go), the ResourceGroup CEL rule
// ("flavors must have the same number of resources as the
// coveredResources") and the CRD list limits. It also returns the flavor
// names, for the missing-flavor warning.
func (d *decoder) resourceGroups(n *yaml.Node, path string, cfg rgConfig) ([]core.ResourceGroup, []ref) {
	var groups []core.ResourceGroup
	var flavorRefs []ref
	seenResources := map[string]bool{}
	seenFlavors := map[string]bool{}
	totalFlavors, totalCovered := 0, 0
	list := d.items(n, path)
	if len(list) > maxResourceGroups {
		d.errorf(n, path, "must have at most %d resource groups, got %d", maxResourceGroups, len(list))
	}
	for i, gn := range list {
		gp := index(path, i)
		var g core.ResourceGroup
		var haveCovered, haveFlavors bool
		var flavorNodes []*yaml.Node
		var coveredNode, flavorsNode *yaml.Node
		for _, p := range d.pairs(gn, gp) {
			fp := join(gp, p.name)
			switch p.name {
			case "coveredResources":
				haveCovered = true
				coveredNode = p.val
				names, nodes := d.stringList(p.val, fp)
				for j, name := range names {
					rp := index(fp, j)
					if msg := checkQualifiedName(name); msg != "" {
						d.errorf(nodes[j], rp, "invalid resource name: %s", msg)
					}
					if seenResources[name] {
						d.errorf(nodes[j], rp, "duplicate value %q: a resource may appear in only one resource group", name)
					}
					seenResources[name] = true
					g.CoveredResources = append(g.CoveredResources, core.ResourceName(name))
				}
			case "flavors":
				haveFlavors = true
				flavorsNode = p.val
				flavorNodes = d.items(p.val, fp)
			default:
				d.unknown(p, gp)
			}
		}
		if isNull(gn) {
			continue
		}
		if !haveCovered || len(g.CoveredResources) == 0 {
			d.errorf(orNode(coveredNode, gn), join(gp, "coveredResources"), "must have at least 1 resource")
		} else if len(g.CoveredResources) > maxCoveredResources {
			d.errorf(coveredNode, join(gp, "coveredResources"), "must have at most %d resources, got %d", maxCoveredResources, len(g.CoveredResources))
		}
		if !haveFlavors || len(flavorNodes) == 0 {
			d.errorf(orNode(flavorsNode, gn), join(gp, "flavors"), "must have at least 1 flavor")
		} else if len(flavorNodes) > maxFlavorsPerGroup {
			d.errorf(flavorsNode, join(gp, "flavors"), "must have at most %d flavors, got %d", maxFlavorsPerGroup, len(flavorNodes))
		}
		pairsInGroup := 0
		for j, fn := range flavorNodes {
			fq, name, nameNode, nres := d.flavorQuotas(fn, index(join(gp, "flavors"), j), g.CoveredResources, cfg)
			pairsInGroup += nres
			if nameNode == nil {
				continue
			}
			if seenFlavors[name] {
				d.errorf(nameNode, join(index(join(gp, "flavors"), j), "name"), "duplicate value %q: a flavor may appear in only one resource group", name)
			}
			seenFlavors[name] = true
			flavorRefs = append(flavorRefs, ref{name: name, node: nameNode, path: join(index(join(gp, "flavors"), j), "name")})
			g.Flavors = append(g.Flavors, fq)
		}
		if pairsInGroup > maxFlavorResourcePairs {
			d.errorf(gn, gp, "number of flavor-resource combinations in a resourceGroup must be ≤ %d, got %d", maxFlavorResourcePairs, pairsInGroup)
		}
		totalFlavors += len(flavorNodes)
		totalCovered += len(g.CoveredResources)
		groups = append(groups, g)
	}
	if totalFlavors > maxTotalFlavors {
		d.errorf(n, path, "total number of flavors across all resourceGroups must be ≤ %d, got %d", maxTotalFlavors, totalFlavors)
	}
	if totalCovered > maxTotalCovered {
		d.errorf(n, path, "total number of covered resources across all resourceGroups must be ≤ %d, got %d", maxTotalCovered, totalCovered)
	}
	return groups, flavorRefs
}

func orNode(n, fallback *yaml.Node) *yaml.Node {
	if n != nil {
		return n
	}
	return fallback
}

// flavorQuotas decodes one entry of a resource group's flavors and
// validates it like validateFlavorQuotas.
func (d *decoder) flavorQuotas(n *yaml.Node, path string, covered []core.ResourceName, cfg rgConfig) (fq core.FlavorQuotas, name string, nameNode *yaml.Node, nres int) {
	var resNodes []*yaml.Node
	var resNode *yaml.Node
	haveRes := false
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "name":
			if s, ok := d.str(p.val, fp); ok {
				name, nameNode = s, p.val
				if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
					d.errorf(p.val, fp, "invalid flavor name: %s", msg)
				}
			}
		case "resources":
			haveRes = true
			resNode = p.val
			resNodes = d.items(p.val, fp)
		default:
			d.unknown(p, path)
		}
	}
	if isNull(n) {
		return fq, "", nil, 0
	}
	if nameNode == nil {
		d.required(n, path, "name")
	}
	fq.Name = core.FlavorName(name)
	rp := join(path, "resources")
	switch {
	case !haveRes || len(resNodes) == 0:
		d.errorf(orNode(resNode, n), rp, "must have at least 1 resource")
	case len(resNodes) > maxResourcesPerFlavor:
		d.errorf(resNode, rp, "must have at most %d resources, got %d", maxResourcesPerFlavor, len(resNodes))
	}
	if haveRes && len(covered) > 0 && len(resNodes) != len(covered) {
		// CEL rule on ResourceGroup.
		d.errorf(resNode, rp, "flavors must have the same number of resources as the coveredResources: coveredResources has %d, this flavor has %d", len(covered), len(resNodes))
	}
	for i, rn := range resNodes {
		q, ok := d.resourceQuota(rn, index(rp, i), i, covered, cfg)
		if ok {
			fq.Resources = append(fq.Resources, q)
		}
	}
	return fq, name, nameNode, len(resNodes)
}

// resourceQuota decodes one quota and validates it like the loop body of
// validateFlavorQuotas: the name must match coveredResources at the same
// index, quantities must be non-negative, borrowingLimit and lendingLimit
// need a cohort (a parent for Cohorts), and for ClusterQueues lendingLimit
// may not exceed nominalQuota.
func (d *decoder) resourceQuota(n *yaml.Node, path string, i int, covered []core.ResourceName, cfg rgConfig) (core.ResourceQuota, bool) {
	var q core.ResourceQuota
	var nameNode, nominalNode, borrowNode, lendNode *yaml.Node
	ps := d.pairs(n, path)
	// The name decides the unit of the quantities, so read it first.
	for _, p := range ps {
		if p.name == "name" {
			if s, ok := d.str(p.val, join(path, "name")); ok {
				q.Name, nameNode = core.ResourceName(s), p.val
			}
		}
	}
	ok := true
	for _, p := range ps {
		fp := join(path, p.name)
		switch p.name {
		case "name":
		case "nominalQuota":
			nominalNode = p.val
			v, good := d.nonNegQuantity(p.val, fp, q.Name)
			q.Nominal, ok = v, ok && good
		case "borrowingLimit":
			if isNull(p.val) {
				continue
			}
			borrowNode = p.val
			v, good := d.nonNegQuantity(p.val, fp, q.Name)
			if good {
				q.BorrowingLimit = &v
			}
			ok = ok && good
		case "lendingLimit":
			if isNull(p.val) {
				continue
			}
			lendNode = p.val
			v, good := d.nonNegQuantity(p.val, fp, q.Name)
			if good {
				q.LendingLimit = &v
			}
			ok = ok && good
		default:
			d.unknown(p, path)
		}
	}
	if isNull(n) {
		return q, false
	}
	if nameNode == nil {
		d.required(n, path, "name")
		ok = false
	} else if i < len(covered) && q.Name != covered[i] {
		d.errorf(nameNode, join(path, "name"), "must match the name in coveredResources: expected %q at this position, got %q", covered[i], q.Name)
		ok = false
	}
	if nominalNode == nil {
		d.required(n, path, "nominalQuota")
		ok = false
	}
	parent := "cohort"
	if cfg.isCohort {
		parent = "parent"
	}
	if borrowNode != nil && !cfg.hasParent {
		d.errorf(borrowNode, join(path, "borrowingLimit"), "must be nil when %s is empty", parent)
		ok = false
	}
	if lendNode != nil && cfg.lendingLimitGate {
		if !cfg.hasParent {
			d.errorf(lendNode, join(path, "lendingLimit"), "must be nil when %s is empty", parent)
			ok = false
		} else if cfg.enforceLendingLimit && q.LendingLimit != nil && *q.LendingLimit > q.Nominal {
			d.errorf(lendNode, join(path, "lendingLimit"), "must be less than or equal to the nominalQuota (%s)", nominalText(nominalNode))
			ok = false
		}
	}
	return q, ok
}

func nominalText(n *yaml.Node) string {
	if n == nil {
		return "unset"
	}
	return clip(n.Value)
}

// clusterQueue decodes a ClusterQueue, converting v1beta1 to v1beta2
// meaning (Convert_v1beta1_ClusterQueueSpec_To_v1beta2_ClusterQueueSpec:
// spec.cohort becomes cohortName, whenCanBorrow Borrow and whenCanPreempt
// Preempt become MayStopSearch), applies the CRD defaults, and validates it
// like ValidateClusterQueue plus the CRD's CEL rules.
func (d *decoder) clusterQueue(st *state, o *rawObject, v1beta1 bool) {
	m, rest := d.begin(o, false, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	info := &cqInfo{label: m.label}
	cq := core.ClusterQueue{
		Name:             m.name,
		QueueingStrategy: core.BestEffortFIFO,
		Preemption: core.Preemption{
			WithinClusterQueue:  core.PreemptionNever,
			ReclaimWithinCohort: core.PreemptionNever,
			BorrowWithinCohort:  core.PreemptionNever,
		},
		FlavorFungibility: core.FlavorFungibility{
			WhenCanBorrow:  core.MayStopSearch,
			WhenCanPreempt: core.TryNextFlavor,
		},
		StopPolicy: "None",
		Pos:        d.pos(o.node),
	}
	cohortField := "cohortName"
	if v1beta1 {
		cohortField = "cohort"
	}
	var specNode, rgNode *yaml.Node
	specNode, _ = d.specAndStatus(rest)
	specPairs := d.pairs(specNode, "spec")
	// The cohort decides how quotas validate: read it first.
	for _, p := range specPairs {
		if p.name == cohortField {
			if s, ok := d.str(p.val, join("spec", p.name)); ok && s != "" {
				if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
					d.errorf(p.val, join("spec", p.name), "invalid cohort name: %s", msg)
				}
				cq.Cohort = s
			}
		}
	}
	haveSelector := false
	for _, p := range specPairs {
		fp := join("spec", p.name)
		switch p.name {
		case cohortField:
		case "resourceGroups":
			rgNode = p.val
		case "queueingStrategy":
			if s, ok := d.strEnum(p.val, fp, string(core.StrictFIFO), string(core.BestEffortFIFO)); ok {
				cq.QueueingStrategy = core.QueueingStrategy(s)
			}
		case "namespaceSelector":
			cq.NamespaceSelector = d.labelSelector(p.val, fp, "")
			haveSelector = cq.NamespaceSelector != nil
		case "flavorFungibility":
			d.flavorFungibility(p.val, fp, v1beta1, &cq.FlavorFungibility)
		case "preemption":
			d.preemption(p.val, fp, &cq.Preemption)
		case "stopPolicy":
			if s, ok := d.strEnum(p.val, fp, "None", "Hold", "HoldAndDrain"); ok {
				cq.StopPolicy = s
			}
		case "admissionChecksStrategy", "admissionChecks":
			if p.name == "admissionChecks" && !v1beta1 {
				d.unknown(p, "spec")
				continue
			}
			if !isNull(p.val) {
				d.warnf(p.key, fp, "admission checks are not simulated and are ignored (in Kueue the ClusterQueue stays inactive until its AdmissionChecks exist and are active)")
			}
		case "fairSharing":
			d.fairSharing(p.val, fp)
		case "admissionScope":
			for _, q := range d.pairs(p.val, fp) {
				if q.name == "admissionMode" {
					if s, ok := d.strEnum(q.val, join(fp, q.name), "UsageBasedAdmissionFairSharing", "NoAdmissionFairSharing"); ok && s == "UsageBasedAdmissionFairSharing" {
						d.warnf(q.val, join(fp, q.name), "admission fair sharing is not simulated: the ClusterQueue's workloads are ordered by priority and creation time, not by their LocalQueue's past usage")
					}
				} else {
					d.unknown(q, fp)
				}
			}
		case "cohort", "cohortName":
			// The other version's name (cohortField took this version's).
			if v1beta1 {
				d.renamed(p, "spec", "v1beta1", "cohort")
			} else {
				d.renamed(p, "spec", "v1beta2", "cohortName")
			}
		default:
			d.unknown(p, "spec")
		}
	}
	cfg := rgConfig{
		hasParent:           cq.Cohort != "",
		enforceLendingLimit: true,
		lendingLimitGate:    st.scenario.sc.Gates.Enabled(core.GateLendingLimit),
	}
	cq.ResourceGroups, info.flavors = d.resourceGroups(rgNode, "spec.resourceGroups", cfg)
	if !haveSelector {
		d.warnf(orNode(specNode, o.node), "spec.namespaceSelector", "ClusterQueue has no namespaceSelector, so it admits workloads from no namespace (Kueue treats a missing selector as matching nothing); set namespaceSelector: {} to admit all namespaces")
	}
	info.cq = cq
	if m.name == "" || !d.register(st, "ClusterQueue", "", m.name, m.nameNode, "") {
		return
	}
	st.clusterQueues = append(st.clusterQueues, info)
}

// flavorFungibility decodes spec.flavorFungibility onto its defaults and
// validates it like validateFlavorFungibility and the CEL rule: preference
// may only be set when both policies are TryNextFlavor.
func (d *decoder) flavorFungibility(n *yaml.Node, path string, v1beta1 bool, ff *core.FlavorFungibility) {
	borrowValues := []string{string(core.MayStopSearch), string(core.TryNextFlavor)}
	preemptValues := []string{string(core.MayStopSearch), string(core.TryNextFlavor)}
	if v1beta1 {
		borrowValues = append(borrowValues, "Borrow")
		preemptValues = append(preemptValues, "Preempt")
	}
	// rawBorrow/rawPreempt are the values before conversion: v1beta1's CEL
	// rule compares them (Borrow is not TryNextFlavor).
	rawBorrow, rawPreempt := string(ff.WhenCanBorrow), string(ff.WhenCanPreempt)
	var prefNode *yaml.Node
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "whenCanBorrow":
			if s, ok := d.strEnum(p.val, fp, borrowValues...); ok {
				rawBorrow = s
				if s == "Borrow" {
					s = string(core.MayStopSearch)
				}
				ff.WhenCanBorrow = core.FlavorFungibilityPolicy(s)
			}
		case "whenCanPreempt":
			if s, ok := d.strEnum(p.val, fp, preemptValues...); ok {
				rawPreempt = s
				if s == "Preempt" {
					s = string(core.MayStopSearch)
				}
				ff.WhenCanPreempt = core.FlavorFungibilityPolicy(s)
			}
		case "preference":
			if s, ok := d.strEnum(p.val, fp, string(core.BorrowingOverPreemption), string(core.PreemptionOverBorrowing)); ok {
				ff.Preference = core.FlavorFungibilityPreference(s)
				prefNode = p.val
			}
		default:
			d.unknown(p, path)
		}
	}
	if prefNode != nil && (rawBorrow != string(core.TryNextFlavor) || rawPreempt != string(core.TryNextFlavor)) {
		d.errorf(prefNode, join(path, "preference"), "preference %q requires both whenCanBorrow and whenCanPreempt to be TryNextFlavor (got whenCanBorrow %s, whenCanPreempt %s)", ff.Preference, rawBorrow, rawPreempt)
	}
}

// preemption decodes spec.preemption onto its defaults and validates it
// like validatePreemption and the CEL rule: reclaimWithinCohort Never
// forbids borrowWithinCohort.policy other than Never.
func (d *decoder) preemption(n *yaml.Node, path string, pr *core.Preemption) {
	var policyNode *yaml.Node
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "withinClusterQueue":
			if s, ok := d.strEnum(p.val, fp, "Never", "LowerPriority", "LowerOrNewerEqualPriority"); ok {
				pr.WithinClusterQueue = core.PreemptionPolicy(s)
			}
		case "reclaimWithinCohort":
			if s, ok := d.strEnum(p.val, fp, "Never", "LowerPriority", "Any"); ok {
				pr.ReclaimWithinCohort = core.PreemptionPolicy(s)
			}
		case "borrowWithinCohort":
			for _, q := range d.pairs(p.val, fp) {
				qp := join(fp, q.name)
				switch q.name {
				case "policy":
					if s, ok := d.strEnum(q.val, qp, "Never", "LowerPriority"); ok {
						pr.BorrowWithinCohort = core.PreemptionPolicy(s)
						policyNode = q.val
					}
				case "maxPriorityThreshold":
					if v, ok := d.int32v(q.val, qp, -1<<31); ok {
						pr.MaxPriorityThreshold = &v
					}
				default:
					d.unknown(q, fp)
				}
			}
		default:
			d.unknown(p, path)
		}
	}
	if pr.ReclaimWithinCohort == core.PreemptionNever && pr.BorrowWithinCohort != core.PreemptionNever && policyNode != nil {
		d.errorf(policyNode, join(path, "borrowWithinCohort.policy"), "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never: borrowWithinCohort.policy %s needs reclaimWithinCohort LowerPriority or Any", pr.BorrowWithinCohort)
	}
}

// fairSharing validates spec.fairSharing like validateFairSharing. Fair
// sharing (and, for a LocalQueue's weight, admission fair sharing) is not
// simulated: a weight gets a warning.
func (d *decoder) fairSharing(n *yaml.Node, path string) {
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		if p.name != "weight" {
			d.unknown(p, path)
			continue
		}
		// The weight is a plain quantity; "cpu" selects milli-units so that
		// small weights such as 0.5 keep their value.
		if _, ok := d.nonNegQuantity(p.val, fp, core.ResourceCPU); ok {
			d.warnf(p.key, fp, "fair sharing is not simulated, so the weight changes nothing here (in Kueue it counts once the Configuration enables fairSharing, or admissionFairSharing for a LocalQueue)")
		}
	}
}

// cohort decodes a Cohort (same shape in v1beta1 and v1beta2) and validates
// it like validateCohort (pkg/webhooks/cohort_webhook.go): lendingLimit is
// not bounded by nominalQuota, and limits need a parent.
func (d *decoder) cohort(st *state, o *rawObject) {
	m, rest := d.begin(o, false, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	info := &cohortInfo{label: m.label}
	c := core.Cohort{Name: m.name, Pos: d.pos(o.node)}
	var specNode, rgNode *yaml.Node
	specNode, _ = d.specAndStatus(rest)
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "parentName":
			if s, ok := d.str(p.val, fp); ok && s != "" {
				if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
					d.errorf(p.val, fp, "invalid cohort name: %s", msg)
				}
				c.Parent = s
				info.parent = ref{name: s, node: p.val, path: fp}
			}
		case "resourceGroups":
			rgNode = p.val
		case "fairSharing":
			d.fairSharing(p.val, fp)
		default:
			d.unknown(p, "spec")
		}
	}
	cfg := rgConfig{
		hasParent:        c.Parent != "",
		isCohort:         true,
		lendingLimitGate: st.scenario.sc.Gates.Enabled(core.GateLendingLimit),
	}
	c.ResourceGroups, _ = d.resourceGroups(rgNode, "spec.resourceGroups", cfg)
	info.cohort = c
	if m.name == "" || !d.register(st, "Cohort", "", m.name, m.nameNode, "") {
		return
	}
	st.cohorts = append(st.cohorts, info)
}

// localQueue decodes a LocalQueue (same shape in v1beta1 and v1beta2).
func (d *decoder) localQueue(st *state, o *rawObject) {
	m, rest := d.begin(o, true, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	info := &lqInfo{label: m.label, node: o.node}
	lq := core.LocalQueue{Namespace: m.namespace, Name: m.name, StopPolicy: "None", Pos: d.pos(o.node)}
	var specNode *yaml.Node
	specNode, _ = d.specAndStatus(rest)
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "clusterQueue":
			if s, ok := d.str(p.val, fp); ok && s != "" {
				if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
					d.errorf(p.val, fp, "invalid ClusterQueue name: %s", msg)
				}
				lq.ClusterQueue = s
				info.cq = ref{name: s, node: p.val, path: fp}
			}
		case "stopPolicy":
			if s, ok := d.strEnum(p.val, fp, "None", "Hold", "HoldAndDrain"); ok {
				lq.StopPolicy = s
			}
		case "fairSharing":
			d.fairSharing(p.val, fp)
		default:
			d.unknown(p, "spec")
		}
	}
	if info.cq.node == nil {
		info.cq = ref{node: orNode(specNode, o.node), path: "spec.clusterQueue"}
	}
	info.lq = lq
	if m.name == "" || !d.register(st, "LocalQueue", m.namespace, m.name, m.nameNode, "") {
		return
	}
	st.localQueues = append(st.localQueues, info)
}

// workloadPriorityClass decodes a WorkloadPriorityClass.
func (d *decoder) workloadPriorityClass(st *state, o *rawObject) {
	m, rest := d.begin(o, false, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	pc := &pcInfo{node: o.node}
	haveValue := false
	for _, p := range rest {
		switch p.name {
		case "value":
			pc.value, haveValue = d.int32v(p.val, "value", -1<<31)
		case "description":
			if s, ok := d.str(p.val, "description"); ok && len(s) > 2048 {
				d.errorf(p.val, "description", "must be at most 2048 characters, got %d", len(s))
			}
		default:
			d.unknown(p, "")
		}
	}
	if !haveValue && !hasKey(rest, "value") {
		d.required(o.node, "", "value")
	}
	if m.name == "" || !d.register(st, "WorkloadPriorityClass", "", m.name, m.nameNode, "") {
		return
	}
	st.workloadPClass[m.name] = pc
}

// Kubernetes' built-in PriorityClasses (pkg/apis/scheduling:
// SystemPriorityClasses), present in every cluster.
const (
	systemClusterCritical = "system-cluster-critical"
	systemNodeCritical    = "system-node-critical"
	// highestUserDefinablePriority is scheduling.HighestUserDefinablePriority.
	highestUserDefinablePriority = 1_000_000_000
)

func systemPriority(name string) (int32, bool) {
	switch name {
	case systemClusterCritical:
		return 2_000_000_000, true
	case systemNodeCritical:
		return 2_000_001_000, true
	}
	return 0, false
}

// priorityClass decodes a scheduling.k8s.io/v1 PriorityClass and validates
// it like Kubernetes' ValidatePriorityClass and the priority admission
// plugin (at most one globalDefault).
func (d *decoder) priorityClass(st *state, o *rawObject) {
	m, rest := d.begin(o, false, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	pc := &pcInfo{node: o.node}
	haveValue := false
	var valueNode, defaultNode *yaml.Node
	for _, p := range rest {
		switch p.name {
		case "value":
			pc.value, haveValue = d.int32v(p.val, "value", -1<<31)
			valueNode = p.val
		case "globalDefault":
			pc.globalDefault, _ = d.boolean(p.val, "globalDefault")
			defaultNode = p.val
		case "description":
			d.str(p.val, "description")
		case "preemptionPolicy":
			d.strEnum(p.val, "preemptionPolicy", "PreemptLowerPriority", "Never")
		default:
			d.unknown(p, "")
		}
	}
	if valueNode == nil {
		d.required(o.node, "", "value")
	}
	if _, system := systemPriority(m.name); system {
		d.errorf(m.nameNode, "metadata.name", "%q is a built-in PriorityClass of every cluster; it cannot be redefined", m.name)
		return
	} else if len(m.name) >= len("system-") && m.name[:len("system-")] == "system-" {
		d.errorf(m.nameNode, "metadata.name", "priority class names with the 'system-' prefix are reserved")
	}
	if haveValue && pc.value > highestUserDefinablePriority {
		d.errorf(valueNode, "value", "maximum allowed value of a user defined priority is %d", highestUserDefinablePriority)
	}
	if m.name == "" || !d.register(st, "PriorityClass", "", m.name, m.nameNode, "") {
		return
	}
	if pc.globalDefault {
		if st.defaultPriorityClass != "" {
			d.errorf(defaultNode, "globalDefault", "PriorityClass %q is already marked as default; only one default can exist", st.defaultPriorityClass)
			pc.globalDefault = false
		} else {
			st.defaultPriorityClass = m.name
		}
	}
	st.priorityClass[m.name] = pc
}

// flavorMissingMessage is the warning for a ClusterQueue naming a
// ResourceFlavor that does not exist.
func flavorMissingMessage(name string) string {
	return fmt.Sprintf("ResourceFlavor %q does not exist: Kueue keeps the ClusterQueue inactive (FlavorNotFound) and admits nothing through it", name)
}
