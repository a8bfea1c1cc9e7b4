package scenario

// The YAML parser (yaml.v3) builds nested flow collections ([ and {)
// recursively, up to its own limit of 10,000 levels, before checkDepth can
// see the tree. Compiled to WebAssembly, where every Go call is a call on
// the browser's native stack, 10,000 levels can overflow that stack
// (V8's baseline code has large frames), which kills the page's engine. So
// the raw input is scanned first, and flow nesting deeper than
// maxFlowScanDepth is refused before the parser sees it, with checkDepth's
// own message: such a document is deeper than MaxDepth whatever else it
// holds. Shallower nesting is left to checkDepth, which has the final say.
const maxFlowScanDepth = 1000

// deepFlow scans data for flow collections nested more than limit levels
// deep and returns the 1-based line and column (in runes) of the opening
// bracket that passes the limit. The scan is a sketch of YAML's lexical
// rules that errs only towards counting less: it counts [ and { inside
// flow collections, and in block context only where a node starts (a line's
// first token, or after "- ", "? ", ": ", "---" and anchors or tags); it
// skips comments, quoted scalars that start where a node starts, and the
// lines of block scalars (| and >). So it never refuses what checkDepth
// would accept, except for a plain scalar's continuation line that starts
// with [ or { and leaves a thousand of them open.
func deepFlow[T text](data T, limit int) (line, col int, found bool) {
	depth := 0
	var quote byte    // the open quoted scalar's quote, or 0
	blockParent := -1 // while skipping a block scalar: its parent line's indentation
	nodeStart := true // a node may start here
	for lineNo, start := 1, 0; start < len(data); lineNo++ {
		end := start
		for end < len(data) && data[end] != '\n' {
			end++
		}
		ln := data[start:end]
		start = end + 1
		indent := 0
		for indent < len(ln) && ln[indent] == ' ' {
			indent++
		}
		if blockParent >= 0 {
			if isBlank(ln) || indent > blockParent {
				continue
			}
			blockParent = -1
		}
		if depth == 0 && quote == 0 {
			nodeStart = true
		}
		j := 0
		if quote == 0 {
			j = indent
		}
	scan:
		for ; j < len(ln); j++ {
			c := ln[j]
			if quote != 0 {
				switch {
				case quote == '"' && c == '\\':
					j++
				case quote == '\'' && c == '\'' && j+1 < len(ln) && ln[j+1] == '\'':
					j++
				case c == quote:
					quote = 0
					nodeStart = false
				}
				continue
			}
			next := byte(' ')
			if j+1 < len(ln) {
				next = ln[j+1]
			}
			switch {
			case c == ' ' || c == '\t' || c == '\r':
				// Whitespace keeps nodeStart.
			case c == '#' && (j == 0 || ln[j-1] == ' ' || ln[j-1] == '\t'):
				break scan
			case c == '[' || c == '{':
				if depth == 0 && !nodeStart {
					nodeStart = false
					continue
				}
				depth++
				if depth > limit {
					return lineNo, runeColumn(ln, j), true
				}
				nodeStart = true
			case (c == ']' || c == '}') && depth > 0:
				depth--
				nodeStart = false
			case c == ',' && depth > 0:
				nodeStart = true
			case (c == '"' || c == '\'') && nodeStart:
				quote = c
			case (c == '&' || c == '!') && nodeStart:
				// An anchor or a tag: the node starts after it.
				for j+1 < len(ln) && ln[j+1] != ' ' && ln[j+1] != '\t' {
					j++
				}
			case depth == 0 && j == 0 && c == '-' && len(ln) >= 3 && ln[1] == '-' && ln[2] == '-' && (len(ln) == 3 || ln[3] == ' ' || ln[3] == '\t'):
				j += 2 // a document marker
				nodeStart = true
			case depth == 0 && (c == '-' || c == '?' || c == ':') && (next == ' ' || next == '\t' || j+1 == len(ln)):
				nodeStart = true
			case depth > 0 && (c == ':' || c == '?') && (next == ' ' || next == '\t' || next == '[' || next == '{' || next == '"' || next == '\'' || j+1 == len(ln)):
				nodeStart = true
			case depth == 0 && nodeStart && (c == '|' || c == '>'):
				// A block scalar: its lines are those more indented than
				// this one (and blank ones).
				blockParent = indent
				break scan
			default:
				nodeStart = false
			}
		}
	}
	return 0, 0, false
}

func isBlank[T text](ln T) bool {
	for i := 0; i < len(ln); i++ {
		if c := ln[i]; c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// runeColumn is the 1-based column, in runes, of byte i of ln.
func runeColumn[T text](ln T, i int) int {
	col := 1
	for k := 0; k < i; k++ {
		if ln[k]&0xC0 != 0x80 {
			col++
		}
	}
	return col
}
