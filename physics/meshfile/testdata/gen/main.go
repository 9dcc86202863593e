// Command gen writes the damaged surfaces of testdata that the repairs of
// the surface cleaning are tested on:
//
//	go run ./physics/meshfile/testdata/gen -o physics/meshfile/testdata
//
// organ_slivers.vtk: an organ-like closed surface extracted from a
// sampled implicit function by marching tetrahedra (binary legacy VTK
// POLYDATA, as segmentation tools write them). The extraction leaves
// nearly flat triangles where the level set passes close to a grid point,
// which TetGen's mesh keeps as slivers.
//
// holes.stl: a bumpy closed surface with a few triangles removed (small
// holes). sheet.stl: a single open sheet, half of that surface.
//
// folds.obj: a finer bumpy closed surface with two points pushed sideways
// past their neighbours, so that a few triangles cross others.
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"sort"

	"softgrasp/physics/mesh/meshtest"
)

type vec [3]float64

func sub(a, b vec) vec           { return vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func add(a, b vec) vec           { return vec{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func scale(s float64, a vec) vec { return vec{s * a[0], s * a[1], s * a[2]} }
func dot(a, b vec) float64       { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func cross(a, b vec) vec {
	return vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

type surf struct {
	pts  []vec
	tris [][3]int
}

// organ is the implicit function: negative inside a lumpy ellipsoid.
func organ(p vec) float64 {
	x, y, z := p[0]/70, p[1]/45, p[2]/35
	r := math.Sqrt(x*x + y*y + z*z)
	bump := 0.12*math.Sin(3.1*x+0.3)*math.Sin(2.3*y+1.1)*math.Sin(2.7*z+0.4) +
		0.05*math.Sin(7.3*x+1.7*y)*math.Cos(5.1*z-0.8)
	return r - 1 - bump
}

// marchingTets extracts the zero level set of f on a grid of n³ cells
// covering [lo, hi]³ (the cells split into six tetrahedra each, Kuhn's
// decomposition, so that neighbouring cells agree).
func marchingTets(f func(vec) float64, lo, hi vec, n [3]int) surf {
	var s surf
	idx := func(i, j, k int) int { return (i*(n[1]+1)+j)*(n[2]+1) + k }
	pos := func(i, j, k int) vec {
		return vec{lo[0] + (hi[0]-lo[0])*float64(i)/float64(n[0]),
			lo[1] + (hi[1]-lo[1])*float64(j)/float64(n[1]),
			lo[2] + (hi[2]-lo[2])*float64(k)/float64(n[2])}
	}
	val := make([]float64, (n[0]+1)*(n[1]+1)*(n[2]+1))
	for i := 0; i <= n[0]; i++ {
		for j := 0; j <= n[1]; j++ {
			for k := 0; k <= n[2]; k++ {
				v := f(pos(i, j, k))
				if v == 0 {
					v = 1e-12
				}
				val[idx(i, j, k)] = v
			}
		}
	}
	edgeAt := map[[2]int]int{}
	vertex := func(a, b int, pa, pb vec) int {
		key := [2]int{min(a, b), max(a, b)}
		if v, ok := edgeAt[key]; ok {
			return v
		}
		t := val[a] / (val[a] - val[b])
		s.pts = append(s.pts, add(pa, scale(t, sub(pb, pa))))
		edgeAt[key] = len(s.pts) - 1
		return len(s.pts) - 1
	}
	perms := [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for i := 0; i < n[0]; i++ {
		for j := 0; j < n[1]; j++ {
			for k := 0; k < n[2]; k++ {
				for _, pm := range perms {
					c := [3]int{i, j, k}
					var id [4]int
					var p [4]vec
					for q := 0; q < 4; q++ {
						if q > 0 {
							c[pm[q-1]]++
						}
						id[q] = idx(c[0], c[1], c[2])
						p[q] = pos(c[0], c[1], c[2])
					}
					var in, out []int
					for q := 0; q < 4; q++ {
						if val[id[q]] < 0 {
							in = append(in, q)
						} else {
							out = append(out, q)
						}
					}
					if len(in) == 0 || len(out) == 0 {
						continue
					}
					var ci, co vec
					for _, q := range in {
						ci = add(ci, scale(1/float64(len(in)), p[q]))
					}
					for _, q := range out {
						co = add(co, scale(1/float64(len(out)), p[q]))
					}
					emit := func(a, b, c int) {
						n := cross(sub(s.pts[b], s.pts[a]), sub(s.pts[c], s.pts[a]))
						if dot(n, sub(co, ci)) < 0 {
							b, c = c, b
						}
						s.tris = append(s.tris, [3]int{a, b, c})
					}
					v := func(a, b int) int { return vertex(id[a], id[b], p[a], p[b]) }
					switch {
					case len(in) == 1:
						emit(v(in[0], out[0]), v(in[0], out[1]), v(in[0], out[2]))
					case len(out) == 1:
						emit(v(out[0], in[0]), v(out[0], in[1]), v(out[0], in[2]))
					default:
						a, b := v(in[0], out[0]), v(in[0], out[1])
						c, d := v(in[1], out[1]), v(in[1], out[0])
						emit(a, b, c)
						emit(a, c, d)
					}
				}
			}
		}
	}
	return s
}

// bumpySphere is an icosphere of radius r subdivided k times, its points
// moved along the normal by a smooth bump.
func bumpySphere(k int, r float64) surf {
	ico := meshtest.Icosphere(k)
	s := surf{tris: ico.Tris}
	for _, p := range ico.Nodes {
		s.pts = append(s.pts, vec{p.X, p.Y, p.Z})
	}
	for i, p := range s.pts {
		b := 1 + 0.1*math.Sin(3*p[0]+1)*math.Sin(2*p[1])*math.Cos(3*p[2])
		s.pts[i] = scale(r*b, p)
	}
	return s
}

func writeVTKPolyBinary(path string, s surf) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "# vtk DataFile Version 3.0\norgan-like surface, marching tetrahedra\nBINARY\nDATASET POLYDATA\nPOINTS %d float\n", len(s.pts))
	for _, p := range s.pts {
		for _, c := range p {
			binary.Write(w, binary.BigEndian, float32(c))
		}
	}
	fmt.Fprintf(w, "\nPOLYGONS %d %d\n", len(s.tris), 4*len(s.tris))
	for _, t := range s.tris {
		binary.Write(w, binary.BigEndian, [4]int32{3, int32(t[0]), int32(t[1]), int32(t[2])})
	}
	fmt.Fprintf(w, "\n")
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
}

func writeSTLBinary(path string, s surf) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	var head [80]byte
	copy(head[:], "softgrasp test surface")
	w.Write(head[:])
	binary.Write(w, binary.LittleEndian, uint32(len(s.tris)))
	for _, t := range s.tris {
		a, b, c := s.pts[t[0]], s.pts[t[1]], s.pts[t[2]]
		n := cross(sub(b, a), sub(c, a))
		if l := math.Sqrt(dot(n, n)); l > 0 {
			n = scale(1/l, n)
		}
		for _, v := range []vec{n, a, b, c} {
			for _, x := range v {
				binary.Write(w, binary.LittleEndian, float32(x))
			}
		}
		w.Write([]byte{0, 0})
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
}

// without removes the triangles at the given indices.
func without(s surf, drop ...int) surf {
	sort.Ints(drop)
	out := surf{pts: s.pts}
	for i, t := range s.tris {
		if j := sort.SearchInts(drop, i); j < len(drop) && drop[j] == i {
			continue
		}
		out.tris = append(out.tris, t)
	}
	return out
}

func main() {
	dir := flag.String("o", "physics/meshfile/testdata", "output directory")
	cells := flag.Int("cells", 24, "grid cells along the organ's long axis")
	flag.Parse()
	n := *cells
	org := marchingTets(organ, vec{-85, -85 * 0.7, -85 * 0.55}, vec{85, 85 * 0.7, 85 * 0.55},
		[3]int{n, int(math.Round(float64(n) * 0.7)), int(math.Round(float64(n) * 0.55))})
	writeVTKPolyBinary(filepath.Join(*dir, "organ_slivers.vtk"), org)
	fmt.Printf("organ_slivers.vtk: %d points, %d triangles\n", len(org.pts), len(org.tris))

	// Three holes (two missing triangles and the six triangles around
	// a point) and a stray triangle apart from the surface.
	ball := bumpySphere(2, 20)
	star := []int{}
	for i, t := range ball.tris {
		if t[0] == 30 || t[1] == 30 || t[2] == 30 {
			star = append(star, i)
		}
	}
	holes := without(ball, append([]int{3, 200}, star...)...)
	holes.pts = append(holes.pts, vec{40, 0, 0}, vec{41, 0, 0}, vec{40, 1, 0})
	n0 := len(holes.pts) - 3
	holes.tris = append(holes.tris, [3]int{n0, n0 + 1, n0 + 2})
	writeSTLBinary(filepath.Join(*dir, "holes.stl"), holes)
	fmt.Printf("holes.stl: %d triangles, %d removed around point %v\n", len(holes.tris), len(star)+2, ball.pts[30])

	// The upper half of the same surface: a single open sheet.
	var upper []int
	for i, t := range ball.tris {
		if ball.pts[t[0]][2]+ball.pts[t[1]][2]+ball.pts[t[2]][2] < 0 {
			upper = append(upper, i)
		}
	}
	sheet := without(ball, upper...)
	writeSTLBinary(filepath.Join(*dir, "sheet.stl"), sheet)
	fmt.Printf("sheet.stl: %d triangles\n", len(sheet.tris))

	// Two folds: two points of a finer ball pushed sideways past their
	// neighbours, so that the triangles around them cross others.
	folds := bumpySphere(3, 20)
	for _, f := range []struct {
		v     int
		along vec
	}{{40, vec{1, 0.3, 0}}, {400, vec{0, 0.2, 1}}} {
		p := folds.pts[f.v]
		n := scale(1/math.Sqrt(dot(p, p)), p)
		d := sub(f.along, scale(dot(f.along, n), n)) // tangential
		folds.pts[f.v] = add(p, scale(4/math.Sqrt(dot(d, d)), d))
	}
	writeOBJ(filepath.Join(*dir, "folds.obj"), folds)
	fmt.Printf("folds.obj: %d triangles\n", len(folds.tris))
}

func writeOBJ(path string, s surf) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "# a closed surface with two folds\n")
	for _, p := range s.pts {
		fmt.Fprintf(w, "v %.6g %.6g %.6g\n", p[0], p[1], p[2])
	}
	for _, t := range s.tris {
		fmt.Fprintf(w, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
}
