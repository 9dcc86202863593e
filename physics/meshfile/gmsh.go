package meshfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"gonum.org/v1/gonum/spatial/r3"
)

// parseGmsh reads a Gmsh file into a builder: the original format 1.0
// ($NOD … $ENDNOD, $ELM … $ENDELM) or the formats 2.2 (also 2.0 and 2.1)
// and 4.1, ASCII or binary, as Gmsh writes them.
//
// It reads $MeshFormat, $Nodes and $Elements and skips every other
// section ($PhysicalNames, $Entities, $NodeData, …). Node tags are
// arbitrary distinct positive integers. Linear tetrahedra are kept and
// higher-order tetrahedra contribute their four corners; every other
// element (points, lines, triangles, quadrangles, hexahedra, prisms,
// pyramids) is counted, and triangles and quadrangles are kept as the
// surface that Read tetrahedralises when there are no tetrahedra.
func parseGmsh(r io.Reader) (*builder, error) {
	p := &gmshParser{lx: newLexer(r, "msh"), b: builder{name: "msh"}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	p.b.format = p.describe()
	return &p.b, nil
}

type gmshParser struct {
	lx       *lexer
	b        builder
	version  int         // 1, 2 or 4; 0 before $MeshFormat (or $NOD)
	tags     map[int]int // node tag → index in b.nodes
	elements bool        // $Elements has been read
	blockTag []int       // node tags of the current 4.1 block

	// Binary files: the byte order that the $MeshFormat check integer
	// reveals and the size of size_t (4.1 only).
	binary   bool
	order    binary.ByteOrder
	sizeT    int
	scratch  []byte
	elemVals []int // one element's integers in a binary block
}

// describe names the variant that was read.
func (p *gmshParser) describe() string {
	switch {
	case p.version == 1:
		return "Gmsh 1.0"
	case p.binary && p.version == 2:
		return "Gmsh 2.2 binary"
	case p.binary:
		return "Gmsh 4.1 binary"
	case p.version == 2:
		return "Gmsh 2.2 ASCII"
	}
	return "Gmsh 4.1 ASCII"
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
	switch string(name) {
	case "$MeshFormat":
		if p.version != 0 {
			return p.lx.errorf("second $MeshFormat section")
		}
		return p.meshFormat()
	case "$Nodes", "$NOD":
		return p.nodeSection(string(name))
	case "$Elements", "$ELM":
		return p.elementSection(string(name))
	}
	switch {
	case bytes.HasPrefix(name, []byte("$End")), bytes.HasPrefix(name, []byte("$END")):
		return p.lx.errorf("%s without a matching section start", quote(name))
	case len(name) > 1 && name[0] == '$':
		return p.skip(string(name))
	}
	return p.lx.errorf("unexpected %s outside a section", quote(name))
}

// nodeSection checks where $Nodes (or the 1.0 $NOD) stands and reads it.
func (p *gmshParser) nodeSection(name string) error {
	if name == "$NOD" {
		if p.version != 0 && p.version != 1 {
			return p.lx.errorf("$NOD (Gmsh 1.0) in a Gmsh %d file", p.version)
		}
		p.version = 1
	}
	switch {
	case p.version == 0:
		return p.lx.errorf("$Nodes before $MeshFormat")
	case p.version == 1 && name != "$NOD":
		return p.lx.errorf("%s in a Gmsh 1.0 file (which uses $NOD)", name)
	case p.tags != nil:
		return p.lx.errorf("second %s section", name)
	}
	return p.nodes()
}

// elementSection checks where $Elements (or the 1.0 $ELM) stands and
// reads it.
func (p *gmshParser) elementSection(name string) error {
	want := p.spelling("$ELM", "$Elements")
	switch {
	case p.tags == nil:
		return p.lx.errorf("%s before the nodes", name)
	case name != want:
		return p.lx.errorf("%s where the format of this file wants %s", name, want)
	case p.elements:
		return p.lx.errorf("second %s section", name)
	}
	p.elements = true
	return p.elementsOf()
}

// meshFormat reads "version file-type data-size" and, in a binary file,
// the integer 1 that reveals the byte order.
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
		return p.lx.errorf("Gmsh format version %s is not supported (use 1.0, 2.2 or 4.1)", quote(f[0]))
	}
	switch string(f[1]) {
	case "0":
	case "1":
		p.binary = true
		if err := p.binaryFormat(f[2]); err != nil {
			return err
		}
	default:
		return p.lx.errorf("bad file type %s in $MeshFormat, want 0 (ASCII) or 1 (binary)", quote(f[1]))
	}
	return p.end("$EndMeshFormat")
}

// skip discards a section that the loader does not need. In a binary file
// the section may hold binary data, so it is skipped without splitting
// lines.
func (p *gmshParser) skip(name string) error {
	start, end := p.lx.line, "$End"+name[1:]
	if p.binary {
		found, err := p.lx.skipRaw([]byte(end))
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("msh: line %d: section %s is not closed by %s", start, name, end)
		}
		return nil
	}
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
	var c [3]float64
	for i, b := range xyz {
		v, ok := parseFloat(b)
		if !ok {
			return p.lx.errorf("coordinate %c of node %d is %s, not a finite number", "xyz"[i], tag, quote(b))
		}
		c[i] = v
	}
	return p.defineNode(tag, r3.Vec{X: c[0], Y: c[1], Z: c[2]})
}

// defineNode records node tag at x.
func (p *gmshParser) defineNode(tag int, x r3.Vec) error {
	if _, dup := p.tags[tag]; dup {
		return p.lx.errorf("node %d is defined twice", tag)
	}
	if !finite(x.X) || !finite(x.Y) || !finite(x.Z) {
		return p.lx.errorf("node %d has a coordinate that is not a finite number (%v, %v, %v)", tag, x.X, x.Y, x.Z)
	}
	p.tags[tag] = len(p.b.nodes)
	p.b.nodes = append(p.b.nodes, x)
	return nil
}

// element handles one element record of the given type; nodes are its
// node-tag fields.
func (p *gmshParser) element(tagField []byte, typ int, nodes [][]byte) error {
	tag, ok := parseInt(tagField)
	if !ok {
		return p.lx.errorf("bad element tag %s", quote(tagField))
	}
	et, known := gmshTypes[typ]
	if !known {
		p.b.skip(gmshUnknown(typ), 1)
		return nil
	}
	if len(nodes) != et.nodes {
		return p.lx.errorf("element %d of type %d needs %d nodes, found %d", tag, typ, et.nodes, len(nodes))
	}
	refs := p.elemVals[:0]
	for _, b := range nodes {
		ref, ok := parseInt(b)
		if !ok {
			return p.lx.errorf("element %d: bad node tag %s", tag, quote(b))
		}
		refs = append(refs, ref)
	}
	p.elemVals = refs
	return p.addElement(tag, et, refs)
}

// addElement resolves the node tags of an element and hands it to the
// builder: tetrahedra and surface elements by their corners, every other
// kind counted as skipped.
func (p *gmshParser) addElement(tag int, et gmshType, refs []int) error {
	var idx [4]int
	c := et.corners()
	for k, ref := range refs {
		i, defined := p.tags[ref]
		if !defined {
			return p.lx.errorf("element %d references node %d which is not defined", tag, ref)
		}
		if k >= c {
			continue
		}
		for _, prev := range idx[:k] {
			if prev == i {
				return p.lx.errorf("element %d lists node %d twice", tag, ref)
			}
		}
		idx[k] = i
	}
	switch et.kind {
	case "tetrahedron":
		p.b.addTet(idx, tag, p.lx.line)
	case "triangle", "quadrangle":
		p.b.addPolygon(et.kind, idx[:c])
	default:
		p.b.skip(et.kind, 1)
	}
	return nil
}
