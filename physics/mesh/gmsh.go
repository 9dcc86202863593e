package mesh

import (
	"bytes"
	"fmt"
	"io"

	"gonum.org/v1/gonum/spatial/r3"
)

// LoadGmsh reads a Gmsh mesh in the ASCII format 2.2 (also 2.0 and 2.1)
// or 4.1, as Gmsh writes it: one record per line.
//
// It reads $MeshFormat, $Nodes and $Elements and skips every other
// section ($PhysicalNames, $Entities, $NodeData, …). Node tags are
// arbitrary distinct positive integers. Linear tetrahedra (type 4) are
// kept; complete higher-order tetrahedra (types 11, 29, 30, 31, whose first
// four nodes are the corners) contribute their corners; points, lines and
// surface elements are ignored; other volume elements (hexahedra, prisms,
// pyramids) are an error rather than a silent hole in the body. (Version
// 2 records carry no dimension, so there element types beyond the first-
// and second-order table are taken as lower-dimensional and ignored; 4.1
// blocks state their dimension and any unknown volume type is an error.)
// Binary files are rejected. The result is cleaned up and validated as
// described in Parse.
func LoadGmsh(r io.Reader) (*TetMesh, error) {
	p := &gmshParser{lx: newLexer(r, "msh"), b: builder{name: "msh"}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.b.finish()
}

// gmshTetNodes gives the node count of the complete tetrahedra, linear and
// of order 2 to 5; all list the four corners first.
var gmshTetNodes = map[int]int{4: 4, 11: 10, 29: 20, 30: 35, 31: 56}

// gmshSolidNames names the other volume elements of the classic Gmsh
// element table, which the simulation cannot use.
var gmshSolidNames = map[int]string{
	5: "8-node hexahedron", 6: "6-node prism", 7: "5-node pyramid",
	12: "27-node hexahedron", 13: "18-node prism", 14: "14-node pyramid",
	17: "20-node hexahedron", 18: "15-node prism", 19: "13-node pyramid",
}

type gmshParser struct {
	lx       *lexer
	b        builder
	version  int         // 2 or 4; 0 before $MeshFormat
	tags     map[int]int // node tag → index in b.nodes
	elements bool        // $Elements has been read
	blockTag []int       // node tags of the current 4.1 block
}

// parse walks the sections of the file.
func (p *gmshParser) parse() error {
	for {
		f, err := p.lx.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := p.section(f[0]); err != nil {
			return err
		}
	}
	switch {
	case p.version == 0:
		return fmt.Errorf("msh: missing $MeshFormat section (not a Gmsh file?)")
	case p.tags == nil:
		return fmt.Errorf("msh: missing $Nodes section")
	case !p.elements:
		return fmt.Errorf("msh: missing $Elements section")
	}
	return nil
}

// section dispatches on a section header line.
func (p *gmshParser) section(name []byte) error {
	switch {
	case string(name) == "$MeshFormat":
		if p.version != 0 {
			return p.lx.errorf("second $MeshFormat section")
		}
		return p.meshFormat()
	case string(name) == "$Nodes":
		if p.version == 0 {
			return p.lx.errorf("$Nodes before $MeshFormat")
		}
		if p.tags != nil {
			return p.lx.errorf("second $Nodes section")
		}
		return p.nodes()
	case string(name) == "$Elements":
		if p.tags == nil {
			return p.lx.errorf("$Elements before $Nodes")
		}
		if p.elements {
			return p.lx.errorf("second $Elements section")
		}
		p.elements = true
		return p.elementSection()
	case bytes.HasPrefix(name, []byte("$End")):
		return p.lx.errorf("%s without a matching section start", quote(name))
	case len(name) > 1 && name[0] == '$':
		return p.skip(string(name))
	}
	return p.lx.errorf("unexpected %s outside a section", quote(name))
}

// meshFormat reads "version file-type data-size".
func (p *gmshParser) meshFormat() error {
	f, err := p.record("$MeshFormat", "the format line", 0, 0)
	if err != nil {
		return err
	}
	if len(f) != 3 {
		return p.lx.errorf("$MeshFormat needs 3 fields (version file-type data-size), found %d", len(f))
	}
	switch string(f[0]) {
	case "2", "2.0", "2.1", "2.2":
		p.version = 2
	case "4.1":
		p.version = 4
	default:
		return p.lx.errorf("Gmsh format version %s is not supported (use 2.2 or 4.1)", quote(f[0]))
	}
	switch string(f[1]) {
	case "0":
	case "1":
		return p.lx.errorf("binary Gmsh files are not supported; save the mesh as ASCII")
	default:
		return p.lx.errorf("bad file type %s in $MeshFormat, want 0 (ASCII)", quote(f[1]))
	}
	return p.end("$EndMeshFormat")
}

// skip discards an unknown section.
func (p *gmshParser) skip(name string) error {
	start, end := p.lx.line, "$End"+name[1:]
	for {
		f, err := p.lx.next()
		if err == io.EOF {
			return fmt.Errorf("msh: line %d: section %s is not closed by %s", start, name, end)
		}
		if err != nil {
			return err
		}
		if string(f[0]) == end {
			return nil
		}
	}
}

// record returns the next line inside a section; it must not be a section
// marker. what names the expected record for the error message, as
// "what i of n" when n > 0 (the message is only formatted on error, so
// reading a record does not allocate).
func (p *gmshParser) record(section, what string, i, n int) ([][]byte, error) {
	f, err := p.lx.next()
	if err != nil && err != io.EOF {
		return nil, err
	}
	if err == nil && f[0][0] != '$' {
		return f, nil
	}
	if n > 0 {
		what = fmt.Sprintf("%s %d of %d", what, i+1, n)
	}
	if err == io.EOF {
		return nil, fmt.Errorf("msh: line %d: file ends inside %s, expected %s", p.lx.line, section, what)
	}
	return nil, p.lx.errorf("%s ends early: expected %s, found %s", section, what, quote(f[0]))
}

// end expects the closing marker of a section.
func (p *gmshParser) end(marker string) error {
	f, err := p.lx.next()
	if err == io.EOF {
		return fmt.Errorf("msh: line %d: file ends before %s", p.lx.line, marker)
	}
	if err != nil {
		return err
	}
	if string(f[0]) != marker {
		return p.lx.errorf("expected %s, found %s (more records than declared?)", marker, quote(f[0]))
	}
	return nil
}

// count parses a non-negative count named what.
func (p *gmshParser) count(b []byte, what string) (int, error) {
	n, ok := parseInt(b)
	if !ok || n < 0 {
		return 0, p.lx.errorf("bad %s %s: want a non-negative integer", what, quote(b))
	}
	return n, nil
}

// addNode defines node tag at position x.
func (p *gmshParser) addNode(tagField []byte, x, y, z []byte) error {
	tag, ok := parseInt(tagField)
	if !ok || tag <= 0 {
		return p.lx.errorf("bad node tag %s: want a positive integer", quote(tagField))
	}
	return p.placeNode(tag, x, y, z)
}

func (p *gmshParser) placeNode(tag int, xyz ...[]byte) error {
	if _, dup := p.tags[tag]; dup {
		return p.lx.errorf("node %d is defined twice", tag)
	}
	var c [3]float64
	for i, b := range xyz {
		v, ok := parseFloat(b)
		if !ok {
			return p.lx.errorf("coordinate %c of node %d is %s, not a finite number", "xyz"[i], tag, quote(b))
		}
		c[i] = v
	}
	p.tags[tag] = len(p.b.nodes)
	p.b.nodes = append(p.b.nodes, r3.Vec{X: c[0], Y: c[1], Z: c[2]})
	return nil
}

// element handles one element record of the given type; nodes are its
// node-tag fields.
func (p *gmshParser) element(tagField []byte, typ int, nodes [][]byte) error {
	tag, ok := parseInt(tagField)
	if !ok {
		return p.lx.errorf("bad element tag %s", quote(tagField))
	}
	want, isTet := gmshTetNodes[typ]
	if !isTet {
		if name, solid := gmshSolidNames[typ]; solid {
			return p.lx.errorf("element %d is a %s (type %d); only tetrahedra are supported", tag, name, typ)
		}
		return nil
	}
	if len(nodes) != want {
		return p.lx.errorf("element %d of type %d needs %d nodes, found %d", tag, typ, want, len(nodes))
	}
	var t [4]int
	for k, b := range nodes {
		ref, ok := parseInt(b)
		if !ok {
			return p.lx.errorf("element %d: bad node tag %s", tag, quote(b))
		}
		idx, defined := p.tags[ref]
		if !defined {
			return p.lx.errorf("element %d references node %d which is not defined", tag, ref)
		}
		if k >= 4 {
			continue
		}
		for _, prev := range t[:k] {
			if prev == idx {
				return p.lx.errorf("element %d lists node %d twice", tag, ref)
			}
		}
		t[k] = idx
	}
	p.b.addTet(t, tag, p.lx.line)
	return nil
}
