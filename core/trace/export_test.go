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
	if !d.diff(o, n) {
		return nil
	}
	e := &ListEdit{}
	for _, x := range d.del {
		e.Del = append(e.Del, int(x))
	}
	for i := 0; i < len(d.ins); i += 2 {
		e.Ins = append(e.Ins, Insert{At: int(d.ins[i]), Name: c.names[d.ins[i+1]]})
	}
	return e
}

// packQueueChanges returns cs packed (nil for none), the inserted names
// numbered in order; false when a number does not fit the packing.
func packQueueChanges(cs []QueueChange) (*QueueDelta, bool) {
	if len(cs) == 0 {
		return nil, true
	}
	d := &QueueDelta{N: len(cs)}
	var ops []int
	for i := range cs {
		c := &cs[i]
		ops = append(ops, c.Queue, c.PendingCount, c.ParkedCount, c.AdmittedCount, c.TerminatingCount, 0)
		mask := len(ops) - 1
		for k, e := range [...]*ListEdit{c.Pending, c.Parked, c.Admitted, c.Terminating} {
			if e == nil {
				continue
			}
			ops[mask] |= 1 << k
			ops = append(append(ops, len(e.Del)), e.Del...)
			ops = append(ops, len(e.Ins))
			for _, in := range e.Ins {
				ops = append(ops, in.At, len(d.Names))
				d.Names = append(d.Names, in.Name)
			}
		}
	}
	d.Ops = make([]int32, len(ops))
	for i, v := range ops {
		if v != int(int32(v)) {
			return nil, false
		}
		d.Ops[i] = int32(v)
	}
	return d, true
}

// sameChanges reports whether d and o hold the same changes (however
// their names are numbered): whether their JSON is the same.
func (d *QueueDelta) sameChanges(o *QueueDelta) bool {
	var a, b jsonBuf
	a.queueChanges(&Step{QueueDelta: d})
	b.queueChanges(&Step{QueueDelta: o})
	return string(a.b) == string(b.b)
}
