package conformance

import (
	"regexp"
	"slices"
	"strings"
)

// Pending messages and Go's map order.
//
// Kueue v0.16.1 builds a pod set's "couldn't assign flavors" message while
// it ranges over maps of requested resources: assignFlavors picks the
// resource groups in map order and stops at the first group that cannot be
// placed, and findFlavorForPodSets checks a flavor's resources in map
// order and stops at the first one that can never fit. So when a pod set
// fails in several groups, or a flavor fails for several resources, Kueue
// reports one of them, chosen by the map iteration, and the message differs
// from run to run for the same state. (The outcome never does: a flavor
// with any resource that cannot fit is NoFit whatever the order.) The
// engine checks in a fixed order (resource name) and reports that choice.
//
// The harness therefore compares these messages in a canonical form that
// keeps everything Kueue determines and drops exactly what it leaves to
// map order:
//
//   - a pod set that could be placed in no flavor (the side's own flavor
//     assignment says NoFit: the engine's decision, Kueue's
//     nominatedAssignment as it logs it) becomes
//     "couldn't assign flavors to pod set P: no flavor fits": which of
//     its failing groups and resources Kueue names is map order;
//   - otherwise, each flavor with a reason that it can never fit keeps
//     only "flavor F can never fit", and every other reason (the
//     "insufficient unused quota" of flavors that preemption could make
//     room in, taints, affinity) is kept word for word.
//
// Messages of any other form are compared as they are.

var (
	reNoFit    = regexp.MustCompile(`^insufficient quota for \S+ in flavor (\S+), previously considered podsets requests \([^()]*\) \+ current podset request \([^()]*\) > maximum capacity \([^()]*\)`)
	rePreempt  = regexp.MustCompile(`^insufficient unused quota for \S+ in flavor (\S+), \S+ more needed`)
	reTaint    = regexp.MustCompile(`^untolerated taint \{[^{}]*\} in flavor (\S+)`)
	reAffinity = regexp.MustCompile(`^flavor (\S+) doesn't match node affinity`)
	reNoGroup  = regexp.MustCompile(`^resource \S+ unavailable in ClusterQueue`)
	rePodSet   = regexp.MustCompile(`^couldn't assign flavors to pod set (\S+): (.*)$`)
	reSuffix   = regexp.MustCompile(`\. Pending the preemption of \d+ workload\(s\)$|\. Preempting \d+ workload\(s\) failed, will retry\.$`)
)

// reason is one parsed reason of a pod set's message.
type reason struct {
	text   string
	flavor string // "" for a resource no group covers
	never  bool   // the flavor can never hold the pod set (NoFit)
}

// parseReasons splits a pod set's reasons (joined with ", ", which some
// reasons contain too). It reports false if a reason has an unknown form.
func parseReasons(s string) ([]reason, bool) {
	var out []reason
	for s != "" {
		var r reason
		switch {
		case reNoFit.MatchString(s):
			m := reNoFit.FindStringSubmatch(s)
			r = reason{text: m[0], flavor: m[1], never: true}
		case rePreempt.MatchString(s):
			m := rePreempt.FindStringSubmatch(s)
			r = reason{text: m[0], flavor: m[1]}
		case reTaint.MatchString(s):
			m := reTaint.FindStringSubmatch(s)
			r = reason{text: m[0], flavor: m[1]}
		case reAffinity.MatchString(s):
			m := reAffinity.FindStringSubmatch(s)
			r = reason{text: m[0], flavor: m[1]}
		case reNoGroup.MatchString(s):
			r = reason{text: reNoGroup.FindString(s)}
		default:
			return nil, false
		}
		out = append(out, r)
		s = s[len(r.text):]
		if s == "" {
			break
		}
		if !strings.HasPrefix(s, ", ") {
			return nil, false
		}
		s = s[2:]
	}
	return out, true
}

// canonicalMessage is the form pending messages are compared in (see
// above); failed lists the pod sets the side placed in no flavor.
func canonicalMessage(m string, failed map[string]bool) string {
	suffix := reSuffix.FindString(m)
	body := strings.TrimSuffix(m, suffix)
	parts := strings.Split(body, "; ")
	for i, part := range parts {
		sm := rePodSet.FindStringSubmatch(part)
		if sm == nil {
			continue
		}
		if failed[sm[1]] {
			parts[i] = "couldn't assign flavors to pod set " + sm[1] + ": no flavor fits"
			continue
		}
		reasons, ok := parseReasons(sm[2])
		if !ok || len(reasons) == 0 {
			continue
		}
		never := map[string]bool{}
		for _, r := range reasons {
			never[r.flavor] = never[r.flavor] || r.never
		}
		var kept []string
		for _, r := range reasons {
			switch {
			case never[r.flavor] && r.flavor != "":
				kept = append(kept, "flavor "+r.flavor+" can never fit")
			default:
				kept = append(kept, r.text)
			}
		}
		slices.Sort(kept)
		kept = slices.Compact(kept)
		parts[i] = "couldn't assign flavors to pod set " + sm[1] + ": " + strings.Join(kept, ", ")
	}
	return strings.Join(parts, "; ") + suffix
}
