package trace_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

const scenarioDir = "../../testdata/scenarios"

// runScenario runs a scenario file, named in positions as the CLI names
// it when run from the repository's root.
func runScenario(t *testing.T, file string) *trace.Trace {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Decode(strings.TrimPrefix(file, "../../"), data)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return sim.Run(sc, sim.Options{})
}

// roundTrip writes tr with WriteJSON and decodes it back.
func roundTrip(t *testing.T, tr *trace.Trace) (*trace.Trace, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := trace.WriteJSON(&b, tr); err != nil {
		t.Fatal(err)
	}
	var back trace.Trace
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("decoding what WriteJSON wrote: %v", err)
	}
	return &back, b.Bytes()
}

// unpackedQueues is tr with its steps' queue changes as the JSON reader
// gives them back: QueueChanges, where the engine's Compactor keeps them
// packed (QueueDelta).
func unpackedQueues(tr *trace.Trace) *trace.Trace {
	out := *tr
	out.Steps = slices.Clone(tr.Steps)
	for i := range out.Steps {
		st := &out.Steps[i]
		st.QueueChanges, st.QueueDelta = st.QueueChangeList(), nil
	}
	return &out
}

// TestJSONRoundTrip: for every scenario of the gallery, decoding the JSON
// trace gives back the Trace that was written, with every field the
// format leaves out restored (an empty list and a nil one are the same
// to a reader: both are left out).
func TestJSONRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario in %s (%v)", scenarioDir, err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			tr := runScenario(t, f)
			back, _ := roundTrip(t, tr)
			if d := cmp.Diff(unpackedQueues(tr), back, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("decode(encode(trace)) differs (-want +got):\n%s", d)
			}
		})
	}
}

// TestJSONOlder reads traces in formats v2 (written before v3 left
// derived fields out: testdata/v2/*.json), v3 (before v4 wrote a flavor
// attempt's reasons as codes: testdata/v3/*.json) and v4 (before v5
// wrote a decision's pod sets and preemption search as a reference to an
// equal earlier decision of its step: testdata/v4/*.json), each from the
// CLI at that version: they decode to the same Trace as the run today,
// but for the version; the reasons, which v2 and v3 have in words only
// (code "words", the same words); the events, which then held their words and none of
// their facts (LocalQueue, Runtime, Quota...): an event is compared by
// what it says; and the counts of queue changes, which were all written
// then and are 0 now when they are their list's length: both replay to
// the same queues.
func TestJSONOlder(t *testing.T) {
	reasons := 0
	for _, version := range []string{"v2", "v3", "v4"} {
		files, err := filepath.Glob(filepath.Join("testdata", version, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no %s trace in testdata/%s (%v)", version, version, err)
		}
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".json")
			t.Run(version+"/"+name, func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				var old trace.Trace
				if err := json.Unmarshal(data, &old); err != nil {
					t.Fatal(err)
				}
				if old.Version != "kueueplay.trace/"+version {
					t.Fatalf("version %q, want kueueplay.trace/%s", old.Version, version)
				}
				old.Version = trace.Version
				want := unpackedQueues(runScenario(t, filepath.Join(scenarioDir, name+".yaml")))
				if version != "v4" {
					reasons += inWords(want)
				}
				wantQ, gotQ := replayedQueues(want), replayedQueues(&old)
				if d := cmp.Diff(wantQ, gotQ, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("the %s trace replays to other queues (-run today +%s):\n%s", version, version, d)
				}
				for _, tr := range []*trace.Trace{want, &old} {
					for i := range tr.Steps {
						for k := range tr.Steps[i].QueueChanges {
							c := &tr.Steps[i].QueueChanges[k]
							c.PendingCount, c.ParkedCount, c.AdmittedCount, c.TerminatingCount = 0, 0, 0, 0
						}
					}
				}
				if d := cmp.Diff(want, &old, cmpopts.EquateEmpty(), cmp.Transformer("words", eventWords)); d != "" {
					t.Errorf("the %s trace decodes differently (-run today +%s):\n%s", version, version, d)
				}
			})
		}
	}
	if reasons < 10 {
		t.Errorf("the older traces have %d flavor attempts' reasons: too few to test reading them", reasons)
	}
}

// inWords replaces every flavor attempt's reasons in tr by their words, as
// a trace older than v4 has them, and returns how many it replaced.
func inWords(tr *trace.Trace) int {
	n := 0
	podSets := func(ps []trace.PodSetDecision) {
		for i := range ps {
			for j := range ps[i].Groups {
				for k := range ps[i].Groups[j].Attempts {
					a := &ps[i].Groups[j].Attempts[k]
					var rs []trace.Reason // a new list: the engine shares equal ones
					for _, words := range a.ReasonTexts() {
						rs = append(rs, trace.Reason{Code: trace.ReasonWords, Detail: words})
					}
					if rs != nil {
						a.Reasons = rs
						n += len(rs)
					}
				}
			}
		}
	}
	for i := range tr.Steps {
		for j := range tr.Steps[i].Decisions {
			d := &tr.Steps[i].Decisions[j]
			podSets(d.PodSets)
			if d.Recomputed != nil {
				podSets(d.Recomputed.BeforePodSets)
			}
		}
	}
	return n
}

// replayedQueues is every step's queues, replayed.
func replayedQueues(tr *trace.Trace) [][]trace.QueueState {
	var out [][]trace.QueueState
	for r := trace.NewReplay(tr); r.Next(); {
		out = append(out, slices.Clone(r.Queues()))
	}
	return out
}

// eventWords is an event without the facts a v2 trace does not hold.
func eventWords(e trace.Event) trace.Event {
	return trace.Event{Kind: e.Kind, Workload: e.Workload, ClusterQueue: e.ClusterQueue, Preemptor: e.Preemptor, Message: e.Text()}
}

// TestJSONLeavesOut pins what the format leaves out and what it writes
// when a value differs from what it would be derived as.
func TestJSONLeavesOut(t *testing.T) {
	fit := trace.PodSetDecision{PodSet: "main", Count: 1, Mode: "Fit",
		Requests: []trace.Quantity{{Resource: "cpu", Amount: 1500, Text: "1500m"}},
		Groups: []trace.GroupAttempt{{Resources: []string{"cpu"}, Resume: trace.ResumeFirst, TriedIndex: -1, Chosen: "a",
			Attempts: []trace.FlavorAttempt{{Flavor: "a", Mode: "Fit", Rule: "fitStop", Best: true}}}}}
	admitted := trace.Decision{Workload: "ns/w", ClusterQueue: "cq", Order: 1, Mode: "Fit", Outcome: trace.OutcomeAdmitted,
		PodSets:   []trace.PodSetDecision{fit},
		Admission: []trace.PodSetFlavors{{PodSet: "main", Flavors: []trace.ResourceFlavor{{Resource: "cpu", Flavor: "a"}}}}}
	noFit := fit
	noFit.Mode, noFit.Message = "NoFit", "insufficient unused quota for cpu in flavor a, 1 more needed"
	noFit.Groups = []trace.GroupAttempt{{Resources: []string{"cpu"}, Resume: trace.ResumeFirst, TriedIndex: 0,
		Attempts: []trace.FlavorAttempt{{Flavor: "a", Mode: "NoFit", Rule: "noFit", Reasons: []trace.Reason{{Code: trace.ReasonInsufficientQuota, Resource: "cpu", Amount: 1000}}}}}}
	parked := trace.Decision{Workload: "ns/w", ClusterQueue: "cq", Order: 1, Mode: "NoFit", Outcome: trace.OutcomeNoFit,
		PodSets: []trace.PodSetDecision{noFit}, Message: "couldn't assign flavors to pod set main: " + noFit.Message,
		Requeue: "parked", RequeueReason: "Generic"}
	for name, c := range map[string]struct {
		d    trace.Decision
		edit func(*trace.Decision)
		want string
	}{
		"admitted: all derived": {d: admitted,
			want: `{"workload":"ns/w","clusterQueue":"cq","podSets":[{"requests":[{"resource":"cpu","amount":1500}],"groups":[{"attempts":[{"flavor":"a","mode":"Fit","rule":"fitStop","best":true}],"chosen":"a"}]}],"mode":"Fit","outcome":"Admitted"}`},
		"no fit: all derived": {d: parked,
			want: `{"workload":"ns/w","clusterQueue":"cq","podSets":[{"requests":[{"resource":"cpu","amount":1500}],"groups":[{"attempts":[{"flavor":"a","mode":"NoFit","reasons":[{"code":"insufficientQuota","resource":"cpu","amount":1000}],"rule":"noFit"}],"triedIndex":0}]}],"mode":"NoFit","outcome":"NoFit"}`},
		"an order other than the position, a pod set not named main of 3 pods": {d: parked, edit: func(d *trace.Decision) {
			d.Order = 0
			d.PodSets = []trace.PodSetDecision{noFit}
			d.PodSets[0].PodSet, d.PodSets[0].Count = "workers", 3
			d.Message = "couldn't assign flavors to pod set workers: " + noFit.Message
		}, want: `"clusterQueue":"cq","order":0,"podSets":[{"podSet":"workers","count":3,"requests"`},
		"an admission other than the chosen flavors": {d: admitted, edit: func(d *trace.Decision) {
			d.Admission = []trace.PodSetFlavors{{PodSet: "main", Flavors: []trace.ResourceFlavor{{Resource: "cpu", Flavor: "b"}}}}
		}, want: `"admission":[{"podSet":"main","flavors":[{"resource":"cpu","flavor":"b"}]}]`},
		"an admitted decision without admission": {d: admitted, edit: func(d *trace.Decision) { d.Admission = nil },
			want: `"admission":null`},
		"a message other than Kueue's": {d: parked, edit: func(d *trace.Decision) { d.Message = "" }, want: `"message":""`},
		"a pod set message other than its reasons": {d: parked, edit: func(d *trace.Decision) {
			d.PodSets = []trace.PodSetDecision{noFit}
			d.PodSets[0].Message = "x"
		}, want: `"message":"x"`},
		"a pod set mode other than the decision's": {d: admitted, edit: func(d *trace.Decision) {
			d.PodSets = []trace.PodSetDecision{fit}
			d.Mode = "Preempt"
		}, want: `"mode":"Fit"}],"mode":"Preempt"`},
		"a requeue other than the outcome's": {d: parked, edit: func(d *trace.Decision) { d.Requeue = "immediate" },
			want: `"requeue":"immediate","requeueReason":"Generic"`},
		"a text other than the amount's": {d: admitted, edit: func(d *trace.Decision) {
			d.PodSets = []trace.PodSetDecision{fit}
			d.PodSets[0].Requests = []trace.Quantity{{Resource: "cpu", Amount: 1500, Text: "1.5"}}
		}, want: `{"resource":"cpu","amount":1500,"text":"1.5"}`},
		"a preemption summary from its targets": {d: parked, edit: func(d *trace.Decision) {
			d.Preemption = &trace.Preemption{Resources: []string{"a/cpu"},
				Passes:  []trace.PreemptionPass{{AllowBorrowing: true, Fits: true, Steps: []trace.CandidateStep{{Workload: "ns/v", Action: "kept", Why: "the preemptor does not fit with it back"}}}},
				Targets: []trace.Target{{Workload: "ns/v", ClusterQueue: "cq", Reason: "InClusterQueue"}}, Summary: "evicting ns/v makes room (borrowing allowed)"}
		}, want: `"passes":[{"allowBorrowing":true,"steps":[{"workload":"ns/v","action":"kept"}],"fits":true}],"targets":[{"workload":"ns/v","clusterQueue":"cq","reason":"InClusterQueue","message":""}]}`},
		"a preemption summary other than its targets'": {d: parked, edit: func(d *trace.Decision) {
			d.Preemption = &trace.Preemption{Targets: []trace.Target{{Workload: "ns/v"}}, Summary: "evicting ns/v makes room (borrowing allowed)",
				Passes: []trace.PreemptionPass{{Steps: []trace.CandidateStep{{Workload: "ns/v", Action: "givenBack", Why: "x"}}}}}
		}, want: `"steps":[{"workload":"ns/v","action":"givenBack","why":"x"}]`},
		"group resources other than the requests": {d: admitted, edit: func(d *trace.Decision) {
			d.PodSets = []trace.PodSetDecision{fit}
			d.PodSets[0].Groups = []trace.GroupAttempt{{Resources: nil, Resume: "", TriedIndex: -1}}
		}, want: `"groups":[{"resources":null,"resume":"","attempts":null}]`},
	} {
		t.Run(name, func(t *testing.T) {
			d := c.d
			d.PodSets = append([]trace.PodSetDecision(nil), d.PodSets...)
			if c.edit != nil {
				c.edit(&d)
			}
			tr := &trace.Trace{Version: trace.Version, Steps: []trace.Step{{Index: 1, Kind: trace.StepCycle, Cycle: 1,
				Heads: []trace.Head{{ClusterQueue: "cq", Workload: "ns/w"}}, Decisions: []trace.Decision{d}}}}
			back, data := roundTrip(t, tr)
			if !bytes.Contains(data, []byte(c.want)) {
				t.Errorf("the JSON lacks %s:\n%s", c.want, data)
			}
			if bytes.Contains(data, []byte(`"heads"`)) {
				t.Errorf("the JSON has heads its decisions give:\n%s", data)
			}
			if d := cmp.Diff(tr, back); d != "" {
				t.Errorf("decode(encode(trace)) differs (-want +got):\n%s", d)
			}
		})
	}
}

// TestAppendString: strings are written as encoding/json writes them.
func TestAppendString(t *testing.T) {
	for name, s := range map[string]string{
		"plain": "ns/w", "empty": "", "quotes": `a "b" \c`, "html": "<img src=x onerror=alert(1)>&",
		"control": "a\nb\tc\x00\x1f\b\f\r", "separators": "a\u2028b\u2029", "invalid": "a\xffb\xc3", "unicode": "é漢🙂",
	} {
		t.Run(name, func(t *testing.T) {
			checkString(t, s)
		})
	}
}

func checkString(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want = append([]byte(`{"kind":`), want...)
	got, err := json.Marshal(trace.Step{Events: []trace.Event{{Kind: trace.EventKind(s)}}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(got, want) {
		t.Errorf("%q: got %s, want it to contain %s", s, got, want)
	}
}

// FuzzJSONRoundTrip: any names and numbers survive a round trip.
func FuzzJSONRoundTrip(f *testing.F) {
	f.Add("ns/w", "cq", "cpu", int64(1500), "1500m", "Fit", int32(1), -1, "first", "msg", int64(0))
	f.Add("<&>", "", "memory", int64(-1), "", "", int32(0), 3, "", "", int64(1500*time.Millisecond))
	f.Fuzz(func(t *testing.T, wl, cq, res string, amount int64, text, mode string, prio int32, tried int, resume, msg string, dur int64) {
		for _, s := range []string{wl, cq, res, text, mode, resume, msg} {
			if !utf8.ValidString(s) {
				return // invalid UTF-8 becomes U+FFFD, as in encoding/json
			}
		}
		d := trace.Decision{Workload: wl, ClusterQueue: cq, Priority: prio, Mode: mode, Outcome: trace.OutcomeNoFit, Message: msg,
			PodSets: []trace.PodSetDecision{{PodSet: "p", Mode: mode, Message: msg,
				Requests: []trace.Quantity{{Resource: res, Amount: amount, Text: text}},
				Groups:   []trace.GroupAttempt{{Resources: []string{res}, Resume: trace.Resume(resume), TriedIndex: tried}}}}}
		// The same pod sets again (written as a reference to d), and under
		// another mode (written in full).
		same, other := d, d
		same.Workload, other.Workload, other.Mode = wl+"2", wl+"3", mode+"x"
		tr := &trace.Trace{Version: trace.Version, Steps: []trace.Step{{Kind: trace.StepCycle,
			Heads:     []trace.Head{{ClusterQueue: cq, Workload: wl}, {ClusterQueue: cq, Workload: wl + "2"}, {ClusterQueue: cq, Workload: wl + "3"}},
			Decisions: []trace.Decision{d, same, other},
			Events: []trace.Event{{Kind: trace.EventArrival, Workload: wl, Message: msg, LocalQueue: cq},
				{Kind: trace.EventFinish, Workload: wl, Runtime: (*time.Duration)(&dur), Quota: []trace.Quantity{{Flavor: cq, Resource: res, Amount: amount, Text: text}}},
				{Kind: trace.EventEvict, Workload: wl, Preemptor: cq, Reason: msg, Delay: time.Duration(dur)},
				{Kind: trace.EventRequeue, ClusterQueue: cq, Workloads: []string{wl, msg}}}}},
			Workloads: []trace.WorkloadState{{Workload: wl}}, Warnings: []core.Diagnostic{{Message: msg}}}
		var b bytes.Buffer
		if err := trace.WriteJSON(&b, tr); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b.Bytes()) {
			t.Fatalf("invalid JSON: %s", b.Bytes())
		}
		var back trace.Trace
		if err := json.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tr, &back, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("decode(encode(trace)) differs (-want +got):\n%s", d)
		}
	})
}

// TestJSONSameAs pins when a decision's pod sets and preemption search
// are written as a reference to an earlier decision of its step, and
// that a reader gives them back.
func TestJSONSameAs(t *testing.T) {
	ps := func(amount int64) []trace.PodSetDecision {
		return []trace.PodSetDecision{{PodSet: "main", Count: 1, Mode: "Fit",
			Requests: []trace.Quantity{{Resource: "cpu", Amount: amount, Text: core.FormatAmount("cpu", amount)}},
			Groups: []trace.GroupAttempt{{Resources: []string{"cpu"}, Resume: trace.ResumeFirst, TriedIndex: -1, Chosen: "a",
				Attempts: []trace.FlavorAttempt{{Flavor: "a", Mode: "Fit", Rule: "fitStop", Best: true}}}}}}
	}
	noTargets := func() *trace.Preemption {
		return &trace.Preemption{Resources: []string{"a/cpu"}, Passes: []trace.PreemptionPass{{AllowBorrowing: true}},
			Summary: "no workload may be preempted: no candidates under the ClusterQueue's preemption policies"}
	}
	withMode := func(p []trace.PodSetDecision, mode string) []trace.PodSetDecision {
		p[0].Mode = mode
		return p
	}
	dec := func(wl string, p []trace.PodSetDecision, mode string, pre *trace.Preemption) trace.Decision {
		d := trace.Decision{Workload: wl, ClusterQueue: "cq-" + wl, Order: 0, Mode: mode, PodSets: p, Preemption: pre,
			Outcome: trace.OutcomeNoFit, Requeue: "parked", RequeueReason: "Generic"}
		return d
	}
	for name, c := range map[string]struct {
		ds       []trace.Decision
		want     []string
		wantNone []string
	}{
		"the same pod sets: the second refers to the first": {
			ds:       []trace.Decision{dec("a", ps(1000), "Fit", nil), dec("b", ps(1000), "Fit", nil)},
			want:     []string{`"workload":"b","clusterQueue":"cq-b","order":0,"podSetsOf":1,"mode":"Fit"`},
			wantNone: []string{`"podSetsOf":2`}},
		"other pod sets, then the first's again": {
			ds:   []trace.Decision{dec("a", ps(1000), "Fit", nil), dec("b", ps(2000), "Fit", nil), dec("c", ps(1000), "Fit", nil)},
			want: []string{`"workload":"b","clusterQueue":"cq-b","order":0,"podSets":[`, `"workload":"c","clusterQueue":"cq-c","order":0,"podSetsOf":1,`}},
		"the same bytes under another mode are other pod sets": {
			// Each pod set's mode is its decision's, so it is left out of
			// both: the same bytes, but not the same pod sets.
			ds:       []trace.Decision{dec("a", ps(1000), "Fit", nil), dec("b", withMode(ps(1000), "Preempt"), "Preempt", nil), dec("c", withMode(ps(1000), "Preempt"), "Preempt", nil)},
			want:     []string{`"workload":"b","clusterQueue":"cq-b","order":0,"podSets":[`, `"workload":"c","clusterQueue":"cq-c","order":0,"podSetsOf":2,`},
			wantNone: []string{`"podSetsOf":1`}},
		"the same preemption search": {
			ds:   []trace.Decision{dec("a", ps(1000), "Fit", noTargets()), dec("b", ps(2000), "Fit", noTargets())},
			want: []string{`"outcome":"NoFit","preemptionOf":1}`}},
		"another preemption search": {
			ds: []trace.Decision{dec("a", ps(1000), "Fit", noTargets()), dec("b", ps(2000), "Fit", &trace.Preemption{Resources: []string{"b/cpu"},
				Summary: "no workload may be preempted: no candidates under the ClusterQueue's preemption policies"})},
			wantNone: []string{`"preemptionOf"`}},
		"no pod sets: nothing to refer to": {
			ds:       []trace.Decision{dec("a", nil, "", nil), dec("b", nil, "", nil)},
			wantNone: []string{`"podSetsOf"`, `"podSets"`}},
	} {
		t.Run(name, func(t *testing.T) {
			tr := &trace.Trace{Version: trace.Version, Steps: []trace.Step{{Index: 1, Kind: trace.StepCycle, Cycle: 1, Decisions: c.ds}}}
			for _, d := range c.ds {
				tr.Steps[0].Heads = append(tr.Steps[0].Heads, trace.Head{ClusterQueue: d.ClusterQueue, Workload: d.Workload})
			}
			back, data := roundTrip(t, tr)
			for _, w := range c.want {
				if !bytes.Contains(data, []byte(w)) {
					t.Errorf("the JSON lacks %s:\n%s", w, data)
				}
			}
			for _, w := range c.wantNone {
				if bytes.Contains(data, []byte(w)) {
					t.Errorf("the JSON has %s:\n%s", w, data)
				}
			}
			if d := cmp.Diff(tr, back, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("decode(encode(trace)) differs (-want +got):\n%s", d)
			}
		})
	}
}

// TestJSONSameAsRejects: a reference to no earlier decision of the step,
// or a part written both ways, is an error, not a guess.
func TestJSONSameAsRejects(t *testing.T) {
	const first = `{"workload":"a","clusterQueue":"cq","podSets":[{"requests":[],"groups":[]}],"outcome":"NoFit"}`
	for name, c := range map[string]struct {
		data string
		want string
	}{
		"a reference to itself":        {data: `{"steps":[{"decisions":[` + first + `,{"workload":"b","clusterQueue":"cq","podSetsOf":2,"outcome":"NoFit"}]}]}`, want: "podSetsOf 2 is not an earlier decision"},
		"a reference to a later one":   {data: `{"steps":[{"decisions":[{"workload":"b","clusterQueue":"cq","podSetsOf":2,"outcome":"NoFit"},` + first + `]}]}`, want: "podSetsOf 2 is not an earlier decision"},
		"a negative reference":         {data: `{"steps":[{"decisions":[` + first + `,{"workload":"b","clusterQueue":"cq","preemptionOf":-1,"outcome":"NoFit"}]}]}`, want: "preemptionOf -1 is not an earlier decision"},
		"both in full and a reference": {data: `{"steps":[{"decisions":[` + first + `,{"workload":"b","clusterQueue":"cq","podSets":[],"podSetsOf":1,"outcome":"NoFit"}]}]}`, want: "podSetsOf 1 is not an earlier decision of the step, or the part is written in full as well"},
	} {
		t.Run(name, func(t *testing.T) {
			var tr trace.Trace
			err := json.Unmarshal([]byte(c.data), &tr)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
	var d trace.Decision
	if err := json.Unmarshal([]byte(`{"workload":"b","clusterQueue":"cq","podSetsOf":1,"outcome":"NoFit"}`), &d); err == nil || !strings.Contains(err.Error(), "podSetsOf 1 is not an earlier decision") {
		t.Errorf("a decision read alone with a reference: error %v, want one naming the reference", err)
	}
}
