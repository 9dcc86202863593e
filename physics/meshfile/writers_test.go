package meshfile

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"
)

// Writers of the test files, byte for byte: every binary and compressed
// variant the readers accept is written here from a fixture, so a test
// knows exactly what the reader sees.

// fixture is a small mixed mesh: points with arbitrary Gmsh tags, and
// elements of several kinds by node index.
type fixture struct {
	nodes []r3.Vec
	tags  []int // node tags for Gmsh, not contiguous
	elems []fixElem
}

type fixElem struct {
	kind  string // "tet", "tet10", "tri", "quad", "line", "hex"
	nodes []int
}

var (
	gmshTypeOf = map[string]int{"tet": 4, "tet10": 11, "tri": 2, "quad": 3, "line": 1, "hex": 5}
	vtkTypeOf  = map[string]int{"tet": 10, "tet10": 24, "tri": 5, "quad": 9, "line": 3, "hex": 12}
)

// mixedCube is the unit cube of the ASCII fixtures (cubeCorners and
// cubeTets, the fourth tetrahedron written with negative orientation)
// with an unused point and, beside the tetrahedra, a line, a triangle and
// a hexahedron, which the readers must count and leave out.
func mixedCube() fixture {
	f := fixture{
		nodes: append(append([]r3.Vec(nil), cubeCorners...), r3.Vec{X: 5, Y: 5, Z: 5}),
		tags:  []int{13, 23, 7, 1000, 42, 5, 77, 99, 500},
	}
	f.elems = append(f.elems, fixElem{"line", []int{0, 1}}, fixElem{"tri", []int{0, 2, 3}})
	for i, t := range cubeTets {
		if i == 3 {
			t[2], t[3] = t[3], t[2]
		}
		f.elems = append(f.elems, fixElem{"tet", t[:]})
	}
	f.elems = append(f.elems, fixElem{"hex", []int{0, 1, 3, 2, 4, 5, 7, 6}})
	return f
}

// mixedCubeNote is the note every reader gives for mixedCube.
const mixedCubeNote = "kept 6 tetrahedra, skipped 1 triangle, 1 line and 1 hexahedron"

// cubeSurface is the closed surface of the unit cube: 12 triangles, some
// of them facing inwards (Close must turn them).
func cubeSurface() fixture {
	f := fixture{nodes: append([]r3.Vec(nil), cubeCorners...), tags: []int{1, 2, 3, 4, 5, 6, 7, 8}}
	for _, t := range [][3]int{
		{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 5}, {0, 5, 4},
		{2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5},
	} {
		f.elems = append(f.elems, fixElem{"tri", t[:]})
	}
	return f
}

// order is a byte order that can append.
type order interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// put appends fixed-size values in a byte order.
type put struct {
	b bytes.Buffer
	o order
}

func (p *put) i32(v ...int) {
	for _, x := range v {
		p.b.Write(p.o.AppendUint32(nil, uint32(int32(x))))
	}
}

func (p *put) u64(v ...int) {
	for _, x := range v {
		p.b.Write(p.o.AppendUint64(nil, uint64(x)))
	}
}

func (p *put) size(sizeT int, v ...int) {
	if sizeT == 4 {
		for _, x := range v {
			p.b.Write(p.o.AppendUint32(nil, uint32(x)))
		}
		return
	}
	p.u64(v...)
}

func (p *put) f64(v ...float64) {
	for _, x := range v {
		p.b.Write(p.o.AppendUint64(nil, math.Float64bits(x)))
	}
}

func (p *put) f32(v ...float64) {
	for _, x := range v {
		p.b.Write(p.o.AppendUint32(nil, math.Float32bits(float32(x))))
	}
}

func (p *put) str(s string) { p.b.WriteString(s) }

// gmsh22Binary writes the fixture as a binary Gmsh 2.2 file, one element
// block per element kind run, with two tags per element.
func gmsh22Binary(o order, f fixture) []byte {
	p := &put{o: o}
	p.str("$MeshFormat\n2.2 1 8\n")
	p.i32(1)
	p.str("\n$EndMeshFormat\n$PhysicalNames\n1\n3 1 \"body\"\n$EndPhysicalNames\n")
	fmt.Fprintf(&p.b, "$Nodes\n%d\n", len(f.nodes))
	for i, x := range f.nodes {
		p.i32(f.tags[i])
		p.f64(x.X, x.Y, x.Z)
	}
	fmt.Fprintf(&p.b, "\n$EndNodes\n$Elements\n%d\n", len(f.elems))
	for i := 0; i < len(f.elems); {
		j := i
		for j < len(f.elems) && f.elems[j].kind == f.elems[i].kind {
			j++
		}
		p.i32(gmshTypeOf[f.elems[i].kind], j-i, 2)
		for k := i; k < j; k++ {
			p.i32(100+k, 1, 1)
			for _, v := range f.elems[k].nodes {
				p.i32(f.tags[v])
			}
		}
		i = j
	}
	p.str("\n$EndElements\n")
	return p.b.Bytes()
}

// gmsh41Binary writes the fixture as a binary Gmsh 4.1 file with size_t
// of sizeT bytes: one node block, one element block per kind run, and an
// $Entities section of binary data (which must be skipped raw).
func gmsh41Binary(o order, sizeT int, f fixture) []byte {
	p := &put{o: o}
	fmt.Fprintf(&p.b, "$MeshFormat\n4.1 1 %d\n", sizeT)
	p.i32(1)
	p.str("\n$EndMeshFormat\n$Entities\n")
	p.size(sizeT, 0, 0, 0, 1)
	p.i32(1)
	p.f64(0, 0, 0, 1, 1, 1)
	p.size(sizeT, 0, 0)
	p.b.Write([]byte{'\n', '$', 'E', 'n', 'd', 0, 0xff, '\n'}) // binary noise that looks like a marker
	p.str("\n$EndEntities\n$Nodes\n")
	p.size(sizeT, 1, len(f.nodes), 1, 1000)
	p.i32(3, 1, 0)
	p.size(sizeT, len(f.nodes))
	p.size(sizeT, f.tags...)
	for _, x := range f.nodes {
		p.f64(x.X, x.Y, x.Z)
	}
	p.str("\n$EndNodes\n$Elements\n")
	var runs [][2]int
	for i := 0; i < len(f.elems); {
		j := i
		for j < len(f.elems) && f.elems[j].kind == f.elems[i].kind {
			j++
		}
		runs = append(runs, [2]int{i, j})
		i = j
	}
	p.size(sizeT, len(runs), len(f.elems), 1, len(f.elems))
	for _, r := range runs {
		p.i32(3, 1, gmshTypeOf[f.elems[r[0]].kind])
		p.size(sizeT, r[1]-r[0])
		for k := r[0]; k < r[1]; k++ {
			p.size(sizeT, 1+k)
			for _, v := range f.elems[k].nodes {
				p.size(sizeT, f.tags[v])
			}
		}
	}
	p.str("\n$EndElements\n")
	return p.b.Bytes()
}

// vtkLegacyBinary writes the fixture as a BINARY legacy VTK file: an
// UNSTRUCTURED_GRID, or a POLYDATA of its triangles and lines when poly is
// set. Version 5.1 writes the cells as OFFSETS and CONNECTIVITY arrays.
func vtkLegacyBinary(version string, poly bool, f fixture) []byte {
	p := &put{o: binary.BigEndian}
	kind := "UNSTRUCTURED_GRID"
	if poly {
		kind = "POLYDATA"
	}
	fmt.Fprintf(&p.b, "# vtk DataFile Version %s\nwritten by a test\nBINARY\nDATASET %s\n", version, kind)
	fmt.Fprintf(&p.b, "POINTS %d double\n", len(f.nodes))
	for _, x := range f.nodes {
		p.f64(x.X, x.Y, x.Z)
	}
	p.str("\nFIELD extras 1\ntemperature 1 2 float\n")
	p.f32(20.5, 21)
	p.str("\n")
	lists := map[string][]fixElem{"CELLS": f.elems}
	order := []string{"CELLS"}
	if poly {
		lists = map[string][]fixElem{}
		order = []string{"LINES", "POLYGONS"}
		for _, e := range f.elems {
			kw := map[string]string{"line": "LINES", "tri": "POLYGONS", "quad": "POLYGONS"}[e.kind]
			lists[kw] = append(lists[kw], e)
		}
	}
	for _, kw := range order {
		writeVTKCells(p, kw, version, lists[kw])
	}
	if !poly {
		fmt.Fprintf(&p.b, "CELL_TYPES %d\n", len(f.elems))
		for _, e := range f.elems {
			p.i32(vtkTypeOf[e.kind])
		}
		p.str("\n")
	}
	p.str("CELL_DATA 1\nSCALARS id int 1\nLOOKUP_TABLE default\n")
	p.i32(7)
	return p.b.Bytes()
}

// writeVTKCells writes one binary cell list in the layout of the version.
func writeVTKCells(p *put, kw, version string, cells []fixElem) {
	conn := 0
	for _, e := range cells {
		conn += len(e.nodes)
	}
	if version != "5.1" {
		fmt.Fprintf(&p.b, "%s %d %d\n", kw, len(cells), len(cells)+conn)
		for _, e := range cells {
			p.i32(len(e.nodes))
			p.i32(e.nodes...)
		}
		p.str("\n")
		return
	}
	fmt.Fprintf(&p.b, "%s %d %d\nOFFSETS vtktypeint64\n", kw, len(cells)+1, conn)
	at := 0
	p.u64(0)
	for _, e := range cells {
		at += len(e.nodes)
		p.u64(at)
	}
	p.str("\nCONNECTIVITY vtktypeint64\n")
	for _, e := range cells {
		for _, v := range e.nodes {
			p.u64(v)
		}
	}
	p.str("\n")
}

// xmlStyle is one way of writing a VTK XML file.
type xmlStyle struct {
	format   string // ascii, binary, appended
	encoding string // raw or base64, for appended
	zlib     bool
	header64 bool
	big      bool
	float64  bool
	int64    bool
	joint    bool // base64: header and data in one stream (not VTK's way)
	blocks   int  // compressed: data cut into this many blocks (0: 1)
}

// vtkXML writes the fixture as a VTK XML UnstructuredGrid, or as PolyData
// of its lines and triangles when poly is set.
func vtkXML(st xmlStyle, poly bool, f fixture) []byte {
	w := &xmlWriter{st: st}
	if st.big {
		w.o = binary.BigEndian
	} else {
		w.o = binary.LittleEndian
	}
	var pts []float64
	for _, x := range f.nodes {
		pts = append(pts, x.X, x.Y, x.Z)
	}
	ftype, itype := "Float32", "Int32"
	if st.float64 {
		ftype = "Float64"
	}
	if st.int64 {
		itype = "Int64"
	}
	kind, cells := "UnstructuredGrid", ""
	if poly {
		kind = "PolyData"
		for _, s := range [...]struct{ name, kind string }{{"Lines", "line"}, {"Polys", "tri"}} {
			var sel []fixElem
			for _, e := range f.elems {
				if e.kind == s.kind {
					sel = append(sel, e)
				}
			}
			conn, offs, _ := cellArrays(sel)
			cells += fmt.Sprintf("<%s>\n%s%s</%s>\n", s.name, w.array(itype, "connectivity", 1, conn), w.array(itype, "offsets", 1, offs), s.name)
		}
	} else {
		conn, offs, types := cellArrays(f.elems)
		cells = "<Cells>\n" + w.array(itype, "connectivity", 1, conn) + w.array(itype, "offsets", 1, offs) +
			w.array("UInt8", "types", 1, types) + "</Cells>\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<?xml version=\"1.0\"?>\n<VTKFile type=%q version=\"1.0\" byte_order=%q header_type=%q%s>\n<%s>\n",
		kind, map[bool]string{false: "LittleEndian", true: "BigEndian"}[st.big],
		map[bool]string{false: "UInt32", true: "UInt64"}[st.header64],
		map[bool]string{false: "", true: ` compressor="vtkZLibDataCompressor"`}[st.zlib], kind)
	counts := fmt.Sprintf("NumberOfCells=\"%d\"", len(f.elems))
	if poly {
		counts = fmt.Sprintf("NumberOfLines=\"%d\" NumberOfPolys=\"%d\"", countKind(f, "line"), countKind(f, "tri"))
	}
	fmt.Fprintf(&b, "<Piece NumberOfPoints=\"%d\" %s>\n<PointData>\n%s</PointData>\n<Points>\n%s</Points>\n%s</Piece>\n</%s>\n",
		len(f.nodes), counts, w.array("Float64", "temperature", 1, make([]float64, len(f.nodes))),
		w.array(ftype, "Points", 3, pts), cells, kind)
	if st.format == "appended" {
		fmt.Fprintf(&b, "<AppendedData encoding=%q>\n_", st.encoding)
		b.Write(w.appended.Bytes())
		b.WriteString("\n</AppendedData>\n")
	}
	b.WriteString("</VTKFile>\n")
	return []byte(b.String())
}

func countKind(f fixture, kind string) int {
	n := 0
	for _, e := range f.elems {
		if e.kind == kind {
			n++
		}
	}
	return n
}

// cellArrays returns the connectivity, the offsets (cell ends) and the VTK
// types of the elements.
func cellArrays(elems []fixElem) (conn, offs, types []float64) {
	for _, e := range elems {
		for _, v := range e.nodes {
			conn = append(conn, float64(v))
		}
		offs = append(offs, float64(len(conn)))
		types = append(types, float64(vtkTypeOf[e.kind]))
	}
	return conn, offs, types
}

// xmlWriter writes DataArray elements in one style, collecting appended
// data.
type xmlWriter struct {
	st       xmlStyle
	o        order
	appended bytes.Buffer
}

// array writes one DataArray.
func (w *xmlWriter) array(typ, name string, comps int, v []float64) string {
	head := fmt.Sprintf("<DataArray type=%q Name=%q NumberOfComponents=\"%d\" format=%q", typ, name, comps, w.st.format)
	switch w.st.format {
	case "ascii":
		var s []string
		for _, x := range v {
			s = append(s, fmt.Sprint(x))
		}
		return head + ">\n" + strings.Join(s, " ") + "\n</DataArray>\n"
	case "binary":
		return head + ">\n" + w.encode(w.block(typ, v)) + "\n</DataArray>\n"
	}
	off := w.appended.Len()
	hdr, data := w.block(typ, v)
	if w.st.encoding == "base64" {
		w.appended.WriteString(w.encode(hdr, data))
	} else {
		w.appended.Write(hdr)
		w.appended.Write(data)
	}
	return head + fmt.Sprintf(" offset=\"%d\"/>\n", off)
}

// encode base64-encodes header and data, separately as VTK does unless
// the style says joint.
func (w *xmlWriter) encode(hdr, data []byte) string {
	if w.st.joint {
		return base64.StdEncoding.EncodeToString(append(append([]byte(nil), hdr...), data...))
	}
	return base64.StdEncoding.EncodeToString(hdr) + base64.StdEncoding.EncodeToString(data)
}

// block returns the binary header and the (compressed) data of an array.
func (w *xmlWriter) block(typ string, v []float64) (hdr, data []byte) {
	raw := &put{o: w.o}
	for _, x := range v {
		switch typ {
		case "Float32":
			raw.f32(x)
		case "Float64":
			raw.f64(x)
		case "Int32":
			raw.i32(int(x))
		case "Int64":
			raw.u64(int(x))
		case "UInt8":
			raw.b.WriteByte(byte(x))
		}
	}
	h := &put{o: w.o}
	hsize := 4
	if w.st.header64 {
		hsize = 8
	}
	if !w.st.zlib {
		h.size(hsize, raw.b.Len())
		return h.b.Bytes(), raw.b.Bytes()
	}
	return w.compress(h, hsize, raw.b.Bytes())
}

// compress cuts data into blocks, compresses each and writes the header.
func (w *xmlWriter) compress(h *put, hsize int, data []byte) ([]byte, []byte) {
	blocks := max(1, w.st.blocks)
	usize := (len(data) + blocks - 1) / blocks
	if usize == 0 {
		usize = 1
	}
	var comp bytes.Buffer
	var sizes []int
	for at := 0; at < len(data); at += usize {
		var c bytes.Buffer
		zw := zlib.NewWriter(&c)
		zw.Write(data[at:min(len(data), at+usize)])
		zw.Close()
		sizes = append(sizes, c.Len())
		comp.Write(c.Bytes())
	}
	last := len(data) - (len(sizes)-1)*usize
	if last == usize {
		last = 0
	}
	h.size(hsize, len(sizes), usize, last)
	h.size(hsize, sizes...)
	return h.b.Bytes(), comp.Bytes()
}

// stlBinary writes the fixture's triangles as binary STL with the given
// 80-byte header text.
func stlBinary(header string, f fixture) []byte {
	p := &put{o: binary.LittleEndian}
	h := make([]byte, 80)
	copy(h, header)
	p.b.Write(h)
	tris := 0
	for _, e := range f.elems {
		if e.kind == "tri" {
			tris++
		}
	}
	p.b.Write(binary.LittleEndian.AppendUint32(nil, uint32(tris)))
	for _, e := range f.elems {
		if e.kind != "tri" {
			continue
		}
		p.f32(0, 0, 0)
		for _, v := range e.nodes {
			x := f.nodes[v]
			p.f32(x.X, x.Y, x.Z)
		}
		p.b.Write([]byte{0, 0})
	}
	return p.b.Bytes()
}

// stlASCII writes the fixture's triangles as ASCII STL.
func stlASCII(f fixture) []byte {
	var b strings.Builder
	b.WriteString("solid cube\n")
	for _, e := range f.elems {
		if e.kind != "tri" {
			continue
		}
		b.WriteString("  facet normal 0 0 0\n    outer loop\n")
		for _, v := range e.nodes {
			x := f.nodes[v]
			fmt.Fprintf(&b, "      vertex %g %g %g\n", x.X, x.Y, x.Z)
		}
		b.WriteString("    endloop\n  endfacet\n")
	}
	b.WriteString("endsolid cube\n")
	return []byte(b.String())
}
