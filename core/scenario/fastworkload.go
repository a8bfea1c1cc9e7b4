package scenario

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// fastWorkload decodes o, a Workload from the fast parser, the way
// d.workload does, when o has the shape most Workload files are written
// in and d.workload would report nothing about it; otherwise it returns
// false having changed nothing, and d.workload decodes o. It exists for
// speed (issue 20: on Kueue's scalability shape, 15,000 Workload documents,
// d.workload's field paths, pair lists and maps were half of decoding).
//
// The shape: metadata with name, namespace, annotations (the kueueplay/
// durations and any other valid key) and the ObjectMeta fields the
// decoder skips; spec with queueName, priority and podSets; each pod set
// with name, count and a template of spec.containers only; each container
// with name, resources.requests and the Container fields the decoder
// skips. Every key a string, none twice, no value null, nothing invalid.
// Anything else (labels, status, limits, a minCount, ...) is left to
// d.workload. TestFastWorkload, TestFastWorkloadCorpus, FuzzFastWorkload
// and FuzzStream compare the result with d.workload's.
func (d *decoder) fastWorkload(st *state, o *rawObject) bool {
	var metaNode, specNode *yaml.Node
	for _, p := range o.pairs {
		switch p.name {
		case "apiVersion", "kind":
		case "metadata":
			metaNode = p.val
		case "spec":
			specNode = p.val
		default:
			return false
		}
	}
	if !plainMapping(metaNode) || !plainMapping(specNode) {
		return false
	}

	// metadata (objectMeta, annotations).
	var name, namespace string
	var nameNode *yaml.Node
	var sa simAnnotations
	for i := 0; i < len(metaNode.Content); i += 2 {
		k, v := metaNode.Content[i], metaNode.Content[i+1]
		switch k.Value {
		case "name":
			if !isStr(v) {
				return false
			}
			name, nameNode = v.Value, v
		case "namespace":
			if !isStr(v) {
				return false
			}
			namespace = v.Value
		case "annotations":
			if !plainMapping(v) || !fastAnnotations(v, &sa) {
				return false
			}
		case "selfLink", "resourceVersion", "generation",
			"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
			"finalizers", "managedFields":
			// As objectMeta: not interpreted.
		default:
			return false
		}
	}
	if namespace == "" {
		namespace = defaultNamespace // as begin
	}
	if name == "" || checkName(name, nameSubdomain) != "" || checkDNSLabel(namespace) != "" {
		return false
	}

	// spec.
	var queue string
	var queueNode, podSetsNode *yaml.Node
	var priority int32
	for i := 0; i < len(specNode.Content); i += 2 {
		k, v := specNode.Content[i], specNode.Content[i+1]
		switch k.Value {
		case "queueName":
			if !isStr(v) || v.Value == "" || checkDNSSubdomain(v.Value, MaxNameLength) != "" {
				return false
			}
			queue, queueNode = v.Value, v
		case "priority":
			p, ok := fastInt(v, -1<<31, 1<<31-1)
			if !ok {
				return false
			}
			priority = int32(p)
		case "podSets":
			podSetsNode = v
		default:
			return false
		}
	}
	if queueNode == nil || podSetsNode == nil {
		return false
	}
	podSets, ok := d.fastPodSets(podSetsNode)
	if !ok {
		return false
	}

	// As workload and register, without a label: the key is the
	// object's, which must be new.
	if st.keyTaken(namespace, name) {
		return false
	}
	if st.fastWorkloads == nil && st.fastCap > 0 {
		st.fastWorkloads = make([]core.Workload, 0, st.fastCap)
		st.fastAt = make([]fastAt, 0, st.fastCap)
	}
	st.fastWorkloads = append(st.fastWorkloads, core.Workload{
		Namespace:        namespace,
		Name:             name,
		Queue:            queue,
		Priority:         priority,
		Active:           true,
		Arrival:          sa.arrival,
		Runtime:          sa.runtime,
		TerminationDelay: sa.terminationDelay,
		PodSets:          podSets,
		Pos:              d.pos(o.node),
	})
	st.fastAt = append(st.fastAt, fastAt{
		objLine: int32(o.node.Line), objCol: int32(o.node.Column),
		nameLine:  int32(nameNode.Line),
		queueLine: int32(queueNode.Line), queueCol: int32(queueNode.Column),
	})
	if !st.fastKeys.add(st.fastWorkloads, len(st.fastWorkloads)-1, st.fastCap) {
		st.fastWorkloads, st.fastAt = st.fastWorkloads[:len(st.fastWorkloads)-1], st.fastAt[:len(st.fastAt)-1]
		return false
	}
	return true
}

// keyTaken reports whether the key of a Workload namespace/name is
// registered (a Workload of the fast path included).
func (st *state) keyTaken(namespace, name string) bool {
	if st.fastKeys.find(st.fastWorkloads, namespace, name) >= 0 {
		return true
	}
	if st.workloadKeys == 0 {
		return false
	}
	_, taken := st.keys["Workload/"+namespace+"/"+name]
	return taken
}

// fastAt is where a Workload of the fast path is written, in the shared
// line space: its object, its metadata.name (a line: the duplicate-name
// messages name only that) and its spec.queueName, for the cross-object
// checks, which report about it only rarely.
type fastAt struct {
	objLine, objCol     int32
	nameLine            int32
	queueLine, queueCol int32
}

// obj and queue are nodes at the object's and the queueName's positions,
// for the functions that report about nodes.
func (a fastAt) obj() *yaml.Node {
	return &yaml.Node{Line: int(a.objLine), Column: int(a.objCol)}
}

func (a fastAt) queue() *yaml.Node {
	return &yaml.Node{Line: int(a.queueLine), Column: int(a.queueCol)}
}

// fastLabel is the label (objectLabel) of a Workload of the fast path.
func fastLabel(wl *core.Workload) string {
	return "Workload/" + wl.Namespace + "/" + wl.Name
}

// fastKeys finds the Workloads of the fast path by namespace and name, in
// place of keys: an open-addressing table (linear probing) of their
// indexes in state.fastWorkloads, plus one, 4 bytes a slot, sized once
// for twice as many Workloads as the input has documents (fastCap). It
// keeps each Workload at most maxProbe slots from where its key hashes
// to, so that no input can make a lookup long: a Workload that would go
// further (or into a table half full) is refused, and fastWorkload leaves
// it to workload and keys.
type fastKeys struct {
	slots []int32
	shift uint
	n     int
}

// maxProbe is how far from its slot fastKeys keeps a Workload.
const maxProbe = 32

// slot is where namespace/name hashes to: FNV-1a, then Fibonacci hashing
// for the table's size.
func (k *fastKeys) slot(namespace, name string) int {
	h := uint64(14695981039346656037)
	for i := 0; i < len(namespace); i++ {
		h = (h ^ uint64(namespace[i])) * 1099511628211
	}
	h = (h ^ '/') * 1099511628211
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return int(h * 0x9E3779B97F4A7C15 >> k.shift)
}

// find returns the index in wls of the Workload namespace/name, or -1.
func (k *fastKeys) find(wls []core.Workload, namespace, name string) int {
	if k.n == 0 {
		return -1
	}
	s := k.slot(namespace, name)
	for range maxProbe + 1 {
		i := int(k.slots[s]) - 1
		if i < 0 {
			return -1
		}
		if wls[i].Name == name && wls[i].Namespace == namespace {
			return i
		}
		s = (s + 1) & (len(k.slots) - 1)
	}
	return -1
}

// add adds wls[i], whose key is not in k, unless it would go further than
// maxProbe, or k is half full; a table for at least capacity Workloads is
// made on the first add.
func (k *fastKeys) add(wls []core.Workload, i, capacity int) bool {
	if k.slots == nil {
		size, bits := 64, uint(6)
		for size < 2*capacity {
			size, bits = size*2, bits+1
		}
		k.slots, k.shift = make([]int32, size), 64-bits
	}
	if 2*(k.n+1) > len(k.slots) {
		return false
	}
	s := k.slot(wls[i].Namespace, wls[i].Name)
	for range maxProbe + 1 {
		if k.slots[s] == 0 {
			k.slots[s] = int32(i + 1)
			k.n++
			return true
		}
		s = (s + 1) & (len(k.slots) - 1)
	}
	return false
}

// plainMapping reports whether n is a mapping of at most maxSmallMapping
// string keys, none twice, and no null value.
func plainMapping(n *yaml.Node) bool {
	if n == nil || n.Kind != yaml.MappingNode || len(n.Content)%2 != 0 || len(n.Content) > 2*maxSmallMapping {
		return false
	}
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag != tagStr || v.Kind == yaml.AliasNode || isNull(v) {
			return false
		}
		for j := 0; j < i; j += 2 {
			if n.Content[j].Value == k.Value {
				return false
			}
		}
	}
	return true
}

// plainSequence reports whether n is a sequence without null or alias
// items.
func plainSequence(n *yaml.Node) bool {
	if n.Kind != yaml.SequenceNode {
		return false
	}
	for _, item := range n.Content {
		if item.Kind == yaml.AliasNode || isNull(item) {
			return false
		}
	}
	return true
}

// isStr reports whether n is a string scalar, as d.str reads one.
func isStr(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && (n.Tag == tagStr || n.Tag == tagTimestamp)
}

// fastInt reads an integer scalar within [min, max] as d.integer does
// when decimal reads it.
func fastInt(n *yaml.Node, min, max int64) (int64, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != tagInt {
		return 0, false
	}
	v, ok := decimal(n.Value)
	return v, ok && v >= min && v <= max
}

// fastAnnotations reads metadata.annotations as objectMeta and
// annotations do for a Workload.
func fastAnnotations(n *yaml.Node, sa *simAnnotations) bool {
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		if !isStr(v) {
			return false
		}
		if !strings.HasPrefix(k, annotationPrefix) {
			if checkQualifiedName(k) != "" {
				return false
			}
			continue
		}
		dur, err := goDuration(v.Value)
		if err != nil || dur < 0 {
			return false
		}
		switch k {
		case annotationArrival:
			sa.arrival = dur
		case annotationRuntime:
			sa.runtime = &dur
		case annotationTerminationDelay:
			sa.terminationDelay = &dur
		default:
			return false
		}
	}
	return true
}

// fastPodSets reads spec.podSets as podSets does.
func (d *decoder) fastPodSets(n *yaml.Node) ([]core.PodSet, bool) {
	if !plainSequence(n) || len(n.Content) == 0 || len(n.Content) > maxPodSets {
		return nil, false
	}
	var sets [maxPodSets]core.PodSet
	out := sets[:0]
	var reqIDs, nonZeroIDs [maxPodSets]int
	for _, item := range n.Content {
		if !plainMapping(item) {
			return nil, false
		}
		name := defaultPodSetName
		count := int32(1)
		var template *yaml.Node
		for i := 0; i < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			switch k.Value {
			case "name":
				if !isStr(v) {
					return nil, false
				}
				name = v.Value
			case "count":
				c, ok := fastInt(v, 0, 1<<31-1)
				if !ok {
					return nil, false
				}
				count = int32(c)
			case "template":
				template = v
			default:
				return nil, false
			}
		}
		if template == nil || checkDNSLabel(name) != "" {
			return nil, false
		}
		for _, ps := range out {
			if ps.Name == name {
				return nil, false
			}
		}
		reqs, nonZero, reqID, nonZeroID, ok := d.fastPodTemplate(template)
		if !ok {
			return nil, false
		}
		// As podSet and pods, from a template without labels, node
		// selector, affinity or tolerations.
		reqIDs[len(out)], nonZeroIDs[len(out)] = reqID, nonZeroID
		out = append(out, core.PodSet{Name: name, Count: count, Requests: reqs, NonZeroRequests: nonZero})
	}
	if len(out) == 1 && reqIDs[0] >= 0 && nonZeroIDs[0] >= 0 {
		return d.podSetList(podSetKey{out[0].Name, out[0].Count, reqIDs[0], nonZeroIDs[0]}, out[0]), true
	}
	return append([]core.PodSet(nil), out...), true
}

// podSetKey is a pod set of the fast path as a comparable value: its
// name, count and the ids of its request lists (reqList).
type podSetKey struct {
	name                string
	count               int32
	requests, nonZeroes int
}

// podSetList returns a Workload's pod sets when it has one, ps (k), the
// same slice for every Workload whose pod set is the same (issue 20: on
// Kueue's scalability shape, 15,000 slices of one pod set were 2.2 MB of
// what decoding kept). The slice has no room to append to, and the one
// place that changes decoded pod sets, linkConfiguration, copies them
// first.
func (d *decoder) podSetList(k podSetKey, ps core.PodSet) []core.PodSet {
	if l, ok := d.podSetLists[k]; ok {
		return l
	}
	l := []core.PodSet{ps}
	if d.podSetLists == nil {
		d.podSetLists = make(map[podSetKey][]core.PodSet)
	}
	if len(d.podSetLists) < maxReqLists {
		d.podSetLists[k] = l
	}
	return l
}

// fastPodTemplate reads a pod template of spec.containers only, as
// podTemplateInto and podSpec do, and returns its pod set's Requests and
// NonZeroRequests: what podRequests gives for containers alone (their
// requests added up; for the non-zero ones each container's cpu and
// memory, or kube-scheduler's defaults where it requests none), without
// its intermediate maps, and shared with the pod sets that request the
// same (d.reqList).
func (d *decoder) fastPodTemplate(n *yaml.Node) (reqs, nonZero rlist, reqID, nonZeroID int, ok bool) {
	if !plainMapping(n) || len(n.Content) != 2 || n.Content[0].Value != "spec" {
		return nil, nil, 0, 0, false
	}
	spec := n.Content[1]
	if !plainMapping(spec) || len(spec.Content) != 2 || spec.Content[0].Value != "containers" {
		return nil, nil, 0, 0, false
	}
	list := spec.Content[1]
	if !plainSequence(list) || len(list.Content) == 0 {
		return nil, nil, 0, 0, false
	}
	var sum reqKey
	var cpu, memory core.Amount
	names := make([]string, 0, len(list.Content))
	for _, c := range list.Content {
		name, ok := fastContainer(c, &sum, &cpu, &memory)
		if !ok || slices.Contains(names, name) {
			return nil, nil, 0, 0, false
		}
		names = append(names, name)
	}
	reqs, reqID = d.reqList(sum)
	nonZero, nonZeroID = d.reqList(reqKey{n: 2, r: [maxKeyResources]core.ResourceName{core.ResourceCPU, core.ResourceMemory}, a: [maxKeyResources]core.Amount{cpu, memory}})
	return reqs, nonZero, reqID, nonZeroID, true
}

// maxKeyResources is how many resources a pod set of the fast path may
// request (more go to d.workload); maxReqLists bounds how many distinct
// request lists the decoder shares.
const (
	maxKeyResources = 4
	maxReqLists     = 4096
)

// reqKey is a request list as a comparable value: n resources, in r with
// their amounts in a, sorted by name (fastContainer keeps them so).
type reqKey struct {
	n int
	r [maxKeyResources]core.ResourceName
	a [maxKeyResources]core.Amount
}

// reqList returns the request list k holds as a map, the same map for
// every pod set that requests the same (issue 20: on Kueue's scalability
// shape, 30,000 maps of one or two entries were a fifth of what decoding
// kept). Nothing writes to a decoded Scenario's request maps: the engine
// and the views only read them, and config.go's transformations replace
// them. id numbers the shared lists, -1 for one that is not shared (when
// maxReqLists are).
func (d *decoder) reqList(k reqKey) (l rlist, id int) {
	if e, ok := d.reqLists[k]; ok {
		return e.list, e.id
	}
	l = make(rlist, k.n)
	for i := range k.n {
		l[k.r[i]] = k.a[i]
	}
	if d.reqLists == nil {
		d.reqLists = make(map[reqKey]sharedReqs)
	}
	if len(d.reqLists) >= maxReqLists {
		return l, -1
	}
	id = len(d.reqLists)
	d.reqLists[k] = sharedReqs{l, id}
	return l, id
}

// sharedReqs is a shared request list and its number.
type sharedReqs struct {
	list rlist
	id   int
}

// fastContainer reads a container of name, resources.requests and fields
// the decoder skips, as container does; it adds its requests to sum and
// its non-zero cpu and memory to cpu and memory, as podRequests does
// (addAmounts: an overflowing request sum goes to container, which
// reports it; the non-zero sums stop at the largest Amount).
func fastContainer(n *yaml.Node, sum *reqKey, cpu, memory *core.Amount) (string, bool) {
	if !plainMapping(n) {
		return "", false
	}
	name, haveName := "", false
	nonZeroCPU, nonZeroMemory := core.Amount(defaultMilliCPURequest), core.Amount(defaultMemoryRequest)
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "name":
			if !isStr(v) {
				return "", false
			}
			name, haveName = v.Value, true
		case "resources":
			if !plainMapping(v) || len(v.Content) != 2 || v.Content[0].Value != "requests" {
				return "", false
			}
			requests := v.Content[1]
			if !plainMapping(requests) {
				return "", false
			}
			for j := 0; j < len(requests.Content); j += 2 {
				r, q := core.ResourceName(requests.Content[j].Value), requests.Content[j+1]
				if r == core.ResourcePods || checkQualifiedName(string(r)) != "" || q.Kind != yaml.ScalarNode {
					return "", false
				}
				switch q.Tag {
				case tagStr, tagInt, tagFloat:
				default:
					return "", false
				}
				amount, err := core.ResourceAmount(r, q.Value)
				if err != nil || amount < 0 || !sum.add(r, amount) {
					return "", false
				}
				switch r {
				case core.ResourceCPU:
					nonZeroCPU = amount
				case core.ResourceMemory:
					nonZeroMemory = amount
				}
			}
		case "args", "command", "env", "envFrom", "image", "imagePullPolicy", "lifecycle",
			"livenessProbe", "ports", "readinessProbe", "resizePolicy", "restartPolicyRules",
			"securityContext", "startupProbe", "stdin", "stdinOnce", "terminationMessagePath",
			"terminationMessagePolicy", "tty", "volumeDevices", "volumeMounts", "workingDir":
			// As container: not interpreted.
		default:
			return "", false
		}
	}
	*cpu, _ = addAmounts(*cpu, nonZeroCPU)
	*memory, _ = addAmounts(*memory, nonZeroMemory)
	return name, haveName
}

// add adds amount of r to k, keeping k sorted by name. It reports false
// when the sum overflows (addAmounts) or k has no room for another
// resource.
func (k *reqKey) add(r core.ResourceName, amount core.Amount) bool {
	i := 0
	for i < k.n && k.r[i] < r {
		i++
	}
	if i < k.n && k.r[i] == r {
		s, ok := addAmounts(k.a[i], amount)
		k.a[i] = s
		return ok
	}
	if k.n == maxKeyResources {
		return false
	}
	copy(k.r[i+1:k.n+1], k.r[i:k.n])
	copy(k.a[i+1:k.n+1], k.a[i:k.n])
	k.r[i], k.a[i] = r, amount
	k.n++
	return true
}
