package view

import (
	"strings"

	"github.com/kueueplay/kueueplay/core/trace"
)

// Decision is what a cycle decided for one head, ready to show as a row
// (the summary fields), a sentence, and tables (pod sets, preemption).
type Decision struct {
	Workload     string        `json:"workload"`
	ClusterQueue string        `json:"clusterQueue"`
	Priority     int32         `json:"priority"`
	Order        int           `json:"order"`
	Mode         string        `json:"mode,omitempty"`
	Borrowing    int           `json:"borrowing"`
	Outcome      trace.Outcome `json:"outcome"`
	// Message is Kueue's QuotaReserved=False message; Explanation the
	// playground's own words.
	Message     string `json:"message,omitempty"`
	Explanation string `json:"explanation,omitempty"`
	// Requeue is "immediate (PendingPreemption)" or "parked (Generic)".
	Requeue string `json:"requeue,omitempty"`
	// Admission is "main{cpu:on-demand,memory:on-demand}" for an admitted
	// workload.
	Admission string `json:"admission,omitempty"`
	// Reserved is the capacity reserved for the rest of the cycle,
	// formatted ("on-demand/cpu 4, on-demand/memory 16Gi").
	Reserved string `json:"reserved,omitempty"`
	// Sentence says the decision in words: "team-a/train-2 was admitted on
	// on-demand (cpu, memory) without borrowing".
	Sentence   string         `json:"sentence"`
	PodSets    []PodSet       `json:"podSets,omitempty"`
	Preemption *Preemption    `json:"preemption,omitempty"`
	Recomputed *Recomputation `json:"recomputed,omitempty"`
}

// PodSet is the flavor assignment of one pod set.
type PodSet struct {
	Name  string `json:"name"`
	Count int32  `json:"count"`
	// Requests are the pod set's total requests: "cpu 3, memory 600Mi".
	Requests string  `json:"requests"`
	Mode     string  `json:"mode"`
	Message  string  `json:"message,omitempty"`
	Groups   []Group `json:"groups"`
}

// Group is the flavor search for one resource group: a table of attempts,
// then the choice.
type Group struct {
	// Resources is "cpu, memory".
	Resources string `json:"resources"`
	// Resume says where the search started and why.
	Resume string `json:"resume,omitempty"`
	// Unavailable is set when no resource group of the ClusterQueue covers
	// the resources; there are no attempts then.
	Unavailable string    `json:"unavailable,omitempty"`
	Attempts    []Attempt `json:"attempts,omitempty"`
	// Chosen is the chosen flavor (empty: none) and Why why it won.
	Chosen string `json:"chosen,omitempty"`
	Why    string `json:"why,omitempty"`
	// PreferenceNote is set when flavorFungibility.preference or a gate
	// changed the choice.
	PreferenceNote string `json:"preferenceNote,omitempty"`
	// NextIndex is trace.GroupAttempt.TriedIndex: the last flavor tried,
	// which the next attempt resumes after (-1:
	// the first flavor).
	NextIndex int `json:"nextIndex"`
}

// Attempt is one row of a group's table: one flavor tried.
type Attempt struct {
	Index     int    `json:"index"`
	Flavor    string `json:"flavor"`
	Mode      string `json:"mode"`
	Borrowing int    `json:"borrowing"`
	// Rule is the fungibility rule that continued or stopped the search;
	// Continue whether the search went on.
	Rule     string `json:"rule"`
	Continue bool   `json:"continue"`
	// Reasons explain a mode other than Fit, joined with "; ".
	Reasons string `json:"reasons,omitempty"`
	// Best is true when the flavor became the best so far.
	Best bool `json:"best,omitempty"`
	// Chosen is true for the group's chosen flavor.
	Chosen bool `json:"chosen,omitempty"`
	// Targets are the preemption oracle's targets on this flavor.
	Targets []string `json:"targets,omitempty"`
}

// Preemption is the search for preemption targets.
type Preemption struct {
	// Resources is "flavor/resource, ..." needing preemption.
	Resources  string      `json:"resources"`
	Summary    string      `json:"summary"`
	Candidates []Candidate `json:"candidates,omitempty"`
	Passes     []Pass      `json:"passes,omitempty"`
	Targets    []Target    `json:"targets,omitempty"`
}

// Candidate is one row of the candidates table, in the order tried.
type Candidate struct {
	// N is the 1-based position.
	N            int    `json:"n"`
	Workload     string `json:"workload"`
	ClusterQueue string `json:"clusterQueue"`
	Priority     int32  `json:"priority"`
	// List is hierarchicalReclaim, cohort or clusterQueue.
	List   string `json:"list"`
	Reason string `json:"reason"`
	Why    string `json:"why"`
	// Evicted: already evicted and still terminating.
	Evicted bool `json:"evicted,omitempty"`
	// Claimable is what is left to claim of it (KEP-4378), formatted.
	Claimable string `json:"claimable,omitempty"`
	// Target is true when the candidate became a target.
	Target bool `json:"target,omitempty"`
}

// Pass is one walk over the candidates.
type Pass struct {
	AllowBorrowing bool       `json:"allowBorrowing"`
	Fits           bool       `json:"fits"`
	Steps          []PassStep `json:"steps,omitempty"`
	// Text is the pass in one line: "with borrowing: removed t/a; fits".
	Text string `json:"text"`
}

// PassStep is what a pass did with one candidate.
type PassStep struct {
	Workload string `json:"workload"`
	Action   string `json:"action"`
	Why      string `json:"why,omitempty"`
}

// Target is a workload the preemptor evicts.
type Target struct {
	Workload       string `json:"workload"`
	ClusterQueue   string `json:"clusterQueue"`
	Reason         string `json:"reason"`
	Message        string `json:"message,omitempty"`
	AlreadyEvicted bool   `json:"alreadyEvicted,omitempty"`
	// Claims is what this preemptor claims of it (KEP-4378), formatted.
	Claims string `json:"claims,omitempty"`
}

// Recomputation is set when the entry's assignment was recomputed in the
// cycle because its targets overlapped targets claimed earlier
// (RefreshAssignmentsDuringSchedulingCycle).
type Recomputation struct {
	Overlapping   []string    `json:"overlapping"`
	BeforeMode    string      `json:"beforeMode"`
	BeforeTargets []string    `json:"beforeTargets,omitempty"`
	BeforePodSets []PodSet    `json:"beforePodSets,omitempty"`
	Before        *Preemption `json:"before,omitempty"`
	// Text is the recomputation in one sentence.
	Text string `json:"text"`
}

func decision(d *trace.Decision) Decision {
	v := Decision{
		Workload: d.Workload, ClusterQueue: d.ClusterQueue, Priority: d.Priority, Order: d.Order,
		Mode: d.Mode, Borrowing: d.Borrowing, Outcome: d.Outcome, Message: d.Message, Explanation: d.Explanation,
		Admission: admissionText(d.Admission), Reserved: quantities(d.Reserved),
		PodSets: podSets(d.PodSets), Preemption: preemption(d.Preemption),
	}
	if d.Requeue != "" {
		v.Requeue = d.Requeue
		if d.RequeueReason != "" {
			v.Requeue += " (" + d.RequeueReason + ")"
		}
	}
	if r := d.Recomputed; r != nil {
		rc := &Recomputation{
			Overlapping: r.Overlapping, BeforeMode: r.BeforeMode,
			BeforePodSets: podSets(r.BeforePodSets), Before: preemption(r.BeforePreemption),
		}
		if r.BeforePreemption != nil {
			for _, t := range r.BeforePreemption.Targets {
				rc.BeforeTargets = append(rc.BeforeTargets, t.Workload)
			}
		}
		rc.Text = "recomputed in this cycle: " + joinWords(r.Overlapping) + " " +
			plural(len(r.Overlapping), "was", "were") + " already claimed by an earlier entry; before, the mode was " + r.BeforeMode
		if len(rc.BeforeTargets) > 0 {
			rc.Text += " with targets " + joinWords(rc.BeforeTargets)
		}
		v.Recomputed = rc
	}
	v.Sentence = sentence(d)
	return v
}

func podSets(in []trace.PodSetDecision) []PodSet {
	var out []PodSet
	for _, ps := range in {
		v := PodSet{Name: ps.PodSet, Count: ps.Count, Mode: ps.Mode, Message: ps.Message}
		var reqs []string
		for _, q := range ps.Requests {
			t := q.Text
			if t == "" {
				t = amount(q.Resource, q.Amount)
			}
			reqs = append(reqs, q.Resource+" "+t)
		}
		v.Requests = strings.Join(reqs, ", ")
		for _, g := range ps.Groups {
			gv := Group{
				Resources: strings.Join(g.Resources, ", "), Resume: g.ResumeText(), Unavailable: g.Unavailable,
				Chosen: g.Chosen, Why: g.WhyText(), PreferenceNote: g.PreferenceNote, NextIndex: g.TriedIndex,
			}
			for _, a := range g.Attempts {
				gv.Attempts = append(gv.Attempts, Attempt{
					Index: a.Index, Flavor: a.Flavor, Mode: a.Mode, Borrowing: a.Borrowing, Rule: a.RuleText(),
					Continue: a.Continue, Reasons: strings.Join(a.ReasonTexts(), "; "), Best: a.Best,
					Chosen: g.Chosen != "" && a.Flavor == g.Chosen, Targets: a.PreemptionTargets,
				})
			}
			v.Groups = append(v.Groups, gv)
		}
		out = append(out, v)
	}
	return out
}

func preemption(p *trace.Preemption) *Preemption {
	if p == nil {
		return nil
	}
	v := &Preemption{Resources: strings.Join(p.Resources, ", "), Summary: p.Summary}
	targets := map[string]bool{}
	for _, t := range p.Targets {
		targets[t.Workload] = true
		v.Targets = append(v.Targets, Target{
			Workload: t.Workload, ClusterQueue: t.ClusterQueue, Reason: t.Reason, Message: t.Message,
			AlreadyEvicted: t.AlreadyEvicted, Claims: quantities(t.Claims),
		})
	}
	for i, c := range p.Candidates {
		v.Candidates = append(v.Candidates, Candidate{
			N: i + 1, Workload: c.Workload, ClusterQueue: c.ClusterQueue, Priority: c.Priority,
			List: c.List, Reason: c.Reason, Why: c.Why, Evicted: c.Evicted, Claimable: quantities(c.Claimable),
			Target: targets[c.Workload],
		})
	}
	for _, ps := range p.Passes {
		pv := Pass{AllowBorrowing: ps.AllowBorrowing, Fits: ps.Fits}
		var steps []string
		for _, s := range ps.Steps {
			pv.Steps = append(pv.Steps, PassStep{Workload: s.Workload, Action: s.Action, Why: s.Why})
			st := actionWords(s.Action) + " " + s.Workload
			if s.Why != "" {
				st += " (" + s.Why + ")"
			}
			steps = append(steps, st)
		}
		if len(steps) == 0 {
			steps = append(steps, "no candidate to remove")
		}
		head := "without borrowing: "
		if ps.AllowBorrowing {
			head = "with borrowing: "
		}
		tail := "; does not fit"
		if ps.Fits {
			tail = "; fits"
		}
		pv.Text = head + strings.Join(steps, "; ") + tail
		v.Passes = append(v.Passes, pv)
	}
	return v
}

// sentence says a decision in words.
func sentence(d *trace.Decision) string {
	w := d.Workload
	borrowing := "without borrowing"
	if d.Borrowing > 0 {
		borrowing = "by borrowing (level " + itoa(d.Borrowing) + ")"
	}
	switch d.Outcome {
	case trace.OutcomeAdmitted:
		s := w + " was admitted"
		if on := flavorsInWords(d.Admission); on != "" {
			s += " on " + on
		}
		return s + " " + borrowing
	case trace.OutcomePreempting:
		var ts []string
		var newly int
		if p := d.Preemption; p != nil {
			for _, t := range p.Targets {
				s := t.Workload + " (" + t.Reason
				if t.AlreadyEvicted {
					s += ", already evicted"
				} else {
					newly++
				}
				ts = append(ts, s+")")
			}
		}
		if len(ts) == 0 {
			return w + " is preempting and waits for its targets to terminate"
		}
		verb := " preempts "
		if newly == 0 {
			verb = " waits for "
		}
		s := w + verb + joinWords(ts)
		if newly > 0 {
			s += " and waits for " + plural(len(ts), "it", "them") + " to terminate"
		} else {
			s += " to terminate"
		}
		return s
	case trace.OutcomeNeedsPreemption:
		s := w + " needs preemption but no workload can be preempted"
		if len(d.Reserved) > 0 {
			s += "; " + quantities(d.Reserved) + " " + plural(len(d.Reserved), "is", "are") + " reserved for it for the rest of the cycle"
		}
		return s + requeueWords(d)
	case trace.OutcomeNoFit:
		return w + " does not fit in any flavor" + requeueWords(d)
	case trace.OutcomeSkipped:
		why := d.Message
		switch d.SkipReason {
		case "overlappingTargets":
			why = "its preemption targets overlap targets another workload claimed in this cycle"
		case "noLongerFits":
			why = "it no longer fits after an earlier workload of this cycle took the capacity"
		}
		if why == "" {
			return w + " was skipped"
		}
		return w + " was skipped: " + why
	case trace.OutcomeInadmissible:
		why := d.Explanation
		if why == "" {
			why = d.Message
		}
		if why == "" {
			return w + " is inadmissible"
		}
		return w + " is inadmissible: " + why
	}
	return w + ": " + string(d.Outcome)
}

func requeueWords(d *trace.Decision) string {
	if d.Requeue == "parked" {
		return "; it is parked until something changes in its cohort"
	}
	return ""
}

func actionWords(a string) string {
	switch a {
	case "givenBack":
		return "gave back"
	case "kept":
		return "kept"
	}
	return a
}
