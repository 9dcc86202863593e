package main

import (
	"math"
)

// The shapes, as implicit functions (negative inside) or explicit
// sweeps. Lengths are millimetre-like units, 50 to 200 across.

// liver is a lumpy wedge, z up: a thick, domed right lobe tapering to a
// thin left lobe, with a notch at the front edge.
func liver(p vec) float64 {
	x, y, z := p.X, p.Y, p.Z
	s := smoothstep(-95, 55, x) // 0 at the left tip, 1 on the right lobe
	hz := 9 + 33*s              // half thickness
	hy := 50 * (0.55 + 0.45*s)  // half depth
	hx := 92.0
	zc := 0.35 * hz * (y/hy + 0.4) // the top domes towards the back
	q := v3(x/hx, y/hy, (z-zc)/hz)
	r := norm(q)
	bump := 0.05*math.Sin(0.09*x+0.3)*math.Sin(0.11*y+1.1)*math.Sin(0.12*z+0.4) +
		0.025*math.Sin(0.21*x+0.07*y)*math.Cos(0.17*z-0.8)
	d := (r - 1 - bump) * math.Min(hz, hy)
	notch := sphere(v3(-15, -hy-4, zc), 12)(p)
	return smax(d, -notch, 6)
}

// kidney is a bean: an ellipsoid bent along a parabola, with the hilum
// dent on its concave side. z up, lying flat.
func kidney(p vec) float64 {
	q := v3(p.X, p.Y-0.0065*p.X*p.X, p.Z)
	d := ellipsoid(vec{}, v3(56, 30, 21))(q)
	hil := sphere(v3(0, 36, 0), 13)(q)
	return smax(d, -hil, 7)
}

// horse is a quadruped modelled +y up, standing with its four hooves'
// soles at y = 0; x forward, z to its left.
func horse() sdf {
	var ps []part
	ps = append(ps,
		part{ellipsoid(v3(0, 74, 0), v3(48, 19, 16)), 0},
		part{ellipsoid(v3(28, 73, 0), v3(24, 21, 17)), 14},
		part{ellipsoid(v3(-30, 75, 0), v3(22, 19, 16.5)), 14})
	for _, x := range []float64{30, -32} {
		for _, z := range []float64{-9, 9} {
			kx := x + 3
			if x < 0 {
				kx = x - 4 // hocks bend backwards
			}
			ps = append(ps,
				part{roundCone(v3(x, 70, z), v3(kx, 38, z*1.05), 8.5, 5), 6},
				part{roundCone(v3(kx, 38, z*1.05), v3(x+1, 9, z*1.05), 5, 3.8), 3},
				part{roundBox(v3(x+2, 3.5, z*1.05), v3(6, 3.5, 4.6), 2.2), 3})
		}
	}
	ps = append(ps,
		part{roundCone(v3(42, 80, 0), v3(62, 108, 0), 11, 7), 8},
		part{ellipsoid(v3(70, 114, 0), v3(13, 9, 8)), 5},
		part{roundCone(v3(73, 112, 0), v3(91, 105, 0), 7, 4.5), 5},
		part{roundCone(v3(66, 120, 4.5), v3(62, 133, 7), 3.4, 1.6), 2},
		part{roundCone(v3(66, 120, -4.5), v3(62, 133, -7), 3.4, 1.6), 2},
		part{roundCone(v3(-46, 82, 0), v3(-62, 68, 0), 4.5, 3.2), 3},
		part{roundCone(v3(-62, 68, 0), v3(-67, 50, 0), 3.2, 2.4), 2})
	return blend(ps...)
}

// human is a figure in its own frame: x to its left, y up (soles at
// y = 0), z forward; arms at armDeg from the body, the feet spread by
// spread on each side.
func human(armDeg, spread float64) sdf {
	var ps []part
	ps = append(ps,
		part{ellipsoid(v3(0, 96, 0), v3(16.5, 12, 10.5)), 0},
		part{ellipsoid(v3(0, 118, 0), v3(14.5, 20, 9.5)), 10},
		part{ellipsoid(v3(0, 132, 0.5), v3(18, 12, 10.5)), 10},
		part{capsule(v3(0, 140, 0), v3(0, 153, 0.5), 5), 5},
		part{ellipsoid(v3(0, 161, 1), v3(8.5, 10.5, 9.5)), 4})
	a := armDeg * math.Pi / 180
	for _, sx := range []float64{-1, 1} {
		hip := v3(sx*8.5, 93, 0)
		knee := v3(sx*(8.5+0.5*spread), 50, 1.5)
		ankle := v3(sx*(8.5+spread), 8, 0)
		sh := v3(sx*17.5, 139, 0)
		el := add(sh, v3(sx*29*math.Sin(a), -29*math.Cos(a), -1))
		b := a + 4*math.Pi/180
		wr := add(el, v3(sx*25*math.Sin(b), -25*math.Cos(b), 2))
		tip := add(wr, v3(sx*12*math.Sin(b), -12*math.Cos(b), 1))
		ps = append(ps,
			part{roundCone(hip, knee, 8, 5.5), 6},
			part{roundCone(knee, ankle, 5.5, 3.8), 3},
			part{roundCone(v3(ankle.X, 4.2, -2), v3(ankle.X+sx*1.5, 3, 14), 4.2, 3), 3},
			part{roundCone(sh, el, 5.2, 3.9), 4},
			part{roundCone(el, wr, 3.9, 2.9), 2},
			part{ellipsoid(lerp(wr, tip, 0.55), v3(2.6, 7, 4)), 2})
	}
	return blend(ps...)
}

// statue is the human with arms 16° out, standing on a low round plinth
// (top at y = 0), +y up.
func statue() sdf {
	h := human(16, 2.5)
	plinth := mapped(roundCylinder(vec{}, 38, 6, 2), func(p vec) vec { return v3(p.X, p.Z-2, p.Y+5.5) })
	return func(p vec) float64 { return smin(h(p), plinth(p), 2.5) }
}

// lying is the human on its back, z up: its head towards +x, face up.
func lying() sdf {
	h := human(11, 5)
	return mapped(h, func(p vec) vec { return v3(p.Y, p.X+80, p.Z) })
}

// bear is a chunky quadruped, z up, standing on its paws at z = 0.
func bear() sdf {
	var ps []part
	ps = append(ps,
		part{ellipsoid(v3(0, 0, 46), v3(44, 25, 23)), 0},
		part{ellipsoid(v3(-22, 0, 47), v3(24, 24, 22)), 12})
	for _, x := range []float64{27, -28} {
		for _, y := range []float64{-13, 13} {
			ps = append(ps,
				part{roundCone(v3(x, y, 38), v3(x, y*1.05, 9), 10.5, 8), 8},
				part{roundBox(v3(x+3, y*1.05, 4.5), v3(9, 8, 4.5), 3.5), 4})
		}
	}
	ps = append(ps,
		part{sphere(v3(50, 0, 57), 17), 10},
		part{roundCone(v3(58, 0, 54), v3(75, 0, 51), 10, 6.5), 5},
		part{sphere(v3(46, 11, 72), 5.5), 3},
		part{sphere(v3(46, -11, 72), 5.5), 3},
		part{sphere(v3(-46, 0, 54), 5), 3})
	return blend(ps...)
}

// antler is a curved main beam with three thin tines and a brow tine,
// lying on the floor (z up), everything near the plane z = 0.
func antler() sdf {
	var ps []part
	main := []vec{v3(-88, -8, 0), v3(-50, 2, 0), v3(-5, 6, 1), v3(40, 0, 2), v3(84, -14, 1)}
	for _, f := range tube(main, []float64{9.5, 8.5, 8, 7.5, 5.5}) {
		ps = append(ps, part{f, 3})
	}
	tines := [][]vec{
		{v3(-66, -4, 0), v3(-60, -35, 0), v3(-48, -58, 0)},
		{v3(-38, 3, 0), v3(-30, 38, 1), v3(-16, 66, 2)},
		{v3(8, 6, 1), v3(20, 44, 2), v3(34, 70, 2)},
		{v3(52, -3, 2), v3(70, 24, 2), v3(86, 42, 1)},
	}
	for _, t := range tines {
		for _, f := range tube(t, []float64{7.5, 6.5, 5}) {
			ps = append(ps, part{f, 4})
		}
	}
	ps[0].k = 0
	return blend(ps...)
}

// femur is a long bone along x, lying (z up): a thin, slightly bowed
// shaft, the head on its neck and the trochanters at one end, the two
// condyles at the other.
func femur() sdf {
	ps := parts(0, roundCone(v3(-70, 0, 0), v3(0, 1.5, 1), 8.5, 7.2))
	ps = append(ps, part{roundCone(v3(0, 1.5, 1), v3(68, 0, 0), 7.2, 8.5), 2},
		part{roundCone(v3(-72, 2, 0), v3(-88, 15, 4), 8.5, 7.5), 6},
		part{sphere(v3(-92, 19, 5), 12.5), 5},
		part{ellipsoid(v3(-80, -8, 0), v3(12, 9.5, 9.5)), 8},
		part{sphere(v3(-62, 6, -6), 5), 5},
		part{ellipsoid(v3(74, 0, 0), v3(12, 16, 11)), 10},
		part{ellipsoid(v3(84, 9.5, -2), v3(12, 9, 12.5)), 5},
		part{ellipsoid(v3(84, -9.5, -2), v3(12, 9, 12.5)), 5})
	return blend(ps...)
}

// bunny is a sitting rabbit, +y up, x forward: a round body with no
// flat base, haunches, head, two long ears, front paws and a tail.
func bunny() sdf {
	ps := []part{
		{ellipsoid(v3(-5, 28, 0), v3(30, 27, 25)), 0},
		{ellipsoid(v3(-12, 20, 13), v3(20, 17, 11)), 9},
		{ellipsoid(v3(-12, 20, -13), v3(20, 17, 11)), 9},
		{ellipsoid(v3(25, 58, 0), v3(17, 15, 14)), 10},
		{sphere(v3(38, 55, 0), 6.5), 5},
		{ellipsoid(v3(24, 9, 9), v3(8, 7, 5.5)), 5},
		{ellipsoid(v3(24, 9, -9), v3(8, 7, 5.5)), 5},
		{sphere(v3(-36, 24, 0), 7), 4},
	}
	for _, s := range []float64{-1, 1} {
		for _, f := range tube([]vec{v3(20, 68, s*8), v3(14, 90, s*12), v3(7, 106, s*15)}, []float64{4.8, 5.2, 2.8}) {
			ps = append(ps, part{f, 4})
		}
	}
	return blend(ps...)
}

// stomach is a J-shaped sac, z up: the oesophagus stub, the fundus, the
// body curving down and across, the antrum rising to the pylorus and a
// stub of duodenum. Flattened front to back.
func stomach() sdf {
	path := []vec{v3(2, 0, 92), v3(-2, 0, 74), v3(-8, 0, 52), v3(-6, 0, 26), v3(10, 0, 4), v3(36, 0, 0), v3(56, 0, 12), v3(66, 0, 26), v3(76, 0, 30)}
	rad := []float64{6.5, 11, 26, 25, 21, 16, 11, 7.5, 7}
	ps := parts(9, tube(path, rad)...)
	ps[0].k = 0
	ps = append(ps, part{sphere(v3(-16, 0, 60), 24), 10})
	f := blend(ps...)
	return mapped(f, func(p vec) vec { return v3(p.X, p.Y/0.72, p.Z) })
}

// trefoil is the knot curve scaled by s.
func trefoil(t, s float64) vec {
	return mul(s, v3(math.Sin(t)+2*math.Sin(2*t), math.Cos(t)-2*math.Cos(2*t), -math.Sin(3*t)))
}

// knotTube sweeps a circle of radius r along the trefoil (n rings of m
// points), with parallel-transport frames whose twist is spread evenly so
// that the tube closes on itself.
func knotTube(scale, r float64, n, m int) *surf {
	c := make([]vec, n)
	for i := range c {
		c[i] = trefoil(2*math.Pi*float64(i)/float64(n), scale)
	}
	T := make([]vec, n)
	for i := range T {
		T[i] = unit(sub(c[(i+1)%n], c[(i+n-1)%n]))
	}
	N := make([]vec, n+1)
	N[0] = unit(cross(T[0], v3(0, 0, 1)))
	for i := 1; i <= n; i++ {
		t := T[i%n]
		v := sub(N[i-1], mul(dot(N[i-1], t), t))
		N[i] = unit(v)
	}
	// twist left after the loop, about T[0]
	b0 := cross(T[0], N[0])
	phi := math.Atan2(dot(N[n], b0), dot(N[n], N[0]))
	rows := make([][]vec, n)
	for i := range rows {
		a := -phi * float64(i) / float64(n)
		b := cross(T[i], N[i])
		nn := add(mul(math.Cos(a), N[i]), mul(math.Sin(a), b))
		bb := cross(T[i], nn)
		row := make([]vec, m)
		for j := range row {
			th := 2 * math.Pi * float64(j) / float64(m)
			row[j] = add(c[i], mul(r, add(mul(math.Cos(th), nn), mul(math.Sin(th), bb))))
		}
		rows[i] = row
	}
	return grid(rows, nil, nil, true)
}

// knotClearance returns the smallest distance between points of the
// trefoil (scale 1) more than a quarter turn apart along it, and the
// smallest radius of curvature.
func knotClearance() (float64, float64) {
	const n = 1440
	c := make([]vec, n)
	for i := range c {
		c[i] = trefoil(2*math.Pi*float64(i)/n, 1)
	}
	dmin := math.Inf(1)
	for i := 0; i < n; i++ {
		for j := i + n/8; j < i+n-n/8; j++ {
			dmin = math.Min(dmin, norm(sub(c[i], c[j%n])))
		}
	}
	kmax := 0.0
	for i := 0; i < n; i++ {
		a, b, d := c[(i+n-1)%n], c[i], c[(i+1)%n]
		// circumradius of three consecutive points
		ab, bd, da := norm(sub(b, a)), norm(sub(d, b)), norm(sub(a, d))
		area := norm(cross(sub(b, a), sub(d, a))) / 2
		kmax = math.Max(kmax, 4*area/(ab*bd*da))
	}
	return dmin, 1 / kmax
}

// torus is the low-resolution torus, axis z: n segments round the big
// circle, m round the tube.
func torus(R, r float64, n, m int) *surf {
	rows := make([][]vec, n)
	for i := range rows {
		a := 2 * math.Pi * float64(i) / float64(n)
		row := make([]vec, m)
		for j := range row {
			b := 2 * math.Pi * float64(j) / float64(m)
			rr := R + r*math.Cos(b)
			row[j] = v3(rr*math.Cos(a), rr*math.Sin(a), r*math.Sin(b))
		}
		rows[i] = row
	}
	return grid(rows, nil, nil, true)
}

// cylinderProfile is the (radius, height) profile of a closed cylinder:
// capRings rings on each end disc, sides rows along the side.
func cylinderProfile(r, h float64, capRings, sides int) [][2]float64 {
	pr := [][2]float64{{0, 0}}
	for k := 1; k <= capRings; k++ {
		pr = append(pr, [2]float64{r * float64(k) / float64(capRings), 0})
	}
	for k := 1; k <= sides; k++ {
		pr = append(pr, [2]float64{r, h * float64(k) / float64(sides)})
	}
	for k := capRings - 1; k >= 0; k-- {
		pr = append(pr, [2]float64{r * float64(k) / float64(capRings), h})
	}
	return pr
}

// vaseProfile is a tall bottle: a flat base with a rounded foot, a
// belly, a long neck and a flared lip with a flat top; the radius is a
// Catmull-Rom spline through control heights.
func vaseProfile() [][2]float64 {
	const h = 190.0
	ctl := [][2]float64{{0, 18.5}, {2.5, 21.5}, {12, 24}, {50, 26}, {95, 18}, {125, 9.5}, {150, 7.5}, {176, 7.5}, {185, 10.5}, {190, 10}}
	rad := func(z float64) float64 {
		i := 0
		for i+2 < len(ctl) && z > ctl[i+1][0] {
			i++
		}
		p0, p1, p2, p3 := ctl[max(i-1, 0)], ctl[i], ctl[i+1], ctl[min(i+2, len(ctl)-1)]
		t := (z - p1[0]) / (p2[0] - p1[0])
		// tangents scaled to the interval (non-uniform Catmull-Rom)
		m1 := (p2[1] - p0[1]) / (p2[0] - p0[0]) * (p2[0] - p1[0])
		m2 := (p3[1] - p1[1]) / (p3[0] - p1[0]) * (p2[0] - p1[0])
		t2, t3 := t*t, t*t*t
		return (2*t3-3*t2+1)*p1[1] + (t3-2*t2+t)*m1 + (-2*t3+3*t2)*p2[1] + (t3-t2)*m2
	}
	pr := [][2]float64{{0, 0}}
	r0 := rad(0)
	for k := 1; k <= 4; k++ {
		pr = append(pr, [2]float64{r0 * float64(k) / 4, 0})
	}
	const rows = 48
	for k := 1; k <= rows; k++ {
		// rows closer together at the foot and the lip, where it bends
		u := float64(k) / rows
		z := h * (u - 0.02*math.Sin(2*math.Pi*u))
		pr = append(pr, [2]float64{rad(z), z})
	}
	rt := rad(h)
	for k := 2; k >= 0; k-- {
		pr = append(pr, [2]float64{rt * float64(k) / 3, h})
	}
	return pr
}

// starOutline is a five-pointed star (outer radius ro, inner ri) with
// each of its ten edges cut into k pieces, counter-clockwise.
func starOutline(ro, ri float64, k int) []vec {
	var corners []vec
	for i := 0; i < 10; i++ {
		a := math.Pi/2 + float64(i)*math.Pi/5
		r := ro
		if i%2 == 1 {
			r = ri
		}
		corners = append(corners, v3(r*math.Cos(a), r*math.Sin(a), 0))
	}
	var out []vec
	for i := range corners {
		for j := 0; j < k; j++ {
			out = append(out, lerp(corners[i], corners[(i+1)%10], float64(j)/float64(k)))
		}
	}
	return out
}

// extrudeStar is the star extruded to thickness t: each end face made of
// the outline scaled about the centre (the star is star-shaped from its
// centre, so the scaled copies nest), the side cut into layers.
func extrudeStar(ro, ri, t float64, k, layers int) *surf {
	out := starOutline(ro, ri, k)
	ring := func(s, z float64) []vec {
		r := make([]vec, len(out))
		for i, p := range out {
			r[i] = v3(s*p.X, s*p.Y, z)
		}
		return r
	}
	var rows [][]vec
	scales := []float64{1.0 / 3, 2.0 / 3}
	for _, s := range scales {
		rows = append(rows, ring(s, 0))
	}
	for l := 0; l <= layers; l++ {
		rows = append(rows, ring(1, t*float64(l)/float64(layers)))
	}
	for i := len(scales) - 1; i >= 0; i-- {
		rows = append(rows, ring(scales[i], t))
	}
	a, b := v3(0, 0, 0), v3(0, 0, t)
	return grid(rows, &a, &b, false)
}
