package main

// The "resize" feature: pod-level resources (PodLevelResources, on by
// default) and what an in-place resize leaves in a running pod's status.
// Since v1.37 the scheduler accounts a pod's requests, per resource, as the
// largest of what the spec asks, what the kubelet allocated and what the
// runtime actuated, summed over the containers before the maximum is taken
// (component-helpers' PodRequests with status resources); a resize the
// kubelet found Infeasible leaves the spec out; a pod-level status with
// both lists stands for the containers' statuses.
//
//   - Some pods (running and pending) get pod-level requests for cpu,
//     memory or both, at or above what their containers ask, as the API
//     server requires.
//   - Some running pods get a resize status: per container (and sidecar)
//     an allocated list, an actuated one or both, each the spec scaled
//     between half and twice; sometimes a PodResizePending condition
//     (Infeasible or Deferred); sometimes pod-level status lists, one of
//     them missing now and then so that the containers' statuses count.
//
// Nodes may end up over-committed by a resize: both sides account alike.
// The feature draws from a stream of its own, before the batch feature's
// runs copy pending pods, so that a run's copies stay alike.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// resizeCounts counts what genResize made, for scenario.txt.
type resizeCounts struct {
	podLevel, resized int
}

func (g *gen) genResize() resizeCounts {
	var n resizeCounts
	for _, pods := range [][]*v1.Pod{g.running, g.pending} {
		for _, p := range pods {
			if g.chance(0.25) {
				g.setPodLevelRequests(p)
				n.podLevel++
			}
		}
	}
	for _, p := range g.running {
		if g.chance(0.4) {
			g.setResizeStatus(p)
			n.resized++
		}
	}
	return n
}

// setPodLevelRequests asks at the pod level for cpu, memory or both, each
// 100–175% of what the containers ask (a default when they ask none).
func (g *gen) setPodLevelRequests(p *v1.Pod) {
	agg := requests(p)
	for k, q := range p.Spec.Overhead {
		cur := agg[k]
		cur.Sub(q)
		agg[k] = cur
	}
	want := []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory}
	switch g.pick(4) {
	case 0:
		want = want[:1]
	case 1:
		want = want[1:]
	}
	reqs := v1.ResourceList{}
	for _, name := range want {
		q, ok := agg[name]
		if !ok || q.IsZero() {
			if name == v1.ResourceCPU {
				q = *milli(int64(100 * (1 + g.pick(5))))
			} else {
				q = *mebi(int64(128 * (1 + g.pick(8))))
			}
		}
		reqs[name] = g.scaled(name, q, 4+g.pick(4), 4)
	}
	p.Spec.Resources = &v1.ResourceRequirements{Requests: reqs}
}

// scaled is q*num/den, in whole millicores or mebibytes.
func (g *gen) scaled(name v1.ResourceName, q resource.Quantity, num, den int) resource.Quantity {
	if name == v1.ResourceCPU {
		return *milli(max(1, q.MilliValue()*int64(num)/int64(den)))
	}
	return *mebi(max(1, q.Value()/(1<<20)*int64(num)/int64(den)))
}

// scaledList scales cpu and memory of a request list by one factor drawn
// between 1/2 and 2.
func (g *gen) scaledList(rl v1.ResourceList) v1.ResourceList {
	num := []int{2, 3, 5, 6, 8}[g.pick(5)] // quarters: 0.5, 0.75, 1.25, 1.5, 2
	out := v1.ResourceList{}
	for name, q := range rl {
		if name == v1.ResourceCPU || name == v1.ResourceMemory {
			out[name] = g.scaled(name, q, num, 4)
		}
	}
	return out
}

// setResizeStatus writes what a resize in some state leaves behind.
func (g *gen) setResizeStatus(p *v1.Pod) {
	status := func(c v1.Container) v1.ContainerStatus {
		cs := v1.ContainerStatus{Name: c.Name, Image: c.Image}
		switch g.pick(3) {
		case 0:
			cs.AllocatedResources = g.scaledList(c.Resources.Requests)
		case 1:
			cs.Resources = &v1.ResourceRequirements{Requests: g.scaledList(c.Resources.Requests)}
		default:
			cs.AllocatedResources = g.scaledList(c.Resources.Requests)
			cs.Resources = &v1.ResourceRequirements{Requests: g.scaledList(c.Resources.Requests)}
		}
		return cs
	}
	for _, c := range p.Spec.Containers {
		if g.chance(0.8) {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, status(c))
		}
	}
	for _, c := range p.Spec.InitContainers {
		if g.chance(0.5) {
			p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, status(c))
		}
	}
	switch g.pick(5) {
	case 0:
		p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{
			Type: v1.PodResizePending, Status: v1.ConditionTrue, Reason: v1.PodReasonInfeasible,
			Message: "Node didn't have enough capacity"})
	case 1:
		p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{
			Type: v1.PodResizePending, Status: v1.ConditionTrue, Reason: v1.PodReasonDeferred,
			Message: "Node didn't have enough resource"})
	}
	if !g.chance(0.4) {
		return
	}
	// Pod-level status lists, as the kubelet reports them with
	// InPlacePodLevelResourcesVerticalScaling: from the pod-level spec when
	// there is one, else from the containers' own requests.
	base := requests(p)
	if p.Spec.Resources != nil {
		for k, q := range p.Spec.Resources.Requests {
			base[k] = q
		}
	}
	switch g.pick(4) {
	case 0:
		p.Status.AllocatedResources = g.scaledList(base)
	case 1:
		p.Status.Resources = &v1.ResourceRequirements{Requests: g.scaledList(base)}
	default:
		p.Status.AllocatedResources = g.scaledList(base)
		p.Status.Resources = &v1.ResourceRequirements{Requests: g.scaledList(base)}
	}
}
