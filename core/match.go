package core

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// String formats a taint as Kubernetes' Taint.ToString does:
// "key=value:Effect", or "key:Effect" when the value is empty.
func (t Taint) String() string {
	if t.Value == "" {
		return t.Key + ":" + t.Effect
	}
	return t.Key + "=" + t.Value + ":" + t.Effect
}

// Tolerates reports whether the toleration tolerates the taint, with
// Kubernetes' rules (k8s.io/api/core/v1 Toleration.ToleratesTaint): an
// empty effect matches every effect, an empty key with operator Exists
// matches every key, Exists ignores the value, Equal (the default) compares
// it.
func (tol Toleration) Tolerates(t Taint) bool {
	if tol.Effect != "" && tol.Effect != t.Effect {
		return false
	}
	if tol.Key != "" && tol.Key != t.Key {
		return false
	}
	switch tol.Operator {
	case "Exists":
		return true
	case "", "Equal":
		return tol.Value == t.Value
	}
	return false
}

// FirstUntoleratedTaint returns the first taint, in order, whose effect
// passes the filter and that no toleration tolerates
// (component-helpers FindMatchingUntoleratedTaint).
func FirstUntoleratedTaint(taints []Taint, tols []Toleration, filter func(Taint) bool) (Taint, bool) {
	for _, t := range taints {
		if filter != nil && !filter(t) {
			continue
		}
		tolerated := false
		for _, tol := range tols {
			if tol.Tolerates(t) {
				tolerated = true
				break
			}
		}
		if !tolerated {
			return t, true
		}
	}
	return Taint{}, false
}

// Matches reports whether labels satisfy the requirement, with the node
// selector operators In, NotIn, Exists, DoesNotExist, Gt and Lt
// (k8s.io/component-helpers nodeaffinity). Gt and Lt need one integer
// value and an integer label; otherwise they return an error.
func (r NodeSelectorRequirement) Matches(labels map[string]string) (bool, error) {
	v, has := labels[r.Key]
	switch r.Operator {
	case "In":
		if !has {
			return false, nil
		}
		for _, x := range r.Values {
			if x == v {
				return true, nil
			}
		}
		return false, nil
	case "NotIn":
		if !has {
			return true, nil
		}
		for _, x := range r.Values {
			if x == v {
				return false, nil
			}
		}
		return true, nil
	case "Exists":
		return has, nil
	case "DoesNotExist":
		return !has, nil
	case "Gt", "Lt":
		if len(r.Values) != 1 {
			return false, fmt.Errorf("for 'Gt', 'Lt' operators, exactly one value is required")
		}
		want, err := strconv.ParseInt(r.Values[0], 10, 64)
		if err != nil {
			return false, fmt.Errorf("for 'Gt', 'Lt' operators, the value must be an integer: %q", r.Values[0])
		}
		if !has {
			return false, nil
		}
		got, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false, nil
		}
		if r.Operator == "Gt" {
			return got > want, nil
		}
		return got < want, nil
	}
	return false, fmt.Errorf("%q is not a valid node selector operator", r.Operator)
}

// Matches reports whether every requirement of the term matches. A term
// with no requirement matches nothing, as in Kubernetes.
func (t NodeSelectorTerm) Matches(labels map[string]string) (bool, error) {
	if len(t.MatchExpressions) == 0 {
		return false, nil
	}
	for _, r := range t.MatchExpressions {
		ok, err := r.Matches(labels)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// MatchesNodeSelector reports whether labels satisfy a pod's node selector
// map and its required node affinity terms (ORed), as
// nodeaffinity.RequiredNodeAffinity.Match does. nil terms mean no affinity.
func MatchesNodeSelector(selector map[string]string, terms []NodeSelectorTerm, labels map[string]string) (bool, error) {
	for k, v := range selector {
		if lv, ok := labels[k]; !ok || lv != v {
			return false, nil
		}
	}
	if terms == nil {
		return true, nil
	}
	var firstErr error
	for _, t := range terms {
		ok, err := t.Matches(labels)
		if ok {
			return true, nil
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return false, firstErr
}

// Matches reports whether labels satisfy the label selector. A nil
// selector matches nothing (Kueue's namespaceSelector: null); an empty one
// matches everything.
func (s *LabelSelector) Matches(labels map[string]string) bool {
	if s == nil {
		return false
	}
	for k, v := range s.MatchLabels {
		if lv, ok := labels[k]; !ok || lv != v {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		v, has := labels[r.Key]
		switch r.Operator {
		case "In":
			if !has || !contains(r.Values, v) {
				return false
			}
		case "NotIn":
			if has && contains(r.Values, v) {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// String writes the selector the way apimachinery's
// labels.Selector.String does for metav1.LabelSelectorAsSelector:
// requirements sorted by key (then operator), comma-separated, as
// "k=v", "k in (a,b)", "k notin (a,b)", "k" (Exists) and "!k"
// (DoesNotExist), values sorted. An empty selector is "" (everything); a
// nil one is "<none>" (nothing).
func (s *LabelSelector) String() string {
	if s == nil {
		return "<none>"
	}
	type req struct{ key, text string }
	var reqs []req
	for k, v := range s.MatchLabels {
		reqs = append(reqs, req{k, k + "=" + v})
	}
	for _, r := range s.MatchExpressions {
		vals := slices.Sorted(slices.Values(r.Values))
		var t string
		switch r.Operator {
		case "In":
			t = r.Key + " in (" + strings.Join(vals, ",") + ")"
		case "NotIn":
			t = r.Key + " notin (" + strings.Join(vals, ",") + ")"
		case "Exists":
			t = r.Key
		case "DoesNotExist":
			t = "!" + r.Key
		default:
			t = r.Key + " " + r.Operator + " (" + strings.Join(vals, ",") + ")"
		}
		reqs = append(reqs, req{r.Key, t})
	}
	slices.SortStableFunc(reqs, func(a, b req) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(a.text, b.text)
	})
	parts := make([]string, len(reqs))
	for i, r := range reqs {
		parts[i] = r.text
	}
	return strings.Join(parts, ",")
}
