package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"os"

	"softgrasp/physics/mesh"
	"softgrasp/physics/meshfile"
)

// Writers. Each returns the file's bytes; main writes them and keeps the
// sizes for the README.

func stlBinary(s *surf, header string) []byte {
	var b bytes.Buffer
	var head [80]byte
	copy(head[:], header)
	b.Write(head[:])
	binary.Write(&b, binary.LittleEndian, uint32(len(s.T)))
	for _, t := range s.T {
		n := unit(s.normal(t))
		for _, v := range []vec{n, s.P[t[0]], s.P[t[1]], s.P[t[2]]} {
			binary.Write(&b, binary.LittleEndian, [3]float32{float32(v.X), float32(v.Y), float32(v.Z)})
		}
		b.Write([]byte{0, 0})
	}
	return b.Bytes()
}

func stlASCII(s *surf, name string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "solid %s\n", name)
	for _, t := range s.T {
		n := unit(s.normal(t))
		fmt.Fprintf(&b, "facet normal %s %s %s\n outer loop\n", num(n.X, 5), num(n.Y, 5), num(n.Z, 5))
		for _, v := range t {
			p := s.P[v]
			fmt.Fprintf(&b, "  vertex %s %s %s\n", num(p.X, 4), num(p.Y, 4), num(p.Z, 4))
		}
		b.WriteString(" endloop\nendfacet\n")
	}
	fmt.Fprintf(&b, "endsolid %s\n", name)
	return b.Bytes()
}

// num formats x with at most d decimals, no trailing zeros.
func num(x float64, d int) string {
	p := math.Pow(10, float64(d))
	x = math.Round(x*p) / p
	if x == 0 {
		x = 0 // no "-0"
	}
	return fmt.Sprint(x)
}

func obj(s *surf, comment string) []byte {
	var b bytes.Buffer
	for _, line := range splitLines(comment) {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	fmt.Fprintf(&b, "o shape\n")
	for _, p := range s.P {
		fmt.Fprintf(&b, "v %s %s %s\n", num(p.X, 3), num(p.Y, 3), num(p.Z, 3))
	}
	for _, t := range s.T {
		fmt.Fprintf(&b, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
	}
	return b.Bytes()
}

func splitLines(s string) []string {
	var out []string
	for _, l := range bytes.Split([]byte(s), []byte("\n")) {
		out = append(out, string(l))
	}
	return out
}

// vtkPolyBinary is a legacy VTK 3.0 BINARY POLYDATA file (big-endian
// float32 points, int32 polygons), as segmentation tools write them.
func vtkPolyBinary(s *surf, title string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# vtk DataFile Version 3.0\n%s\nBINARY\nDATASET POLYDATA\nPOINTS %d float\n", title, len(s.P))
	for _, p := range s.P {
		binary.Write(&b, binary.BigEndian, [3]float32{float32(p.X), float32(p.Y), float32(p.Z)})
	}
	fmt.Fprintf(&b, "\nPOLYGONS %d %d\n", len(s.T), 4*len(s.T))
	for _, t := range s.T {
		binary.Write(&b, binary.BigEndian, [4]int32{3, int32(t[0]), int32(t[1]), int32(t[2])})
	}
	b.WriteString("\n")
	return b.Bytes()
}

// roundNodes rounds the coordinates to d decimals, so that the text
// writers (shortest round-trip form) write short numbers.
func roundNodes(m *mesh.TetMesh, d int) {
	p := math.Pow(10, float64(d))
	for i, q := range m.Nodes {
		m.Nodes[i] = v3(math.Round(q.X*p)/p, math.Round(q.Y*p)/p, math.Round(q.Z*p)/p)
	}
}

func gmsh(m *mesh.TetMesh) []byte {
	var b bytes.Buffer
	if err := meshfile.WriteGmsh41(&b, m); err != nil {
		fatal(err)
	}
	return b.Bytes()
}

func vtkGrid(m *mesh.TetMesh) []byte {
	var b bytes.Buffer
	if err := meshfile.WriteVTK(&b, m); err != nil {
		fatal(err)
	}
	return b.Bytes()
}

// vtu is a VTK XML UnstructuredGrid of tetrahedra with inline base64
// binary arrays (UInt32 headers, little-endian), as ParaView writes them
// with compression off.
func vtu(m *mesh.TetMesh) []byte {
	arr := func(data any) string {
		var raw bytes.Buffer
		binary.Write(&raw, binary.LittleEndian, data)
		var all bytes.Buffer
		binary.Write(&all, binary.LittleEndian, uint32(raw.Len()))
		all.Write(raw.Bytes())
		return base64.StdEncoding.EncodeToString(all.Bytes())
	}
	pts := make([]float32, 0, 3*len(m.Nodes))
	for _, p := range m.Nodes {
		pts = append(pts, float32(p.X), float32(p.Y), float32(p.Z))
	}
	conn := make([]int32, 0, 4*len(m.Tets))
	offs := make([]int32, 0, len(m.Tets))
	types := make([]uint8, 0, len(m.Tets))
	for i, t := range m.Tets {
		conn = append(conn, int32(t[0]), int32(t[1]), int32(t[2]), int32(t[3]))
		offs = append(offs, int32(4*(i+1)))
		types = append(types, 10)
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	fmt.Fprintf(w, `<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian" header_type="UInt32">
  <UnstructuredGrid>
    <Piece NumberOfPoints="%d" NumberOfCells="%d">
      <Points>
        <DataArray type="Float32" Name="Points" NumberOfComponents="3" format="binary">
          %s
        </DataArray>
      </Points>
      <Cells>
        <DataArray type="Int32" Name="connectivity" format="binary">
          %s
        </DataArray>
        <DataArray type="Int32" Name="offsets" format="binary">
          %s
        </DataArray>
        <DataArray type="UInt8" Name="types" format="binary">
          %s
        </DataArray>
      </Cells>
    </Piece>
  </UnstructuredGrid>
</VTKFile>
`, len(m.Nodes), len(m.Tets), arr(pts), arr(conn), arr(offs), arr(types))
	w.Flush()
	return b.Bytes()
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
