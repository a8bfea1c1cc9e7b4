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
	return d.diff(old, new)
}
