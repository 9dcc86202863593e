// Command blobs writes the meshes of the README's mesh-file table that
// are too large to keep in the repository:
//
//	go run ./physics/embed/testdata/blobs -o DIR
//
// blob20k.stl: a closed 20480-triangle surface, an icosphere subdivided
// five times, stretched and given a smooth bump (binary STL).
// blob20k_holes.stl: the same with six triangles taken out.
// blob20k_folds.stl: the same with a few points pushed inwards and
// sideways past their neighbours, so that triangles cross.
// long_yup.stl: the same stretched along +y (a Y-up long body).
// cylinder4k.msh: the procedural cylinder of about 4300 DOFs, 9:2 tall,
// as Gmsh 4.1. box9k.vtk: the procedural box of about 9000 DOFs as legacy
// VTK.
package main

import (
	"encoding/binary"
	"flag"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/meshfile"
)

func main() {
	dir := flag.String("o", ".", "output directory")
	flag.Parse()
	path := func(name string) string { return filepath.Join(*dir, name) }

	v, f := icosphere(5, 0.15)
	writeSTL(path("blob20k.stl"), v, f)
	var holed [][3]int
	for i, t := range f {
		if i%3400 != 17 {
			holed = append(holed, t)
		}
	}
	writeSTL(path("blob20k_holes.stl"), v, holed)
	pushed := append([]r3.Vec(nil), v...)
	for i := 100; i < len(pushed); i += 1500 {
		pushed[i] = r3.Scale(0.93, pushed[i])
		pushed[i].X += 0.03
	}
	writeSTL(path("blob20k_folds.stl"), pushed, f)
	long := make([]r3.Vec, len(v))
	for i, p := range v {
		long[i] = r3.Vec{X: 0.6 * p.X, Y: 2.2 * p.Y, Z: 0.6 * p.Z}
	}
	writeSTL(path("long_yup.stl"), long, f)

	c, err := mesh.CylinderForDOFs(0.01, 0.09, 4300)
	check(err)
	writeMesh(path("cylinder4k.msh"), c, meshfile.WriteGmsh41)
	b, err := mesh.BoxForDOFs(r3.Vec{X: 0.04, Y: 0.03, Z: 0.05}, 9000)
	check(err)
	writeMesh(path("box9k.vtk"), b, meshfile.WriteVTK)
}

// icosphere returns an icosahedron subdivided level times onto the unit
// sphere, then stretched (0.7, 1, 1.3) and bumped by bump·sin·sin·sin.
func icosphere(level int, bump float64) ([]r3.Vec, [][3]int) {
	t := (1 + math.Sqrt(5)) / 2
	v := []r3.Vec{{X: -1, Y: t}, {X: 1, Y: t}, {X: -1, Y: -t}, {X: 1, Y: -t}, {Y: -1, Z: t}, {Y: 1, Z: t},
		{Y: -1, Z: -t}, {Y: 1, Z: -t}, {X: t, Z: -1}, {X: t, Z: 1}, {X: -t, Z: -1}, {X: -t, Z: 1}}
	f := [][3]int{{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4}, {11, 10, 2},
		{10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9}, {4, 9, 5}, {2, 4, 11},
		{6, 2, 10}, {8, 6, 7}, {9, 8, 1}}
	for i := range v {
		v[i] = r3.Unit(v[i])
	}
	for range level {
		mid := map[[2]int]int{}
		m := func(a, b int) int {
			k := [2]int{min(a, b), max(a, b)}
			if i, ok := mid[k]; ok {
				return i
			}
			v = append(v, r3.Unit(r3.Add(v[a], v[b])))
			mid[k] = len(v) - 1
			return len(v) - 1
		}
		var next [][3]int
		for _, t := range f {
			a, b, c := m(t[0], t[1]), m(t[1], t[2]), m(t[2], t[0])
			next = append(next, [3]int{t[0], a, c}, [3]int{t[1], b, a}, [3]int{t[2], c, b}, [3]int{a, b, c})
		}
		f = next
	}
	for i, p := range v {
		r := 1 + bump*math.Sin(5*p.X)*math.Sin(4*p.Y)*math.Sin(3*p.Z+1)
		v[i] = r3.Vec{X: 0.7 * r * p.X, Y: r * p.Y, Z: 1.3 * r * p.Z}
	}
	return v, f
}

// writeSTL writes the triangles as binary STL (zero normals).
func writeSTL(path string, v []r3.Vec, f [][3]int) {
	out, err := os.Create(path)
	check(err)
	defer out.Close()
	buf := make([]byte, 84, 84+50*len(f))
	binary.LittleEndian.PutUint32(buf[80:], uint32(len(f)))
	for _, t := range f {
		buf = append(buf, make([]byte, 12)...)
		for _, i := range t {
			for _, x := range [3]float64{v[i].X, v[i].Y, v[i].Z} {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(x)))
			}
		}
		buf = append(buf, 0, 0)
	}
	_, err = out.Write(buf)
	check(err)
}

// writeMesh writes m with the given writer.
func writeMesh(path string, m *mesh.TetMesh, write func(w io.Writer, m *mesh.TetMesh) error) {
	out, err := os.Create(path)
	check(err)
	defer out.Close()
	check(write(out, m))
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
