package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// JSON input (`kubectl get -o json`) is decoded as the YAML it is: yaml.v3
// reads it with JSON's lines and columns. Two things need help:
//
//   - A syntax error. yaml.v3 reports the start of the construct that is
//     not closed properly, which in a JSON dump is the start of a List
//     item hundreds of lines above the missing comma. encoding/json's
//     scanner gives the byte where the error is.
//   - The escape \/ (JSON's optional escape of "/"), which yaml.v3 does
//     not know. It is unescaped before parsing, and the columns it shifts
//     are put back in pos.

// looksJSON reports whether data is meant as JSON: its first significant
// byte opens an array, or an object whose first key is double-quoted (or
// which is empty). A YAML flow mapping with plain keys ({a: 1}) is not.
func looksJSON[T text](data T) bool {
	i := skipJSONSpace(data, 0)
	if i == len(data) {
		return false
	}
	switch data[i] {
	case '[':
		return true
	case '{':
		i = skipJSONSpace(data, i+1)
		return i < len(data) && (data[i] == '"' || data[i] == '}')
	}
	return false
}

// skipJSONSpace returns the index of the first byte of data from i on
// that is not JSON white space, or len(data).
func skipJSONSpace[T text](data T, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// jsonError is the first JSON syntax error of input file, at its line and
// column (in characters, as yaml.v3 counts them), or nil for valid JSON.
func jsonError(file string, data []byte) *core.Diagnostic {
	if json.Valid(data) {
		return nil
	}
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return nil
	}
	at := int(min(max(se.Offset-1, 0), int64(len(data))))
	line := bytes.Count(data[:at], []byte("\n")) + 1
	col := utf8.RuneCount(data[bytes.LastIndexByte(data[:at], '\n')+1:at]) + 1
	msg := se.Error()
	if strings.Contains(msg, "after top-level value") {
		msg += " (one JSON value per file: give several files, or a kind: List)"
	}
	return &core.Diagnostic{
		Pos:      core.Pos{File: file, Line: line, Col: col},
		Severity: core.SeverityError,
		Message:  printable("invalid JSON: "+msg, maxEchoedMessage),
	}
}

// unescapeSlashes replaces each \/ in the strings of valid JSON data by /
// and returns, per line, the columns (in characters, after the
// replacement) of the slashes it unescaped: a node after one of them on
// its line is one column further right in the input than yaml.v3 says.
func unescapeSlashes(data []byte) ([]byte, map[int][]int) {
	if !bytes.Contains(data, []byte(`\/`)) {
		return data, nil
	}
	out := make([]byte, 0, len(data))
	fixes := map[int][]int{}
	line, lineStart := 1, 0 // lineStart indexes out
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line, lineStart = line+1, len(out)+1
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(data):
			if data[i+1] == '/' {
				fixes[line] = append(fixes[line], utf8.RuneCount(out[lineStart:])+1)
				out = append(out, '/')
				i++
				continue
			}
			out = append(out, c, data[i+1]) // \" and \\ do not end or start anything
			i++
			continue
		}
		out = append(out, c)
	}
	return out, fixes
}

// column is yaml.v3's column of node n, in input f, corrected for the
// slashes unescaped on its line.
func (f *fileSpan) column(line int, n *yaml.Node) int {
	col := n.Column
	if len(f.slashes) == 0 {
		return col
	}
	for _, c := range f.slashes[line] {
		if c < n.Column {
			col++
		}
	}
	return col
}

// prepareJSON readies input k for yaml.v3. Valid JSON has its \/ escapes
// unescaped. For input that looks like JSON but is not valid JSON, it
// returns the JSON syntax error, for parse to report instead of yaml.v3's
// if yaml.v3 fails too (a YAML flow mapping with a quoted first key may
// be valid YAML).
func (d *decoder) prepareJSON(k int, data []byte) ([]byte, *core.Diagnostic) {
	if !looksJSON(data) {
		return data, nil
	}
	if diag := jsonError(d.files[k].name, data); diag != nil {
		return data, diag
	}
	data, d.files[k].slashes = unescapeSlashes(data)
	return data, nil
}
