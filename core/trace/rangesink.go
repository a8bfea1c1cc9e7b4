package trace

import "slices"

// RangeSink keeps steps [From, To] of a trace whose steps come one at a
// time (sim.Options.Sink) and passes them to Write as Slice would give
// them: the first one made Full, with every node's latest row. Steps
// before From are only replayed, steps after To dropped, so a caller
// that wants a range of a long run holds only that range. Steps counts
// every step seen.
type RangeSink struct {
	From, To int
	Write    func(tr *Trace, st *Step)
	Steps    int

	replay *Replay
	// nodes is every node's latest row up to From, in step 0's order
	// (index by name in nodeAt).
	nodes  []NodeState
	nodeAt map[string]int
}

// Step takes the next step of the run.
func (s *RangeSink) Step(tr *Trace, st *Step) {
	i := s.Steps
	s.Steps++
	if i > s.To {
		return
	}
	if s.From > 0 && i <= s.From {
		if s.replay == nil {
			s.replay = NewReplay(nil)
		}
		s.replay.Push(st)
		s.keepNodes(i, st)
		if i < s.From {
			return
		}
		first := *st
		if !first.IsFull() {
			first.Full = true
			first.Usage = slices.Clone(s.replay.Usage())
			first.Queues = slices.Clone(s.replay.Queues())
			first.UsageChanges, first.QueueChanges, first.QueueDelta = nil, nil, nil
		}
		if s.nodes != nil {
			first.Nodes = slices.Clone(s.nodes)
		}
		s.Write(tr, &first)
		return
	}
	s.Write(tr, st)
}

// keepNodes records step i's node rows (Slice's rule: step 0 lists every
// node, and the first step of a range lists each at its latest row).
func (s *RangeSink) keepNodes(i int, st *Step) {
	if i == 0 {
		if len(st.Nodes) == 0 {
			return
		}
		s.nodes = slices.Clone(st.Nodes)
		s.nodeAt = make(map[string]int, len(st.Nodes))
		for k, n := range st.Nodes {
			s.nodeAt[n.Node] = k
		}
		return
	}
	if s.nodes == nil {
		return
	}
	for _, n := range st.Nodes {
		if k, ok := s.nodeAt[n.Node]; ok {
			s.nodes[k] = n
		}
	}
}
