package layout

import (
	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/ui/view"
)

// Difference lays out Compare mode's banner (#difference): a
// div.difference-body holding, for a nil difference, "The two runs agree
// at every cycle." (data-agree="true"); otherwise (data-agree="false",
// data-cycle) the difference in one sentence (p.difference-text), each
// side's value labelled (dl.sides: dd.left, dd.right) and where it is
// (p.where: the cycle and the step each side shows).
func Difference(d *view.Difference) *view.Node {
	div := el("div", "class", "difference-body")
	if d == nil {
		div.Attrs = append(div.Attrs, view.Attr{Name: "data-agree", Value: "true"})
		return div.Add(txt("p", "The two runs agree at every cycle.", "class", "difference-text agree"))
	}
	div.Attrs = append(div.Attrs, view.Attr{Name: "data-agree", Value: "false"}, view.Attr{Name: "data-cycle", Value: itoa(d.Cycle)})
	div.Add(txt("p", d.Text, "class", "difference-text"))
	sides := el("dl", "class", "sides")
	if d.Workload != "" {
		sides.Add(txt("dt", "Workload"), txt("dd", d.Workload, "class", "workload"))
	}
	sides.Add(txt("dt", "Left"), txt("dd", d.Left, "class", "left"))
	sides.Add(txt("dt", "Right"), txt("dd", d.Right, "class", "right"))
	div.Add(sides)
	where := "before the first cycle"
	if d.Cycle > 0 {
		where = "at cycle " + itoa(d.Cycle)
	}
	where += "; step " + itoa(d.LeftStep) + " on the left, step " + itoa(d.RightStep) + " on the right"
	return div.Add(txt("p", where, "class", "where"))
}

// Problems lays out the editor's problems (#problems): a ul.problems
// with one li[data-severity=error|warning] per diagnostic, in the order
// given, holding a button[data-goto-line][data-goto-col] that reads
// "line:col severity object: field: message" (a diagnostic without a line
// gets no button, only the text). err, when not empty (a failure that is
// not a diagnostic), comes last as one more li[data-severity=error]
// without a position.
func Problems(diags []core.Diagnostic, err string) *view.Node {
	ul := el("ul", "class", "problems")
	for _, d := range diags {
		sev := string(d.Severity)
		if d.Severity != core.SeverityWarning {
			sev = string(core.SeverityError)
		}
		li := el("li", "class", sev, "data-severity", sev)
		var parts []*view.Node
		if d.Pos.Line > 0 {
			parts = append(parts, span("pos", itoa(d.Pos.Line)+":"+itoa(max(d.Pos.Col, 1))))
		}
		parts = append(parts, span("sev", sev))
		if d.Object != "" {
			parts = append(parts, span("object", d.Object+":"))
		}
		if d.Field != "" {
			parts = append(parts, span("field", d.Field+":"))
		}
		parts = append(parts, span("msg", d.Message))
		if d.Pos.Line > 0 {
			b := button("link goto", "data-goto-line", itoa(d.Pos.Line), "data-goto-col", itoa(max(d.Pos.Col, 1)),
				"title", "go to line "+itoa(d.Pos.Line)+", column "+itoa(max(d.Pos.Col, 1)))
			li.Add(b.Add(parts...))
		} else {
			li.Add(parts...)
		}
		ul.Add(li)
	}
	if err != "" {
		ul.Add(el("li", "class", "error", "data-severity", "error").Add(span("sev", "error"), span("msg", err)))
	}
	return ul
}

// ProblemCount says how many problems there are: "no problems", "1 error",
// "2 errors, 1 warning", "3 warnings". A non-empty err counts as one
// error.
func ProblemCount(diags []core.Diagnostic, err string) string {
	errs, warns := 0, 0
	for _, d := range diags {
		if d.Severity == core.SeverityWarning {
			warns++
		} else {
			errs++
		}
	}
	if err != "" {
		errs++
	}
	switch {
	case errs == 0 && warns == 0:
		return "no problems"
	case warns == 0:
		return count(errs, "error", "errors")
	case errs == 0:
		return count(warns, "warning", "warnings")
	}
	return count(errs, "error", "errors") + ", " + count(warns, "warning", "warnings")
}

// Example is one bundled example scenario, as scripts/scenarioindex
// writes it to scenarios/index.json.
type Example struct {
	// File is the file name in the scenarios directory ("default.yaml").
	File string `json:"file"`
	// Name is the Scenario's metadata.name.
	Name string `json:"name"`
	// Group is the file name up to its first "-" ("preemption").
	Group string `json:"group"`
	// Description is the Scenario's spec.description.
	Description string `json:"description,omitempty"`
}

// Gallery lays out the examples for dialog#gallery: a div.gallery with one
// section.gallery-group[data-group] per group, in the order the groups
// first appear, each with an h3 (the group) and, per example in the order
// given, a button.example[type=button][data-example=FILE] holding
// span.example-name and span.example-description (clamped by CSS; the
// full description is also the button's title).
func Gallery(examples []Example) *view.Node {
	div := el("div", "class", "gallery-groups")
	if len(examples) == 0 {
		return div.Add(txt("p", "No examples.", "class", "empty"))
	}
	var order []string
	byGroup := map[string][]int{}
	for i, e := range examples {
		if _, ok := byGroup[e.Group]; !ok {
			order = append(order, e.Group)
		}
		byGroup[e.Group] = append(byGroup[e.Group], i)
	}
	for _, g := range order {
		title := g
		if title == "" {
			title = "other"
		}
		sec := el("section", "class", "gallery-group", "data-group", g).Add(txt("h3", title))
		list := el("div", "class", "examples")
		for _, i := range byGroup[g] {
			e := &examples[i]
			name := e.Name
			if name == "" {
				name = e.File
			}
			b := button("example", "data-example", e.File)
			attr(b, "title", e.Description)
			b.Add(span("example-name", name))
			if e.Description != "" {
				b.Add(span("example-description", e.Description))
			}
			list.Add(b)
		}
		sec.Add(list)
		div.Add(sec)
	}
	return div
}

// Controls is what fills a variant's form (the #controls and
// #compare-controls boxes of the page): the feature-gate list, one
// label.gate with input[type=checkbox][data-gate=NAME] per gate, and the
// policy list, one label.setting holding select[data-setting=KEY] per
// setting, whose first option (value "") keeps each queue's own value.
// Each is a fragment (an element without a tag) whose children fill the
// box's div.gate-list and div.setting-list; ui/app sets the values.
func Controls(gates []string, settings []view.SettingSpec) (gateList, settingList *view.Node) {
	gateList = el("")
	for _, name := range gates {
		gateList.Add(el("label", "class", "gate").Add(
			el("input", "type", "checkbox", "data-gate", name),
			txt("span", " "+name),
		))
	}
	settingList = el("")
	for _, spec := range settings {
		sel := el("select", "data-setting", spec.Key).Add(txt("option", "as each queue says", "value", ""))
		for _, v := range spec.Values {
			sel.Add(txt("option", v, "value", v))
		}
		label := txt("label", spec.Key+" ", "class", "setting", "title", spec.Field+" of every ClusterQueue")
		settingList.Add(label.Add(sel))
	}
	return gateList, settingList
}
