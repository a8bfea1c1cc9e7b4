package core

import (
	"fmt"
	"strings"
)

// Severity tells an error from a warning.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Diagnostic is one problem found in a scenario file: where it is, which
// field (a path such as "spec.resourceGroups[0].flavors[1].resources[0].nominalQuota"),
// and what is wrong.
type Diagnostic struct {
	Pos      Pos      `json:"pos"`
	Severity Severity `json:"severity"`
	// Object is "Kind/name" (or "Kind/namespace/name") when the problem is
	// inside one object.
	Object  string `json:"object,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// String formats the diagnostic as "file:line:col: [warning: ]Kind/name: field: message".
func (d Diagnostic) String() string {
	var b strings.Builder
	file := d.Pos.File
	if file == "" {
		file = "<input>"
	}
	fmt.Fprintf(&b, "%s:%d:%d: ", file, d.Pos.Line, d.Pos.Col)
	if d.Severity == SeverityWarning {
		b.WriteString("warning: ")
	}
	if d.Object != "" {
		b.WriteString(d.Object)
		b.WriteString(": ")
	}
	if d.Field != "" {
		b.WriteString(d.Field)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// DiagnosticsError is the error returned for a file with at least one
// error-severity diagnostic. Diagnostics are in file order.
type DiagnosticsError struct {
	Diagnostics []Diagnostic
}

func (e *DiagnosticsError) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}
