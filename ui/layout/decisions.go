package layout

import (
	"strings"

	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/view"
)

// Decisions lays out what the step decided:
//
//	div.decisions[data-step-kind]
//	  p.no-decisions                  for a step without decisions: what
//	                                  the step was
//	  div.decision[data-workload][data-outcome][data-cq][data-order], per
//	  decision in the trace's order:
//	    details[open]
//	      summary                     order, workload, ClusterQueue,
//	                                  priority, outcome badge
//	      p.sentence                  Decision.Sentence
//	      dl.facts                    dd.message (Kueue's message),
//	                                  dd.explanation, dd.requeue,
//	                                  dd.admission, dd.reserved, dd.mode
//	      div.podset[data-podset]     per pod set: its requests and mode,
//	        div.rgroup[data-resources]  per resource group: p.resume,
//	                                  table.attempts (in div.table-scroll),
//	                                  p.choice (the chosen flavor and why),
//	                                  p.preference-note
//	      div.preemption              p.preemption-summary,
//	                                  table.candidates (tr[data-workload],
//	                                  class target when it became one),
//	                                  ol.passes, ul.targets
//	                                  (li[data-workload][data-reason])
//	      div.recomputed              the KEP-4378 recomputation and, in a
//	                                  closed details.before, the state
//	                                  before it (its preemption search as
//	                                  div.preemption-before, with
//	                                  table.candidates-before and
//	                                  ul.targets-before)
//	  div.claims                      the cycle's KEP-4378 claims
//	  div.step-events                 the step's events (ul, in chunks
//	                                  of eventsChunk when more)
//
// In the attempts and candidates tables the long texts (the fungibility
// rule and the reasons, the candidate's why) take a full-width row under
// their row, so that the tables fit a narrow pane; each attempt and each
// candidate is one tbody.
func Decisions(st view.Step) *view.Node {
	root := el("div", "class", "decisions", "data-step-kind", string(st.Kind))
	if len(st.Decisions) == 0 {
		root.Add(txt("p", noDecisions(st), "class", "no-decisions"))
	}
	for i := range st.Decisions {
		root.Add(decision(&st.Decisions[i]))
	}
	if len(st.Claims) > 0 {
		root.Add(claims(st.Claims))
	}
	if len(st.Events) > 0 {
		root.Add(stepEvents(st.Events))
	}
	return root
}

// noDecisions says what a step without decisions was.
func noDecisions(st view.Step) string {
	switch st.Kind {
	case trace.StepInitial:
		return "The initial state, before the first scheduling cycle: nothing is decided here."
	case trace.StepEvents:
		return "An event step: no scheduling cycle runs here, only the events below."
	case trace.StepCycle:
		return "Cycle " + itoa(st.Cycle) + " had no head to decide: every queue was empty, parked or inactive."
	}
	if st.Total == 0 {
		return "There is nothing to show: the run has no steps."
	}
	return "Nothing was decided in this step."
}

func decision(d *view.Decision) *view.Node {
	div := el("div", "class", "decision", "data-workload", d.Workload, "data-outcome", string(d.Outcome),
		"data-cq", d.ClusterQueue, "data-order", itoa(d.Order))
	det := el("details", "open", "")
	det.Add(el("summary").Add(
		span("order", "#"+itoa(d.Order)),
		span("wl-name", d.Workload),
		span("cq", d.ClusterQueue),
		span("prio", "priority "+itoa(int(d.Priority))),
		outcomeBadge(d.Outcome)))
	det.Add(txt("p", d.Sentence, "class", "sentence"))
	facts := el("dl", "class", "facts")
	fact := func(class, term, value string) {
		if value != "" {
			facts.Add(txt("dt", term), txt("dd", value, "class", class))
		}
	}
	fact("message", "Kueue says", d.Message)
	fact("explanation", "Why", d.Explanation)
	fact("requeue", "Requeued", d.Requeue)
	fact("admission", "Admission", d.Admission)
	fact("reserved", "Reserved", d.Reserved)
	if d.Mode != "" {
		fact("mode", "Mode", d.Mode+", borrowing level "+itoa(d.Borrowing))
	}
	if len(facts.Children) > 0 {
		det.Add(facts)
	}
	for i := range d.PodSets {
		det.Add(podSet(&d.PodSets[i]))
	}
	if d.Preemption != nil {
		det.Add(preemption(d.Preemption, false))
	}
	if d.Recomputed != nil {
		det.Add(recomputed(d.Recomputed))
	}
	return div.Add(det)
}

// outcomeBadge is an outcome in a coloured badge.
func outcomeBadge(o trace.Outcome) *view.Node {
	return span("badge outcome outcome-"+string(o), string(o))
}

func podSet(ps *view.PodSet) *view.Node {
	div := el("div", "class", "podset", "data-podset", ps.Name, "data-mode", ps.Mode)
	h := el("h4").Add(span("", "Pod set "), span("podset-name", ps.Name), span("podset-count", "× "+itoa(int(ps.Count))))
	if ps.Requests != "" {
		h.Add(span("podset-requests", ps.Requests))
	}
	if ps.Mode != "" {
		h.Add(span("badge mode mode-"+ps.Mode, ps.Mode))
	}
	div.Add(h)
	if ps.Message != "" {
		div.Add(txt("p", ps.Message, "class", "podset-message"))
	}
	for i := range ps.Groups {
		div.Add(group(&ps.Groups[i]))
	}
	return div
}

func group(g *view.Group) *view.Node {
	div := el("div", "class", "rgroup", "data-resources", g.Resources)
	div.Add(el("h5").Add(span("", "Resource group "), span("resources", g.Resources)))
	if g.Resume != "" {
		div.Add(txt("p", g.Resume, "class", "resume"))
	}
	if g.Unavailable != "" {
		div.Add(txt("p", g.Unavailable, "class", "unavailable"))
	}
	if len(g.Attempts) > 0 {
		t := el("table", "class", "attempts")
		t.Add(headRow("Flavor", "Mode", "Borrowing", "Search"))
		for i := range g.Attempts {
			t.Add(attempt(&g.Attempts[i]))
		}
		div.Add(tableScroll(t))
	}
	if g.Chosen != "" {
		p := el("p", "class", "choice").Add(span("", "Chosen: "), span("flavor", g.Chosen))
		if g.Why != "" {
			p.Add(span("why", g.Why))
		}
		div.Add(p)
	} else if len(g.Attempts) > 0 || g.Why != "" {
		p := el("p", "class", "choice choice-none").Add(span("", "No flavor chosen"))
		if g.Why != "" {
			p.Add(span("why", g.Why))
		}
		div.Add(p)
	}
	if g.PreferenceNote != "" {
		div.Add(txt("p", g.PreferenceNote, "class", "preference-note"))
	}
	return div
}

// attemptCols is the number of columns of the attempts table.
const attemptCols = 4

// attempt is one tbody of the attempts table: a row with the flavor, the
// mode, the borrowing level and whether the search went on, then a
// full-width row with the rule, the reasons and the oracle's targets.
func attempt(a *view.Attempt) *view.Node {
	var marks []string
	if a.Best {
		marks = append(marks, "best")
	}
	if a.Chosen {
		marks = append(marks, "chosen")
	}
	body := el("tbody", "class", cls(append([]string{"attempt"}, marks...)...))
	flavor := el("td", "class", "flavor").Add(span("flavor-name", a.Flavor))
	if a.Chosen {
		flavor.Add(txt("span", "chosen", "class", "tag tag-chosen", "title", "the group's chosen flavor"))
	} else if a.Best {
		flavor.Add(txt("span", "best", "class", "tag tag-best", "title", "the best flavor so far when it was tried"))
	}
	search, searchClass := "stopped", "search search-stop"
	if a.Continue {
		search, searchClass = "continued", "search search-continue"
	}
	body.Add(el("tr", "data-flavor", a.Flavor, "data-mode", a.Mode, "data-index", itoa(a.Index), "data-continue", yesNo(a.Continue)).Add(
		flavor,
		el("td").Add(span("badge mode mode-"+a.Mode, a.Mode)),
		txt("td", itoa(a.Borrowing), "class", "num"),
		txt("td", search, "class", searchClass)))
	td := el("td", "colspan", itoa(attemptCols), "class", "detail")
	detail := func(class, label, value string) {
		if value != "" {
			td.Add(el("span", "class", class).Add(span("label", label+": "), span("", value)))
		}
	}
	detail("rule", "rule", a.Rule)
	detail("reasons", "reasons", a.Reasons)
	detail("oracle-targets", "preemption targets", strings.Join(a.Targets, ", "))
	if len(td.Children) > 0 {
		body.Add(el("tr", "class", "detail-row").Add(td))
	}
	return body
}

// preemption lays out a preemption search. before is set for the search
// a KEP-4378 recomputation replaced: its parts get other classes
// (div.preemption-before, table.candidates-before, ul.targets-before), so
// that div.decision .preemption, table.candidates and ul.targets only ever
// match the decision's own search.
func preemption(p *view.Preemption, before bool) *view.Node {
	class, title, candidatesClass, targetsClass := "preemption", "Preemption", "candidates", "targets"
	if before {
		class, title, candidatesClass, targetsClass = "preemption-before", "Preemption before the recomputation", "candidates-before", "targets-before"
	}
	div := el("div", "class", class)
	h := el("h4").Add(span("", title))
	if p.Resources != "" {
		h.Add(span("resources", "for "+p.Resources))
	}
	div.Add(h)
	if p.Summary != "" {
		div.Add(txt("p", p.Summary, "class", "preemption-summary"))
	}
	if len(p.Candidates) > 0 {
		t := el("table", "class", candidatesClass)
		t.Add(headRow("#", "Workload", "Priority", "Reason"))
		for i := range p.Candidates {
			t.Add(candidate(&p.Candidates[i]))
		}
		div.Add(txt("h5", "Candidates, in the order tried"), tableScroll(t))
	}
	if len(p.Passes) > 0 {
		ol := el("ol", "class", "passes")
		for i := range p.Passes {
			ol.Add(pass(&p.Passes[i]))
		}
		div.Add(txt("h5", "Passes over the candidates"), ol)
	}
	if len(p.Targets) > 0 {
		ul := el("ul", "class", targetsClass)
		for i := range p.Targets {
			ul.Add(target(&p.Targets[i]))
		}
		div.Add(txt("h5", "Targets"), ul)
	}
	return div
}

// candidateCols is the number of columns of the candidates table.
const candidateCols = 4

// candidate is one tbody of the candidates table: a row with the
// position, the workload and its ClusterQueue, the priority, the reason
// and the list it came from, then a full-width row with what is left to
// claim of it (KEP-4378) and why it is a candidate.
func candidate(c *view.Candidate) *view.Node {
	var flags []string
	if c.Target {
		flags = append(flags, "target")
	}
	if c.Evicted {
		flags = append(flags, "evicted")
	}
	body := el("tbody", "class", cls(append([]string{"candidate"}, flags...)...))
	wl := el("td", "class", "wl").Add(span("wl-name", c.Workload))
	if c.Target {
		wl.Add(txt("span", "target", "class", "tag tag-target", "title", "became a preemption target"))
	}
	if c.Evicted {
		wl.Add(txt("span", "terminating", "class", "tag tag-evicted", "title", "already evicted and still terminating"))
	}
	wl.Add(span("cq", c.ClusterQueue))
	tr := attr(el("tr", "data-workload", c.Workload, "data-cq", c.ClusterQueue, "data-n", itoa(c.N)), "class", cls(flags...))
	tr.Add(
		txt("td", itoa(c.N), "class", "num"),
		wl,
		txt("td", itoa(int(c.Priority)), "class", "num"),
		el("td", "class", "reason").Add(span("reason-name", c.Reason), txt("span", c.List, "class", "list", "title", "the candidate list it came from")))
	body.Add(tr)
	td := el("td", "colspan", itoa(candidateCols), "class", "detail")
	if c.Claimable != "" {
		td.Add(el("span", "class", "claimable").Add(span("label", "claimable: "), span("amount", c.Claimable)))
	}
	if c.Why != "" {
		td.Add(el("span", "class", "why").Add(span("label", "why: "), span("", c.Why)))
	}
	if len(td.Children) > 0 {
		body.Add(el("tr", "class", "detail-row").Add(td))
	}
	return body
}

// actionWords is a pass step's action in words.
func actionWords(a string) string {
	if a == "givenBack" {
		return "gave back"
	}
	return a
}

func pass(p *view.Pass) *view.Node {
	li := el("li", "class", "pass", "data-allow-borrowing", yesNo(p.AllowBorrowing), "data-fits", yesNo(p.Fits), "title", p.Text)
	mode := "without borrowing"
	if p.AllowBorrowing {
		mode = "with borrowing"
	}
	li.Add(span("pass-mode", mode))
	if p.Fits {
		li.Add(span("badge fits", "fits"))
	} else {
		li.Add(span("badge no-fit", "does not fit"))
	}
	steps := el("ol", "class", "pass-steps")
	for _, s := range p.Steps {
		st := el("li", "data-workload", s.Workload, "data-action", s.Action).Add(
			span("action", actionWords(s.Action)), span("wl-name", s.Workload))
		if s.Why != "" {
			st.Add(span("why", s.Why))
		}
		steps.Add(st)
	}
	if len(p.Steps) == 0 {
		steps.Add(txt("li", "no candidate to remove", "class", "none"))
	}
	return li.Add(steps)
}

func target(t *view.Target) *view.Node {
	evicted := ""
	if t.AlreadyEvicted {
		evicted = "already-evicted"
	}
	li := el("li", "class", cls("target", evicted), "data-workload", t.Workload, "data-reason", t.Reason, "data-cq", t.ClusterQueue)
	li.Add(span("wl-name", t.Workload), span("cq", t.ClusterQueue), span("badge reason", t.Reason))
	if t.AlreadyEvicted {
		li.Add(txt("span", "already evicted", "class", "tag tag-evicted", "title", "evicted earlier and still terminating"))
	}
	if t.Claims != "" {
		li.Add(el("span", "class", "target-claims").Add(span("label", "claims "), span("amount", t.Claims)))
	}
	if t.Message != "" {
		li.Add(txt("p", t.Message, "class", "message"))
	}
	return li
}

func recomputed(r *view.Recomputation) *view.Node {
	div := el("div", "class", "recomputed")
	div.Add(txt("h4", "Recomputed in this cycle (KEP-4378)"))
	div.Add(txt("p", r.Text, "class", "recomputed-text"))
	if len(r.BeforePodSets) == 0 && r.Before == nil {
		return div
	}
	summary := "Before the recomputation: mode " + r.BeforeMode
	if len(r.BeforeTargets) > 0 {
		summary += ", targets " + strings.Join(r.BeforeTargets, ", ")
	}
	before := el("details", "class", "before").Add(txt("summary", summary))
	for i := range r.BeforePodSets {
		before.Add(podSet(&r.BeforePodSets[i]))
	}
	if r.Before != nil {
		before.Add(preemption(r.Before, true))
	}
	return div.Add(before)
}

func claims(cs []view.Claim) *view.Node {
	div := el("div", "class", "claims")
	div.Add(txt("h4", "Claims on preemption targets (KEP-4378)"))
	ul := el("ul")
	for _, c := range cs {
		li := el("li", "class", "claim", "data-target", c.Target, "title", c.Text).Add(
			span("wl-name", c.Target), span("original", c.Original))
		by := el("ul", "class", "claimed-by")
		for _, b := range c.By {
			by.Add(el("li", "data-workload", b.Preemptor).Add(
				span("wl-name", b.Preemptor), span("", " claims "), span("amount", b.Claimed)))
		}
		ul.Add(li.Add(by))
	}
	return div.Add(ul)
}

// eventsChunk is how many of a step's events share one box when the step
// has more (li.events-chunk, styled content-visibility: auto): the first
// step of a run that starts with thousands of workloads admitted lists an
// event each, and without chunks every part of that step drawn
// (site/boot.js draws a large step in parts, a frame each) laid out all
// the entries drawn before (18-33 ms a frame at 2,000 entries; 6 ms in
// chunks, in a Chromium page). The chunks and their ul are role=none and
// the entries role=listitem: one flat list to assistive technology, as
// the event log's chunks.
const eventsChunk = 100

// stepEvents lays out a step's events: ul > li[data-kind] per event, or
// with more than eventsChunk of them ul.chunked > li.events-chunk > ul >
// li[data-kind], eventsChunk a chunk.
func stepEvents(es []view.Event) *view.Node {
	div := el("div", "class", "step-events")
	div.Add(txt("h4", "Events in this step"))
	ul := el("ul")
	into := ul
	for i, e := range es {
		li := el("li", "data-kind", string(e.Kind))
		attr(li, "data-workload", e.Workload)
		attr(li, "data-cq", e.ClusterQueue)
		if len(es) > eventsChunk {
			if i%eventsChunk == 0 {
				into = el("ul", "role", "none")
				ul.Add(el("li", "class", "events-chunk", "role", "none").Add(into))
			}
			attr(li, "role", "listitem")
		}
		into.Add(li.Add(span("badge kind kind-"+string(e.Kind), string(e.Kind)), span("text", e.Text)))
	}
	if len(es) > eventsChunk {
		attr(ul, "class", "chunked")
	}
	return div.Add(ul)
}
