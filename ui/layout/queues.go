package layout

import "github.com/kueueplay/kueueplay/ui/view"

// Queues lays out the ClusterQueues' queues after the step:
//
//	div.queues
//	  section.queue[data-cq][data-active] (.inactive)
//	    div.queue-head            name, an active/inactive badge (the
//	                              reason is its title)
//	    p.queue-summary           Queue.Text (with the inactive reason)
//	    div.wl-list[data-list=pending|parked|admitted|terminating]
//	      h4                      the list's name and count
//	      ol|ul.workloads         li[data-workload] per workload, in queue
//	                              order for pending; li.more "and N more"
//	                              when the trace capped the list
//
// The first pending workload has class head and a visible "head" tag; the
// workload nominated in this step's cycle has class nominated and a
// "nominated" tag wherever it is listed (pending, admitted...). Empty
// lists are left out.
func Queues(st view.Step) *view.Node {
	root := el("div", "class", "queues")
	if len(st.Queues) == 0 {
		return root.Add(txt("p", "No ClusterQueues.", "class", "empty"))
	}
	for i := range st.Queues {
		root.Add(queue(&st.Queues[i]))
	}
	return root
}

func queue(q *view.Queue) *view.Node {
	inactive := ""
	if !q.Active {
		inactive = "inactive"
	}
	sec := el("section", "class", cls("queue", inactive), "data-cq", q.ClusterQueue, "data-active", yesNo(q.Active))
	head := el("div", "class", "queue-head").Add(span("name", q.ClusterQueue))
	if q.Active {
		head.Add(span("badge state-active", "active"))
	} else {
		// The reason is in Text ("inactive (reason); ..."), shown below.
		b := span("badge state-inactive", "inactive")
		attr(b, "title", q.InactiveReason)
		head.Add(b)
	}
	sec.Add(head, txt("p", q.Text, "class", "queue-summary"))
	found := false
	for _, l := range []struct {
		key, title string
		list       *view.List
	}{
		{"pending", "Pending", &q.Pending},
		{"parked", "Parked", &q.Parked},
		{"admitted", "Admitted", &q.Admitted},
		{"terminating", "Terminating", &q.Terminating},
	} {
		if l.list.Count == 0 && len(l.list.Names) == 0 {
			continue
		}
		tag := "ul"
		if l.key == "pending" {
			tag = "ol"
		}
		ul := el(tag, "class", "workloads workloads-"+l.key)
		for i, name := range l.list.Names {
			head := l.key == "pending" && i == 0 && name == q.Head
			nominated := name == q.Nominated
			found = found || nominated
			var classes []string
			if head {
				classes = append(classes, "head")
			}
			if nominated {
				classes = append(classes, "nominated")
			}
			li := attr(el("li", "data-workload", name), "class", cls(classes...))
			li.Add(span("wl-name", name))
			if head {
				li.Add(txt("span", "head", "class", "tag tag-head", "title", "the next workload this queue offers to a cycle"))
			}
			if nominated {
				li.Add(txt("span", "nominated", "class", "tag tag-nominated", "title", "this queue's head in this step's cycle"))
			}
			ul.Add(li)
		}
		if l.list.More > 0 {
			more := "and " + itoa(l.list.More) + " more"
			if len(l.list.Names) == 0 {
				more = itoa(l.list.More) + " not listed"
			}
			ul.Add(txt("li", more, "class", "more"))
		}
		sec.Add(el("div", "class", "wl-list", "data-list", l.key).Add(
			el("h4").Add(span("", l.title), span("count", itoa(l.list.Count))),
			ul))
	}
	if q.Nominated != "" && !found {
		sec.Add(el("p", "class", "nominated-note").Add(
			span("", "nominated in this cycle: "), span("wl-name", q.Nominated)))
	}
	return sec
}
