package trace

import "reflect"

// fieldsOf lists a struct type's fields as "Name Type Tag".
func fieldsOf(v any) []string {
	var out []string
	typ := reflect.TypeOf(v)
	for i := range typ.NumField() {
		f := typ.Field(i)
		out = append(out, f.Name+" "+f.Type.String()+" "+string(f.Tag))
	}
	return out
}

// JSONHeadFields and JSONTailFields describe WriteJSON's halves, for
// TestWriteJSONFields.
func JSONHeadFields() []string { return fieldsOf(jsonHead{}) }
func JSONTailFields() []string { return fieldsOf(jsonTail{}) }

// diffList is differ.diff with fresh scratch space.
func diffList(old, new []string) *ListEdit {
	var d differ
	return d.diffNames(old, new)
}

// diffNames is diff for lists of names, numbered in a table of their own.
func (d *differ) diffNames(old, new []string) *ListEdit {
	var c Compactor
	o, n := c.number(old), c.number(new)
	return d.diff(o, n, c.names)
}
