//go:build js && wasm

// Package app is the browser playground's DOM glue on the page's thread:
// it runs inside the page's instance of the WebAssembly module
// (wasm/main.go) and keeps the controls, the editor's text (as a
// JavaScript string, never copied into Go whole), the links and Compare
// mode. It holds no trace: the engine's Web Worker (a second instance of
// the same module, wasm/worker.go with ui/engine) decodes, simulates,
// keeps the runs and lays out what the page draws. A run (runJob in
// app.go) sends the text to the worker and shows its problems, its
// progress and its result (a summary, the event log, the marks, the
// first step, laid out); a step, the Overview or a download is asked of
// the worker about the run on screen (App.ask; steps by site/boot.js's
// kueueplayBoot.views, which also draws them). Laid-out trees come as
// JSON (layout.JSON) that boot.js's render materializes with
// createElement/setAttribute and text nodes (never HTML parsing), without
// this package reading them. Share fragments are compressed by the
// browser (encodeFragment), so compress/flate is not in the module. It
// holds no logic a test would want to check natively: what is shown is
// decided in ui/view, ui/layout and ui/engine.
//
// # The page contract
//
// The end-to-end tests (e2e/) and the layout (ui/layout, site/panels.css)
// rely on these names; change them only together.
//
// Static elements in site/index.html:
//
//	#app                 root; data-ready="true" once the first run is shown;
//	                     data-step (current step index), data-steps (count),
//	                     data-compare="true" in Compare mode; data-embed="true"
//	                     in embed mode and data-editable="true" when that
//	                     embed shows the editor (both also on html)
//	#status              role=status; data-state = loading | ready | running |
//	                     error | cancelled; while a long run goes on it says
//	                     "… cycle N …" and has aria-busy=true
//	#open-gallery        opens dialog#gallery
//	#scenario-name       the loaded example's name, or "edited"/"shared"
//	                     (an embed shows the scenario's metadata.name)
//	#description         the scenario's spec.description
//	#run                 runs the editor's text (Ctrl+Enter / Cmd+Enter)
//	#cancel-run          shown only while a run has gone on for more than one
//	                     time slice (~30 ms): stops it (also Escape, outside
//	                     dialogs), and the steps that ran are shown with
//	                     #status cancelled ("Cancelled by the user at cycle
//	                     N…"). Any new run (an edit, #run, a gate, an
//	                     example) cancels the one in progress first.
//	#compare             toggles Compare mode (aria-pressed)
//	#share               copies a share link: a short link from the API
//	                     (POST v1/share, relative to the page; 3 s at most)
//	                     or, when that fails, the full link (#v1.…); the link
//	                     is also put in input#share-url (shown after the first
//	                     click) with data-kind = short | full and, for a short
//	                     link, the full one in its title; #status says "Short
//	                     link copied…" or "Full link copied…"
//	#share-full          shown next to a short link: shows and copies the
//	                     full link instead
//	#open-playground     embed mode only: a link (target=_blank,
//	                     rel=noopener) to the full playground with the same
//	                     scenario, step, gates and settings (the URL below,
//	                     without the embed parameters)
//	#download-json       downloads the trace as JSON (trace-<name>.json)
//	#download-svg        downloads the current step as SVG (<name>-step-<n>.svg)
//	#theme               cycles the theme: auto, light, dark
//	                     (html[data-theme] = light | dark, absent for auto)
//	#help                opens dialog#help-dialog (also the "?" key)
//	#editor              the CodeMirror editor (an open shadow root;
//	                     .cm-content inside it is the text,
//	                     .cm-lint-marker-error the gutter markers). It is
//	                     loaded after the first result (or at once on a
//	                     click on the text); until then pre.editor-text in
//	                     #editor shows the text, and once it is there
//	                     #editor has data-ready="true". A text over
//	                     1 MiB (set, pasted, dropped or opened with
//	                     #open-file) is kept out of the editor: #editor is
//	                     hidden and section#large-text (data-bytes, its
//	                     size) shows its size and first lines read-only,
//	                     with button.edit-anyway to edit it; it runs as
//	                     any text does. A paste
//	                     or drop that would make the text longer than
//	                     maxPageBytes (32 MiB) is refused before the editor
//	                     takes it in: the text and the run on screen stay,
//	                     #problems has one error at 1:1 ("the pasted text
//	                     is N bytes; the playground runs at most 33554432
//	                     bytes …", or "the text after this paste", "the
//	                     dropped file "F"", …) and #status is error, "Not
//	                     put in the editor: …". A run of longer text (typed)
//	                     gives the same error as "the text is N bytes".
//	#open-file           opens a file (input#file-input), as a drop does
//	#problem-count       "no problems", "1 error", "2 errors, 1 warning"
//	#problems            ul; one li[data-severity] per diagnostic holding a
//	                     button[data-goto-line][data-goto-col]
//	#gates               fieldset; input[type=checkbox][data-gate=NAME] per
//	                     feature gate (checked = enabled in this run)
//	#settings            fieldset; select[data-setting=KEY] with KEY one of
//	                     whenCanBorrow, whenCanPreempt, preference,
//	                     withinClusterQueue, reclaimWithinCohort,
//	                     borrowWithinCohort; value "" keeps the scenario's
//	#compare-controls    Compare mode only: the right-hand variant's
//	                     input[data-gate] and select[data-setting], the same
//	                     shapes as above; #difference (the first difference
//	                     in words, data-cycle when there is one) and
//	                     #goto-difference (moves both sides to it)
//	#first #prev #play #next #last
//	                     step buttons; #play has aria-pressed while playing
//	#speed               select: steps per second (0.5, 1, 2, 4, 8)
//	#scrubber            input[type=range] over step indexes
//	#marks               one mark per step, built by layout.Marks
//	#step-label          "Step 4 of 12"
//	#overview            toggles the Overview (aria-pressed; also the O key);
//	                     disabled until the first result, absent from a
//	                     read-only embed
//	#overview-panel      section.panel[data-panel=overview], hidden until
//	                     #overview is pressed: charts of the whole
//	                     left-hand run (ui/layout's Overview documents the
//	                     markup). Its .panel-body gets data-ready="true"
//	                     once the charts are mounted; each chart box is
//	                     [data-chart=ID] (usage-N, pending, timeline) with
//	                     data-series (labels joined by "|") and
//	                     data-series-count, or data-lanes and
//	                     data-preemptions for the timeline, and
//	                     data-drawn="true" once drawn (when first scrolled
//	                     into view). window.kueueplayCharts.inspect() lists
//	                     the drawn charts with uPlot's own series labels;
//	                     clientPoint(id, ms[, lane]) is where a time is on
//	                     the page. A click on a chart moves the view to the
//	                     last step at or before the time under the pointer
//	                     (or within 3 px before a step's time: that step; on a
//	                     preemption mark of the timeline: that
//	                     preemption's step), through kueueplayBoot.gotoStep
//	#step-title          the step's title (view.Step.Title)
//	#view-left           the main view; #view-right the Compare mode's right
//	                     side (hidden otherwise). Each holds
//	                     section.panel[data-panel=quota|queues|decision|events]
//	                     and, shown only for a scenario with Nodes,
//	                     section.panel[data-panel=placement|nodes]; their
//	                     content comes from ui/layout
//	dialog#gallery       examples grouped by section[data-group]; each a
//	                     button[data-example=FILE]
//	dialog#help-dialog   the keyboard shortcuts
//
// Inside the panels (ui/layout documents the full markup), the tests use:
// .decision[data-workload][data-outcome] per decision (with class differs
// at Compare mode's first difference), ul.targets li[data-workload]
// [data-reason] for its preemption targets, the event log's
// li[data-step] > button[data-goto-step][data-kind][data-outcome]
// (li.current for the step shown; only the first 2,000 entries, then
// li.more saying how many follow), and the marks' [data-goto-step]
// (.current, .differs; none for a run of over 2,000 steps); in the placement panels, .placement[data-pod]
// [data-outcome][data-node] with table.verdicts tbody[data-node] (.chosen,
// .rejected), li.pending-pod[data-pod], li.removed[data-pod][data-cost],
// and in the nodes panel .unit[data-unit][data-full] holding
// li.node[data-node] with li.pod[data-pod][data-unit][data-cost].
//
// Attributes the glue acts on, anywhere in rendered content: a click on an
// element with data-goto-step moves its view to that step;
// data-goto-line/data-goto-col put the editor's cursor there; data-example
// loads that example.
//
// Timings, for the budget script: every run that is shown records the
// performance measure "kueueplay:run" (decode, simulate, build the view
// and render; for a long run, its pauses for the page too), every step
// move "kueueplay:step", every Overview drawn (once per run, when it is
// open: from its opening, through the worker's answer or the one sent
// with a long run's, to its panel drawn and its series handed to the
// charts; not the charts' drawing) "kueueplay:overview",
// and the first result shown the mark
// "kueueplay:first-result"; boot.js marks "kueueplay:editor-text" when
// the scenario's text is shown, "kueueplay:editor-ready" when the
// editor has loaded, and "kueueplay:charts-ready" when the chart bundle
// (charts.js and charts.css: uPlot), loaded the first time the Overview
// is opened or when the page is idle after a long run's first result,
// has.
//
// Embed mode, for an iframe (site/embed.js makes them): ?embed=1 with any
// of the ways below to name the state, optionally &editable=1 (keep the
// editor) and &theme=light|dark. boot.js marks the page as soon as it is
// parsed; the CSS then shows only the step controls, the panels and
// #scenario-name, #status (loading or error only) and #open-playground;
// an editable one also the editor, #run and the gates and policies.
// A read-only embed has no CodeMirror (boot.js keeps the text), no
// gallery and no service worker. Inside a frame, boot.js posts the page's
// height to the parent whenever it changes:
// parent.postMessage({type: "kueueplay:size", height: <px>}, "*"). The
// embed's own URL keeps its embed parameters as it follows the step.
//
// The URL: an unedited example is ?example=NAME&step=N (plus
// gates=A=true,B=false and settings=key=value,... when set, and
// compare=1&cgates=...&csettings=... in Compare mode; view.Location);
// anything else is a share fragment (#v1.…, ui/sharelink). Both
// follow the step with history.replaceState, 150 ms after the last move.
// The Share button always writes a fragment with the scenario's text, so a
// shared link keeps working if the example changes.
package app
