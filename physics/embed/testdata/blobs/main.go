// Command blobs writes the meshes of the mesh table of docs/results.md that
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
// VTK. finebox20k.stl: a closed cube surface of 20172 triangles (each face
// a 41×41 grid of squares), the procedural box's shape with a fine
// surface: it tells the cost of a surface's detail apart from that of a
// shape that moves otherwise (the blob stands on its long axis and tips
// over before the jaws reach it).
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
	"softgrasp/physics/mesh/meshtest"
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

	bv, bf := fineCube(41)
	writeSTL(path("finebox20k.stl"), bv, bf)

	c, err := mesh.CylinderForDOFs(0.01, 0.09, 4300)
	check(err)
	writeMesh(path("cylinder4k.msh"), c, meshfile.WriteGmsh41)
	b, err := mesh.BoxForDOFs(r3.Vec{X: 0.04, Y: 0.03, Z: 0.05}, 9000)
	check(err)
	writeMesh(path("box9k.vtk"), b, meshfile.WriteVTK)
}

// icosphere returns the unit icosphere subdivided level times
// (meshtest.Icosphere), stretched (0.7, 1, 1.3) and bumped by
// bump·sin·sin·sin.
func icosphere(level int, bump float64) ([]r3.Vec, [][3]int) {
	s := meshtest.Icosphere(level)
	for i, p := range s.Nodes {
		r := 1 + bump*math.Sin(5*p.X)*math.Sin(4*p.Y)*math.Sin(3*p.Z+1)
		s.Nodes[i] = r3.Vec{X: 0.7 * r * p.X, Y: r * p.Y, Z: 1.3 * r * p.Z}
	}
	return s.Nodes, s.Tris
}

// fineCube returns the surface of the cube [−1, 1]³ with each face a
// grid of n×n squares, two triangles each, wound outwards.
func fineCube(n int) ([]r3.Vec, [][3]int) {
	var v []r3.Vec
	var f [][3]int
	// Each face: a corner o and two edge vectors u, w with u × w outwards.
	faces := [6][3]r3.Vec{
		{{X: 1, Y: -1, Z: -1}, {Y: 2}, {Z: 2}},
		{{X: -1, Y: -1, Z: -1}, {Z: 2}, {Y: 2}},
		{{X: -1, Y: 1, Z: -1}, {Z: 2}, {X: 2}},
		{{X: -1, Y: -1, Z: -1}, {X: 2}, {Z: 2}},
		{{X: -1, Y: -1, Z: 1}, {X: 2}, {Y: 2}},
		{{X: -1, Y: -1, Z: -1}, {Y: 2}, {X: 2}},
	}
	for _, fc := range faces {
		base := len(v)
		for i := 0; i <= n; i++ {
			for j := 0; j <= n; j++ {
				a, b := float64(i)/float64(n), float64(j)/float64(n)
				v = append(v, r3.Add(fc[0], r3.Add(r3.Scale(a, fc[1]), r3.Scale(b, fc[2]))))
			}
		}
		at := func(i, j int) int { return base + i*(n+1) + j }
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				f = append(f, [3]int{at(i, j), at(i+1, j), at(i+1, j+1)}, [3]int{at(i, j), at(i+1, j+1), at(i, j+1)})
			}
		}
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
