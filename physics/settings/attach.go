package settings

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"
)

// AttachSpec selects soft nodes that a scene holds in place
// (docs/method.md, "Attachments"): the mechanical mesh's nodes whose place
// at rest in the scene (metres, world axes, the object standing on the
// floor) lies in Box, or on the inner side of Plane, or those listed in
// Nodes; exactly one of the three. Body names the rigid body they follow
// ("left jaw", "right jaw", "floor", ...), "" the world.
type AttachSpec struct {
	Box   *r3.Box      `json:",omitempty"`
	Plane *AttachPlane `json:",omitempty"`
	Nodes []int        `json:",omitempty"`
	Body  string       `json:",omitempty"`
}

// AttachPlane is the half-space Normal·x ≤ Offset (metres).
type AttachPlane struct {
	Normal r3.Vec
	Offset float64
}

// Validate names what is wrong with the selection.
func (a AttachSpec) Validate() error {
	n := 0
	if a.Box != nil {
		n++
		b := *a.Box
		for _, v := range []float64{b.Min.X, b.Min.Y, b.Min.Z, b.Max.X, b.Max.Y, b.Max.Z} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("box %v: corners must be finite", b)
			}
		}
		if b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z {
			return fmt.Errorf("box %v: its first corner must be below its second on every axis", b)
		}
	}
	if a.Plane != nil {
		n++
		p := *a.Plane
		l := r3.Norm(p.Normal)
		if !(l > 0) || math.IsInf(l, 0) || math.IsNaN(p.Offset) || math.IsInf(p.Offset, 0) {
			return fmt.Errorf("plane %v·x ≤ %g: the normal must be finite and non-zero, the offset finite", p.Normal, p.Offset)
		}
	}
	if a.Nodes != nil {
		n++
		for _, v := range a.Nodes {
			if v < 0 {
				return fmt.Errorf("node %d: node indices are ≥ 0", v)
			}
		}
	}
	if n != 1 {
		return fmt.Errorf("an attachment selects its nodes one way: a box, a plane side or a node list (%d given)", n)
	}
	return nil
}

// Selects reports whether a node at rest position x is selected by the box
// or the plane (node lists are resolved by index).
func (a AttachSpec) Selects(x r3.Vec) bool {
	switch {
	case a.Box != nil:
		return a.Box.Min.X <= x.X && x.X <= a.Box.Max.X && a.Box.Min.Y <= x.Y && x.Y <= a.Box.Max.Y &&
			a.Box.Min.Z <= x.Z && x.Z <= a.Box.Max.Z
	case a.Plane != nil:
		return r3.Dot(a.Plane.Normal, x) <= a.Plane.Offset
	}
	return false
}

// String writes the spec in ParseAttach's syntax.
func (a AttachSpec) String() string {
	var s string
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch {
	case a.Box != nil:
		b := a.Box
		s = "box:" + strings.Join([]string{g(b.Min.X), g(b.Min.Y), g(b.Min.Z), g(b.Max.X), g(b.Max.Y), g(b.Max.Z)}, ",")
	case a.Plane != nil:
		p := a.Plane
		s = "plane:" + strings.Join([]string{g(p.Normal.X), g(p.Normal.Y), g(p.Normal.Z), g(p.Offset)}, ",")
	default:
		parts := make([]string, len(a.Nodes))
		for i, n := range a.Nodes {
			parts[i] = strconv.Itoa(n)
		}
		s = "nodes:" + strings.Join(parts, ",")
	}
	if a.Body != "" {
		s += "@" + a.Body
	}
	return s
}

// FormatAttachList writes attachments on one line in ParseAttach's
// syntax, separated by "; " (ParseAttachList reads it back).
func FormatAttachList(specs []AttachSpec) string {
	parts := make([]string, len(specs))
	for i, a := range specs {
		parts[i] = a.String()
	}
	return strings.Join(parts, "; ")
}

// ParseAttachList reads attachments separated by ";" (a body's name may
// hold spaces); empty parts are skipped, so "" is none.
func ParseAttachList(text string) ([]AttachSpec, error) {
	var specs []AttachSpec
	for _, part := range strings.Split(text, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		a, err := ParseAttach(strings.TrimSpace(part))
		if err != nil {
			return nil, err
		}
		specs = append(specs, a)
	}
	return specs, nil
}

// AttachSyntax is ParseAttach's syntax, for flag usage and messages.
const AttachSyntax = "below:AXIS=V, above:AXIS=V (AXIS x, y or z: the nodes at or below or above V m), " +
	"box:X0,Y0,Z0,X1,Y1,Z1, plane:NX,NY,NZ,D (the nodes with n·x ≤ D) or nodes:I,J,...; " +
	"then @BODY to follow a rigid body (\"@left jaw\") instead of the world (a dynamic body is tied to them both ways)"

// ParseAttach reads one attachment in AttachSyntax.
func ParseAttach(s string) (AttachSpec, error) {
	var a AttachSpec
	sel, body, _ := strings.Cut(s, "@")
	a.Body = strings.TrimSpace(body)
	if strings.Contains(s, "@") && a.Body == "" {
		return a, fmt.Errorf("attachment %q: no body after @", s)
	}
	kind, args, ok := strings.Cut(strings.TrimSpace(sel), ":")
	if !ok {
		return a, fmt.Errorf("attachment %q: want %s", s, AttachSyntax)
	}
	numbers := func(want int) ([]float64, error) {
		f := strings.Split(args, ",")
		if len(f) != want {
			return nil, fmt.Errorf("attachment %q: %s takes %d numbers, got %d", s, kind, want, len(f))
		}
		out := make([]float64, want)
		for i, x := range f {
			v, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil {
				return nil, fmt.Errorf("attachment %q: %q is not a number", s, x)
			}
			out[i] = v
		}
		return out, nil
	}
	switch kind {
	case "below", "above":
		axis, val, ok := strings.Cut(args, "=")
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if !ok || err != nil {
			return a, fmt.Errorf("attachment %q: want %s:AXIS=VALUE", s, kind)
		}
		var n r3.Vec
		switch strings.TrimSpace(axis) {
		case "x":
			n.X = 1
		case "y":
			n.Y = 1
		case "z":
			n.Z = 1
		default:
			return a, fmt.Errorf("attachment %q: axis %q: want x, y or z", s, axis)
		}
		if kind == "above" {
			n, v = r3.Sub(r3.Vec{}, n), -v // 0 − 0 is +0: no "-0" in messages
		}
		a.Plane = &AttachPlane{Normal: n, Offset: v}
	case "box":
		v, err := numbers(6)
		if err != nil {
			return a, err
		}
		a.Box = &r3.Box{Min: r3.Vec{X: v[0], Y: v[1], Z: v[2]}, Max: r3.Vec{X: v[3], Y: v[4], Z: v[5]}}
	case "plane":
		v, err := numbers(4)
		if err != nil {
			return a, err
		}
		a.Plane = &AttachPlane{Normal: r3.Vec{X: v[0], Y: v[1], Z: v[2]}, Offset: v[3]}
	case "nodes":
		a.Nodes = []int{}
		for _, x := range strings.Split(args, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(x))
			if err != nil {
				return a, fmt.Errorf("attachment %q: %q is not a node index", s, x)
			}
			a.Nodes = append(a.Nodes, n)
		}
	default:
		return a, fmt.Errorf("attachment %q: %q: want %s", s, kind, AttachSyntax)
	}
	if err := a.Validate(); err != nil {
		return a, fmt.Errorf("attachment %q: %w", s, err)
	}
	return a, nil
}

// Equal reports whether two scenario configurations are the same, their
// attachments included (a Scenario holds a slice and is not comparable
// with ==); no attachments and an empty list are the same.
func (c Scenario) Equal(o Scenario) bool {
	if len(c.Attach) == 0 && len(o.Attach) == 0 {
		c.Attach, o.Attach = nil, nil
	}
	return reflect.DeepEqual(c, o)
}
