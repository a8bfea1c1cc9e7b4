package view

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kueueplay/kueueplay/core/trace"
)

// SVGOptions are the options of SVG.
type SVGOptions struct {
	// Theme is "light" (the default) or "dark".
	Theme string
	// Width is the drawing's width in pixels (default 900, at least 600).
	Width int
	// Heading, if set, is written above the step's title (the scenario's
	// name, for instance).
	Heading string
}

// theme is a palette. Every color is written as a presentation attribute:
// the drawing has no <style>, no script and no external reference, so it
// renders the same inline, as an <img> and in a README.
type theme struct {
	bg, text, muted, track, border, accent, limit string
	seg                                           map[SegmentKind]string
	outcome                                       map[trace.Outcome]string
}

func themeFor(name string) theme {
	if name == "dark" {
		return theme{
			bg: "#0f172a", text: "#e2e8f0", muted: "#94a3b8", track: "#1e293b", border: "#475569",
			accent: "#f87171", limit: "#fb7185",
			seg: map[SegmentKind]string{
				SegUsed: "#3b82f6", SegHeldBack: "#64748b", SegLent: "#a78bfa", SegFree: "#1e3a5f", SegBorrowed: "#f59e0b",
				SegOverCommitted: "#f87171",
			},
			outcome: map[trace.Outcome]string{
				trace.OutcomeAdmitted: "#15803d", trace.OutcomePreempting: "#c2410c", trace.OutcomeNeedsPreemption: "#b45309",
				trace.OutcomeNoFit: "#b91c1c", trace.OutcomeSkipped: "#475569", trace.OutcomeInadmissible: "#6d28d9",
			},
		}
	}
	return theme{
		bg: "#ffffff", text: "#1f2937", muted: "#6b7280", track: "#f3f4f6", border: "#9ca3af",
		accent: "#dc2626", limit: "#e11d48",
		seg: map[SegmentKind]string{
			SegUsed: "#2563eb", SegHeldBack: "#9ca3af", SegLent: "#8b5cf6", SegFree: "#dbeafe", SegBorrowed: "#f59e0b",
			SegOverCommitted: "#b91c1c",
		},
		outcome: map[trace.Outcome]string{
			trace.OutcomeAdmitted: "#16a34a", trace.OutcomePreempting: "#ea580c", trace.OutcomeNeedsPreemption: "#d97706",
			trace.OutcomeNoFit: "#dc2626", trace.OutcomeSkipped: "#6b7280", trace.OutcomeInadmissible: "#7c3aed",
		},
	}
}

// Layout constants, in pixels. Text is 12px sans-serif, whose characters
// are at most about 7px wide on average; texts are cut to fit.
const (
	svgPad    = 16
	svgLine   = 18
	svgIndent = 16
	charWidth = 6.2
	labelCol  = 230 // the bars start here
	barWidth  = 300
	barHeight = 11
	pillWidth = 118
)

// SVG draws a step as one self-contained SVG document: the title, the
// quota bars of the cohort forest (indented by depth; a red dot marks the
// rows that changed in the step), the queues, the decisions in words, the
// events and the KEP-4378 claims.
func SVG(st Step, opts SVGOptions) *Node {
	th := themeFor(opts.Theme)
	width := opts.Width
	if width == 0 {
		width = 900
	}
	width = max(width, 600)
	d := &svgDraw{th: th, w: width, y: svgPad}
	body := El("g")
	d.g = body

	if opts.Heading != "" {
		d.text(svgPad, opts.Heading, d.maxChars(svgPad), "font-weight", "bold", "font-size", "14")
		d.y += svgLine
	}
	d.text(svgPad, st.Title, d.maxChars(svgPad), "font-weight", "bold", "font-size", "14")
	d.y += svgLine
	sub := "step " + itoa(st.Index) + " of " + itoa(max(0, st.Total-1)) + " · t=" + st.Time + " · "
	switch st.Kind {
	case trace.StepCycle:
		sub += "cycle " + itoa(st.Cycle)
	case trace.StepInitial:
		sub += "initial state"
	default:
		sub += "events after cycle " + itoa(st.Cycle)
	}
	d.text(svgPad, sub, d.maxChars(svgPad), "fill", th.muted)
	d.y += svgLine + 6

	if len(st.Quota) > 0 {
		d.heading("Quota")
		d.legend(OverCommitted(st.Quota))
		Walk(st.Quota, d.quotaNode)
		d.y += 6
	}
	if len(st.Queues) > 0 {
		d.heading("Queues")
		for i := range st.Queues {
			d.queue(&st.Queues[i])
		}
		d.y += 6
	}
	if len(st.Decisions) > 0 {
		d.heading("Decisions")
		for i := range st.Decisions {
			d.decision(&st.Decisions[i])
		}
		d.y += 6
	}
	if len(st.Events) > 0 {
		d.heading("Events")
		for _, e := range st.Events {
			d.wrapped(svgPad, e.Text, 2)
		}
		d.y += 6
	}
	if len(st.Claims) > 0 {
		d.heading("Claims (KEP-4378)")
		for _, c := range st.Claims {
			d.wrapped(svgPad, c.Text, 2)
		}
		d.y += 6
	}
	height := d.y + svgPad - 6
	w, h := itoa(width), itoa(height)
	root := El("svg", "xmlns", "http://www.w3.org/2000/svg", "width", w, "height", h, "viewBox", "0 0 "+w+" "+h,
		"font-family", "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif",
		"font-size", "12", "fill", th.text, "role", "img", "aria-label", st.Title)
	root.Add(&Node{Tag: "title", Text: st.Title},
		El("rect", "x", "0", "y", "0", "width", w, "height", h, "fill", th.bg), body)
	return root
}

type svgDraw struct {
	th theme
	w  int
	y  int // the top of the next row
	g  *Node
}

// maxChars is how many characters fit between x and the right margin.
func (d *svgDraw) maxChars(x int) int { return max(4, int(float64(d.w-svgPad-x)/charWidth)) }

// text writes one line at x whose top is d.y, cut to n characters.
func (d *svgDraw) text(x int, s string, n int, attrs ...string) *Node {
	t := El("text", append([]string{"x", itoa(x), "y", itoa(d.y + 13)}, attrs...)...)
	t.Text = truncate(s, n)
	if t.Text != s {
		t.Add(&Node{Tag: "title", Text: s})
	}
	d.g.Add(t)
	return t
}

func (d *svgDraw) heading(s string) {
	d.text(svgPad, s, d.maxChars(svgPad), "font-weight", "bold", "font-size", "13")
	d.y += svgLine + 2
}

// wrapped writes s word-wrapped from x to the right margin, on at most
// lines lines.
func (d *svgDraw) wrapped(x int, s string, lines int, attrs ...string) {
	for _, l := range wrap(s, d.maxChars(x), lines) {
		d.text(x, l, d.maxChars(x)+1, attrs...)
		d.y += svgLine
	}
}

func (d *svgDraw) legend(overCommitted bool) {
	x := svgPad
	type item struct {
		k     SegmentKind
		label string
	}
	items := []item{{SegUsed, "used"}, {SegBorrowed, "borrowed"}, {SegLent, "lent"}, {SegHeldBack, "held back (lending limit)"}, {SegFree, "free"}}
	if overCommitted {
		// Only pasted admissions over-commit a queue; the entry is shown
		// when a bar of the step has the segment.
		items = append(items, item{SegOverCommitted, "over-committed"})
	}
	for _, it := range items {
		d.g.Add(El("rect", "x", itoa(x), "y", itoa(d.y+4), "width", "10", "height", "10", "fill", d.th.seg[it.k], "stroke", d.th.border, "stroke-width", "0.5"))
		d.text(x+14, it.label, 40, "fill", d.th.muted)
		x += 14 + int(float64(utf8.RuneCountInString(it.label))*charWidth) + 14
	}
	d.g.Add(El("line", "x1", itoa(x), "y1", itoa(d.y+3), "x2", itoa(x), "y2", itoa(d.y+15), "stroke", d.th.text, "stroke-width", "1.5"))
	d.text(x+5, "quota", 10, "fill", d.th.muted)
	x += 5 + int(5*charWidth) + 14
	d.g.Add(El("line", "x1", itoa(x), "y1", itoa(d.y+3), "x2", itoa(x), "y2", itoa(d.y+15), "stroke", d.th.limit, "stroke-width", "1.5", "stroke-dasharray", "3 2"))
	d.text(x+5, "borrowing limit", 20, "fill", d.th.muted)
	d.y += svgLine + 4
}

func (d *svgDraw) quotaNode(n *QuotaNode) {
	x := svgPad + n.Depth*svgIndent
	d.text(x, n.Kind+" "+n.Name, max(4, int(float64(labelCol-8-x)/charWidth))+30, "font-weight", "bold")
	if len(n.Bars) == 0 {
		d.text(labelCol, "no quota rows", 30, "fill", d.th.muted)
	}
	d.y += svgLine
	for i := range n.Bars {
		d.bar(x+svgIndent, &n.Bars[i])
		d.y += svgLine
	}
}

func (d *svgDraw) bar(x int, b *Bar) {
	th := d.th
	if b.Changed {
		d.g.Add(El("circle", "cx", itoa(x-7), "cy", itoa(d.y+9), "r", "3", "fill", th.accent))
	}
	d.text(x, b.Label, max(4, int(float64(labelCol-8-x)/charWidth)))
	top := d.y + 3
	px := func(v int64) string { return px(float64(labelCol) + b.Frac(v)*barWidth) }
	outline := th.border
	sw := "0.5"
	if b.Changed {
		outline, sw = th.accent, "1.5"
	}
	bar := El("g")
	bar.Add(&Node{Tag: "title", Text: b.Label + ": " + b.Text})
	bar.Add(El("rect", "x", itoa(labelCol), "y", itoa(top), "width", itoa(barWidth), "height", itoa(barHeight), "fill", th.track))
	for _, s := range b.Segments {
		r := El("rect", "x", px(s.Start), "y", itoa(top), "width", px1(b.Frac(s.Size)*barWidth), "height", itoa(barHeight), "fill", th.seg[s.Kind])
		r.Add(&Node{Tag: "title", Text: s.Title})
		bar.Add(r)
	}
	bar.Add(El("rect", "x", itoa(labelCol), "y", itoa(top), "width", itoa(barWidth), "height", itoa(barHeight),
		"fill", "none", "stroke", outline, "stroke-width", sw))
	q := px(b.QuotaAt)
	bar.Add(El("line", "x1", q, "y1", itoa(top-2), "x2", q, "y2", itoa(top+barHeight+2), "stroke", th.text, "stroke-width", "1.5"))
	if b.BorrowingLimitAt >= 0 {
		l := px(b.BorrowingLimitAt)
		bar.Add(El("line", "x1", l, "y1", itoa(top-2), "x2", l, "y2", itoa(top+barHeight+2), "stroke", th.limit, "stroke-width", "1.5", "stroke-dasharray", "3 2"))
	}
	d.g.Add(bar)
	tx := labelCol + barWidth + 10
	d.text(tx, b.Text, d.maxChars(tx), "fill", th.muted)
}

func (d *svgDraw) queue(q *Queue) {
	name := d.text(svgPad, q.ClusterQueue, (labelCol-svgPad-8)*10/62, "font-weight", "bold")
	if !q.Active {
		name.Attrs = append(name.Attrs, Attr{"fill", d.th.accent})
	}
	d.text(labelCol, q.Text, d.maxChars(labelCol))
	d.y += svgLine
	if q.Pending.Count > 1 || q.Nominated != "" {
		s := ""
		if q.Nominated != "" {
			s = "nominated " + q.Nominated
		}
		if q.Pending.Count > 1 {
			if s != "" {
				s += "; "
			}
			s += "queue: " + strings.Join(q.Pending.Names, ", ")
			if q.Pending.More > 0 {
				s += " and " + itoa(q.Pending.More) + " more"
			}
		}
		d.text(labelCol, s, d.maxChars(labelCol), "fill", d.th.muted)
		d.y += svgLine
	}
}

func (d *svgDraw) decision(dc *Decision) {
	color := d.th.outcome[dc.Outcome]
	if color == "" {
		color = d.th.muted
	}
	d.g.Add(El("rect", "x", itoa(svgPad), "y", itoa(d.y+2), "width", itoa(pillWidth), "height", "15", "rx", "7", "fill", color))
	d.text(svgPad+pillWidth/2, string(dc.Outcome), 18, "fill", "#ffffff", "text-anchor", "middle", "font-size", "11")
	d.wrapped(svgPad+pillWidth+10, dc.Sentence, 3)
}

// px formats a coordinate with at most one decimal.
func px(v float64) string {
	return strconv.FormatFloat(float64(int64(v*10+0.5))/10, 'f', -1, 64)
}

// px1 is px for a width: a visible segment is at least 0.5px wide.
func px1(v float64) string { return px(max(v, 0.5)) }

// truncate cuts s to n characters, ending it with "…" when cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	i, k := 0, 0
	for k < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return strings.TrimRight(s[:i], " ") + "…"
}

// wrap splits s into at most lines lines of at most n characters at
// spaces; a word longer than a line is cut; the last line ends with "…"
// when text is left over.
func wrap(s string, n, lines int) []string {
	var out []string
	words := strings.Fields(s)
	cur := ""
	for i, w := range words {
		switch {
		case cur == "":
			cur = w
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) <= n:
			cur += " " + w
		default:
			out = append(out, truncate(cur, n))
			cur = w
		}
		if len(out) == lines-1 && i < len(words)-1 && utf8.RuneCountInString(cur) > 0 {
			// Everything left goes on the last line.
			cur = strings.Join(append([]string{cur}, words[i+1:]...), " ")
			break
		}
	}
	if cur != "" || len(out) == 0 {
		out = append(out, truncate(cur, n))
	}
	return out
}
