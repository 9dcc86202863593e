// Command gen writes the test meshes of testdata/meshes: sixteen small
// surfaces and volumes of the kinds users bring to a grasping demo
// (organs, scanned animals, statues, bones, logos, plain solids, a knot,
// a damaged segmentation), each in a different format or up axis, and the
// README.md that describes them:
//
//	go run ./testdata/meshes/gen -o testdata/meshes
//
// Every shape is made here: smooth unions of implicit primitives
// extracted by marching tetrahedra (and, except for the organ meant to
// keep its slivers, remeshed on the implicit surface: shortest-edge
// collapses, Delaunay flips, tangential smoothing), or explicit sweeps,
// revolutions and extrusions. Volumes are filled with TetGen through
// physics/meshfile. The output is deterministic (fixed seeds) up to
// TetGen's version. With -check (default) every file written is read
// back with meshfile.Open, as the app does, and what it says is printed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"softgrasp/physics/mesh"
	"softgrasp/physics/meshfile"
)

type item struct {
	file, kind, format, up, hard string
	s                            *surf
	m                            *mesh.TetMesh
	data                         []byte
	note                         string // counts line for the README
}

func main() {
	dir := flag.String("o", "testdata/meshes", "output directory")
	check := flag.Bool("check", true, "read every file back with meshfile.Open and print what it says")
	only := flag.String("only", "", "make only the files whose names contain this")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fatal(err)
	}
	var items []*item
	for _, mk := range makers {
		name := mk.file
		if *only != "" && !strings.Contains(name, *only) {
			continue
		}
		fmt.Printf("%s\n", name)
		it := mk.make()
		it.file = name
		items = append(items, it)
		if err := os.WriteFile(filepath.Join(*dir, name), it.data, 0o644); err != nil {
			fatal(err)
		}
		fmt.Printf("    %s, %d bytes\n", it.note, len(it.data))
	}
	total := 0
	for _, it := range items {
		total += len(it.data)
	}
	fmt.Printf("total %d bytes\n", total)
	if *only == "" {
		if err := os.WriteFile(filepath.Join(*dir, "README.md"), readme(items), 0o644); err != nil {
			fatal(err)
		}
	}
	if *check {
		for _, it := range items {
			l, err := meshfile.Open(filepath.Join(*dir, it.file), meshfile.Options{})
			if err != nil {
				fmt.Printf("CHECK %s: ERROR %v\n", it.file, err)
				continue
			}
			fmt.Printf("CHECK %s: %s, %d nodes, %d tets\n", it.file, l.Format, len(l.Mesh.Nodes), len(l.Mesh.Tets))
			for _, n := range l.Notes {
				fmt.Printf("      note: %s\n", n)
			}
		}
	}
}

type maker struct {
	file string
	make func() *item
}

var makers = []maker{
	{"01_liver_surface.vtk", makeLiver},
	{"02_kidney_volume.msh", makeKidney},
	{"03_horse_scan_yup.stl", makeHorse},
	{"04_statue_yup.obj", makeStatue},
	{"05_figure_lying.obj", makeLying},
	{"06_bear_volume.vtk", makeBear},
	{"07_antler.stl", makeAntler},
	{"08_femur.stl", makeFemur},
	{"09_star_logo_volume.vtu", makeStar},
	{"10_cylinder_ascii.stl", makeCylinder},
	{"11_cylinder_lying_volume.msh", makeCylinderLying},
	{"12_torus_lowres.obj", makeTorus},
	{"13_trefoil_knot.stl", makeKnot},
	{"14_bunny_scan_yup.obj", makeBunny},
	{"15_stomach_damaged.stl", makeStomach},
	{"16_vase_tall.stl", makeVase},
}

// tighten shrinks the box [lo, hi] to the part where f < 0, sampled at
// step, plus a margin of two steps.
func tighten(f sdf, lo, hi vec, step float64) (vec, vec) {
	nlo, nhi := hi, lo
	for x := lo.X; x <= hi.X; x += step {
		for y := lo.Y; y <= hi.Y; y += step {
			for z := lo.Z; z <= hi.Z; z += step {
				if f(v3(x, y, z)) < step {
					p := v3(x, y, z)
					nlo = v3(math.Min(nlo.X, p.X), math.Min(nlo.Y, p.Y), math.Min(nlo.Z, p.Z))
					nhi = v3(math.Max(nhi.X, p.X), math.Max(nhi.Y, p.Y), math.Max(nhi.Z, p.Z))
				}
			}
		}
	}
	m := v3(2*step, 2*step, 2*step)
	return sub(nlo, m), add(nhi, m)
}

// cellFor returns the marching cell size that gives about want raw
// triangles (two trial extractions; the count goes as 1/h²).
func cellFor(f sdf, lo, hi vec, want int) float64 {
	ext := math.Max(hi.X-lo.X, math.Max(hi.Y-lo.Y, hi.Z-lo.Z))
	h := ext / 40
	for i := 0; i < 2; i++ {
		n := len(marchingTets(f, lo, hi, h, 1e-3).T)
		h *= math.Sqrt(float64(n) / float64(want))
	}
	return h
}

// implicit extracts f inside the box (tightened first) and remeshes it
// to about target triangles, the raw extraction over times finer.
func implicit(f sdf, lo, hi vec, target int, over float64) *surf {
	lo, hi = tighten(f, lo, hi, 2)
	h := cellFor(f, lo, hi, int(over*float64(target)))
	return extract(f, lo, hi, h, target)
}

// tetra fills the surface with TetGen at about want tetrahedra: the node
// target is corrected by the ratio found, a few times (the surface's own
// points bound how coarse it can get).
func tetra(s *surf, want int) *mesh.TetMesh {
	var best *mesh.TetMesh
	var bestNotes []string
	nodes := float64(want) / 5.5
	for try := 0; try < 3; try++ {
		ts := &mesh.TriSurface{Nodes: slices.Clone(s.P), Tris: slices.Clone(s.T)}
		m, notes, err := meshfile.Tetrahedralize(ts, meshfile.TetGenOptions{TargetNodes: int(nodes)})
		if err != nil {
			fatal(err)
		}
		fmt.Printf("    tetgen target %d nodes: %d tetrahedra\n", int(nodes), len(m.Tets))
		if best == nil || math.Abs(math.Log(float64(len(m.Tets))/float64(want))) < math.Abs(math.Log(float64(len(best.Tets))/float64(want))) {
			best, bestNotes = m, notes
		}
		r := float64(len(m.Tets)) / float64(want)
		if math.Abs(r-1) < 0.1 {
			break
		}
		nodes /= r
	}
	for _, n := range bestNotes {
		fmt.Printf("    tetgen: %s\n", n)
	}
	roundNodes(best, 3)
	return best
}

func surfNote(s *surf) string {
	return fmt.Sprintf("%d triangles, %d points", len(s.T), len(s.P))
}

func tetNote(m *mesh.TetMesh, s *surf) string {
	return fmt.Sprintf("%d tetrahedra, %d nodes (from a %d-triangle surface)", len(m.Tets), len(m.Nodes), len(s.T))
}

func makeLiver() *item {
	lo, hi := tighten(liver, v3(-110, -80, -70), v3(110, 80, 70), 2)
	// raw marching tetrahedra at the cell size that gives about 5000
	// triangles: the slivers of the extraction stay
	h := cellFor(liver, lo, hi, 5000)
	s := marchingTets(liver, lo, hi, h, 1e-3)
	fmt.Printf("    cell %.3g: %v\n", h, s.check())
	return &item{kind: "organ surface (liver-like lumpy wedge)", format: "legacy VTK 3.0 BINARY POLYDATA", up: "z",
		hard: "raw marching-tetrahedra output: nearly flat triangles and very short edges (slivers) wherever the level set passes near a grid point; thin left lobe",
		s:    s, data: vtkPolyBinary(s, "liver-like surface, marching tetrahedra"), note: surfNote(s)}
}

func makeKidney() *item {
	s := implicit(kidney, v3(-80, -50, -40), v3(80, 60, 40), 440, 8)
	m := tetra(s, 4500)
	return &item{kind: "organ volume (kidney bean with hilum dent)", format: "Gmsh 4.1 ASCII, tetrahedra", up: "z",
		hard: "volume mesh given as is (no TetGen at load); concave hilum",
		m:    m, s: s, data: gmsh(m), note: tetNote(m, s)}
}

func makeHorse() *item {
	f := horse()
	s := implicit(f, v3(-90, -5, -40), v3(110, 150, 40), 8010, 4)
	addNoise(s, 0.18, 3)
	fmt.Printf("    after noise: %v\n", s.check())
	return &item{kind: "scanned quadruped (horse-like: body, four legs on hooves, neck, head, ears, tail)", format: "STL binary", up: "y",
		hard: "+y up (auto up stands it; -mesh-up y forces it); thin legs (lower legs 7.6–10 units across), ears (3–7) and tail (5–9); the four hooves' soles at y = 0 up to the noise; scan noise (σ = 0.18 units) on every vertex; just under 8000 triangles, the most a binary STL (50 bytes a triangle) holds under 400 KB",
		s:    s, data: stlBinary(s, "scanned quadruped, +y up, with scan noise"), note: surfNote(s)}
}

func makeStatue() *item {
	f := statue()
	s := implicit(f, v3(-60, -20, -50), v3(60, 180, 50), 9500, 4)
	return &item{kind: "standing human-like statue on a low round plinth", format: "Wavefront OBJ", up: "y",
		hard: "+y up (auto up stands it; -mesh-up y forces it); thin arms (forearms 6–8 units across) held away from the body, narrow ankles (7.6) on a wide plinth (76 across), tall; genus one (the legs and the plinth close a loop)",
		s:    s, data: obj(s, "standing figure on a round plinth, +y up"), note: surfNote(s)}
}

func makeLying() *item {
	f := lying()
	s := implicit(f, v3(-100, -60, -30), v3(100, 60, 30), 8000, 4)
	return &item{kind: "human-like figure lying on its back", format: "Wavefront OBJ", up: "z",
		hard: "long and flat (extent along x, low in z); thin arms (forearms 6–8 units across) close at the sides, legs slightly apart, toes up",
		s:    s, data: obj(s, "figure lying on its back, z up, head towards +x"), note: surfNote(s)}
}

func makeBear() *item {
	f := bear()
	s := implicit(f, v3(-70, -45, -5), v3(100, 45, 90), 900, 8)
	m := tetra(s, 8000)
	return &item{kind: "tetrahedral animal volume (bear-like quadruped, standing)", format: "legacy VTK 3.0 ASCII UNSTRUCTURED_GRID, tetrahedra", up: "z",
		hard: "volume mesh given as is; four legs to stand on, head sticking out",
		m:    m, s: s, data: vtkGrid(m), note: tetNote(m, s)}
}

func makeAntler() *item {
	f := antler()
	s := implicit(f, v3(-110, -80, -20), v3(110, 90, 20), 5000, 4)
	return &item{kind: "thin branching antler (main beam, three tines and a brow tine)", format: "STL binary", up: "z",
		hard: "tines 10–15 units across (1/18–1/12 of the largest extent), beam 11–19; lies flat, so the gripper closes on thin tubes",
		s:    s, data: stlBinary(s, "branching antler, z up"), note: surfNote(s)}
}

func makeFemur() *item {
	f := femur()
	s := implicit(f, v3(-120, -30, -30), v3(110, 40, 30), 4500, 4)
	return &item{kind: "long bone (femur-like: thin bowed shaft, head and trochanters, condyles)", format: "STL binary", up: "z",
		hard: "long and thin (shaft 14–17 units across, about 1/13 of the length), knobby ends wider than the shaft",
		s:    s, data: stlBinary(s, "femur-like long bone, z up"), note: surfNote(s)}
}

func makeStar() *item {
	s := extrudeStar(60, 24, 14, 5, 2)
	m := tetra(s, 2500)
	return &item{kind: "flat logo volume (five-pointed star, thickness 1/8 of its width)", format: "VTK XML UnstructuredGrid (inline base64 binary)", up: "z",
		hard: "flat (14 units thick, 114 across), sharp concave corners and pointed tips; volume mesh given as is",
		m:    m, s: s, data: vtu(m), note: tetNote(m, s)}
}

func makeCylinder() *item {
	s := revolve(cylinderProfile(25, 100, 3, 16), 40)
	return &item{kind: "plain upright cylinder", format: "STL ASCII", up: "z",
		hard: "nothing much: the baseline; ASCII STL with per-facet normals",
		s:    s, data: stlASCII(s, "cylinder"), note: surfNote(s)}
}

func makeCylinderLying() *item {
	s := revolve(cylinderProfile(20, 120, 2, 12), 28)
	s.transform(func(p vec) vec { return v3(p.Z-60, p.Y, -p.X) })
	s.orientOutward()
	m := tetra(s, 3000)
	return &item{kind: "cylinder volume lying on its side", format: "Gmsh 4.1 ASCII, tetrahedra", up: "z",
		hard: "can roll: a single line of contact with the floor; volume mesh given as is",
		m:    m, s: s, data: gmsh(m), note: tetNote(m, s)}
}

func makeTorus() *item {
	s := torus(45, 15, 12, 6)
	return &item{kind: "low-resolution torus (12 × 6 segments)", format: "Wavefront OBJ", up: "z",
		hard: "very coarse facets, a hole through the middle",
		s:    s, data: obj(s, "low-resolution torus 12 x 6, z up"), note: surfNote(s)}
}

func makeKnot() *item {
	d, rc := knotClearance()
	const scale = 24.0
	r := math.Min(0.4*d, 0.6*rc) * scale
	fmt.Printf("    trefoil clearance %.3g, smallest curvature radius %.3g (scale 1): tube radius %.3g\n", d, rc, r)
	s := knotTube(scale, r, 168, 18)
	return &item{kind: "knotted tube (trefoil)", format: "STL binary", up: "z",
		hard: "genus-one tube (23 units across) that passes over itself three times, about 6 units between strands where they cross",
		s:    s, data: stlBinary(s, "trefoil knot tube, z up"), note: surfNote(s)}
}

func makeBunny() *item {
	f := bunny()
	s := implicit(f, v3(-60, -10, -45), v3(70, 120, 45), 6000, 4)
	addNoise(s, 0.15, 14)
	fmt.Printf("    after noise: %v\n", s.check())
	return &item{kind: "sitting bunny-like scan blob (round body, head, two long ears)", format: "Wavefront OBJ", up: "y",
		hard: "+y up (auto up stands it; -mesh-up y forces it); no flat base, so it rests on round haunches and paws; long thin ears (6–10 units across); scan noise (σ = 0.15 units)",
		s:    s, data: obj(s, "sitting bunny-like scan, +y up, with scan noise"), note: surfNote(s)}
}

func makeStomach() *item {
	f := stomach()
	s := implicit(f, v3(-60, -40, -40), v3(100, 40, 110), 4000, 4)
	d := damage(s)
	return &item{kind: "damaged organ surface (stomach-like J-shaped sac), as a segmentation tool writes it", format: "STL binary", up: "z",
		hard: d.String(),
		s:    s, data: stlBinary(d.s, "stomach segmentation"), note: fmt.Sprintf("%d triangles as written (%d of the clean surface)", len(d.s.T), len(s.T))}
}

func makeVase() *item {
	s := revolve(vaseProfile(), 40)
	return &item{kind: "tall thin vase/bottle (solid)", format: "STL binary", up: "z",
		hard: "tall and narrow (190 high, 52 across, neck 15 across): tips over easily, the neck is thin",
		s:    s, data: stlBinary(s, "tall vase, z up"), note: surfNote(s)}
}

// damaged is a surface with the damage done to it.
type damaged struct {
	s                                  *surf
	holes, removed, flipped, dup, degn int
}

func (d damaged) String() string {
	return fmt.Sprintf("damaged: %d small holes (%d triangles removed), %d triangles with flipped orientation, %d facets written twice, %d degenerate facets (a corner repeated); every vertex repeated per facet, as STL does",
		d.holes, d.removed, d.flipped, d.dup, d.degn)
}

// damage removes a few triangles (three small holes), flips a patch and
// a few scattered triangles, repeats a few facets and adds degenerate
// ones.
func damage(s *surf) damaged {
	d := damaged{}
	drop := map[int]bool{}
	n := len(s.T)
	// hole 1: one triangle; hole 2: two neighbours; hole 3: a point's star
	drop[n/7] = true
	t2 := 3 * n / 7
	drop[t2] = true
	for i, t := range s.T {
		if i != t2 && shareEdge(t, s.T[t2]) {
			drop[i] = true
			break
		}
	}
	v := s.T[5*n/7][0]
	for i, t := range s.T {
		if t[0] == v || t[1] == v || t[2] == v {
			drop[i] = true
		}
	}
	d.holes, d.removed = 3, len(drop)
	out := &surf{P: s.P}
	for i, t := range s.T {
		if drop[i] {
			continue
		}
		out.T = append(out.T, t)
	}
	// a patch of flipped triangles: those near a point, and every 97th
	c := s.P[s.T[2*n/7][0]]
	for i, t := range out.T {
		if norm(sub(s.P[t[0]], c)) < 9 || i%97 == 0 {
			out.T[i] = [3]int{t[0], t[2], t[1]}
			d.flipped++
		}
	}
	for _, i := range []int{10, 500, 1500} {
		out.T = append(out.T, out.T[i])
		d.dup++
	}
	for _, i := range []int{20, 900} {
		t := out.T[i]
		out.T = append(out.T, [3]int{t[0], t[1], t[1]})
		d.degn++
	}
	d.s = out
	return d
}

func shareEdge(a, b [3]int) bool {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if x == y {
				n++
			}
		}
	}
	return n == 2
}

// widths returns the largest extent and the narrowest horizontal width
// (calipers over directions in the horizontal plane), both after the
// app's fit of the largest extent to 40 mm, in mm; y-up files are turned
// first.
func widths(it *item) (float64, float64) {
	var pts []vec
	if it.m != nil {
		pts = it.m.Nodes
	} else {
		pts = it.s.P
	}
	if it.up == "y" {
		turned := make([]vec, len(pts))
		for i, p := range pts {
			turned[i] = v3(p.X, -p.Z, p.Y)
		}
		pts = turned
	}
	s := &surf{P: pts}
	lo, hi := s.bounds()
	ext := math.Max(hi.X-lo.X, math.Max(hi.Y-lo.Y, hi.Z-lo.Z))
	w := math.Inf(1)
	for k := 0; k < 180; k++ {
		a := float64(k) * math.Pi / 180
		c, sn := math.Cos(a), math.Sin(a)
		mn, mx := math.Inf(1), math.Inf(-1)
		for _, p := range pts {
			x := c*p.X + sn*p.Y
			mn, mx = math.Min(mn, x), math.Max(mx, x)
		}
		w = math.Min(w, mx-mn)
	}
	return 40, 40 * w / ext
}

func readme(items []*item) []byte {
	var b bytes.Buffer
	b.WriteString(`# Test meshes

Sixteen small meshes of the kinds users bring to the grasping demo, one of
each, in the formats the loader reads (physics/meshfile). All of them are
generated (no downloads) by

    go run ./testdata/meshes/gen -o testdata/meshes

which also rewrites this file and reads every mesh back with the loader.
Units are arbitrary (millimetre-like, 50–200 across); the app fits each
mesh to 40 mm largest extent unless -mesh-scale/-mesh-units say otherwise.
Files modelled with +y up stand upright with the default -mesh-up auto,
which turns a file to rest stably; -mesh-up y forces it, e.g.

    softgrasp headless -mesh testdata/meshes/03_horse_scan_yup.stl -mesh-up y

` + "`softgrasp grasp-set`" + ` runs the grasp-and-rotate script on every file here
(docs/grasp-set.md has its table).

Every surface is closed, manifold and consistently oriented (outward
normals), except 15_stomach_damaged.stl, which is damaged on purpose.
Implicit shapes are smooth unions (polynomial smooth minimum) of
primitives extracted as one surface by marching tetrahedra; all but the
liver were then remeshed on the implicit surface (shortest-edge
collapses, Delaunay flips, tangential smoothing). Volumes were filled by
TetGen (meshfile.Tetrahedralize) and are loaded as they are.

"Fit" gives the largest extent and the narrowest horizontal width
(calipers, after turning y-up files upright) once fitted to 40 mm.

`)
	b.WriteString("| file | kind | format | up | counts | bytes | box in file units (x × y × z) | mm per unit at the fit | fit: extent / narrowest width |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, it := range items {
		e, w := widths(it)
		pts := it.s.P
		if it.m != nil {
			pts = it.m.Nodes
		}
		lo, hi := (&surf{P: pts}).bounds()
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %d | %.0f × %.0f × %.0f | %.4f | %.0f / %.1f mm |\n", it.file, it.kind, it.format, "+"+it.up, it.note, len(it.data),
			hi.X-lo.X, hi.Y-lo.Y, hi.Z-lo.Z, 40/math.Max(hi.X-lo.X, math.Max(hi.Y-lo.Y, hi.Z-lo.Z)), e, w)
	}
	b.WriteString("\n## What makes each one hard\n\n")
	for _, it := range items {
		fmt.Fprintf(&b, "- `%s`: %s.\n", it.file, it.hard)
	}
	return b.Bytes()
}
