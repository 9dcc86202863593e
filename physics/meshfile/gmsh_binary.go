package meshfile

import (
	"encoding/binary"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Binary Gmsh files keep the section markers and, in format 2.2, the count
// lines as text, and write the records in between as raw integers and
// doubles in the byte order of the machine that wrote them:
//
//	$MeshFormat
//	2.2 1 8 | 4.1 1 <sizeof(size_t)>
//	<int 1>                        reveals the byte order
//	$EndMeshFormat
//
// Format 2.2:
//
//	$Nodes
//	n                              (text)
//	n × { int tag; double x, y, z }
//	$EndNodes
//	$Elements
//	m                              (text)
//	blocks of { int type, count, ntags }
//	          count × { int tag; int tags[ntags]; int nodes[nodesOf(type)] }
//	$EndElements
//
// Format 4.1 writes the ASCII layout of gmsh_sections.go with every
// count and tag a size_t, entity dimensions, tags and element types ints
// and coordinates doubles:
//
//	$Nodes
//	size_t numEntityBlocks, numNodes, minNodeTag, maxNodeTag
//	blocks of { int entityDim, entityTag, parametric; size_t n;
//	            size_t tags[n]; double xyz[n][3 + parametric·entityDim] }
//	$Elements
//	size_t numEntityBlocks, numElements, minElementTag, maxElementTag
//	blocks of { int entityDim, entityTag, type; size_t n;
//	            n × { size_t tag; size_t nodes[nodesOf(type)] } }
//
// A newline follows each binary block before its closing marker. Binary
// data in other sections ($Entities, $NodeData, …) is skipped up to the
// section's closing marker.

// gmshMaxTags bounds the tag count of a binary 2.2 element block: Gmsh
// writes 2 to 4 tags, and a corrupt count must not make one record huge.
const gmshMaxTags = 64

// binaryFormat reads the data size and the check integer of a binary
// $MeshFormat.
func (p *gmshParser) binaryFormat(dataSize []byte) error {
	size, ok := parseInt(dataSize)
	if !ok || (size != 4 && size != 8) || (p.version == 2 && size != 8) {
		return p.lx.errorf("bad data size %s in a binary $MeshFormat: want 8 (or 4 for the size_t of format 4.1)", quote(dataSize))
	}
	p.sizeT = size
	var one [4]byte
	if err := p.lx.readBytes(one[:]); err != nil {
		return p.lx.errorf("the file ends inside the binary $MeshFormat check integer")
	}
	switch {
	case binary.LittleEndian.Uint32(one[:]) == 1:
		p.order = binary.LittleEndian
	case binary.BigEndian.Uint32(one[:]) == 1:
		p.order = binary.BigEndian
	default:
		return p.lx.errorf("the binary $MeshFormat check integer is % x, not the integer 1 in either byte order", one)
	}
	return nil
}

// raw reads the n bytes of one binary record; section, what, i and total
// describe it for the message when the file ends first.
func (p *gmshParser) raw(n int, section, what string, i, total int) ([]byte, error) {
	if cap(p.scratch) < n {
		p.scratch = make([]byte, n)
	}
	buf := p.scratch[:n]
	if err := p.lx.readBytes(buf); err != nil {
		switch {
		case truncated(err) && total <= 0:
			return nil, p.lx.errorf("the file ends inside the binary %s block, in %s", section, what)
		case truncated(err):
			return nil, p.lx.errorf("the file ends inside the binary %s block after %d of %d %s (truncated file, or a count larger than the data?)",
				section, i, total, what)
		}
		return nil, err
	}
	return buf, nil
}

func (p *gmshParser) int32At(b []byte) int { return int(int32(p.order.Uint32(b))) }

func (p *gmshParser) f64At(b []byte) float64 { return math.Float64frombits(p.order.Uint64(b)) }

// sizeAt decodes a size_t; ok is false for values beyond the int range.
func (p *gmshParser) sizeAt(b []byte) (int, bool) {
	if p.sizeT == 4 {
		return int(p.order.Uint32(b)), true
	}
	v := p.order.Uint64(b)
	return int(v), v <= math.MaxInt64
}

// endBinary expects the closing marker right after a binary block.
func (p *gmshParser) endBinary(marker, section string, n int, what string) error {
	ok, found, err := p.lx.rawMarker(marker)
	if err != nil {
		return err
	}
	if !ok {
		return p.lx.errorf("expected %s after the %d %s of the binary %s block, found %s: does the declared count match the data?",
			marker, n, what, section, quote(found))
	}
	return nil
}

// nodes2Binary reads the binary node records of format 2.2.
func (p *gmshParser) nodes2Binary() error {
	n, err := p.sectionCount("$Nodes", "node count")
	if err != nil {
		return err
	}
	p.b.reserveNodes(n)
	for i := 0; i < n; i++ {
		b, err := p.raw(28, "$Nodes", "nodes", i, n)
		if err != nil {
			return err
		}
		tag := p.int32At(b)
		if tag <= 0 {
			return p.lx.errorf("node %d of %d has tag %d, not a positive integer", i+1, n, tag)
		}
		if err := p.defineNode(tag, r3.Vec{X: p.f64At(b[4:]), Y: p.f64At(b[12:]), Z: p.f64At(b[20:])}); err != nil {
			return err
		}
	}
	return p.endBinary("$EndNodes", "$Nodes", n, "nodes")
}

// elements2Binary reads the binary element blocks of format 2.2.
func (p *gmshParser) elements2Binary() error {
	total, err := p.sectionCount("$Elements", "element count")
	if err != nil {
		return err
	}
	p.b.reserveTets(total)
	for seen := 0; seen < total; {
		if p.lx.atMarker("$EndElements") {
			return p.lx.errorf("$Elements declares %d elements but its blocks hold %d", total, seen)
		}
		h, err := p.raw(12, "$Elements", "elements", seen, total)
		if err != nil {
			return err
		}
		typ, follow, ntags := p.int32At(h), p.int32At(h[4:]), p.int32At(h[8:])
		et, known := gmshTypes[typ]
		switch {
		case !known:
			return p.lx.errorf("binary element block of unknown type %d: its record size is unknown", typ)
		case follow <= 0 || follow > total-seen:
			return p.lx.errorf("binary element block of %d elements of type %d, but %d of the declared %d remain", follow, typ, total-seen, total)
		case ntags < 0 || ntags > gmshMaxTags:
			return p.lx.errorf("binary element block with %d tags per element (at most %d)", ntags, gmshMaxTags)
		}
		rec := 4 * (1 + ntags + et.nodes)
		for i := 0; i < follow; i++ {
			b, err := p.raw(rec, "$Elements", "elements", seen+i, total)
			if err != nil {
				return err
			}
			refs := p.elemVals[:0]
			for k := 4 * (1 + ntags); k < rec; k += 4 {
				refs = append(refs, p.int32At(b[k:]))
			}
			p.elemVals = refs
			if err := p.addElement(p.int32At(b), et, refs); err != nil {
				return err
			}
		}
		seen += follow
	}
	return p.endBinary("$EndElements", "$Elements", total, "elements")
}

// sectionHeader4Binary reads the header of a binary 4.1 $Nodes or $Elements
// section, four size_t (blocks, total, smallest tag, largest tag), and
// returns the block count and the total count.
func (p *gmshParser) sectionHeader4Binary(section string) (blocks, total int, err error) {
	var v [4]int
	what := "the " + section + " header"
	b, err := p.raw(4*p.sizeT, section, what, 0, 0)
	if err != nil {
		return 0, 0, err
	}
	for i := range v {
		x, ok := p.sizeAt(b[i*p.sizeT:])
		if !ok {
			return 0, 0, p.lx.errorf("%s: value %d is out of range", what, p.order.Uint64(b[i*p.sizeT:]))
		}
		v[i] = x
	}
	return v[0], v[1], nil
}

// blockHeader4 reads "int a, b, c; size_t n" of a 4.1 entity block.
func (p *gmshParser) blockHeader4(section string, blk, blocks int) (a, b, c, n int, err error) {
	h, err := p.raw(12+p.sizeT, section, "block headers", blk, blocks)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	n, ok := p.sizeAt(h[12:])
	if !ok {
		return 0, 0, 0, 0, p.lx.errorf("block %d of %s: element count out of range", blk+1, section)
	}
	return p.int32At(h), p.int32At(h[4:]), p.int32At(h[8:]), n, nil
}

// nodes4Binary reads the binary entity blocks of a 4.1 $Nodes section.
func (p *gmshParser) nodes4Binary() error {
	blocks, total, err := p.sectionHeader4Binary("$Nodes")
	if err != nil {
		return err
	}
	p.b.reserveNodes(total)
	for blk := 0; blk < blocks; blk++ {
		dim, _, parametric, n, err := p.blockHeader4("$Nodes", blk, blocks)
		if err != nil {
			return err
		}
		if dim < 0 || dim > 3 || parametric < 0 || parametric > 1 {
			return p.lx.errorf("bad header of node block %d: entity dimension %d, parametric %d", blk+1, dim, parametric)
		}
		if err := p.nodeBlock4Binary(n, 3+parametric*dim, total); err != nil {
			return err
		}
	}
	if len(p.b.nodes) != total {
		return p.lx.errorf("$Nodes declares %d nodes but its blocks hold %d", total, len(p.b.nodes))
	}
	return p.endBinary("$EndNodes", "$Nodes", total, "nodes")
}

// nodeBlock4Binary reads the tags, then the coordinates of n nodes with
// fields doubles each.
func (p *gmshParser) nodeBlock4Binary(n, fields, total int) error {
	p.blockTag = p.blockTag[:0]
	for i := 0; i < n; i++ {
		b, err := p.raw(p.sizeT, "$Nodes", "node tags", i, n)
		if err != nil {
			return err
		}
		tag, ok := p.sizeAt(b)
		if !ok || tag <= 0 {
			return p.lx.errorf("node tag %d of %d in a block is not a positive integer", i+1, n)
		}
		p.blockTag = append(p.blockTag, tag)
	}
	for i, tag := range p.blockTag {
		b, err := p.raw(8*fields, "$Nodes", "node coordinates", i, n)
		if err != nil {
			return err
		}
		if err := p.defineNode(tag, r3.Vec{X: p.f64At(b), Y: p.f64At(b[8:]), Z: p.f64At(b[16:])}); err != nil {
			return err
		}
		if len(p.b.nodes) > total {
			return p.lx.errorf("$Nodes declares %d nodes but its blocks hold more", total)
		}
	}
	return nil
}

// elements4Binary reads the binary entity blocks of a 4.1 $Elements
// section.
func (p *gmshParser) elements4Binary() error {
	blocks, total, err := p.sectionHeader4Binary("$Elements")
	if err != nil {
		return err
	}
	p.b.reserveTets(total)
	seen := 0
	for blk := 0; blk < blocks; blk++ {
		_, _, typ, n, err := p.blockHeader4("$Elements", blk, blocks)
		if err != nil {
			return err
		}
		et, known := gmshTypes[typ]
		switch {
		case !known:
			return p.lx.errorf("binary element block %d of unknown type %d: its record size is unknown", blk+1, typ)
		case n > total-seen:
			return p.lx.errorf("element block %d holds %d elements, but %d of the declared %d remain", blk+1, n, total-seen, total)
		}
		if err := p.elementBlock4Binary(et, n, seen, total); err != nil {
			return err
		}
		seen += n
	}
	if seen != total {
		return p.lx.errorf("$Elements declares %d elements but its blocks hold %d", total, seen)
	}
	return p.endBinary("$EndElements", "$Elements", total, "elements")
}

// elementBlock4Binary reads n elements of type et, each a size_t tag and
// its node tags.
func (p *gmshParser) elementBlock4Binary(et gmshType, n, seen, total int) error {
	rec := p.sizeT * (1 + et.nodes)
	for i := 0; i < n; i++ {
		b, err := p.raw(rec, "$Elements", "elements", seen+i, total)
		if err != nil {
			return err
		}
		tag, _ := p.sizeAt(b)
		refs := p.elemVals[:0]
		for k := p.sizeT; k < rec; k += p.sizeT {
			ref, ok := p.sizeAt(b[k:])
			if !ok {
				ref = -1 // reported as an undefined node
			}
			refs = append(refs, ref)
		}
		p.elemVals = refs
		if err := p.addElement(tag, et, refs); err != nil {
			return err
		}
	}
	return nil
}
