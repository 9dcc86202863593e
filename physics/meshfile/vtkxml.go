package meshfile

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"
)

// VTK XML files (.vtu, .vtp):
//
//	<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian"
//	         header_type="UInt64" compressor="vtkZLibDataCompressor">
//	  <UnstructuredGrid>
//	    <Piece NumberOfPoints="8" NumberOfCells="6">
//	      <Points> <DataArray NumberOfComponents="3" …/> </Points>
//	      <Cells>  <DataArray Name="connectivity"/> <DataArray Name="offsets"/>
//	               <DataArray Name="types"/> </Cells>
//	    </Piece>
//	  </UnstructuredGrid>
//	  <AppendedData encoding="raw">_…</AppendedData>
//	</VTKFile>
//
// A PolyData piece has NumberOfVerts, NumberOfLines, NumberOfStrips and
// NumberOfPolys and the sections <Verts>, <Lines>, <Strips> and <Polys>,
// each with connectivity and offsets. The offsets are the ends of the
// cells (cell i uses connectivity[offsets[i−1]:offsets[i]]). Pieces are
// concatenated. The data encodings are described in vtkxml_data.go.

// vtkxml is the state of one VTK XML read.
type vtkxml struct {
	b                builder
	kind             string // UnstructuredGrid or PolyData
	order            binary.ByteOrder
	headerSize       int
	compressed       bool
	appended         []byte
	appendedEncoding string
	encodings        skipCounts // the data encodings met, for the description
}

// parseVTKXML reads a VTK XML file into a builder.
func parseVTKXML(r io.Reader) (*builder, error) {
	data, err := readWhole(r, "vtk xml")
	if err != nil {
		return nil, err
	}
	x := &vtkxml{b: builder{name: "vtk xml"}}
	doc, err := x.splitAppended(data)
	if err != nil {
		return nil, err
	}
	root, err := parseXMLTree(doc)
	if err != nil {
		return nil, err
	}
	if err := x.readFile(root); err != nil {
		return nil, err
	}
	x.b.format = x.describe()
	return &x.b, nil
}

// describe names the variant that was read.
func (x *vtkxml) describe() string {
	d := "VTK XML " + x.kind
	var how []string
	for _, e := range x.encodings.kinds {
		how = append(how, e)
	}
	if x.compressed {
		how = append(how, "zlib")
	}
	if len(how) > 0 {
		d += " (" + strings.Join(how, ", ") + ")"
	}
	return d
}

var reEncoding = regexp.MustCompile(`encoding\s*=\s*["']([^"']*)["']`)

// splitAppended cuts the raw or base64 content of <AppendedData> out of
// the document (raw bytes are not XML) and keeps it for the arrays that
// point into it.
func (x *vtkxml) splitAppended(data []byte) ([]byte, error) {
	start := bytes.Index(data, []byte("<AppendedData"))
	if start < 0 {
		return data, nil
	}
	line := 1 + bytes.Count(data[:start], []byte("\n"))
	gt := bytes.IndexByte(data[start:], '>')
	if gt < 0 {
		return nil, fmt.Errorf("vtk xml: line %d: <AppendedData> tag is not closed", line)
	}
	open := data[start : start+gt+1]
	if m := reEncoding.FindSubmatch(open); m != nil {
		x.appendedEncoding = string(m[1])
	}
	body := start + gt + 1
	under := bytes.IndexByte(data[body:], '_')
	end := bytes.LastIndex(data, []byte("</AppendedData>"))
	switch {
	case open[len(open)-2] == '/':
		return data, nil // <AppendedData/>: empty
	case under < 0 || len(bytes.TrimSpace(data[body:body+under])) > 0:
		return nil, fmt.Errorf("vtk xml: line %d: <AppendedData> does not start with \"_\"", line)
	case end < body+under:
		return nil, fmt.Errorf("vtk xml: line %d: <AppendedData> is not closed by </AppendedData> (truncated file?)", line)
	}
	x.appended = data[body+under+1 : end]
	doc := make([]byte, 0, body+len(data)-end)
	doc = append(append(doc, data[:body]...), data[end:]...)
	return doc, nil
}

// xmlNode is one element of the document: what the reader needs of it.
type xmlNode struct {
	name string
	attr map[string]string
	line int
	text []byte // character data (kept for DataArray only)
	kids []*xmlNode
}

// describe names the element for messages: <DataArray Name="offsets">.
func (n *xmlNode) describe() string {
	if name := n.attr["Name"]; name != "" {
		return fmt.Sprintf("<%s Name=%q>", n.name, name)
	}
	return "<" + n.name + ">"
}

// child returns the first child element with the given name.
func (n *xmlNode) child(name string) *xmlNode {
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// parseXMLTree parses the document into a tree of elements.
func parseXMLTree(doc []byte) (*xmlNode, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	// The numbers are ASCII in any encoding VTK writes; accept the
	// declared charset rather than fail on it.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	var root *xmlNode
	var stack []*xmlNode
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("vtk xml: not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{name: t.Name.Local, attr: make(map[string]string, len(t.Attr)), line: line}
			for _, a := range t.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			if root == nil {
				root = n
			} else if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.kids = append(top.kids, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 && stack[len(stack)-1].name == "DataArray" {
				top := stack[len(stack)-1]
				top.text = append(top.text, t...)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("vtk xml: the file holds no XML element")
	}
	return root, nil
}

// errAt locates an error at an element.
func errAt(n *xmlNode, format string, args ...any) error {
	return fmt.Errorf("vtk xml: line %d: %s: %s", n.line, n.describe(), fmt.Sprintf(format, args...))
}

// readFile checks the <VTKFile> element and reads the pieces.
func (x *vtkxml) readFile(root *xmlNode) error {
	if root.name != "VTKFile" {
		return fmt.Errorf("vtk xml: line %d: the root element is <%s>, not <VTKFile>: not a VTK XML file", root.line, root.name)
	}
	switch x.kind = root.attr["type"]; x.kind {
	case "UnstructuredGrid", "PolyData":
	case "PUnstructuredGrid", "PPolyData":
		return errAt(root, "a parallel VTK file only names the files of its pieces: open those (.vtu or .vtp) instead")
	default:
		return errAt(root, "type %q is not supported: want UnstructuredGrid (.vtu, a volume mesh) or PolyData (.vtp, a surface)", x.kind)
	}
	if err := x.readEncoding(root); err != nil {
		return err
	}
	ds := root.child(x.kind)
	if ds == nil {
		return errAt(root, "no <%s> element", x.kind)
	}
	pieces := 0
	for _, p := range ds.kids {
		if p.name != "Piece" {
			continue
		}
		pieces++
		if err := x.readPiece(p); err != nil {
			return err
		}
	}
	if pieces == 0 {
		return errAt(ds, "no <Piece>")
	}
	return nil
}

// readEncoding reads the byte order, the header type and the compressor.
func (x *vtkxml) readEncoding(root *xmlNode) error {
	switch root.attr["byte_order"] {
	case "LittleEndian", "":
		x.order = binary.LittleEndian
	case "BigEndian":
		x.order = binary.BigEndian
	default:
		return errAt(root, "byte_order %q is not LittleEndian or BigEndian", root.attr["byte_order"])
	}
	switch root.attr["header_type"] {
	case "UInt32", "":
		x.headerSize = 4
	case "UInt64":
		x.headerSize = 8
	default:
		return errAt(root, "header_type %q is not UInt32 or UInt64", root.attr["header_type"])
	}
	switch c := root.attr["compressor"]; c {
	case "":
	case "vtkZLibDataCompressor":
		x.compressed = true
	default:
		return errAt(root, "compressor %q is not supported (only vtkZLibDataCompressor); save the file uncompressed or with zlib", c)
	}
	return nil
}

// count reads a non-negative integer attribute of a piece.
func count(p *xmlNode, name string) (int, error) {
	s, ok := p.attr[name]
	if !ok {
		return 0, nil
	}
	v, okInt := parseInt([]byte(strings.TrimSpace(s)))
	if !okInt || v < 0 || v > math.MaxInt32 {
		return 0, errAt(p, "%s=%q is not a count", name, s)
	}
	return v, nil
}

// readPiece reads the points and cells of one piece.
func (x *vtkxml) readPiece(p *xmlNode) error {
	np, err := count(p, "NumberOfPoints")
	if err != nil {
		return err
	}
	base := len(x.b.nodes)
	if err := x.readPoints(p, np); err != nil {
		return err
	}
	if x.kind == "UnstructuredGrid" {
		return x.readGridCells(p, base)
	}
	for _, s := range [...]struct{ section, attr string }{
		{"Verts", "NumberOfVerts"}, {"Lines", "NumberOfLines"}, {"Strips", "NumberOfStrips"}, {"Polys", "NumberOfPolys"},
	} {
		n, err := count(p, s.attr)
		if err != nil {
			return err
		}
		if err := x.readPolyCells(p, s.section, n, base); err != nil {
			return err
		}
	}
	return nil
}

// readPoints reads the 3-component point array of a piece.
func (x *vtkxml) readPoints(p *xmlNode, np int) error {
	pts := p.child("Points")
	if pts == nil {
		if np == 0 {
			return nil
		}
		return errAt(p, "no <Points> for NumberOfPoints=%d", np)
	}
	arr := pts.child("DataArray")
	if arr == nil {
		return errAt(pts, "no <DataArray>")
	}
	if c := arr.attr["NumberOfComponents"]; c != "3" {
		return errAt(arr, "NumberOfComponents is %q, points need 3", c)
	}
	v, err := x.arrayValues(arr, 3*np)
	if err != nil {
		return errAt(arr, "%v (NumberOfPoints=%d)", err, np)
	}
	x.b.reserveNodes(np)
	for i := 0; i < np; i++ {
		q := r3.Vec{X: v[3*i], Y: v[3*i+1], Z: v[3*i+2]}
		if !finite(q.X) || !finite(q.Y) || !finite(q.Z) {
			return errAt(arr, "point %d has a coordinate that is not a finite number", i)
		}
		x.b.nodes = append(x.b.nodes, q)
	}
	return nil
}
