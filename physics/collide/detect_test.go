package collide

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
)

const mm = 1e-3

func nearVec(a, b r3.Vec, tol float64) bool { return r3.Norm(r3.Sub(a, b)) <= tol }

func TestDetectRestingOnPlane(t *testing.T) {
	const alarm = 1 * mm
	tests := []struct {
		name  string
		lift  float64 // height of the soft cube's bottom above the floor
		pairs int
	}{
		{"touching within alarm", 0.2 * mm, 25},
		{"penetrating", -0.3 * mm, 25},
		{"beyond alarm", 1.5 * mm, 0},
		{"exactly at alarm", alarm, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, surf := gridBox([3]int{5, 5, 5}, r3.Vec{X: 0.04, Y: 0.04, Z: 0.04}, r3.Vec{X: -0.02, Y: -0.02, Z: tc.lift})
			floor := []rigid.Body{{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()}}
			pairs := NewDetector(surf).Detect(q, floor, alarm, nil)
			if len(pairs) != tc.pairs {
				t.Fatalf("%d pairs, want %d", len(pairs), tc.pairs)
			}
			for i, p := range pairs {
				// The bottom face is grid layer k = 0: nodes 0–24 in order.
				x := node(q, p.Nodes[0])
				if p.Kind != SoftVertex || p.Body != 0 || p.Count != 1 || p.Nodes[0] != i || p.Tri != -1 || p.Vertex != -1 {
					t.Fatalf("pair %d = %+v, want the soft vertex %d of the bottom face", i, p, i)
				}
				if p.Normal != (r3.Vec{Z: 1}) || math.Abs(p.Distance-tc.lift) > 1e-15 || !nearVec(p.RigidLocal, r3.Vec{X: x.X, Y: x.Y}, 1e-15) {
					t.Fatalf("pair %d: normal %v, distance %g, rigid point %v; want +z, %g, (%g, %g, 0)", i, p.Normal, p.Distance, p.RigidLocal, tc.lift, x.X, x.Y)
				}
			}
		})
	}
}

func TestDetectJawPressingFace(t *testing.T) {
	// 40 mm box, 5 mm grid, bottom at 5 mm (beyond the floor's alarm); the
	// jaws (25 mm wide, 30 mm high, centre at 27 mm) press 0.5 mm into the
	// ±x faces. Soft face vertices inside the jaw's outline: |y| ≤ 10 mm,
	// z ∈ [15, 40] mm, each 2 mm or more from the outline's border.
	const alarm, depth = 1 * mm, 0.5 * mm
	s := newSqueezeScene([3]int{9, 9, 9}, 0.04, 5*mm, 27*mm, depth, rigid.FlatJaws)
	pairs := NewDetector(s.surf).Detect(s.q, s.bodies, alarm, nil)
	for jaw, side := range []int{0, 8} {
		body := jaw + 1
		var want []int
		for k := 2; k <= 7; k++ {
			for j := 2; j <= 6; j++ {
				want = append(want, side+9*(j+9*k))
			}
		}
		wantNormal := r3.Vec{X: float64(1 - 2*jaw)}
		var soft []int
		rigidCount := 0
		for _, p := range pairs {
			if p.Body == 0 {
				t.Fatalf("floor pair %+v: the box is beyond the floor's alarm", p)
			}
			if p.Body != body {
				continue
			}
			if !nearVec(p.Normal, wantNormal, 1e-12) || math.Abs(p.Distance+depth) > 1e-12 {
				t.Fatalf("jaw %d pair %+v: want normal %v and distance %g", jaw, p, wantNormal, -depth)
			}
			if p.Kind == SoftVertex {
				soft = append(soft, p.Nodes[0])
			} else {
				rigidCount++
			}
		}
		slices.Sort(soft)
		if !slices.Equal(soft, want) {
			t.Fatalf("jaw %d: soft vertices %v, want %v", jaw, soft, want)
		}
		// The rigid vertices in contact are those of the jaw's inner face
		// (x = 0 in the jaw frame).
		front := 0
		for _, v := range s.bodies[body].Shape.Vertices() {
			if v.X == 0 {
				front++
			}
		}
		if rigidCount != front || front == 0 {
			t.Fatalf("jaw %d: %d rigid-vertex pairs, want the %d vertices of the inner face", jaw, rigidCount, front)
		}
	}
}

// hoveringCube returns a rigid cube of half-side h standing on a corner,
// that corner (body frame (−h, −h, −h)) at the world point corner.
func hoveringCube(t *testing.T, h float64, corner r3.Vec) rigid.Body {
	t.Helper()
	shape, err := rigid.NewBox(r3.Vec{X: h, Y: h, Z: h}, 2*mm)
	if err != nil {
		t.Fatal(err)
	}
	a, b := r3.Unit(r3.Vec{X: -1, Y: -1, Z: -1}), r3.Vec{Z: -1}
	rot := r3.NewRotation(math.Acos(r3.Dot(a, b)), r3.Unit(r3.Cross(a, b)))
	local := r3.Vec{X: -h, Y: -h, Z: -h}
	pose := rigid.Pose{Position: r3.Sub(corner, rot.Rotate(local)), Rotation: rot}
	return rigid.Body{Name: "cube", Shape: shape, Start: pose, End: pose}
}

// barycentric2D returns the weights of (x, y) in the triangle's projection
// on the xy plane, from the ratios of signed areas.
func barycentric2D(x, y float64, a, b, c r3.Vec) [3]float64 {
	area := func(p, q, r r3.Vec) float64 { return (q.X-p.X)*(r.Y-p.Y) - (r.X-p.X)*(q.Y-p.Y) }
	p := r3.Vec{X: x, Y: y}
	A := area(a, b, c)
	return [3]float64{area(p, b, c) / A, area(a, p, c) / A, area(a, b, p) / A}
}

func TestDetectRigidCornerOverTriangle(t *testing.T) {
	const alarm = 1 * mm
	const x0, y0 = 4 * mm, -7 * mm
	for _, tc := range []struct {
		name  string
		gap   float64
		pairs int
	}{{"within alarm", 0.4 * mm, 1}, {"beyond alarm", 1.2 * mm, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			q, surf := gridBox([3]int{2, 2, 2}, r3.Vec{X: 0.04, Y: 0.04, Z: 0.04}, r3.Vec{X: -0.02, Y: -0.02})
			body := hoveringCube(t, 5*mm, r3.Vec{X: x0, Y: y0, Z: 0.04 + tc.gap})
			pairs := NewDetector(surf).Detect(q, []rigid.Body{body}, alarm, nil)
			if len(pairs) != tc.pairs {
				t.Fatalf("%d pairs, want %d: %+v", len(pairs), tc.pairs, pairs)
			}
			if tc.pairs == 0 {
				return
			}
			// The top-face triangle holding (x0, y0) and its weights.
			wantTri, wantW := -1, [3]float64{}
			for i, tri := range surf.Tris {
				a, b, c := node(q, tri[0]), node(q, tri[1]), node(q, tri[2])
				if w := barycentric2D(x0, y0, a, b, c); a.Z == 0.04 && b.Z == 0.04 && c.Z == 0.04 && w[0] >= 0 && w[1] >= 0 && w[2] >= 0 {
					wantTri, wantW = i, w
				}
			}
			p := pairs[0]
			corner := r3.Vec{X: -5 * mm, Y: -5 * mm, Z: -5 * mm}
			if p.Kind != RigidVertex || p.Tri != wantTri || p.Count != 3 || [3]int(p.Nodes[:3]) != surf.Tris[wantTri] {
				t.Fatalf("pair %+v, want a rigid-vertex pair on triangle %d %v", p, wantTri, surf.Tris[wantTri])
			}
			for k := range wantW {
				if math.Abs(p.Weights[k]-wantW[k]) > 1e-12 {
					t.Fatalf("weights %v, want %v", p.Weights, wantW)
				}
			}
			if !nearVec(p.Normal, r3.Vec{Z: -1}, 1e-12) || math.Abs(p.Distance-tc.gap) > 1e-12 {
				t.Fatalf("normal %v distance %g, want −(triangle normal) = −z and %g", p.Normal, p.Distance, tc.gap)
			}
			if !nearVec(p.RigidLocal, corner, 1e-15) || body.Shape.Vertices()[p.Vertex] != p.RigidLocal {
				t.Fatalf("rigid point %v (vertex %d), want the corner %v", p.RigidLocal, p.Vertex, corner)
			}
		})
	}
}

// perturbedRoundScene is a squeezed soft box with jittered nodes, round
// jaws and a tilted, spun gripper: no symmetry left for the detector to
// get right by accident.
func perturbedRoundScene(seed uint64) squeezeScene {
	rng := rand.New(rand.NewPCG(seed, 31))
	s := newSqueezeScene([3]int{7, 7, 7}, 0.04, 0.2*mm, 21*mm, 0.8*mm, rigid.RoundJaws)
	for i := range s.q {
		s.q[i] += 0.3 * mm * (2*rng.Float64() - 1)
	}
	tilt := rigid.Pose{Rotation: r3.NewRotation(0.05, r3.Unit(r3.Vec{X: 1, Y: 2}))}
	spin := rigid.Pose{Rotation: r3.NewRotation(0.4, r3.Vec{Z: 1})}
	s.gripper.Pose = s.gripper.Pose.Compose(tilt).Compose(spin)
	poses := s.gripper.JawPoses()
	for j := 0; j < 2; j++ {
		s.bodies[j+1].Start, s.bodies[j+1].End = poses[j], poses[j]
	}
	return s
}

// bruteForcePairs lists the pairs Detect must find, by exhaustive search
// over every soft vertex, rigid vertex and triangle (no bounds, no BVH),
// with the same transforms and tie rule as Detect. nearMiss counts the
// candidates within twice the alarm that the alarm rejected.
func bruteForcePairs(q []float64, surf *mesh.Surface, bodies []rigid.Body, alarm float64) (out []Pair, nearMiss int) {
	for bi := range bodies {
		b := &bodies[bi]
		f := frame{R: b.Start.RotationMatrix(), t: b.Start.Position}
		for _, v := range surf.Vertices {
			pt, n, d := b.Shape.Closest(f.toLocal(node(q, v)))
			if d >= alarm {
				if d < 2*alarm {
					nearMiss++
				}
				continue
			}
			out = append(out, Pair{Kind: SoftVertex, Body: bi, Count: 1, Nodes: [MaxNodes]int{v}, Weights: [MaxNodes]float64{1}, Point: v, Tri: -1, Vertex: -1, RigidLocal: pt, Normal: f.R.MulVec(n), Distance: d})
		}
		for k, local := range b.Shape.Vertices() {
			r := f.toWorld(local)
			best, bestD2 := -1, math.Inf(1)
			var p r3.Vec
			var w [3]float64
			for t, tri := range surf.Tris {
				pt, wt := ClosestOnTriangle(r, node(q, tri[0]), node(q, tri[1]), node(q, tri[2]))
				if d2 := r3.Norm2(r3.Sub(r, pt)); d2 < bestD2 {
					best, bestD2, p, w = t, d2, pt, wt
				}
			}
			n := TriangleNormal(q, surf.Tris[best])
			s := r3.Dot(n, r3.Sub(r, p))
			if !(bestD2 < alarm*alarm && s > -alarm) {
				if bestD2 < 4*alarm*alarm {
					nearMiss++
				}
				continue
			}
			pr := Pair{Kind: RigidVertex, Body: bi, Count: 3, Point: -1, Tri: best, Vertex: k, RigidLocal: local, Normal: r3.Scale(-1, n), Distance: s}
			copy(pr.Nodes[:3], surf.Tris[best][:])
			copy(pr.Weights[:3], w[:])
			pr.Bary = w
			out = append(out, pr)
		}
	}
	return out, nearMiss
}

func TestDetectMatchesBruteForce(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		s := perturbedRoundScene(seed)
		for _, alarm := range []float64{0.5 * mm, 1.5 * mm} {
			want, nearMiss := bruteForcePairs(s.q, s.surf, s.bodies, alarm)
			got := NewDetector(s.surf).Detect(s.q, s.bodies, alarm, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d alarm %g: Detect found %d pairs, brute force %d (or they differ)", seed, alarm, len(got), len(want))
			}
			var kinds [3][2]int
			for _, p := range got {
				kinds[p.Body][p.Kind]++
				if !(p.Distance < alarm) {
					t.Fatalf("pair beyond alarm: %+v", p)
				}
			}
			if kinds[0][SoftVertex] == 0 || kinds[1][SoftVertex] == 0 || kinds[1][RigidVertex] == 0 || kinds[2][SoftVertex] == 0 || kinds[2][RigidVertex] == 0 || nearMiss == 0 {
				t.Fatalf("seed %d: pair counts %v, near misses %d: the scene does not exercise every case", seed, kinds, nearMiss)
			}
		}
	}
}

// transformScene moves the whole scene by T: nodes and body poses.
func transformScene(s squeezeScene, T rigid.Pose) squeezeScene {
	out := s
	out.q = make([]float64, len(s.q))
	for i := 0; i < len(s.q)/3; i++ {
		x := T.Apply(node(s.q, i))
		out.q[3*i], out.q[3*i+1], out.q[3*i+2] = x.X, x.Y, x.Z
	}
	out.bodies = slices.Clone(s.bodies)
	for i := range out.bodies {
		out.bodies[i].Start = T.Compose(s.bodies[i].Start)
		out.bodies[i].End = T.Compose(s.bodies[i].End)
	}
	return out
}

func TestDetectRotatedScene(t *testing.T) {
	const alarm = 1 * mm
	s := newSqueezeScene([3]int{9, 9, 9}, 0.04, 0.3*mm, 22.3*mm, 0.5*mm, rigid.FlatJaws)
	base := NewDetector(s.surf).Detect(s.q, s.bodies, alarm, nil)
	rng := rand.New(rand.NewPCG(41, 42))
	for trial := 0; trial < 3; trial++ {
		T := rigid.Pose{Position: r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()},
			Rotation: r3.NewRotation(6*rng.Float64(), r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}))}
		ts := transformScene(s, T)
		got := NewDetector(ts.surf).Detect(ts.q, ts.bodies, alarm, nil)
		if len(got) != len(base) {
			t.Fatalf("trial %d: %d pairs in the moved scene, %d in the original", trial, len(got), len(base))
		}
		for i := range got {
			g, b := &got[i], &base[i]
			// Triangles tied along a shared edge may swap; the soft point
			// they give may not.
			if g.Kind != b.Kind || g.Body != b.Body || g.Vertex != b.Vertex ||
				!nearVec(softPoint(ts.q, g), T.Apply(softPoint(s.q, b)), 1e-12) ||
				!nearVec(g.Normal, T.Rotate(b.Normal), 1e-12) ||
				!nearVec(g.RigidLocal, b.RigidLocal, 1e-12) ||
				math.Abs(g.Distance-b.Distance) > 1e-12 {
				t.Fatalf("trial %d pair %d: %+v, want the original %+v moved", trial, i, *g, *b)
			}
		}
	}
	floor := 0
	for _, p := range base {
		if p.Body == 0 {
			floor++
		}
	}
	if floor != 81 || len(base) <= floor {
		t.Fatalf("%d floor pairs of %d: want the 81 bottom vertices and jaw pairs besides", floor, len(base))
	}
}

func TestDetectUsesStartPose(t *testing.T) {
	const alarm = 1 * mm
	s := newSqueezeScene([3]int{9, 9, 9}, 0.04, 5*mm, 27*mm, 0.5*mm, rigid.RoundJaws)
	det := NewDetector(s.surf)
	base := det.Detect(s.q, s.bodies, alarm, nil)
	away := rigid.Translation(r3.Vec{Z: 0.1})
	movedEnd := slices.Clone(s.bodies)
	movedStart := slices.Clone(s.bodies)
	for i := 1; i < 3; i++ {
		movedEnd[i].End = away.Compose(s.bodies[i].Start)
		movedStart[i].Start = away.Compose(s.bodies[i].Start)
	}
	if got := det.Detect(s.q, movedEnd, alarm, nil); !slices.Equal(got, base) || len(base) == 0 {
		t.Fatalf("moving the end poses changed detection: %d pairs, were %d", len(got), len(base))
	}
	if got := det.Detect(s.q, movedStart, alarm, nil); len(got) != 0 {
		t.Fatalf("jaws moved away at the start still give %d pairs", len(got))
	}
}

func TestDetectDeterministicNoAlloc(t *testing.T) {
	s := perturbedRoundScene(7)
	det := NewDetector(s.surf)
	first := det.Detect(s.q, s.bodies, 1.5*mm, nil)
	out := make([]Pair, 0, 2*len(first))
	var again []Pair
	allocs := testing.AllocsPerRun(5, func() {
		again = det.Detect(s.q, s.bodies, 1.5*mm, out[:0])
	})
	if !slices.Equal(again, first) || len(first) == 0 {
		t.Fatal("a second Detect on the same input gives different pairs")
	}
	if allocs != 0 {
		t.Fatalf("warm Detect allocates %g times per call, want 0", allocs)
	}
}

func TestDetectorValidate(t *testing.T) {
	s := newSqueezeScene([3]int{3, 3, 3}, 0.04, 0, 20*mm, 0, rigid.FlatJaws)
	badSurf := &mesh.Surface{Tris: [][3]int{{0, 1, -2}}}
	noShape := slices.Clone(s.bodies)
	noShape[1].Shape = nil
	badPose := slices.Clone(s.bodies)
	badPose[2].End = rigid.Pose{}
	tests := []struct {
		name   string
		det    *Detector
		q      []float64
		bodies []rigid.Body
		alarm  float64
		want   string
	}{
		{"nil surface", NewDetector(nil), s.q, s.bodies, mm, "nil"},
		{"negative index", NewDetector(badSurf), s.q, s.bodies, mm, "negative"},
		{"short positions", NewDetector(s.surf), s.q[:30], s.bodies, mm, "positions"},
		{"negative alarm", NewDetector(s.surf), s.q, s.bodies, -mm, "alarm"},
		{"NaN alarm", NewDetector(s.surf), s.q, s.bodies, math.NaN(), "alarm"},
		{"no shape", NewDetector(s.surf), s.q, noShape, mm, "no shape"},
		{"bad end pose", NewDetector(s.surf), s.q, badPose, mm, "end pose"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.det.Validate(tc.q, tc.bodies, tc.alarm)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if err := NewDetector(s.surf).Validate(s.q, s.bodies, mm); err != nil {
		t.Fatalf("valid input rejected: %v", err)
	}
	for _, tc := range tests[:5] {
		sentinel := []Pair{{Tri: 99}}
		if got := tc.det.Detect(tc.q, tc.bodies, tc.alarm, sentinel); !slices.Equal(got, sentinel) {
			t.Fatalf("%s: Detect on invalid input changed out", tc.name)
		}
	}
}

// TestRigidPairsThinned: a 20 mm dynamic box sampled every 0.5 mm along
// its edges, resting 0.1 mm above the floor, meets it at 160 samples of
// its bottom face; RigidPairs keeps at most maxRigidPairs of them, in
// their order, spread over the whole face (the kept points span it to
// within the spacing), the deepest of each neighbourhood; tilted, the
// lower edge's samples stay.
func TestRigidPairsThinned(t *testing.T) {
	box, err := rigid.NewBox(r3.Vec{X: 0.01, Y: 0.01, Z: 0.01}, 0.5e-3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tilt := range []float64{0, 0.02} {
		pose := rigid.Pose{Position: r3.Vec{Z: 0.01 + 1e-4 + 0.01*math.Sin(tilt)}, Rotation: r3.NewRotation(tilt, r3.Vec{X: 1})}
		bodies := []rigid.Body{
			{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()},
			{Name: "box", Shape: box, Start: pose, End: pose},
		}
		all := 0
		for _, v := range box.Vertices() {
			if x := pose.Apply(v); x.Z < 1e-3 {
				all++
			}
		}
		pairs := RigidPairs(bodies, []bool{false, true}, 1e-3, nil)
		lo, hi := r3.Vec{X: 1, Y: 1}, r3.Vec{X: -1, Y: -1}
		deepest, deepestKept := math.Inf(1), math.Inf(1)
		for _, v := range box.Vertices() {
			if x := pose.Apply(v); x.Z < 1e-3 {
				deepest = math.Min(deepest, x.Z)
			}
		}
		for a, pr := range pairs {
			if a > 0 && pr.Vertex <= pairs[a-1].Vertex {
				t.Fatalf("tilt %g: pairs out of order: vertex %d after %d", tilt, pr.Vertex, pairs[a-1].Vertex)
			}
			x := pose.Apply(pr.RigidLocal)
			lo = r3.Vec{X: math.Min(lo.X, x.X), Y: math.Min(lo.Y, x.Y)}
			hi = r3.Vec{X: math.Max(hi.X, x.X), Y: math.Max(hi.Y, x.Y)}
			deepestKept = math.Min(deepestKept, pr.Distance)
		}
		t.Logf("tilt %g: %d samples within the alarm, %d pairs kept over x %.2f…%.2f mm, y %.2f…%.2f mm", tilt, all, len(pairs), 1e3*lo.X, 1e3*hi.X, 1e3*lo.Y, 1e3*hi.Y)
		if all <= maxRigidPairs || len(pairs) > maxRigidPairs || len(pairs) < 8 {
			t.Fatalf("tilt %g: %d samples, %d pairs kept (at most %d)", tilt, all, len(pairs), maxRigidPairs)
		}
		spacing := 0.02 * math.Sqrt2 / 6 * 1.5 * 1.5 // the extent's sixth, grown twice at most here
		if lo.X > -0.01+spacing || hi.X < 0.01-spacing || lo.Y > -0.01*math.Cos(tilt)+spacing || hi.Y < 0.01*math.Cos(tilt)-spacing {
			t.Fatalf("tilt %g: the kept pairs do not span the face", tilt)
		}
		if math.Abs(deepestKept-deepest) > 1e-12 {
			t.Fatalf("tilt %g: the deepest sample (%g) was dropped (deepest kept %g)", tilt, deepest, deepestKept)
		}
	}
}

// TestAlarmZoneWorldBox checks the world box that softVertexPairs passes
// points over by: every point inside a box shape's alarm zone, in any
// pose, lies inside it, and it is no larger than the box of the zone's
// placed corners (so that it passes over points at all).
func TestAlarmZoneWorldBox(t *testing.T) {
	box, err := rigid.NewBox(r3.Vec{X: 0.004, Y: 0.01, Z: 0.02}, 0.002)
	if err != nil {
		t.Fatal(err)
	}
	zone := newAlarmZone(box, 1*mm)
	rng := rand.New(rand.NewPCG(7, 8))
	for pose := range 50 {
		axis := r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
		rot := r3.NewRotation(rng.Float64()*2*math.Pi, axis)
		p := rigid.Pose{Rotation: rot, Position: r3.Vec{X: rng.Float64(), Y: -rng.Float64(), Z: rng.Float64()}}
		f := frame{R: p.RotationMatrix(), t: p.Position}
		w := zone.worldBox(p)
		corners := r3.Box{Min: r3.Vec{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}, Max: r3.Vec{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)}}
		for c := range 8 {
			x := f.toWorld(rigid.BoxCorner(zone.box, c))
			corners.Min = r3.Vec{X: min(corners.Min.X, x.X), Y: min(corners.Min.Y, x.Y), Z: min(corners.Min.Z, x.Z)}
			corners.Max = r3.Vec{X: max(corners.Max.X, x.X), Y: max(corners.Max.Y, x.Y), Z: max(corners.Max.Z, x.Z)}
			if !rigid.InBox(&w, x) {
				t.Fatalf("pose %d: corner %d of the zone at %v is outside the world box %v", pose, c, x, w)
			}
		}
		if d := r3.Norm(r3.Sub(w.Max, corners.Max)) + r3.Norm(r3.Sub(w.Min, corners.Min)); d > 1e-8 {
			t.Fatalf("pose %d: the world box %v is %g larger than its corners' %v", pose, w, d, corners)
		}
		for range 200 {
			local := r3.Vec{
				X: zone.box.Min.X + rng.Float64()*(zone.box.Max.X-zone.box.Min.X),
				Y: zone.box.Min.Y + rng.Float64()*(zone.box.Max.Y-zone.box.Min.Y),
				Z: zone.box.Min.Z + rng.Float64()*(zone.box.Max.Z-zone.box.Min.Z),
			}
			if x := f.toWorld(local); !rigid.InBox(&w, x) {
				t.Fatalf("pose %d: a point of the zone at %v is outside the world box %v", pose, x, w)
			}
		}
	}
}

// TestRunCullPassesOverOnlyFarRuns checks the test by which
// softVertexPairs passes over a whole run of vertices: where runCull.away
// says so of a run's box (as surfaceFit bounds it), none of its vertices
// would have paired with the body one by one (outside the alarm zone's
// world box, or not within the alarm of a plane), for a box and planes in
// random poses and runs of every size from 0.1 to 20 mm, some about
// points of the body's surface; and it passes over some runs, its
// purpose.
func TestRunCullPassesOverOnlyFarRuns(t *testing.T) {
	const alarm = 2 * mm
	box, err := rigid.NewBox(r3.Vec{X: 0.004, Y: 0.01, Z: 0.02}, 0.002)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	const runs = 600
	verts := make([]int, runs*VertexRun)
	for i := range verts {
		verts[i] = i
	}
	fit := &surfaceFit{verts: verts}
	q := make([]float64, 3*len(verts))
	for _, shape := range []rigid.Shape{box, rigid.Plane{}} {
		for pose := range 20 {
			axis := r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
			p := rigid.Pose{Rotation: r3.NewRotation(rng.Float64()*2*math.Pi, axis), Position: r3.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5, Z: rng.Float64() - 0.5}}
			b := &rigid.Body{Shape: shape, Start: p, End: p}
			f := frame{R: p.RotationMatrix(), t: p.Position}
			for r := range runs {
				centre := r3.Add(p.Position, r3.Vec{X: 0.06 * (rng.Float64() - 0.5), Y: 0.06 * (rng.Float64() - 0.5), Z: 0.06 * (rng.Float64() - 0.5)})
				if r%2 == 1 {
					c, _, _ := shape.Closest(f.toLocal(centre))
					centre = f.toWorld(c)
				}
				spread := 1e-4 * math.Pow(200, rng.Float64())
				for k := range VertexRun {
					x := r3.Add(centre, r3.Scale(spread, r3.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5, Z: rng.Float64() - 0.5}))
					i := 3 * (r*VertexRun + k)
					q[i], q[i+1], q[i+2] = x.X, x.Y, x.Z
				}
			}
			fit.fitRuns(q)
			zone := newAlarmZone(shape, alarm)
			world := zone.worldBox(p)
			cull := newRunCull(&zone, world, b, alarm)
			away := 0
			for r := range runs {
				if !cull.away(&fit.runs[r]) {
					continue
				}
				away++
				for k := range VertexRun {
					x := node(q, r*VertexRun+k)
					if zone.bounded && !rigid.InBox(&world, x) {
						continue
					}
					if _, _, d, ok := zone.closest(f.toLocal(x)); ok {
						t.Fatalf("%T pose %d: run %d passed over, but its vertex %v lies %g from the body", shape, pose, r, x, d)
					}
				}
			}
			if away < runs/10 || away > runs*9/10 {
				t.Fatalf("%T pose %d: %d of %d runs passed over: the case does not exercise both", shape, pose, away, runs)
			}
		}
	}
}
