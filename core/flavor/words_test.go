package flavor

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestTake checks that lists carved from one slab never reach each
// other: each filled to its room, and one filled past it, leave the
// others as they were.
func TestTake(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rooms []int
		over  int // the list appended past its room
	}{
		{"small lists in one slab", []int{1, 2, 3}, 1},
		{"a list larger than a slab", []int{2, slabLen + 5, 1}, 2},
		{"lists spilling into a second slab", []int{slabLen - 1, 2, 3}, 0},
		{"an empty list among others", []int{2, 0, 2}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var slab []int
			var lists, want [][]int
			for i, n := range tc.rooms {
				l := take(&slab, n)
				if l == nil || len(l) != 0 || cap(l) != n {
					t.Fatalf("take(%d) = len %d cap %d (nil %t), want an empty list with room for %d", n, len(l), cap(l), l == nil, n)
				}
				var w []int
				for j := range n {
					l = append(l, 100*i+j)
					w = append(w, 100*i+j)
				}
				lists, want = append(lists, l), append(want, w)
			}
			lists[tc.over] = append(lists[tc.over], -1, -2)
			want[tc.over] = append(want[tc.over], -1, -2)
			if d := cmp.Diff(want, lists); d != "" {
				t.Errorf("carved lists (-want +got):\n%s", d)
			}
		})
	}
}

// TestAppendBoth checks that lists grown from a shared one-reason
// list (moved to the room given, or to a slab) leave it and each other
// as they were, for the pod set's reasons and the trace's alike.
func TestAppendBoth(t *testing.T) {
	reason := func(f string, amount int64) Reason {
		return Reason{Flavor: core.FlavorName(f), Reason: trace.Reason{Code: trace.ReasonInsufficientQuota, Resource: "cpu", Amount: core.Amount(amount)}}
	}
	a, b, c, d := reason("a", 1), reason("b", 2), reason("c", 3), reason("d", 4)
	for _, tc := range []struct {
		name  string
		words *Words
	}{
		{"remembered words", &Words{}},
		{"no words", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.words
			type lists struct {
				R []Reason
				T []trace.Reason
			}
			app := func(l lists, r Reason, room []Reason) lists {
				l.R, l.T = w.appendBoth(l.R, l.T, r, room)
				return l
			}
			ab := app(app(lists{}, a, nil), b, nil)
			ac := app(app(lists{}, a, nil), c, nil)
			acd := app(ac, d, nil)
			abc := app(ab, c, nil)
			// A room of two holds a, d; the third reason moves on.
			room := make([]Reason, 0, 2)
			ad := app(app(lists{}, a, room), d, room)
			adb := app(ad, b, room)
			got := []lists{app(lists{}, a, nil), ab, ac, acd, abc, ad, adb, {R: room[:2]}}
			want := []lists{
				{[]Reason{a}, []trace.Reason{a.Reason}},
				{[]Reason{a, b}, []trace.Reason{a.Reason, b.Reason}},
				{[]Reason{a, c}, []trace.Reason{a.Reason, c.Reason}},
				{[]Reason{a, c, d}, []trace.Reason{a.Reason, c.Reason, d.Reason}},
				{[]Reason{a, b, c}, []trace.Reason{a.Reason, b.Reason, c.Reason}},
				{[]Reason{a, d}, []trace.Reason{a.Reason, d.Reason}},
				{[]Reason{a, d, b}, []trace.Reason{a.Reason, d.Reason, b.Reason}},
				{R: []Reason{a, d}},
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("reason lists (-want +got):\n%s", d)
			}
			if &ad.R[0] != &room[:1][0] {
				t.Errorf("a list of two reasons was not moved to the room of two")
			}
		})
	}
}

// TestMessageWords checks that a pod set's message is the same with
// remembered words as without, whatever the order its reasons came in
// and however often it is asked, and that Assignment.Message joins the
// pod sets' parts.
func TestMessageWords(t *testing.T) {
	quota := func(f string, amount int64) Reason {
		return Reason{Flavor: core.FlavorName(f), Reason: trace.Reason{Code: trace.ReasonInsufficientQuota, Resource: "cpu", Amount: core.Amount(amount)}}
	}
	taint := Reason{Flavor: "spot", Reason: trace.Reason{Code: trace.ReasonUntoleratedTaint, Detail: "{spot true NoSchedule <nil>}"}}
	for _, tc := range []struct {
		name    string
		podSets [][]Reason
		want    string
	}{
		{"one reason", [][]Reason{{quota("a", 2)}},
			"couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor a, 2m more needed"},
		{"reasons sorted by their words", [][]Reason{{quota("b", 3), taint, quota("a", 1)}},
			"couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor a, 1m more needed, " +
				"insufficient unused quota for cpu in flavor b, 3m more needed, untolerated taint {spot true NoSchedule <nil>} in flavor spot"},
		{"the same reasons in another order", [][]Reason{{quota("a", 1), quota("b", 3), taint}},
			"couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor a, 1m more needed, " +
				"insufficient unused quota for cpu in flavor b, 3m more needed, untolerated taint {spot true NoSchedule <nil>} in flavor spot"},
		{"two pod sets", [][]Reason{{quota("a", 1)}, {quota("b", 4), quota("a", 4)}},
			"couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor a, 1m more needed; " +
				"couldn't assign flavors to pod set p1: insufficient unused quota for cpu in flavor a, 4m more needed, insufficient unused quota for cpu in flavor b, 4m more needed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shared := &Words{}
			for _, w := range []*Words{nil, shared, shared} { // the second time remembered
				a := Assignment{}
				for i, rs := range tc.podSets {
					name := "main"
					if i > 0 {
						name = "p1"
					}
					a.PodSets = append(a.PodSets, PodSetAssignment{Name: name, Reasons: rs})
				}
				if d := cmp.Diff(tc.want, a.Message(w)); d != "" {
					t.Errorf("Message(words %t) (-want +got):\n%s", w != nil, d)
				}
			}
		})
	}
}

// TestEntryRecent checks that reasons that share a place in Words.recent
// (names of one length and last byte, the same amounts) keep their own
// entries and words, asked in turn.
func TestEntryRecent(t *testing.T) {
	quota := func(f string) Reason {
		return Reason{Flavor: core.FlavorName(f), Reason: trace.Reason{Code: trace.ReasonInsufficientQuota, Resource: "cpu", Amount: 2000}}
	}
	rs := []Reason{quota("on-x"), quota("up-x"), quota("on-x"), {Flavor: "on-x", Reason: trace.Reason{Code: trace.ReasonInsufficientQuota, Resource: "gpu", Amount: 2000}}}
	if recentSlot(&rs[0]) != recentSlot(&rs[1]) || recentSlot(&rs[0]) != recentSlot(&rs[3]) {
		t.Fatalf("the reasons are meant to share a slot: %d, %d, %d", recentSlot(&rs[0]), recentSlot(&rs[1]), recentSlot(&rs[3]))
	}
	w := &Words{}
	var got, want []string
	for round := range 2 {
		for i := range rs {
			got = append(got, w.reason(&rs[i]))
			want = append(want, rs[i].Text(string(rs[i].Flavor)))
		}
		if e0, e2 := w.entry(rs[0]), w.entry(rs[2]); e0 != e2 {
			t.Errorf("round %d: equal reasons have two entries", round)
		}
		if e0, e1 := w.entry(rs[0]), w.entry(rs[1]); e0 == e1 {
			t.Errorf("round %d: different reasons share an entry", round)
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("words (-want +got):\n%s", d)
	}
}

// TestKeepAttempts checks that a list of flavor attempts written in a
// Space is kept apart with the same attempts, shared with an equal list
// kept before only when it names no preemption targets and has the same
// reason lists, and that a list that outgrew the Space is its own.
func TestKeepAttempts(t *testing.T) {
	w := &Words{}
	reasons, _ := w.appendBoth(nil, nil, Reason{Flavor: "a", Reason: trace.Reason{Code: trace.ReasonInsufficientQuota, Resource: "cpu", Amount: 3}}, nil)
	_, traced := w.appendBoth(nil, nil, reasons[0], nil)
	fit := trace.FlavorAttempt{Flavor: "a", Mode: "Fit", Rule: trace.RuleFirstFitStop, Best: true}
	noFit := trace.FlavorAttempt{Flavor: "a", Mode: "NoFit", Continue: true, Rule: trace.RuleFirstFitNext, Reasons: traced}
	otherReasons := noFit
	otherReasons.Reasons = slices.Clone(traced)
	targets := trace.FlavorAttempt{Flavor: "a", Mode: "Preempt", PreemptionTargets: []string{"w"}}
	cases := map[string]struct {
		first, second []trace.FlavorAttempt
		shared        bool
	}{
		"the same attempts":             {[]trace.FlavorAttempt{noFit, fit}, []trace.FlavorAttempt{noFit, fit}, true},
		"another mode":                  {[]trace.FlavorAttempt{noFit}, []trace.FlavorAttempt{fit}, false},
		"equal reasons in another list": {[]trace.FlavorAttempt{noFit}, []trace.FlavorAttempt{otherReasons}, false},
		"preemption targets":            {[]trace.FlavorAttempt{targets}, []trace.FlavorAttempt{targets}, false},
		"one attempt more":              {[]trace.FlavorAttempt{noFit}, []trace.FlavorAttempt{noFit, fit}, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var sp Space
			keep := func(atts []trace.FlavorAttempt) []trace.FlavorAttempt {
				return w.keepAttempts(append(sp.attempts[:0], atts...), &sp.attempts)
			}
			first := keep(tc.first)
			second := keep(tc.second)
			clear(sp.attempts[:]) // the Space is written again
			if diff := cmp.Diff([][]trace.FlavorAttempt{tc.first, tc.second}, [][]trace.FlavorAttempt{first, second}); diff != "" {
				t.Errorf("kept attempts (-want +got):\n%s", diff)
			}
			if shared := &first[0] == &second[0]; shared != tc.shared {
				t.Errorf("shared = %t, want %t", shared, tc.shared)
			}
		})
	}
	own := make([]trace.FlavorAttempt, 5)
	var sp Space
	if got := w.keepAttempts(own, &sp.attempts); &got[0] != &own[0] {
		t.Errorf("a list that outgrew the Space was copied")
	}
}

// TestKeepLast checks that a resume state written in a Space is kept
// apart equal to what was written, shared with the previous state or a
// recent one when equal, and never with a different one.
func TestKeepLast(t *testing.T) {
	one := func(gen int64, ts ...Tried) LastState {
		return LastState{Generation: gen, TriedFlavorIdx: [][]Tried{ts}}
	}
	cpu := Tried{Resource: "cpu", Idx: 1}
	cases := map[string]struct {
		first, second LastState
		// prev: the second is kept with the first as its previous state.
		prev, shared bool
	}{
		"equal, previous":           {one(3, cpu), one(3, cpu), true, true},
		"equal, recent":             {one(3, cpu), one(3, cpu), false, true},
		"another generation":        {one(3, cpu), one(4, cpu), true, false},
		"another index":             {one(3, cpu), one(3, Tried{"cpu", -1}), true, false},
		"another resource":          {one(3, cpu), one(3, Tried{"memory", 1}), false, false},
		"one resource more":         {one(3, cpu), one(3, cpu, Tried{"memory", 0}), false, false},
		"no flavors, nil or empty":  {one(3), LastState{Generation: 3, TriedFlavorIdx: [][]Tried{{}}}, true, false},
		"no pod sets, nil or empty": {LastState{Generation: 3}, LastState{Generation: 3, TriedFlavorIdx: [][]Tried{}}, true, false},
		"two pod sets, kept apart":  {LastState{Generation: 3, TriedFlavorIdx: [][]Tried{{cpu}, {cpu}}}, LastState{Generation: 3, TriedFlavorIdx: [][]Tried{{cpu}, {cpu}}}, true, false},
		"three resources, equal":    {one(3, cpu, cpu, cpu), one(3, cpu, cpu, cpu), false, true},
		"three resources, one more": {one(3, cpu, cpu, cpu), one(3, cpu, cpu, cpu, cpu), false, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := &Words{}
			var sp Space
			// keep writes s as Assign does (one pod set in the
			// Space, its resources in its arrays when at most two;
			// several pod sets apart) and keeps it.
			keep := func(s LastState, prev *LastState) *LastState {
				if len(s.TriedFlavorIdx) > 1 {
					return w.keepLast(&lastSpace{last: s}, &sp.last, prev)
				}
				ls := &sp.last
				*ls = lastSpace{last: s}
				if len(s.TriedFlavorIdx) == 1 {
					switch ts := s.TriedFlavorIdx[0]; {
					case len(ts) > len(ls.tried):
						ls.lastIdx[0] = slices.Clone(ts) // a list of its own
					case ts != nil:
						n := copy(ls.tried[:], ts)
						ls.lastIdx[0] = ls.tried[:n:n]
					}
					ls.last.TriedFlavorIdx = ls.lastIdx[:1:1]
				}
				return w.keepLast(ls, &sp.last, prev)
			}
			first := keep(tc.first, nil)
			var prev *LastState
			if tc.prev {
				prev = first
			}
			second := keep(tc.second, prev)
			sp.last = lastSpace{tried: [2]Tried{{"x", 9}, {"x", 9}}} // the Space is written again
			if diff := cmp.Diff([]LastState{tc.first, tc.second}, []LastState{*first, *second}); diff != "" {
				t.Errorf("kept states (-want +got):\n%s", diff)
			}
			if shared := first == second; shared != tc.shared {
				t.Errorf("shared = %t, want %t", shared, tc.shared)
			}
		})
	}
}

// TestKeepPodSetDecisions checks that pod set decisions, their group
// attempts written in a Space, are kept equal to what was written, and
// shared only with an equal list.
func TestKeepPodSetDecisions(t *testing.T) {
	w := &Words{}
	var sp Space
	atts := w.keepAttempts(append(sp.attempts[:0], trace.FlavorAttempt{Flavor: "a", Mode: "Fit", Rule: trace.RuleFitStop, Best: true}), &sp.attempts)
	req := w.Request("cpu", 1000)
	g := trace.GroupAttempt{Resources: []string{"cpu"}, Resume: trace.ResumeFirst, Attempts: atts, Chosen: "a", TriedIndex: -1}
	d := trace.PodSetDecision{PodSet: "main", Count: 1, Requests: req, Groups: []trace.GroupAttempt{g}, Mode: "Fit"}
	with := func(f func(*trace.PodSetDecision)) trace.PodSetDecision {
		c := d
		f(&c)
		return c
	}
	group := func(f func(*trace.GroupAttempt)) trace.PodSetDecision {
		c := g
		f(&c)
		return with(func(d *trace.PodSetDecision) { d.Groups = []trace.GroupAttempt{c} })
	}
	cases := map[string]struct {
		first, second []trace.PodSetDecision
		shared        bool
	}{
		"the same decisions":            {[]trace.PodSetDecision{d}, []trace.PodSetDecision{d}, true},
		"another message":               {[]trace.PodSetDecision{d}, []trace.PodSetDecision{with(func(c *trace.PodSetDecision) { c.Message = "n" })}, false},
		"another count":                 {[]trace.PodSetDecision{d}, []trace.PodSetDecision{with(func(c *trace.PodSetDecision) { c.Count = 2 })}, false},
		"another request":               {[]trace.PodSetDecision{d}, []trace.PodSetDecision{with(func(c *trace.PodSetDecision) { c.Requests = w.Request("cpu", 2000) })}, false},
		"one pod set more":              {[]trace.PodSetDecision{d}, []trace.PodSetDecision{d, d}, false},
		"equal resources, another list": {[]trace.PodSetDecision{d}, []trace.PodSetDecision{group(func(c *trace.GroupAttempt) { c.Resources = []string{"cpu"} })}, true},
		"equal attempts, another list":  {[]trace.PodSetDecision{d}, []trace.PodSetDecision{group(func(c *trace.GroupAttempt) { c.Attempts = slices.Clone(atts) })}, false},
		"another resume":                {[]trace.PodSetDecision{d}, []trace.PodSetDecision{group(func(c *trace.GroupAttempt) { c.Resume = trace.ResumeAfter; c.ResumedAfter = "a" })}, false},
		"another tried index":           {[]trace.PodSetDecision{d}, []trace.PodSetDecision{group(func(c *trace.GroupAttempt) { c.TriedIndex = 0 })}, false},
		"another note":                  {[]trace.PodSetDecision{d}, []trace.PodSetDecision{group(func(c *trace.GroupAttempt) { c.PreferenceNote = "n" })}, false},
		"one group more":                {[]trace.PodSetDecision{d}, []trace.PodSetDecision{with(func(c *trace.PodSetDecision) { c.Groups = []trace.GroupAttempt{g, g} })}, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			// keep writes the decisions in a buffer and their first
			// groups in the Space, as the cycle and Assign do.
			var buf [2]trace.PodSetDecision
			keep := func(ds []trace.PodSetDecision) []trace.PodSetDecision {
				ds = append(buf[:0], ds...)
				ds[0].Groups = append(sp.groups[:0:2], ds[0].Groups...)
				return w.KeepPodSetDecisions(ds)
			}
			first := keep(tc.first)
			second := keep(tc.second)
			buf, sp.groups = [2]trace.PodSetDecision{}, [2]trace.GroupAttempt{} // written again
			if diff := cmp.Diff([][]trace.PodSetDecision{tc.first, tc.second}, [][]trace.PodSetDecision{first, second}); diff != "" {
				t.Errorf("kept decisions (-want +got):\n%s", diff)
			}
			if shared := &first[0] == &second[0]; shared != tc.shared {
				t.Errorf("shared = %t, want %t", shared, tc.shared)
			}
		})
	}
}

// TestKeepQuantities checks that quantities are kept equal to what was
// written, and shared only with an equal list.
func TestKeepQuantities(t *testing.T) {
	q := trace.Quantity{Flavor: "a", Resource: "cpu", Amount: 1000, Text: "1"}
	other := q
	other.Flavor = "b"
	cases := map[string]struct {
		first, second []trace.Quantity
		shared        bool
	}{
		"the same quantities": {[]trace.Quantity{q}, []trace.Quantity{q}, true},
		"another flavor":      {[]trace.Quantity{q}, []trace.Quantity{other}, false},
		"another amount":      {[]trace.Quantity{q}, []trace.Quantity{{Flavor: "a", Resource: "cpu", Amount: 2000, Text: "2"}}, false},
		"one quantity more":   {[]trace.Quantity{q}, []trace.Quantity{q, other}, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := &Words{}
			var buf [2]trace.Quantity
			keep := func(qs []trace.Quantity) []trace.Quantity { return w.KeepQuantities(append(buf[:0], qs...)) }
			first := keep(tc.first)
			second := keep(tc.second)
			buf = [2]trace.Quantity{} // the caller writes again
			if diff := cmp.Diff([][]trace.Quantity{tc.first, tc.second}, [][]trace.Quantity{first, second}); diff != "" {
				t.Errorf("kept quantities (-want +got):\n%s", diff)
			}
			if shared := &first[0] == &second[0]; shared != tc.shared {
				t.Errorf("shared = %t, want %t", shared, tc.shared)
			}
		})
	}
	if got := (&Words{}).KeepQuantities(nil); got != nil {
		t.Errorf("an empty list was kept as %v, want nil", got)
	}
}

// TestMessagesRemembered checks that messages remembered by one Words
// across pod sets whose reasons differ a little are each the message
// written afresh, for the assignment and for the pod set.
func TestMessagesRemembered(t *testing.T) {
	quota := func(f string, amount int64) Reason {
		return Reason{Flavor: core.FlavorName(f), Reason: trace.Reason{Code: trace.ReasonInsufficientQuota, Resource: "cpu", Amount: core.Amount(amount)}}
	}
	w := &Words{}
	for _, tc := range []struct {
		name    string
		podSet  string
		reasons []Reason
	}{
		{"first", "main", []Reason{quota("a", 2)}},
		{"another amount", "main", []Reason{quota("a", 3)}},
		{"another flavor", "main", []Reason{quota("b", 3)}},
		{"another pod set", "p1", []Reason{quota("b", 3)}},
		{"two reasons", "main", []Reason{quota("a", 2), quota("b", 3)}},
		{"two reasons in another order", "main", []Reason{quota("b", 3), quota("a", 2)}},
		{"the first again", "main", []Reason{quota("a", 2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fresh := Assignment{PodSets: []PodSetAssignment{{Name: tc.podSet, Reasons: tc.reasons}}}
			a := Assignment{PodSets: []PodSetAssignment{{Name: tc.podSet, Reasons: slices.Clone(tc.reasons)}}}
			want := []string{fresh.Message(nil), fresh.PodSets[0].Message(nil)}
			got := []string{a.Message(w), a.PodSets[0].Message(w)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("messages remembered (-fresh +remembered):\n%s", diff)
			}
		})
	}
}
