package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// YAML tags as yaml.v3 resolves them.
const (
	tagStr       = "!!str"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagBool      = "!!bool"
	tagNull      = "!!null"
	tagTimestamp = "!!timestamp"
	tagMerge     = "!!merge"
)

// decoder carries the state of one Decode call: the diagnostics found so
// far, the alias budget, and the object being decoded (for Diagnostic.Object).
type decoder struct {
	// files are the inputs, in order, with the line offset each one's
	// nodes were shifted by (see files.go); one entry for Decode.
	files []fileSpan
	diags []core.Diagnostic

	// aliasBudget is how many more nodes may be reached through YAML aliases
	// (see MaxAliasNodes).
	aliasBudget   int
	aliasReported bool

	// obj is the "Kind/name" of the object being decoded.
	obj string

	// suggestions counts the unknown fields given a suggestion.
	suggestions int
	// unknownGates counts the unknown feature gate names reported (see
	// maxGateSuggestions).
	unknownGates int

	// generated counts the objects named from each metadata.generateName
	// (see generatedName).
	generated map[string]int

	// depthStack is checkDepth's stack, kept from one document to the next.
	depthStack []depthEntry

	// kept holds the copies of the nodes the state keeps of streamed
	// Workloads (dispatchStream).
	kept slab[yaml.Node]
	// While streaming (stream sets streaming), smallPairs and items take
	// their slices from pairSlab and itemSlab, which the document's
	// recycle hands out again; otherwise they allocate each (an alias
	// fan-out, which the fast parser never reads, would fill the slabs).
	streaming bool
	pairSlab  slab[pair]
	itemSlab  slab[*yaml.Node]
	// paths holds the field paths built so far (see maxPaths).
	paths map[pathKey]string
	// spareObjects are rawObjects of recycled documents (stream), handed
	// out again by rawObject.
	spareObjects []*rawObject
	// reqLists and podSetLists hold the request lists and the pod sets of
	// the fast path (see reqList, podSetList).
	reqLists    map[reqKey]sharedReqs
	podSetLists map[podSetKey][]core.PodSet
}

// keepSlabs leaves what smallPairs and items handed out for the last
// document to its users; recycleSlabs hands it out again.
func (d *decoder) keepSlabs() {
	d.pairSlab.keep()
	d.itemSlab.keep()
}

func (d *decoder) recycleSlabs() {
	d.pairSlab.recycle()
	d.itemSlab.recycle()
}

// pos is where node n is: its file, and its line within that file (node
// lines are shifted into one line space shared by all the inputs).
func (d *decoder) pos(n *yaml.Node) core.Pos {
	if n == nil {
		if len(d.files) == 1 {
			return core.Pos{File: d.files[0].name}
		}
		return core.Pos{}
	}
	f, line := d.locate(n.Line)
	return core.Pos{File: f.name, Line: line, Col: f.column(line, n)}
}

func (d *decoder) add(sev core.Severity, obj string, n *yaml.Node, field, msg string) {
	d.diags = append(d.diags, core.Diagnostic{
		Pos:      d.pos(n),
		Severity: sev,
		Object:   printable(obj, maxEchoedName),
		Field:    printable(field, maxEchoedName),
		Message:  printable(msg, maxEchoedMessage),
	})
}

// Diagnostics echo names, map keys and values from the file, which may be
// hostile: a terminal escape sequence, a bidirectional override or ten
// thousand characters. Object and Field keep at most maxEchoedName runes
// (more than the longest valid "Kind/namespace/name" or field path with a
// label key) and Message at most maxEchoedMessage, and every rune that is not
// printable is written as a Go escape (\x1b, \u202e).
const (
	maxEchoedName    = 512
	maxEchoedMessage = 2000
)

// printable returns s with every non-printable rune (unicode.IsPrint,
// which counts only the ASCII space as printable space) escaped as
// strconv.QuoteRune would write it, shortened to at most max runes, the
// cut marked with "…" and how many runes were left out.
func printable(s string, max int) string {
	clean := true
	for _, r := range s {
		if !unicode.IsPrint(r) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean && utf8.RuneCountInString(s) <= max {
		return s
	}
	var b strings.Builder
	n := 0
	for i, r := range s {
		if n == max {
			fmt.Fprintf(&b, "…(%d more characters)", utf8.RuneCountInString(s[i:]))
			break
		}
		n++
		if unicode.IsPrint(r) && r != utf8.RuneError {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r)
		if r == utf8.RuneError {
			q = `'\ufffd'`
		}
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// errorf reports an error about node n (field path field) of the current
// object.
func (d *decoder) errorf(n *yaml.Node, field, format string, args ...any) {
	d.add(core.SeverityError, d.obj, n, field, fmt.Sprintf(format, args...))
}

// warnf reports a warning about node n of the current object.
func (d *decoder) warnf(n *yaml.Node, field, format string, args ...any) {
	d.add(core.SeverityWarning, d.obj, n, field, fmt.Sprintf(format, args...))
}

// errorObj and warnObj report about another object than the current one
// (used by the cross-object checks).
func (d *decoder) errorObj(obj string, n *yaml.Node, field, format string, args ...any) {
	d.add(core.SeverityError, obj, n, field, fmt.Sprintf(format, args...))
}

func (d *decoder) warnObj(obj string, n *yaml.Node, field, format string, args ...any) {
	d.add(core.SeverityWarning, obj, n, field, fmt.Sprintf(format, args...))
}

// join builds a field path: join("spec", "cohortName") = "spec.cohortName".
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// The field paths of the objects most files are made of are built again
// for each object, mostly for diagnostics that never come: the decoder
// remembers up to maxPaths of them (issue 20: on a 15,000-workload file
// they were a fifth of the decoder's allocations).
const maxPaths = 4096

// pathKey is a remembered field path: prefix, then name, or "[i]" when
// name is empty (index).
type pathKey struct {
	prefix, name string
	i            int
}

// path returns the remembered path for k, or builds it with build.
func (d *decoder) path(k pathKey, build func() string) string {
	if p, ok := d.paths[k]; ok {
		return p
	}
	p := build()
	if len(d.paths) < maxPaths {
		if d.paths == nil {
			d.paths = make(map[pathKey]string)
		}
		d.paths[k] = p
	}
	return p
}

// d.join is join, d.index index and d.key key, remembered.
func (d *decoder) join(path, name string) string {
	if path == "" {
		return name
	}
	return d.path(pathKey{prefix: path, name: name, i: -1}, func() string { return join(path, name) })
}

func (d *decoder) index(path string, i int) string {
	return d.path(pathKey{prefix: path, i: i}, func() string { return index(path, i) })
}

func (d *decoder) key(path, k string) string {
	return d.path(pathKey{prefix: path, name: k, i: -2}, func() string { return key(path, k) })
}

// index builds "path[i]".
func index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// key builds "path[key]" for map entries (as Kubernetes field paths do).
func key(path, k string) string {
	return path + "[" + k + "]"
}

// deref follows alias nodes, charging the size of each target against the
// alias budget. It returns nil once the budget is spent (callers treat nil
// as null), so alias bombs and self-referencing anchors cost at most
// MaxAliasNodes node visits.
func (d *decoder) deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		target := n.Alias
		if target == nil {
			return nil
		}
		d.aliasBudget -= subtreeSize(target, d.aliasBudget+1)
		if d.aliasBudget < 0 {
			if !d.aliasReported {
				d.aliasReported = true
				d.errorf(n, "", "YAML alias *%s: aliases may expand to at most %d nodes in total (MaxAliasNodes)", n.Value, MaxAliasNodes)
			}
			return nil
		}
		n = target
	}
	return n
}

// subtreeSize counts the nodes of n's subtree without following aliases,
// stopping at limit.
func subtreeSize(n *yaml.Node, limit int) int {
	count := 0
	stack := []*yaml.Node{n}
	for len(stack) > 0 && count < limit {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		stack = append(stack, top.Content...)
	}
	return count
}

// isNull reports whether n is absent or a YAML null (which Kubernetes treats
// like an absent field).
func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == tagNull)
}

// describe names the YAML shape of n for type errors.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case tagStr:
			return fmt.Sprintf("the string %q", clip(n.Value))
		case tagInt:
			return "the integer " + clip(n.Value)
		case tagFloat:
			return "the number " + clip(n.Value)
		case tagBool:
			return "the boolean " + clip(n.Value)
		case tagNull:
			return "null"
		}
		return fmt.Sprintf("%s %q", n.Tag, clip(n.Value))
	}
	return "an unsupported YAML node"
}

// clip shortens long values quoted in messages, without splitting a UTF-8
// sequence.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// pair is one key/value entry of a YAML mapping.
type pair struct {
	key, val *yaml.Node
	name     string
}

// pairs returns the entries of mapping n, with YAML merge keys (<<) expanded
// (explicit keys win over merged ones), and reports duplicate keys. A null
// or absent n gives no entries; any other non-mapping is a type error.
func (d *decoder) pairs(n *yaml.Node, path string) []pair {
	n = d.deref(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, path, "expected a mapping, got %s", describe(n))
		return nil
	}
	if len(n.Content) <= 2*maxSmallMapping && plainKeys(n) {
		return d.smallPairs(n, path)
	}
	// Sized for the mapping's own pairs (merge keys may add more), so that
	// a large mapping is not rehashed as it fills.
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	out := make([]pair, 0, len(n.Content)/2)
	d.collectPairs(n, path, seen, &out, map[*yaml.Node]bool{}, true)
	return out
}

func (d *decoder) collectPairs(n *yaml.Node, path string, seen map[string]*yaml.Node, out *[]pair, visiting map[*yaml.Node]bool, explicit bool) {
	if visiting[n] {
		d.errorf(n, path, "YAML merge key cycle")
		return
	}
	visiting[n] = true
	defer delete(visiting, n)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := d.deref(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if k.Kind == yaml.ScalarNode && k.Tag == tagMerge {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode || k.Tag == tagNull {
			d.errorf(k, path, "mapping keys must be strings, got %s", describe(k))
			continue
		}
		if first, dup := seen[k.Value]; dup {
			if explicit {
				d.duplicate(n, k, first, path)
			}
			continue
		}
		seen[k.Value] = k
		// Values are dereferenced once here, so that an alias is charged to
		// the budget once however often its value is looked at.
		*out = append(*out, pair{key: k, val: d.deref(v), name: k.Value})
	}
	for _, m := range merges {
		m = d.deref(m)
		if isNull(m) {
			continue
		}
		switch m.Kind {
		case yaml.MappingNode:
			d.collectPairs(m, path, seen, out, visiting, false)
		case yaml.SequenceNode:
			for _, item := range m.Content {
				item = d.deref(item)
				if item == nil {
					continue
				}
				if item.Kind != yaml.MappingNode {
					d.errorf(item, path, "a YAML merge (<<) takes mappings, got %s", describe(item))
					continue
				}
				d.collectPairs(item, path, seen, out, visiting, false)
			}
		default:
			d.errorf(m, path, "a YAML merge (<<) takes a mapping or a list of mappings, got %s", describe(m))
		}
	}
}

// duplicate reports key k of mapping n, set before by key first.
func (d *decoder) duplicate(n, k, first *yaml.Node, path string) {
	hint := ""
	if path == "" && (k.Value == "apiVersion" || k.Value == "kind") {
		// Two objects run together.
		hint = fmt.Sprintf("; if a new object starts here, separate it from the one before with a line \"---\" above %s", d.where(d.objectStart(n, k), k))
	}
	d.errorf(k, join(path, k.Value), "duplicate field %q (first set at %s)%s", k.Value, d.where(first.Line, k), hint)
}

// maxSmallMapping is the most entries smallPairs handles: up to it, a
// linear search for duplicates is cheaper than a map.
const maxSmallMapping = 16

// plainKeys reports whether no key of mapping n is an alias or a merge
// key (<<).
func plainKeys(n *yaml.Node) bool {
	for i := 0; i < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind == yaml.AliasNode || k.Kind == yaml.ScalarNode && k.Tag == tagMerge {
			return false
		}
	}
	return true
}

// smallPairs is collectPairs for a mapping of at most maxSmallMapping
// entries without aliased or merge keys (most of them): the same pairs
// and diagnostics, without its maps.
func (d *decoder) smallPairs(n *yaml.Node, path string) []pair {
	var out []pair
	if d.streaming {
		out = d.pairSlab.take(len(n.Content) / 2)[:0]
	} else {
		out = make([]pair, 0, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == tagNull {
			d.errorf(k, path, "mapping keys must be strings, got %s", describe(k))
			continue
		}
		if j := slices.IndexFunc(out, func(p pair) bool { return p.name == k.Value }); j >= 0 {
			d.duplicate(n, k, out[j].key, path)
			continue
		}
		out = append(out, pair{key: k, val: d.deref(v), name: k.Value})
	}
	return out
}

// items returns the entries of sequence n; null or absent gives none.
func (d *decoder) items(n *yaml.Node, path string) []*yaml.Node {
	n = d.deref(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, path, "expected a list, got %s", describe(n))
		return nil
	}
	var out []*yaml.Node
	if d.streaming {
		out = d.itemSlab.take(len(n.Content))
	} else {
		out = make([]*yaml.Node, len(n.Content))
	}
	for i, item := range n.Content {
		out[i] = d.deref(item)
	}
	return out
}

// objectStart returns the line where a second object run into mapping n
// seems to start: the first repeated apiVersion or kind key, which is where
// a forgotten "---" belongs.
func (d *decoder) objectStart(n, k *yaml.Node) int {
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := n.Content[i]
		if key.Value != "apiVersion" && key.Value != "kind" {
			continue
		}
		if seen[key.Value] {
			return key.Line
		}
		seen[key.Value] = true
	}
	return k.Line
}

// maxSuggestions bounds how many unknown fields get a "did you mean"
// (each costs an edit distance against every known field name).
const maxSuggestions = 200

// unknown reports a field that the Kubernetes type does not have, with the
// nearest field name the decoder knows when one is close enough to be a
// misspelling.
func (d *decoder) unknown(p pair, path string) {
	msg := fmt.Sprintf("unknown field %q", p.name)
	if d.suggestions < maxSuggestions {
		d.suggestions++
		if near := core.Nearest(p.name, knownFields()); near != "" && near != p.name {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
	}
	d.errorf(p.key, join(path, p.name), "%s", msg)
}

// renamed reports a field that exists under another name in the other
// Kueue API version (v1beta1's spec.cohort is v1beta2's spec.cohortName).
func (d *decoder) renamed(p pair, path, version, name string) {
	d.errorf(p.key, join(path, p.name), "unknown field %q in kueue.x-k8s.io/%s: use %q (%q is its name in the other API version)", p.name, version, name, p.name)
}

// required reports a missing required field; n is the mapping that lacks it.
func (d *decoder) required(n *yaml.Node, path, name string) {
	d.errorf(n, join(path, name), "missing required field %q", name)
}

// str decodes a string field. ok is false for null (absent) and for type
// errors, which it reports. Like Kubernetes' JSON decoding it rejects
// numbers and booleans: quote them.
func (d *decoder) str(n *yaml.Node, path string) (string, bool) {
	n = d.deref(n)
	if isNull(n) {
		return "", false
	}
	if n.Kind == yaml.ScalarNode {
		switch n.Tag {
		case tagStr, tagTimestamp:
			return n.Value, true
		case tagInt, tagFloat, tagBool:
			d.errorf(n, path, "expected a string, got %s (quote it)", describe(n))
			return "", false
		}
	}
	d.errorf(n, path, "expected a string, got %s", describe(n))
	return "", false
}

// scalarText decodes any non-null scalar as text (for quantities and
// durations, which accept numbers).
func (d *decoder) scalarText(n *yaml.Node, path, what string) (string, bool) {
	n = d.deref(n)
	if isNull(n) {
		return "", false
	}
	if n.Kind == yaml.ScalarNode {
		switch n.Tag {
		case tagStr, tagInt, tagFloat:
			return n.Value, true
		}
	}
	d.errorf(n, path, "expected %s, got %s", what, describe(n))
	return "", false
}

// integer decodes an integer field within [min, max].
func (d *decoder) integer(n *yaml.Node, path string, min, max int64) (int64, bool) {
	n = d.deref(n)
	if isNull(n) {
		return 0, false
	}
	if n.Kind != yaml.ScalarNode || n.Tag != tagInt {
		d.errorf(n, path, "expected an integer, got %s", describe(n))
		return 0, false
	}
	v, ok := decimal(n.Value)
	if !ok {
		if err := n.Decode(&v); err != nil {
			d.errorf(n, path, "invalid integer %q", clip(n.Value))
			return 0, false
		}
	}
	if v < min || v > max {
		d.errorf(n, path, "must be between %d and %d, got %d", min, max, v)
		return 0, false
	}
	return v, true
}

// int32v decodes an int32 field that must be >= min.
func (d *decoder) int32v(n *yaml.Node, path string, min int64) (int32, bool) {
	v, ok := d.integer(n, path, min, 1<<31-1)
	return int32(v), ok
}

// boolean decodes a boolean field.
func (d *decoder) boolean(n *yaml.Node, path string) (bool, bool) {
	n = d.deref(n)
	if isNull(n) {
		return false, false
	}
	if n.Kind != yaml.ScalarNode || n.Tag != tagBool {
		d.errorf(n, path, "expected a boolean, got %s", describe(n))
		return false, false
	}
	switch n.Value {
	// The values yaml.v3 resolves to !!bool, as Node.Decode reads them.
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	var v bool
	if err := n.Decode(&v); err != nil {
		d.errorf(n, path, "invalid boolean %q", clip(n.Value))
		return false, false
	}
	return v, true
}

// decimal reads s when it is a plain decimal integer of at most 18 digits
// without a leading zero ("0", "42", "-7"), which yaml.v3's Node.Decode
// reads as strconv.ParseInt(s, 10, 64) does; ok is false for anything else
// (0x1F, 0o17, 017, 1_000, +5), which is left to Node.Decode.
func decimal(s string) (v int64, ok bool) {
	digits := strings.TrimPrefix(s, "-")
	if len(digits) == 0 || len(digits) > 18 || len(digits) > 1 && digits[0] == '0' {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

// quantity decodes a Kubernetes quantity for resource name and converts it
// to Kueue's integer Amount (core.ResourceAmount). Negative values are
// returned as is; callers decide whether they are allowed.
func (d *decoder) quantity(n *yaml.Node, path string, name core.ResourceName) (core.Amount, bool) {
	n = d.deref(n)
	s, ok := d.scalarText(n, path, "a quantity")
	if !ok {
		return 0, false
	}
	v, err := core.ResourceAmount(name, s)
	if err != nil {
		d.errorf(n, path, "%v", err)
		return 0, false
	}
	return v, true
}

// nonNegQuantity decodes a quantity that must not be negative, as
// Kueue's validateResourceQuantity and Kubernetes' container resource
// validation require.
func (d *decoder) nonNegQuantity(n *yaml.Node, path string, name core.ResourceName) (core.Amount, bool) {
	n = d.deref(n)
	v, ok := d.quantity(n, path, name)
	if ok && v < 0 {
		d.errorf(n, path, "must be greater than or equal to 0, got %s", clip(n.Value))
		return 0, false
	}
	return v, ok
}

// duration decodes a non-negative Go duration (time.ParseDuration syntax).
func (d *decoder) duration(n *yaml.Node, path string) (time.Duration, bool) {
	n = d.deref(n)
	s, ok := d.scalarText(n, path, "a duration such as 30s or 1m30s")
	if !ok {
		return 0, false
	}
	return d.parseDuration(n, path, s)
}

func (d *decoder) parseDuration(n *yaml.Node, path, s string) (time.Duration, bool) {
	v, err := goDuration(s)
	if err != nil {
		d.errorf(n, path, "invalid duration %q: use Go duration syntax such as 30s, 1m30s or 200ms", clip(s))
		return 0, false
	}
	if v < 0 {
		d.errorf(n, path, "duration must not be negative, got %s", clip(s))
		return 0, false
	}
	return v, true
}

// goDuration is time.ParseDuration(strings.TrimSpace(s)). The durations
// files mostly hold, a whole number of milliseconds or seconds of at most
// nine digits ("200ms", "30s"), it reads itself (issue 20: in WebAssembly,
// time.ParseDuration, with its map of units, was 2-3 % of decoding the
// 15,000-workload file, two per Workload).
func goDuration(s string) (time.Duration, error) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n > 0 && n <= 9 {
		v := time.Duration(0)
		for i := range n {
			v = v*10 + time.Duration(s[i]-'0')
		}
		switch s[n:] {
		case "ms":
			return v * time.Millisecond, nil
		case "s":
			return v * time.Second, nil
		}
	}
	return time.ParseDuration(strings.TrimSpace(s))
}

// strEnum decodes a string that must be one of allowed.
func (d *decoder) strEnum(n *yaml.Node, path string, allowed ...string) (string, bool) {
	n = d.deref(n)
	s, ok := d.str(n, path)
	if !ok {
		return "", false
	}
	for _, a := range allowed {
		if s == a {
			return s, true
		}
	}
	d.errorf(n, path, "unsupported value %q: supported values: %s", clip(s), quoteList(allowed))
	return "", false
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// stringList decodes a list of strings.
func (d *decoder) stringList(n *yaml.Node, path string) ([]string, []*yaml.Node) {
	var out []string
	var nodes []*yaml.Node
	for i, item := range d.items(n, path) {
		item = d.deref(item)
		if s, ok := d.str(item, d.index(path, i)); ok {
			out = append(out, s)
			nodes = append(nodes, item)
		}
	}
	return out, nodes
}

// stringMap decodes a map of strings; keyNodes and valNodes give positions.
func (d *decoder) stringMap(n *yaml.Node, path string) (m map[string]string, keyNodes, valNodes map[string]*yaml.Node) {
	n = d.deref(n)
	ps := d.pairs(n, path)
	if !isNull(n) {
		m = make(map[string]string, len(ps))
	}
	keyNodes = make(map[string]*yaml.Node, len(ps))
	valNodes = make(map[string]*yaml.Node, len(ps))
	for _, p := range ps {
		val := d.deref(p.val)
		v, ok := d.str(val, d.key(path, p.name))
		if !ok {
			if val != nil && isNull(val) {
				// {key: null} is the empty string in Kubernetes' JSON.
				v, ok = "", true
			}
		}
		if ok {
			m[p.name] = v
			keyNodes[p.name] = p.key
			valNodes[p.name] = val
		}
	}
	return m, keyNodes, valNodes
}
