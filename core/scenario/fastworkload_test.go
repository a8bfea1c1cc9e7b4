package scenario

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// fastWorkloadBase is a Workload fastWorkload decodes; the cases of
// TestFastWorkload edit it.
const fastWorkloadBase = `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: w
  namespace: ns
  creationTimestamp: "2025-01-01T00:00:00Z"
  annotations:
    kueueplay/arrival: 1s
    kueueplay/runtime: 2m
    example.com/note: hello
spec:
  queueName: q
  priority: 5
  podSets:
  - name: main
    count: 2
    template:
      spec:
        containers:
        - name: c
          image: busybox
          resources:
            requests:
              cpu: 500m
              memory: 1Gi
        - name: d
          resources:
            requests:
              cpu: "1"
  - name: workers
    template:
      spec:
        containers:
        - name: c
          resources:
            requests: {}
`

// TestFastWorkload checks fastWorkload against workload on Workloads of
// the shape it reads and on each thing that makes it leave one to
// workload: where it decodes, the state and the current object must be
// the ones workload leaves, and workload must report nothing; where it
// does not, it must have changed nothing.
func TestFastWorkload(t *testing.T) {
	for _, c := range []struct {
		name     string
		old, new string // the edit of fastWorkloadBase
		fast     bool
	}{
		{"as is", "", "", true},
		{"no namespace", "  namespace: ns\n", "", true},
		{"empty namespace", "  namespace: ns\n", "  namespace: \"\"\n", true},
		{"v1beta1", "kueue.x-k8s.io/v1beta2", "kueue.x-k8s.io/v1beta1", true},
		{"no priority", "  priority: 5\n", "", true},
		{"negative priority", "priority: 5", "priority: -3", true},
		{"no annotations", "  annotations:\n    kueueplay/arrival: 1s\n    kueueplay/runtime: 2m\n    example.com/note: hello\n", "", true},
		{"termination delay", "kueueplay/runtime: 2m", "kueueplay/termination-delay: 2m", true},
		{"flow style", "            requests:\n              cpu: 500m\n              memory: 1Gi\n", "            requests: {cpu: 500m, memory: 1Gi}\n", true},
		{"zero count", "count: 2", "count: 0", true},
		{"integer quantity", "cpu: \"1\"", "cpu: 1", true},
		{"zero cpu request", "cpu: 500m", "cpu: \"0\"", true},
		{"memory only", "              cpu: 500m\n", "", true},
		{"non-zero cpu beyond an int64", "              cpu: 500m\n              memory: 1Gi\n        - name: d\n          resources:\n            requests:\n              cpu: \"1\"\n", "              cpu: 9223372036854775807m\n              memory: 1Gi\n        - name: d\n          resources:\n            requests:\n              memory: 1Mi\n", true},
		{"timestamp name", "name: w\n", "name: 2025-01-01\n", true},

		{"duplicate object", "name: w\n", "name: taken\n", false},
		{"labels", "  namespace: ns\n", "  namespace: ns\n  labels:\n    a: b\n", false},
		{"uid", "  namespace: ns\n", "  namespace: ns\n  uid: x\n", false},
		{"generateName", "  name: w\n", "  generateName: w-\n", false},
		{"no name", "  name: w\n", "", false},
		{"invalid name", "name: w\n", "name: W\n", false},
		{"invalid namespace", "namespace: ns", "namespace: N_S", false},
		{"null namespace", "namespace: ns", "namespace: null", false},
		{"unknown metadata field", "  namespace: ns\n", "  namespace: ns\n  nme: x\n", false},
		{"unknown kueueplay annotation", "kueueplay/runtime: 2m", "kueueplay/runtim: 2m", false},
		{"invalid duration", "kueueplay/arrival: 1s", "kueueplay/arrival: soon", false},
		{"negative duration", "kueueplay/arrival: 1s", "kueueplay/arrival: -1s", false},
		{"number annotation", "example.com/note: hello", "example.com/note: 5", false},
		{"invalid annotation key", "example.com/note", "-bad-", false},
		{"duplicate key", "  namespace: ns\n", "  namespace: ns\n  namespace: ns\n", false},
		{"status", "spec:\n", "status: {}\nspec:\n", false},
		{"unknown top-level field", "spec:\n", "extra: 1\nspec:\n", false},
		{"no queueName", "  queueName: q\n", "", false},
		{"empty queueName", "queueName: q", "queueName: \"\"", false},
		{"invalid queueName", "queueName: q", "queueName: Q", false},
		{"string priority", "priority: 5", "priority: \"5\"", false},
		{"priority beyond int32", "priority: 5", "priority: 2147483648", false},
		{"hex priority", "priority: 5", "priority: 0x5", false},
		{"active", "  priority: 5\n", "  priority: 5\n  active: true\n", false},
		{"no podSets", "  podSets:\n", "  podSetz:\n", false},
		{"negative count", "count: 2", "count: -1", false},
		{"duplicate pod set", "name: workers", "name: main", false},
		{"invalid pod set name", "name: workers", "name: Workers", false},
		{"minCount", "    count: 2\n", "    count: 2\n    minCount: 1\n", false},
		{"template metadata", "    template:\n      spec:\n        containers:\n        - name: c\n          image", "    template:\n      metadata: {}\n      spec:\n        containers:\n        - name: c\n          image", false},
		{"initContainers", "        containers:\n        - name: c\n          image", "        initContainers: []\n        containers:\n        - name: c\n          image", false},
		{"no containers", "        containers:\n        - name: c\n          resources:\n            requests: {}\n", "        containers: []\n", false},
		{"duplicate container", "        - name: d\n", "        - name: c\n", false},
		{"container without name", "        - name: d\n          resources", "        - resources", false},
		{"limits", "              cpu: \"1\"\n", "              cpu: \"1\"\n            limits:\n              cpu: \"1\"\n", false},
		{"restartPolicy", "          image: busybox\n", "          image: busybox\n          restartPolicy: Always\n", false},
		{"pods request", "memory: 1Gi", "pods: \"1\"", false},
		{"negative request", "cpu: 500m", "cpu: -1", false},
		{"invalid quantity", "cpu: 500m", "cpu: lots", false},
		{"invalid resource name", "memory: 1Gi", "-mem-: 1Gi", false},
		{"boolean request", "cpu: 500m", "cpu: true", false},
		{"null request", "cpu: 500m", "cpu: null", false},
		{"five resources", "              memory: 1Gi\n", "              memory: 1Gi\n              example.com/a: \"1\"\n              example.com/b: \"1\"\n              example.com/c: \"1\"\n", false},
		{"four resources", "              memory: 1Gi\n", "              memory: 1Gi\n              example.com/a: \"1\"\n              example.com/b: \"1\"\n", true},
		{"overflowing requests", "        - name: d\n          resources:\n            requests:\n              cpu: \"1\"\n", "        - name: d\n          resources:\n            requests:\n              memory: 8Ei\n        - name: e\n          resources:\n            requests:\n              memory: 8Ei\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := fastWorkloadBase
			if c.old != "" || c.new != "" {
				if !strings.Contains(doc, c.old) {
					t.Fatalf("%q is not in the base document", c.old)
				}
				doc = strings.Replace(doc, c.old, c.new, 1)
			}
			if got := checkFastWorkload(t, []byte(doc)) == 1; got != c.fast {
				t.Errorf("fastWorkload decoded it: %v, want %v; document:\n%s", got, c.fast, doc)
			}
		})
	}
}

// TestFastWorkloadCorpus runs checkFastWorkload on every Workload of the
// seed corpus the fast parser reads.
func TestFastWorkloadCorpus(t *testing.T) {
	fast := 0
	for name, data := range fastSeeds(t) {
		t.Run(name, func(t *testing.T) {
			fast += checkFastWorkload(t, data)
		})
	}
	if fast < 1500 {
		t.Errorf("fastWorkload decoded %d Workloads of the corpus, want at least the 1,500 of the scalability shape", fast)
	}
}

// checkFastWorkload decodes each Workload document of data (from the
// fast parser) with fastWorkload and with workload, each into a state of
// its own holding one Workload first, and fails where they differ. It
// returns how many fastWorkload decoded.
func checkFastWorkload(t *testing.T, data []byte) int {
	t.Helper()
	p := newFastParser(data, 0)
	if p == nil {
		return 0
	}
	fast := 0
	for {
		root, more, ok := p.next()
		if !ok || !more {
			return fast
		}
		if root == nil {
			continue
		}
		probe := &decoder{aliasBudget: MaxAliasNodes}
		probe.layout([]Input{{Name: "a.yaml", Data: data}})
		o := probe.rawObject(root, "")
		if o == nil || o.kind != "Workload" || o.apiVersion != apiKueueV1beta2 && o.apiVersion != apiKueueV1beta1 {
			continue
		}
		run := func(useFast bool) (*decoder, *state, bool) {
			d := &decoder{aliasBudget: MaxAliasNodes}
			d.layout([]Input{{Name: "a.yaml", Text: string(data)}})
			st := newState()
			// A Workload already there, and one of the fast path: a
			// duplicate of either must go to workload, which reports it.
			st.keys["Workload/ns/taken"] = keyInfo{line: 1}
			st.workloadKeys = 1
			st.fastWorkloads = append(st.fastWorkloads, core.Workload{Namespace: "ns", Name: "fast-taken"})
			st.fastAt = append(st.fastAt, fastAt{nameLine: 2})
			st.fastKeys.add(st.fastWorkloads, 0, 0)
			if useFast {
				return d, st, d.fastWorkload(st, o)
			}
			d.workload(st, o, o.apiVersion == apiKueueV1beta1)
			return d, st, true
		}
		dFast, stFast, ok := run(true)
		dSlow, stSlow, _ := run(false)
		if !ok {
			if len(stFast.workloads) > 0 || len(stFast.fastWorkloads) != 1 || len(stFast.keys) != 1 || len(dFast.diags) > 0 || dFast.obj != "" {
				t.Fatalf("fastWorkload gave up but changed the state: %d workloads, %d of the fast path, keys %v, diagnostics %v, object %q", len(stFast.workloads), len(stFast.fastWorkloads), stFast.keys, dFast.diags, dFast.obj)
			}
			continue
		}
		fast++
		if len(dSlow.diags) > 0 {
			t.Fatalf("fastWorkload decoded a Workload workload reports:\n%v\ndocument at line %d", dSlow.diags, root.Line)
		}
		if len(stFast.workloads) > 0 || len(stFast.fastWorkloads) != 2 {
			t.Fatalf("fastWorkload made %d wlInfos and %d Workloads of the fast path, want 0 and 2", len(stFast.workloads), len(stFast.fastWorkloads))
		}
		// reflect.DeepEqual first: cmp.Diff runs only to show a difference.
		if slow, fast := workloadsSeen(stSlow), workloadsSeen(stFast); !reflect.DeepEqual(slow, fast) {
			t.Fatalf("fastWorkload's state differs from workload's (-workload +fastWorkload) at line %d:\n%s", root.Line, cmp.Diff(slow, fast))
		}
		if slices.ContainsFunc(nodesSeen(stSlow), func(n *yaml.Node) bool { return n != nil }) {
			t.Fatalf("workload keeps nodes of a Workload of the fast path's shape at line %d", root.Line)
		}
		if dFast.obj != "" || len(dFast.diags) > 0 {
			t.Fatalf("fastWorkload: object %q, diagnostics %v", dFast.obj, dFast.diags)
		}
	}
}

// seenWorkload is what a state holds of a Workload but its nodes, in
// exported fields, for cmp; nodesSeen has the nodes. A Workload of the
// fast path has no wlInfo: it is seen as the wlInfo workload would make
// of it. (cmp.Diff on these, with or without AllowUnexported and a
// Comparer, stopped the WebAssembly test run of the whole package with
// the runtime's "found bad pointer in Go heap" inside cmp, every run, Go
// 1.26.8; reflect.DeepEqual does not.)
type seenWorkload struct {
	Workload                                       core.Workload
	Label, UID, QueueName, QueuePath               string
	ObjAt, QueueAt                                 [2]int
	NameLine                                       int
	HasOwner, Job, PodGroup, NoQueueLabel, Dropped bool
	AdmittedAt, Latest, RequeueAt                  *time.Time
	Evicted                                        *core.Eviction
	JobName, JobKind, AdmissionCQ, WPC, PC         string
}

// stateSeen is a state's workloads and keys, for cmp.
type stateSeen struct {
	Workloads []seenWorkload
	Keys      map[string]string
}

// nodesSeen lists the nodes a state holds of its wlInfos.
func nodesSeen(st *state) []*yaml.Node {
	var out []*yaml.Node
	for _, w := range st.workloads {
		out = append(out, w.requeueAtNode, w.admissionCQ.node, w.wpc.node, w.pc.node)
	}
	return out
}

func workloadsSeen(st *state) stateSeen {
	out := stateSeen{Keys: map[string]string{}}
	for k, v := range st.keys {
		out.Keys[k] = fmt.Sprintf("line %d, by %q", v.line, v.byJob)
	}
	for i := range st.fastWorkloads {
		wl, a := &st.fastWorkloads[i], st.fastAt[i]
		if got := st.fastKeys.find(st.fastWorkloads, wl.Namespace, wl.Name); got != i {
			out.Keys[fastLabel(wl)] = fmt.Sprintf("fastKeys finds %d, not %d", got, i)
			continue
		}
		out.Keys[fastLabel(wl)] = fmt.Sprintf("line %d, by %q", a.nameLine, "")
	}
	// The Workloads in document order: the preset one of the fast path
	// first.
	for i := range st.fastWorkloads {
		wl, a := st.fastWorkloads[i], st.fastAt[i]
		out.Workloads = append(out.Workloads, seenWorkload{
			Workload: wl, Label: fastLabel(&wl), QueueName: wl.Queue, QueuePath: "spec.queueName",
			ObjAt: [2]int{int(a.objLine), int(a.objCol)}, QueueAt: [2]int{int(a.queueLine), int(a.queueCol)}, NameLine: int(a.nameLine),
		})
	}
	for _, w := range st.workloads {
		out.Workloads = append(out.Workloads, seenWorkload{
			Workload: *w.wl, Label: w.label, UID: w.uid, QueueName: w.queue.name, QueuePath: w.queue.path,
			ObjAt: [2]int{w.objAt.line, w.objAt.col}, QueueAt: [2]int{w.queue.at.line, w.queue.at.col}, NameLine: w.nameAt.line,
			HasOwner: w.owner != nil, Job: w.job, PodGroup: w.podGroup, NoQueueLabel: w.noQueueLabel, Dropped: w.dropped,
			AdmittedAt: w.admittedAt, Latest: w.latest, RequeueAt: w.requeueAt, Evicted: w.evicted,
			JobName: w.jobName, JobKind: w.jobKind, AdmissionCQ: w.admissionCQ.name, WPC: w.wpc.name, PC: w.pc.name,
		})
	}
	return out
}

// TestFastWorkloadSharedRequests checks that pod sets that request the
// same share one request map, whatever the order and split of their
// containers' requests, and that the others do not.
func TestFastWorkloadSharedRequests(t *testing.T) {
	podSet := func(name, containers string) string {
		return fmt.Sprintf("---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: %s\nspec:\n  queueName: q\n  podSets:\n  - name: main\n    template:\n      spec:\n        containers:\n%s", name, containers)
	}
	data := podSet("a", "        - name: c\n          resources:\n            requests: {cpu: \"1\", memory: 1Gi}\n") +
		podSet("b", "        - name: c\n          resources:\n            requests: {memory: 1Gi, cpu: 1000m}\n") +
		podSet("c", "        - name: c\n          resources:\n            requests: {memory: 512Mi}\n        - name: d\n          resources:\n            requests: {cpu: 500m, memory: 512Mi}\n        - name: e\n          resources:\n            requests: {cpu: 500m}\n") +
		podSet("d", "        - name: c\n          resources:\n            requests: {cpu: \"2\", memory: 1Gi}\n") +
		podSet("e", "        - name: c\n          resources:\n            requests: {cpu: \"1\"}\n")
	sc, err := Decode("a.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Workloads) != 5 {
		t.Fatalf("got %d workloads, want 5", len(sc.Workloads))
	}
	id := func(m map[core.ResourceName]core.Amount) uintptr { return reflect.ValueOf(m).Pointer() }
	reqs := make([]uintptr, 5)
	for i, w := range sc.Workloads {
		reqs[i] = id(w.PodSets[0].Requests)
	}
	a := sc.Workloads[0].PodSets[0]
	want := map[core.ResourceName]core.Amount{core.ResourceCPU: 1000, core.ResourceMemory: 1 << 30}
	if diff := cmp.Diff(want, a.Requests); diff != "" {
		t.Errorf("a's requests (-want +got):\n%s", diff)
	}
	if reqs[0] != reqs[1] || reqs[0] != reqs[2] {
		t.Errorf("a, b and c request the same but do not share their map: %v", reqs)
	}
	if reqs[0] == reqs[3] || reqs[0] == reqs[4] || reqs[3] == reqs[4] {
		t.Errorf("a, d and e request differently but share a map: %v", reqs)
	}
	// a's non-zero requests are its requests.
	if id(a.NonZeroRequests) != reqs[0] {
		t.Errorf("a's non-zero requests are not its requests' map")
	}
	// a and b have the same pod set: they share the slice, with no room to
	// append to. c's containers request what a's does, but not the same
	// non-zero requests (kube-scheduler's defaults for the containers
	// that request no cpu or no memory): its pod set is its own.
	ps := func(i int) *core.PodSet { return &sc.Workloads[i].PodSets[0] }
	if ps(0) != ps(1) {
		t.Errorf("a and b have the same pod set but do not share it")
	}
	if ps(0) == ps(2) || ps(0) == ps(3) || ps(0) == ps(4) || ps(3) == ps(4) {
		t.Errorf("a, c, d and e have other pod sets but share them")
	}
	if c := cap(sc.Workloads[0].PodSets); c != 1 {
		t.Errorf("a's shared pod sets have capacity %d, want 1", c)
	}
}

// TestSharedPodSetsTransformed checks that a Configuration's resource
// transformations apply once to each Workload when their pod sets are
// shared (podSetList): linkConfiguration copies them before it changes
// them.
func TestSharedPodSetsTransformed(t *testing.T) {
	workload := func(name string) string {
		return fmt.Sprintf("---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: %s\nspec:\n  queueName: q\n  podSets:\n  - name: main\n    count: 2\n    template:\n      spec:\n        containers:\n        - name: c\n          resources:\n            requests: {cpu: \"3\"}\n", name)
	}
	data := "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nresources:\n  transformations:\n  - input: cpu\n    strategy: Retain\n    outputs:\n      example.com/credits: 1\n" + workload("a") + workload("b") + workload("c")
	sc, err := Decode("a.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := map[core.ResourceName]core.Amount{core.ResourceCPU: 3000, "example.com/credits": 3}
	for _, w := range sc.Workloads {
		if diff := cmp.Diff(want, w.PodSets[0].Requests); diff != "" {
			t.Errorf("%s's requests (-want +got):\n%s", w.Name, diff)
		}
		if diff := cmp.Diff(map[core.ResourceName]core.Amount{core.ResourceCPU: 3000}, w.PodSets[0].PodRequests); diff != "" {
			t.Errorf("%s's pod requests (-want +got):\n%s", w.Name, diff)
		}
	}
	for _, w := range sc.Warnings {
		if strings.Contains(w.Message, "transformations") {
			t.Errorf("warning: %v", w)
		}
	}
}

// TestReqKeyAdd checks reqKey.add: sorted by name, sums, overflow and
// room.
func TestReqKeyAdd(t *testing.T) {
	type add struct {
		r core.ResourceName
		a core.Amount
	}
	for _, c := range []struct {
		name string
		adds []add
		want reqKey
		ok   bool
	}{
		{"none", nil, reqKey{}, true},
		{"sorted", []add{{"memory", 2}, {"cpu", 1}, {"example.com/gpu", 3}}, reqKey{n: 3, r: [4]core.ResourceName{"cpu", "example.com/gpu", "memory"}, a: [4]core.Amount{1, 3, 2}}, true},
		{"summed", []add{{"cpu", 1}, {"memory", 2}, {"cpu", 5}}, reqKey{n: 2, r: [4]core.ResourceName{"cpu", "memory"}, a: [4]core.Amount{6, 2}}, true},
		{"overflow", []add{{"cpu", 1 << 62}, {"cpu", 1 << 62}}, reqKey{}, false},
		{"four", []add{{"d", 1}, {"c", 1}, {"b", 1}, {"a", 1}}, reqKey{n: 4, r: [4]core.ResourceName{"a", "b", "c", "d"}, a: [4]core.Amount{1, 1, 1, 1}}, true},
		{"five", []add{{"d", 1}, {"c", 1}, {"b", 1}, {"a", 1}, {"e", 1}}, reqKey{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var k reqKey
			ok := true
			for _, a := range c.adds {
				ok = ok && k.add(a.r, a.a)
			}
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if ok && k != c.want {
				t.Errorf("got %+v, want %+v", k, c.want)
			}
		})
	}
}

// FuzzFastWorkload: checkFastWorkload on any input, from Workloads near
// the shape fastWorkload reads.
func FuzzFastWorkload(f *testing.F) {
	f.Add([]byte(fastWorkloadBase))
	for name, data := range fastSeeds(f) {
		if strings.Contains(name, "scalability-12") || len(data) <= 16<<10 && strings.Contains(string(data), "kind: Workload") {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastWorkload(t, data)
	})
}

// TestBuildFastWorkloads checks that build puts the fast path's Workloads
// and the others in document order, leaves the dropped ones out, and
// gives the Scenario the state's fastWorkloads themselves only when they
// are all its workloads.
func TestBuildFastWorkloads(t *testing.T) {
	for _, c := range []struct {
		name string
		// doc is the document order: f a Workload of the fast path, s one
		// with a wlInfo, d a dropped one.
		doc    string
		shared bool
	}{
		{"all fast", "fff", true},
		{"one not fast", "ffs", false},
		{"not fast first", "sff", false},
		{"not fast between", "fsf", false},
		{"the one not fast dropped", "fdf", true},
		{"only dropped", "dd", false},
		{"slow only", "ss", false},
		{"interleaved", "sfdfsfd", false},
		{"none", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := newState()
			want := []string{}
			for i, kind := range c.doc {
				name := fmt.Sprint("w", i)
				switch kind {
				case 'f':
					st.fastWorkloads = append(st.fastWorkloads, core.Workload{Name: name})
				default:
					st.addWorkload(&wlInfo{wl: &core.Workload{Name: name}, dropped: kind == 'd'})
				}
				if kind != 'd' {
					want = append(want, name)
				}
			}
			sc := st.build()
			got := []string{}
			for _, w := range sc.Workloads {
				got = append(got, w.Name)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("workloads (-want +got):\n%s", diff)
			}
			if sc.Workloads == nil {
				t.Error("the Scenario's workloads are nil, want an empty list")
			}
			shared := len(sc.Workloads) > 0 && len(st.fastWorkloads) > 0 && &sc.Workloads[0] == &st.fastWorkloads[0]
			if shared != c.shared {
				t.Errorf("shared = %v, want %v", shared, c.shared)
			}
		})
	}
}

// TestFastKeys checks that fastKeys finds each Workload it took, by
// namespace and name, and nothing else, and that it refuses the Workloads
// past half its size or maxProbe slots from their own.
func TestFastKeys(t *testing.T) {
	// names are n keys: the same names in two namespaces, and namespaces
	// and names swapped.
	names := func(n int) [][2]string {
		var out [][2]string
		for i := range n {
			ns, name := fmt.Sprint("ns", i%2), fmt.Sprint("w", i/2)
			if i%3 == 0 {
				ns, name = name, ns
			}
			out = append(out, [2]string{ns, name})
		}
		return out
	}
	// colliding are n keys that hash to one slot of a table of 256.
	colliding := func(n int) [][2]string {
		k := fastKeys{shift: 64 - 8}
		var out [][2]string
		for i := 0; len(out) < n; i++ {
			if name := fmt.Sprint("w", i); k.slot("ns", name) == 7 {
				out = append(out, [2]string{"ns", name})
			}
		}
		return out
	}
	for _, c := range []struct {
		name     string
		keys     [][2]string
		capacity int
		taken    int // the first taken are, the others refused
	}{
		{"one", names(1), 0, 1},
		{"sized", names(1000), 1000, 1000},
		{"half full", names(40), 0, 32},
		{"colliding", colliding(maxProbe + 5), 128, maxProbe + 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var k fastKeys
			var wls []core.Workload
			for i, key := range c.keys {
				wls = append(wls, core.Workload{Namespace: key[0], Name: key[1]})
				if got, want := k.add(wls, i, c.capacity), i < c.taken; got != want {
					t.Fatalf("add(%q) = %v, want %v", key, got, want)
				}
			}
			for i, wl := range wls {
				want := i
				if i >= c.taken {
					want = -1
				}
				if got := k.find(wls, wl.Namespace, wl.Name); got != want {
					t.Errorf("find(%q, %q) = %d, want %d", wl.Namespace, wl.Name, got, want)
				}
			}
			for _, miss := range [][2]string{{"ns0", "x"}, {"x", "w0"}, {"", ""}, {"ns0/w0", ""}} {
				if got := k.find(wls, miss[0], miss[1]); got != -1 {
					t.Errorf("find(%q, %q) = %d, want -1", miss[0], miss[1], got)
				}
			}
		})
	}
}

// TestWlInfoClone checks that a clone's Workload and wlMore are its own.
func TestWlInfoClone(t *testing.T) {
	w := &wlInfo{wl: &core.Workload{Name: "a"}, wlMore: wlMore{jobName: "j"}, label: "l"}
	c := w.clone()
	c.wl.Name, c.jobName, c.label = "b", "k", "m"
	if w.wl.Name != "a" || w.jobName != "j" || w.label != "l" {
		t.Errorf("changing the clone changed the original: %q, %q, %q", w.wl.Name, w.jobName, w.label)
	}
	if c.wl.Name != "b" || c.jobName != "k" {
		t.Errorf("clone: %q, %q", c.wl.Name, c.jobName)
	}
}

// TestStreamFastCrossObject runs the cross-object checks on Workloads of
// the fast path, which keep no wlInfo: duplicates of each other, of
// other Workloads and of jobs' Workloads, in either order and across
// inputs, missing LocalQueues, a Configuration's transformations,
// Deployments with their names and the Scenario's references. Each file
// decodes as the yaml.v3 trees do (checkStream) and reports what is
// wanted, at the line wanted.
func TestStreamFastCrossObject(t *testing.T) {
	// fast is a Workload of the fast path's shape; slow one that is not
	// (a label).
	fast := func(name string) string {
		return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: " + name + "\n  namespace: ns\nspec:\n  queueName: q\n  podSets:\n  - name: main\n    template:\n      spec:\n        containers:\n        - name: c\n          resources:\n            requests:\n              cpu: \"1\"\n              example.com/gpu-type1: \"1\"\n"
	}
	slow := func(name string) string {
		return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: " + name + "\n  namespace: ns\n  labels: {a: b}\nspec:\n  queueName: q\n  podSets: [{template: {spec: {containers: [{name: c}]}}}]\n"
	}
	job := func(name, labels string) string {
		return "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: " + name + ", namespace: ns" + labels + "}\nspec:\n  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}\n"
	}
	const queue = "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: q, namespace: ns}\nspec: {clusterQueue: cq}\n"
	const defaultQueue = "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: default, namespace: ns}\nspec: {clusterQueue: cq}\n"
	const deployment = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a, namespace: ns}\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec: {containers: [{name: c}]}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: b-main, namespace: ns}\nspec:\n  selector: {matchLabels: {app: b}}\n  template:\n    metadata: {labels: {app: b}}\n    spec: {containers: [{name: c}]}\n"
	const config = "---\napiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nresources:\n  transformations:\n  - input: example.com/gpu-type1\n    strategy: Retain\n    outputs: {cpu: \"2\"}\n"
	const scenario = "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nspec:\n  events:\n  - {at: 1s, finish: ns/a}\n  - {at: 2s, finish: ns/b}\n  - {at: 3s, finish: ns/zz}\n  - {at: 4s, scale: ns/a, replicas: 2}\n"
	// collide is a file of n Workloads of the fast path whose keys hash to
	// one slot of the table stream makes for the file, the last one a
	// duplicate of the one before: past maxProbe they go to workload and
	// keys.
	collide := func(n int) string {
		size, bits := 64, uint(6) // as add, for stream's fastCap: n+1 documents
		for size < 2*(n+1) {
			size, bits = size*2, bits+1
		}
		k := fastKeys{shift: 64 - bits}
		var b strings.Builder
		b.WriteString(queue)
		for i, last := 0, ""; n > 0; i++ {
			if name := fmt.Sprint("w", i); k.slot("ns", name) == 3 {
				if n == 1 {
					name = last
				}
				b.WriteString(fast(name))
				last = name
				n--
			}
		}
		return b.String()
	}
	for _, c := range []struct {
		name   string
		inputs []string
		want   []string // in the diagnostics' text, in order
	}{
		{"past maxProbe", []string{collide(maxProbe + 5)}, []string{`metadata.name: duplicate Workload "ns/w`}},
		{"two of the fast path", []string{queue + fast("a") + fast("a")}, []string{`t0.yaml:28:9: Workload/ns/a: metadata.name: duplicate Workload "ns/a" (first defined at line 10)`}},
		{"another first", []string{queue + slow("a") + fast("a")}, []string{`t0.yaml:20:9: Workload/ns/a: metadata.name: duplicate Workload "ns/a" (first defined at line 10)`}},
		{"another second", []string{queue + fast("a") + slow("a")}, []string{`t0.yaml:28:9: Workload/ns/a: metadata.name: duplicate Workload "ns/a" (first defined at line 10)`}},
		{"across inputs", []string{queue + fast("a"), fast("a")}, []string{`t1.yaml:5:9: Workload/ns/a: metadata.name: duplicate Workload "ns/a" (first defined at t0.yaml:10)`}},
		{"a Job's Workload second", []string{queue + fast("job-a") + job("a", ", labels: {kueue.x-k8s.io/queue-name: q}")}, []string{`metadata.name: duplicate Workload "ns/job-a": Job "a" becomes this Workload, which is already defined at line 10`}},
		{"a Job's Workload first", []string{queue + job("a", ", labels: {kueue.x-k8s.io/queue-name: q}") + fast("job-a")}, []string{`duplicate Workload "ns/job-a": Job "a" (line 9) already becomes this Workload`}},
		{"a Job's defaulted queue", []string{queue + defaultQueue + job("a", "") + fast("job-a")}, []string{`duplicate Workload "ns/job-a": Job "a" becomes this Workload, which is already defined at line 21`}},
		{"no LocalQueue", []string{fast("a") + fast("b")}, []string{`t0.yaml:8:14: warning: Workload/ns/a: spec.queueName: LocalQueue "q" does not exist in namespace "ns"`, `t0.yaml:26:14: warning: Workload/ns/b: spec.queueName: LocalQueue "q"`}},
		{"transformations", []string{queue + fast("a") + slow("b") + fast("c") + config}, []string{`t0.yaml:7:1: warning: Workload/ns/a: pod set "main" requests "cpu", which the Configuration's resources.transformations also output`, `t0.yaml:35:1: warning: Workload/ns/c: pod set "main" requests "cpu"`}},
		{"Deployments", []string{queue + fast("a") + fast("b") + deployment}, []string{`Deployment "ns/a" has the same namespace and name as Workload "ns/a" (line 10)`, `Deployment "ns/b-main" would name its pods b-main-0, b-main-1, ..., the names the pods of pod set "main" of Workload "ns/b" (line 28) get`}},
		{"the Scenario's references", []string{scenario + queue + fast("a") + slow("b")}, []string{`unknown workload "ns/zz"`, `"ns/a" is a workload: scale applies to Deployments and ReplicaSets only`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var inputs []Input
			for k, in := range c.inputs {
				inputs = append(inputs, Input{Name: fmt.Sprintf("t%d.yaml", k), Data: []byte(in)})
			}
			if !checkStream(t, inputs) {
				t.Fatal("not streamed")
			}
			sc, err := DecodeFiles(inputs)
			var diags []core.Diagnostic
			if err != nil {
				diags = err.(*core.DiagnosticsError).Diagnostics
			} else {
				diags = sc.Warnings
			}
			text := fmt.Sprint(diags)
			at := 0
			for _, w := range c.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("want %q after offset %d of the diagnostics:\n%s", w, at, text)
				}
				at += i + len(w)
			}
		})
	}
}

// TestGoDuration checks goDuration, which reads whole milliseconds and
// seconds itself, against time.ParseDuration of the trimmed text.
func TestGoDuration(t *testing.T) {
	for _, s := range []string{
		"", "0", "0s", "0ms", "1s", "200ms", "100ms", "007s", "00100ms",
		"999999999s", "999999999ms", "9999999999s", "99999999999999999999s",
		"1m", "1h", "1m30s", "1.5s", ".5s", "1e3s", "-1s", "+1s", " 30s ", "30s ",
		"30 s", "ms", "s", "1", "1S", "1sms", "1us", "1µs", "1ns", "2562047h",
		"9223372036s", "9223372037s", "1mss", "١s",
	} {
		t.Run(s, func(t *testing.T) {
			want, wantErr := time.ParseDuration(strings.TrimSpace(s))
			got, err := goDuration(s)
			if got != want || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Errorf("goDuration(%q) = %v, %v; time.ParseDuration: %v, %v", s, got, err, want, wantErr)
			}
		})
	}
	for ms := range 2000 {
		for _, unit := range []string{"ms", "s"} {
			s := strconv.Itoa(ms*7919) + unit
			want, _ := time.ParseDuration(s)
			if got, err := goDuration(s); got != want || err != nil {
				t.Fatalf("goDuration(%q) = %v, %v, want %v", s, got, err, want)
			}
		}
	}
}
