package main

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Vector helpers and signed distance functions (negative inside). The
// primitives are exact or near-exact distances (after Inigo Quilez's
// catalogue); the blends are the polynomial smooth minimum, so that a body
// built of many parts is one implicit function with one zero set and the
// extracted surface cannot overlap itself where the parts meet.

type vec = r3.Vec

func v3(x, y, z float64) vec          { return vec{X: x, Y: y, Z: z} }
func add(a, b vec) vec                { return vec{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z} }
func sub(a, b vec) vec                { return vec{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z} }
func mul(s float64, a vec) vec        { return vec{X: s * a.X, Y: s * a.Y, Z: s * a.Z} }
func dot(a, b vec) float64            { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }
func norm(a vec) float64              { return math.Sqrt(dot(a, a)) }
func cross(a, b vec) vec              { return r3.Cross(a, b) }
func lerp(a, b vec, t float64) vec    { return add(a, mul(t, sub(b, a))) }
func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
func smoothstep(a, b, x float64) float64 {
	t := clamp((x-a)/(b-a), 0, 1)
	return t * t * (3 - 2*t)
}
func unit(a vec) vec {
	n := norm(a)
	if n == 0 {
		return a
	}
	return mul(1/n, a)
}

type sdf func(p vec) float64

// smin is the polynomial smooth minimum with blend radius k.
func smin(a, b, k float64) float64 {
	if k <= 0 {
		return math.Min(a, b)
	}
	h := math.Max(k-math.Abs(a-b), 0) / k
	return math.Min(a, b) - h*h*k/4
}

// smax is the smooth maximum (smooth intersection, or subtraction with a
// negated operand).
func smax(a, b, k float64) float64 { return -smin(-a, -b, k) }

func sphere(c vec, r float64) sdf {
	return func(p vec) float64 { return norm(sub(p, c)) - r }
}

// ellipsoid is the usual bound-corrected distance estimate.
func ellipsoid(c, r vec) sdf {
	return func(p vec) float64 {
		q := sub(p, c)
		k0 := norm(v3(q.X/r.X, q.Y/r.Y, q.Z/r.Z))
		k1 := norm(v3(q.X/(r.X*r.X), q.Y/(r.Y*r.Y), q.Z/(r.Z*r.Z)))
		if k1 == 0 {
			return -math.Min(r.X, math.Min(r.Y, r.Z))
		}
		return k0 * (k0 - 1) / k1
	}
}

func capsule(a, b vec, r float64) sdf { return roundCone(a, b, r, r) }

// roundCone is the exact distance to the convex hull of two spheres
// (radius ra at a, rb at b): a tapered capsule.
func roundCone(a, b vec, ra, rb float64) sdf {
	ba := sub(b, a)
	l2 := dot(ba, ba)
	rr := ra - rb
	a2 := l2 - rr*rr
	il2 := 1 / l2
	return func(p vec) float64 {
		pa := sub(p, a)
		y := dot(pa, ba)
		z := y - l2
		w := sub(mul(l2, pa), mul(y, ba))
		x2 := dot(w, w)
		y2 := y * y * l2
		z2 := z * z * l2
		k := math.Copysign(1, rr) * rr * rr * x2
		if math.Copysign(1, z)*a2*z2 > k {
			return math.Sqrt(x2+z2)*il2 - rb
		}
		if math.Copysign(1, y)*a2*y2 < k {
			return math.Sqrt(x2+y2)*il2 - ra
		}
		return (math.Sqrt(x2*a2*il2)+y*rr)*il2 - ra
	}
}

// roundBox is a box of half sizes h (rounding included) with edges
// rounded to radius r.
func roundBox(c, h vec, r float64) sdf {
	return func(p vec) float64 {
		q := sub(p, c)
		qx := math.Abs(q.X) - h.X + r
		qy := math.Abs(q.Y) - h.Y + r
		qz := math.Abs(q.Z) - h.Z + r
		out := norm(v3(math.Max(qx, 0), math.Max(qy, 0), math.Max(qz, 0)))
		return out + math.Min(math.Max(qx, math.Max(qy, qz)), 0) - r
	}
}

// roundCylinder is an upright (along z) cylinder of radius ra and half
// height hh whose rim is rounded to radius rb.
func roundCylinder(c vec, ra, hh, rb float64) sdf {
	return func(p vec) float64 {
		q := sub(p, c)
		dx := math.Hypot(q.X, q.Y) - ra + rb
		dz := math.Abs(q.Z) - hh + rb
		return math.Min(math.Max(dx, dz), 0) + math.Hypot(math.Max(dx, 0), math.Max(dz, 0)) - rb
	}
}

// tube is a chain of round cones through the points with the radii.
func tube(pts []vec, r []float64) []sdf {
	var out []sdf
	for i := 0; i+1 < len(pts); i++ {
		out = append(out, roundCone(pts[i], pts[i+1], r[i], r[i+1]))
	}
	return out
}

// part is a primitive and the blend radius it joins the body with.
type part struct {
	f sdf
	k float64
}

// blend joins the parts in order with their smooth minimum radii.
func blend(parts ...part) sdf {
	return func(p vec) float64 {
		d := parts[0].f(p)
		for _, q := range parts[1:] {
			d = smin(d, q.f(p), q.k)
		}
		return d
	}
}

// parts turns the sdfs into parts of one blend radius.
func parts(k float64, fs ...sdf) []part {
	out := make([]part, len(fs))
	for i, f := range fs {
		out[i] = part{f, k}
	}
	return out
}

// mapped evaluates f at a transformed point: f∘m.
func mapped(f sdf, m func(vec) vec) sdf { return func(p vec) float64 { return f(m(p)) } }

// gradient of f at p by central differences of step e.
func gradient(f sdf, p vec, e float64) vec {
	return v3(f(v3(p.X+e, p.Y, p.Z))-f(v3(p.X-e, p.Y, p.Z)),
		f(v3(p.X, p.Y+e, p.Z))-f(v3(p.X, p.Y-e, p.Z)),
		f(v3(p.X, p.Y, p.Z+e))-f(v3(p.X, p.Y, p.Z-e)))
}

// project moves p onto the zero set of f by a few Newton steps along the
// gradient.
func project(f sdf, p vec, e float64) vec {
	for it := 0; it < 6; it++ {
		d := f(p)
		if math.Abs(d) < 1e-7 {
			break
		}
		g := mul(1/(2*e), gradient(f, p, e))
		g2 := dot(g, g)
		if g2 < 1e-12 {
			break
		}
		step := mul(d/g2, g)
		if n := norm(step); n > 4*e*100 { // never jump far
			step = mul(4*e*100/n, step)
		}
		p = sub(p, step)
	}
	return p
}
