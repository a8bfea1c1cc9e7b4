package conformance

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"
	config "sigs.k8s.io/kueue/apis/config/v1beta2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/workload"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
)

// TestConfigurationRequests compares the requests a Workload counts
// against quota under a Configuration's excludeResourcePrefixes and
// transformations: the playground's (scenario.Decode, which applies
// core.Configuration.EffectiveRequests) against Kueue v0.16.1's
// workload.NewInfo with the same options, on random pods and
// Configurations. Left out: cases where an output is also a kept request
// (Kueue's result then depends on map order; the playground warns), and
// results beyond int64 (the playground refuses them, Kueue overflows).
func TestConfigurationRequests(t *testing.T) {
	names := []corev1.ResourceName{"cpu", "memory", "example.com/gpu", "example.com/mem", "example.com/credits", "vendor.io/x"}
	// Fractional quantities only for cpu: the playground holds other
	// resources in whole units, rounded up per container (README, "Where
	// the playground differs"), so 1500m bytes times 7 is 14 there and 11
	// in Kueue.
	quantities := []string{"0", "1", "2", "3", "1Ki", "5Gi", "7"}
	cpuQuantities := []string{"0", "1", "2", "500m", "1500m", "250m", "7"}
	factors := []string{"1", "2", "10", "500m", "1Gi", "1k"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	compared := 0
	for seed := range 400 {
		// A pod's requests.
		reqs := corev1.ResourceList{}
		for _, n := range names {
			if rng.IntN(2) == 0 {
				q := pick(quantities)
				if n == corev1.ResourceCPU {
					q = pick(cpuQuantities)
				}
				reqs[n] = resource.MustParse(q)
			}
		}
		// A Configuration.
		var prefixes []string
		if rng.IntN(3) == 0 {
			prefixes = append(prefixes, []string{"vendor.io/", "example.com/c", "mem"}[rng.IntN(3)])
		}
		var transforms []config.ResourceTransformation
		for _, in := range rng.Perm(len(names))[:rng.IntN(3)] {
			tr := config.ResourceTransformation{Input: names[in], Strategy: ptr.To([]config.ResourceTransformationStrategy{config.Retain, config.Replace}[rng.IntN(2)]), Outputs: corev1.ResourceList{}}
			if rng.IntN(3) == 0 {
				tr.MultiplyBy = names[rng.IntN(len(names))]
			}
			for range rng.IntN(3) {
				tr.Outputs[names[rng.IntN(len(names))]] = resource.MustParse(pick(factors))
			}
			transforms = append(transforms, tr)
		}
		if conflicting(reqs, prefixes, transforms) {
			continue
		}
		count := int32(1 + rng.IntN(3))
		wl := &kueue.Workload{Spec: kueue.WorkloadSpec{PodSets: []kueue.PodSet{{
			Name: "main", Count: count,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: reqs}}}}},
		}}}}
		info := workload.NewInfo(wl, workload.WithExcludedResourcePrefixes(prefixes), workload.WithResourceTransformations(transforms))
		want := map[core.ResourceName]int64{}
		for r, v := range info.TotalRequests[0].Requests {
			want[core.ResourceName(r)] = v / int64(count)
		}

		file := playgroundFile(reqs, prefixes, transforms, count)
		sc, err := scenario.Decode("c.yaml", []byte(file))
		if err != nil && strings.Contains(err.Error(), "does not fit in an int64") {
			continue // the playground refuses what Kueue silently overflows
		}
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, file)
		}
		got := sc.Workloads[0].PodSets[0].Requests
		if len(want) == 0 && len(got) == 0 {
			compared++
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("seed %d: requests (-kueue +playground):\n%s\n%s", seed, diff, file)
		}
		compared++
	}
	t.Logf("%d cases compared", compared)
	if compared < 100 {
		t.Errorf("only %d cases compared", compared)
	}
}

// conflicting reports whether an output of a transformation is also a
// request that stays after exclusion (untransformed or Retain), where
// Kueue's result depends on map order.
func conflicting(reqs corev1.ResourceList, prefixes []string, transforms []config.ResourceTransformation) bool {
	kept := map[corev1.ResourceName]bool{}
	byInput := map[corev1.ResourceName]config.ResourceTransformation{}
	for _, t := range transforms {
		byInput[t.Input] = t
	}
	outputs := map[corev1.ResourceName]bool{}
	for r := range reqs {
		excluded := false
		for _, p := range prefixes {
			excluded = excluded || strings.HasPrefix(string(r), p)
		}
		if excluded {
			continue
		}
		t, ok := byInput[r]
		if !ok || *t.Strategy == config.Retain {
			kept[r] = true
		}
		if ok {
			for o := range t.Outputs {
				outputs[o] = true
			}
		}
	}
	for o := range outputs {
		if kept[o] {
			return true
		}
	}
	return false
}

// playgroundFile writes the same pod and Configuration as a scenario.
func playgroundFile(reqs corev1.ResourceList, prefixes []string, transforms []config.ResourceTransformation, count int32) string {
	var b strings.Builder
	b.WriteString("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nresources:\n")
	fmt.Fprintf(&b, "  excludeResourcePrefixes: [%s]\n", strings.Join(prefixes, ", "))
	b.WriteString("  transformations:\n")
	for _, t := range transforms {
		fmt.Fprintf(&b, "  - input: %s\n    strategy: %s\n", t.Input, *t.Strategy)
		if t.MultiplyBy != "" {
			fmt.Fprintf(&b, "    multiplyBy: %s\n", t.MultiplyBy)
		}
		b.WriteString("    outputs: {")
		first := true
		for o, q := range t.Outputs {
			if !first {
				b.WriteString(", ")
			}
			first = false
			fmt.Fprintf(&b, "%s: %q", o, q.String())
		}
		b.WriteString("}\n")
	}
	fmt.Fprintf(&b, `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w, namespace: default}
spec:
  queueName: q
  podSets:
  - name: main
    count: %d
    template: {spec: {containers: [{name: c, resources: {requests: {`, count)
	first := true
	for r, q := range reqs {
		if !first {
			b.WriteString(", ")
		}
		first = false
		fmt.Fprintf(&b, "%s: %q", r, q.String())
	}
	b.WriteString("}}}]}}\n")
	return b.String()
}
