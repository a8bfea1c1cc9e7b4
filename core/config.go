package core

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Configuration is the Kueue Configuration (config.kueue.x-k8s.io v1beta1
// or v1beta2) a scenario carries: where it came from and the settings the
// engine honours. Settings that change scheduling but are not simulated are
// warnings of the decoder; the rest does not matter to scheduling.
//
// The scenario decoder applies ExcludeResourcePrefixes and Transformations
// to every workload's PodSet.Requests (see EffectiveRequests), so the
// engine reads requests exactly as Kueue's workload.Info holds them; the
// engine itself only shows the Configuration in the trace.
type Configuration struct {
	// Source names the object it came from: "Configuration" for a
	// document of its own, or "ConfigMap/<namespace>/<name>" for the
	// controller_manager_config.yaml of Kueue's manager ConfigMap.
	Source string
	// APIVersion is config.kueue.x-k8s.io/v1beta1 or v1beta2.
	APIVersion string
	// Pos is where the Configuration object starts (inside the ConfigMap's
	// embedded YAML, for one in a ConfigMap).
	Pos Pos
	// ExcludeResourcePrefixes is resources.excludeResourcePrefixes: a
	// request whose resource name starts with one of them is ignored.
	ExcludeResourcePrefixes []string
	// Transformations is resources.transformations, in file order.
	Transformations []ResourceTransformation
	// FeatureGates are the gates the Configuration sets. Scenario.Gates
	// holds them merged with the Scenario object's (which win).
	FeatureGates FeatureGates
}

// TransformationStrategy is a transformation's strategy.
type TransformationStrategy string

const (
	// TransformRetain keeps the input resource next to the outputs (the
	// default).
	TransformRetain TransformationStrategy = "Retain"
	// TransformReplace drops the input resource.
	TransformReplace TransformationStrategy = "Replace"
)

// ResourceTransformation is one entry of resources.transformations.
type ResourceTransformation struct {
	Input    ResourceName
	Strategy TransformationStrategy
	// MultiplyBy, when set, names a requested resource whose value
	// multiplies the input's.
	MultiplyBy ResourceName
	// Outputs are sorted by name.
	Outputs []TransformationOutput
}

// TransformationOutput is one output resource of a transformation and how
// much of it one unit of input gives.
type TransformationOutput struct {
	Name ResourceName
	// Quantity is the quantity per unit of input, as written.
	Quantity string
	// MilliPerUnit is Quantity in milli-units, rounded up (the playground
	// does not keep finer fractions).
	MilliPerUnit int64
}

// EffectiveRequests returns a pod's requests as Kueue counts them against
// quota under c, following Kueue v0.16.1 pkg/workload/workload.go
// (totalRequestsFromPodSets: dropExcludedResources, then
// applyResourceTransformations):
//
//   - a resource whose name starts with an excluded prefix is dropped;
//   - for a transformed input, its quantity is first multiplied by the
//     value (whole units, rounded up) of the MultiplyBy resource when the
//     pod requests it; each output gets quantity-per-unit times the input's
//     value in whole units (rounded up: 500m cpu counts as 1), outputs of
//     several inputs adding up; the input itself stays (Retain, with the
//     multiplied quantity) or goes (Replace).
//
// Kueue builds the result by ranging over a map, so when an output is
// also a resource the pod requests and that stays (untransformed or
// Retain), Kueue's result depends on map order: the output either adds to
// it or is overwritten by it. The playground always adds, and returns such
// resources in conflicts, sorted, for a warning. An int64 overflow is an
// error. A nil c returns reqs itself.
func (c *Configuration) EffectiveRequests(reqs map[ResourceName]Amount) (out map[ResourceName]Amount, conflicts []ResourceName, err error) {
	if c == nil || len(c.ExcludeResourcePrefixes) == 0 && len(c.Transformations) == 0 {
		return reqs, nil, nil
	}
	in := make(map[ResourceName]Amount, len(reqs))
	for r, v := range reqs {
		if !c.excluded(r) {
			in[r] = v
		}
	}
	byInput := make(map[ResourceName]*ResourceTransformation, len(c.Transformations))
	for i := range c.Transformations {
		byInput[c.Transformations[i].Input] = &c.Transformations[i]
	}
	out = make(map[ResourceName]Amount, len(in))
	kept := map[ResourceName]bool{}
	outputs := map[ResourceName]Amount{}
	for _, r := range sortedResourceNames(in) {
		q := in[r]
		t, ok := byInput[r]
		if !ok {
			out[r], kept[r] = q, true
			continue
		}
		if t.MultiplyBy != "" {
			if m, ok := in[t.MultiplyBy]; ok {
				// An overflow matters only if the product is used: kept
				// (Retain) or multiplied into an output.
				if q, ok = mulAmount(q, wholeUnits(t.MultiplyBy, m)); !ok && (t.Strategy != TransformReplace || len(t.Outputs) > 0) {
					return nil, nil, fmt.Errorf("%s multiplied by %s overflows", r, t.MultiplyBy)
				}
			}
		}
		n := wholeUnits(r, q)
		for _, o := range t.Outputs {
			milli, ok := mulAmount(o.MilliPerUnit, n)
			if !ok {
				return nil, nil, fmt.Errorf("output %s of %s overflows", o.Name, r)
			}
			v := milli
			if o.Name != ResourceCPU {
				v = ceilDiv(milli, 1000)
			}
			if outputs[o.Name], ok = addAmount(outputs[o.Name], v); !ok {
				return nil, nil, fmt.Errorf("output %s overflows", o.Name)
			}
		}
		if t.Strategy != TransformReplace {
			out[r], kept[r] = q, true
		}
	}
	for _, r := range sortedResourceNames(outputs) {
		v := outputs[r]
		if kept[r] {
			conflicts = append(conflicts, r)
		}
		var ok bool
		if out[r], ok = addAmount(out[r], v); !ok {
			return nil, nil, fmt.Errorf("%s overflows", r)
		}
	}
	return out, conflicts, nil
}

func (c *Configuration) excluded(r ResourceName) bool {
	for _, p := range c.ExcludeResourcePrefixes {
		if strings.HasPrefix(string(r), p) {
			return true
		}
	}
	return false
}

// wholeUnits is apimachinery's Quantity.Value of an Amount: cpu is held in
// milli-units and rounds up, everything else already is whole units.
func wholeUnits(r ResourceName, v Amount) Amount {
	if r == ResourceCPU {
		return ceilDiv(v, 1000)
	}
	return v
}

func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b > 0 {
		q++
	}
	return q
}

func mulAmount(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	if a < 0 || b < 0 || a > math.MaxInt64/b {
		return math.MaxInt64, false
	}
	return a * b, true
}

func addAmount(a, b int64) (int64, bool) {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64, false
	}
	return a + b, true
}

func sortedResourceNames(m map[ResourceName]Amount) []ResourceName {
	names := make([]ResourceName, 0, len(m))
	for r := range m {
		names = append(names, r)
	}
	slices.Sort(names)
	return names
}
