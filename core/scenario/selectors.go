package scenario

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// labelSelector decodes a metav1.LabelSelector and validates it like
// metav1validation.ValidateLabelSelector. It returns nil for an absent or
// null selector and a non-nil (possibly empty) one otherwise. hint, if set,
// is appended to unknown-field errors.
func (d *decoder) labelSelector(n *yaml.Node, path, hint string) *core.LabelSelector {
	n = d.deref(n)
	if isNull(n) {
		return nil
	}
	sel := &core.LabelSelector{}
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "matchLabels":
			var keys, vals map[string]*yaml.Node
			sel.MatchLabels, keys, vals = d.stringMap(p.val, fp)
			d.checkLabels(sel.MatchLabels, keys, vals, fp)
		case "matchExpressions":
			for i, item := range d.items(p.val, fp) {
				if r, ok := d.labelRequirement(item, index(fp, i)); ok {
					sel.MatchExpressions = append(sel.MatchExpressions, r)
				}
			}
		default:
			if hint != "" {
				d.errorf(p.key, join(path, p.name), "unknown field %q: %s", p.name, hint)
			} else {
				d.unknown(p, path)
			}
		}
	}
	return sel
}

// labelRequirement decodes one matchExpressions entry of a
// metav1.LabelSelector (In, NotIn, Exists, DoesNotExist).
func (d *decoder) labelRequirement(n *yaml.Node, path string) (core.LabelSelectorRequirement, bool) {
	key, op, values, ok := d.requirement(n, path, false)
	return core.LabelSelectorRequirement{Key: key, Operator: op, Values: values}, ok
}

// requirement decodes and validates one selector requirement: a key, an
// operator and values. With numeric false it is a label selector
// requirement (every value must be a label value); with numeric true a
// NodeSelectorRequirement, which also allows Gt and Lt with one integer
// value (Kubernetes' validateNodeSelectorRequirement).
func (d *decoder) requirement(n *yaml.Node, path string, numeric bool) (key, op string, values []string, ok bool) {
	n = d.deref(n)
	ops := []string{"In", "NotIn", "Exists", "DoesNotExist"}
	if numeric {
		ops = append(ops, "Gt", "Lt")
	}
	var keyNode, opNode, valuesNode *yaml.Node
	var valueNodes []*yaml.Node
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "key":
			key, _ = d.str(p.val, fp)
			keyNode = d.deref(p.val)
		case "operator":
			op, _ = d.strEnum(p.val, fp, ops...)
			opNode = d.deref(p.val)
		case "values":
			values, valueNodes = d.stringList(p.val, fp)
			valuesNode = d.deref(p.val)
			if !numeric {
				for i, v := range values {
					if msg := checkLabelValue(v); msg != "" {
						d.errorf(valueNodes[i], index(fp, i), "invalid label value: %s", msg)
					}
				}
			}
		default:
			d.unknown(p, path)
		}
	}
	if isNull(n) {
		return key, op, values, false
	}
	ok = true
	if keyNode == nil {
		d.required(n, path, "key")
		ok = false
	} else if msg := checkQualifiedName(key); msg != "" {
		d.errorf(keyNode, join(path, "key"), "invalid label key: %s", msg)
		ok = false
	}
	if opNode == nil {
		d.required(n, path, "operator")
		return key, op, values, false
	}
	switch op {
	case "In", "NotIn":
		if len(values) == 0 {
			d.errorf(n, join(path, "values"), "must be specified when operator is %s", op)
			ok = false
		}
	case "Exists", "DoesNotExist":
		if len(values) > 0 {
			d.errorf(valuesNode, join(path, "values"), "may not be specified when operator is %s", op)
			ok = false
		}
	case "Gt", "Lt":
		if len(values) != 1 {
			d.errorf(n, join(path, "values"), "must be specified as a single value when operator is %s", op)
			ok = false
		} else if _, err := strconv.ParseInt(values[0], 10, 64); err != nil {
			d.errorf(valueNodes[0], index(join(path, "values"), 0), "for operator %s the value must be an integer, got %q", op, clip(values[0]))
			ok = false
		}
	default:
		ok = false
	}
	if numeric && ok && (op == "In" || op == "NotIn") {
		for i, v := range values {
			if msg := checkLabelValue(v); msg != "" {
				d.errorf(valueNodes[i], index(join(path, "values"), i), "invalid label value: %s", msg)
				ok = false
			}
		}
	}
	return key, op, values, ok
}

// nodeSelectorTerm decodes a v1 NodeSelectorTerm (matchExpressions with
// In, NotIn, Exists, DoesNotExist, Gt, Lt). matchFields is accepted but not
// simulated (a warning).
func (d *decoder) nodeSelectorTerm(n *yaml.Node, path string) core.NodeSelectorTerm {
	var t core.NodeSelectorTerm
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "matchExpressions":
			for i, item := range d.items(p.val, fp) {
				if r, ok := d.nodeRequirement(item, index(fp, i)); ok {
					t.MatchExpressions = append(t.MatchExpressions, r)
				}
			}
		case "matchFields":
			if len(d.items(p.val, fp)) > 0 {
				d.warnf(p.key, fp, "matchFields (selecting nodes by metadata.name) is not simulated and is ignored")
			}
		default:
			d.unknown(p, path)
		}
	}
	return t
}

// nodeRequirement decodes and validates a NodeSelectorRequirement like
// Kubernetes' validateNodeSelectorRequirement.
func (d *decoder) nodeRequirement(n *yaml.Node, path string) (core.NodeSelectorRequirement, bool) {
	key, op, values, ok := d.requirement(n, path, true)
	return core.NodeSelectorRequirement{Key: key, Operator: op, Values: values}, ok
}

// taintEffects are the effects a taint may have (CEL rule on
// ResourceFlavorSpec.nodeTaints; v1 Node validation).
func taintEffects() []string { return []string{"NoSchedule", "PreferNoSchedule", "NoExecute"} }

// taints decodes a list of v1 Taints and validates it like
// validateNodeTaints (pkg/webhooks/resourceflavor_webhook.go): a valid key,
// a valid value, a supported effect, and unique (key, effect) pairs. It
// also returns the length of the list.
func (d *decoder) taints(n *yaml.Node, path string) ([]core.Taint, int) {
	var out []core.Taint
	seen := map[[2]string]bool{}
	list := d.items(n, path)
	for i, item := range list {
		ip := index(path, i)
		item = d.deref(item)
		var t core.Taint
		var keyNode, valNode, effNode *yaml.Node
		for _, p := range d.pairs(item, ip) {
			fp := join(ip, p.name)
			switch p.name {
			case "key":
				t.Key, _ = d.str(p.val, fp)
				keyNode = d.deref(p.val)
			case "value":
				t.Value, _ = d.str(p.val, fp)
				valNode = d.deref(p.val)
			case "effect":
				t.Effect, _ = d.strEnum(p.val, fp, taintEffects()...)
				effNode = d.deref(p.val)
			case "timeAdded":
				// Set by the node controller for NoExecute taints; not read.
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) {
			continue
		}
		ok := true
		if keyNode == nil {
			d.required(item, ip, "key")
			ok = false
		} else if msg := checkQualifiedName(t.Key); msg != "" {
			d.errorf(keyNode, join(ip, "key"), "invalid taint key: %s", msg)
			ok = false
		}
		if msg := checkLabelValue(t.Value); msg != "" {
			d.errorf(valNode, join(ip, "value"), "invalid taint value: %s", msg)
			ok = false
		}
		if effNode == nil {
			d.required(item, ip, "effect")
			ok = false
		} else if t.Effect == "" {
			ok = false
		}
		if !ok {
			continue
		}
		if seen[[2]string{t.Key, t.Effect}] {
			d.errorf(item, ip, "duplicate taint %s:%s: taints must be unique by key and effect pair", t.Key, t.Effect)
			continue
		}
		seen[[2]string{t.Key, t.Effect}] = true
		out = append(out, t)
	}
	return out, len(list)
}

// tolerations decodes a list of v1 Tolerations and validates it like the
// CEL rules on ResourceFlavorSpec.tolerations and Kubernetes'
// ValidateTolerations. Operator defaults to Equal. It also returns the
// length of the list.
func (d *decoder) tolerations(n *yaml.Node, path string) ([]core.Toleration, int) {
	var out []core.Toleration
	list := d.items(n, path)
	for i, item := range list {
		ip := index(path, i)
		item = d.deref(item)
		t := core.Toleration{}
		var keyNode, valNode, secondsNode *yaml.Node
		for _, p := range d.pairs(item, ip) {
			fp := join(ip, p.name)
			switch p.name {
			case "key":
				t.Key, _ = d.str(p.val, fp)
				keyNode = d.deref(p.val)
			case "operator":
				t.Operator, _ = d.strEnum(p.val, fp, "Equal", "Exists")
			case "value":
				t.Value, _ = d.str(p.val, fp)
				valNode = d.deref(p.val)
			case "effect":
				// Empty matches every effect.
				if s, ok := d.str(p.val, fp); ok && s != "" {
					t.Effect, _ = d.strEnum(p.val, fp, taintEffects()...)
				}
			case "tolerationSeconds":
				if _, ok := d.integer(p.val, fp, -1<<63, 1<<63-1); ok {
					secondsNode = d.deref(p.val)
				}
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) {
			continue
		}
		if t.Operator == "" {
			t.Operator = "Equal"
		}
		ok := true
		if t.Key != "" {
			if msg := checkQualifiedName(t.Key); msg != "" {
				d.errorf(keyNode, join(ip, "key"), "invalid toleration key: %s", msg)
				ok = false
			}
		} else if t.Operator != "Exists" {
			d.errorf(item, join(ip, "operator"), "operator must be Exists when 'key' is empty, which means 'match all values and all keys'")
			ok = false
		}
		if t.Operator == "Exists" && t.Value != "" {
			d.errorf(valNode, join(ip, "value"), "a value must be empty when 'operator' is 'Exists'")
			ok = false
		}
		if t.Operator == "Equal" {
			if msg := checkLabelValue(t.Value); msg != "" {
				d.errorf(valNode, join(ip, "value"), "invalid toleration value: %s", msg)
				ok = false
			}
		}
		if secondsNode != nil && t.Effect != "NoExecute" {
			d.errorf(secondsNode, join(ip, "tolerationSeconds"), "effect must be 'NoExecute' when 'tolerationSeconds' is set")
			ok = false
		}
		if ok {
			out = append(out, t)
		}
	}
	return out, len(list)
}
