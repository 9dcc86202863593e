package meshfile

// The $Nodes and $Elements sections of Gmsh files. Version 2 lists one
// node or element per line; version 4.1 groups them in entity blocks:
//
//	$Nodes
//	numEntityBlocks numNodes minNodeTag maxNodeTag
//	entityDim entityTag parametric numNodesInBlock
//	nodeTag                      (numNodesInBlock lines)
//	x y z [u [v [w]]]            (numNodesInBlock lines, entityDim
//	                              parametric coordinates if parametric = 1)
//	…
//	$EndNodes
//	$Elements
//	numEntityBlocks numElements minElementTag maxElementTag
//	entityDim entityTag elementType numElementsInBlock
//	elementTag nodeTag …         (numElementsInBlock lines)
//	…
//	$EndElements

// nodes reads the $Nodes section (or the $NOD section of format 1.0).
func (p *gmshParser) nodes() error {
	p.tags = make(map[int]int)
	return p.readSection(p.nodes2, p.nodes4, p.nodes2Binary, p.nodes4Binary, "$ENDNOD", "$EndNodes")
}

// elementsOf reads the $Elements section (or $ELM).
func (p *gmshParser) elementsOf() error {
	return p.readSection(p.elements2, p.elements4, p.elements2Binary, p.elements4Binary, "$ENDELM", "$EndElements")
}

// readSection reads a $Nodes or $Elements section with the reader of the
// file's variant (ASCII 1.0 and 2.2, ASCII 4.1, binary 2.2, binary 4.1),
// then expects the closing marker, spelt endV1 in format 1.0 and end in
// the others; the binary readers check theirs themselves.
func (p *gmshParser) readSection(ascii2, ascii4, binary2, binary4 func() error, endV1, end string) error {
	read := ascii2
	switch {
	case p.binary && p.version == 2:
		return binary2()
	case p.binary:
		return binary4()
	case p.version == 4:
		read = ascii4
	}
	if err := read(); err != nil {
		return err
	}
	return p.end(p.spelling(endV1, end))
}

// spelling returns the name of a section or marker in the file's format:
// v1 in format 1.0 ($NOD, $ELM, …), later in 2.2 and 4.1.
func (p *gmshParser) spelling(v1, later string) string {
	if p.version == 1 {
		return v1
	}
	return later
}

// sectionCount reads the line that opens a section with its count (what:
// "node count", "element count") and returns the count.
func (p *gmshParser) sectionCount(section, what string) (int, error) {
	f, err := p.record(section, "the "+what, 0, 0)
	if err != nil {
		return 0, err
	}
	return p.count(f[0], what)
}

// countedRecords reads a section of format 1.0 or 2.2: the line with
// the count of its records (what: "node", "element"), then that many
// records, each handed to read; reserve makes room for them.
func (p *gmshParser) countedRecords(section, what string, reserve func(int), read func([][]byte) error) error {
	n, err := p.sectionCount(section, what+" count")
	if err != nil {
		return err
	}
	reserve(n)
	for i := 0; i < n; i++ {
		f, err := p.record(section, what, i, n)
		if err != nil {
			return err
		}
		if err := read(f); err != nil {
			return err
		}
	}
	return nil
}

// nodes2 reads "n" then n lines "tag x y z" (formats 1.0 and 2.2).
func (p *gmshParser) nodes2() error {
	return p.countedRecords(p.spelling("$NOD", "$Nodes"), "node", p.b.reserveNodes, func(f [][]byte) error {
		if len(f) != 4 {
			return p.lx.errorf("node line needs 4 fields (tag x y z), found %d", len(f))
		}
		return p.addNode(f[0], f[1], f[2], f[3])
	})
}

// header4 reads the four-integer header line of a 4.1 section or block.
func (p *gmshParser) header4(section, what string, i, n int) ([4]int, error) {
	var h [4]int
	f, err := p.record(section, what, i, n)
	if err != nil {
		return h, err
	}
	if len(f) != 4 {
		return h, p.lx.errorf("%s needs 4 integers, found %d fields", what, len(f))
	}
	for i, b := range f {
		v, ok := parseInt(b)
		if !ok {
			return h, p.lx.errorf("bad integer %s in %s", quote(b), what)
		}
		h[i] = v
	}
	return h, nil
}

// sectionHeader4 reads the header line of a 4.1 $Nodes or $Elements
// section (its fields named for messages) and returns the block count
// and the total count of things ("nodes", "elements").
func (p *gmshParser) sectionHeader4(section, fields, things string) (blocks, total int, err error) {
	h, err := p.header4(section, "the "+section+" header ("+fields+")", 0, 0)
	if err != nil {
		return 0, 0, err
	}
	if h[0] < 0 || h[1] < 0 {
		return 0, 0, p.lx.errorf("negative count in the %s header: %d blocks, %d %s", section, h[0], h[1], things)
	}
	return h[0], h[1], nil
}

// nodes4 reads the entity blocks of a 4.1 $Nodes section.
func (p *gmshParser) nodes4() error {
	blocks, total, err := p.sectionHeader4("$Nodes", "numEntityBlocks numNodes minNodeTag maxNodeTag", "nodes")
	if err != nil {
		return err
	}
	p.b.reserveNodes(total)
	for blk := 0; blk < blocks; blk++ {
		if err := p.nodeBlock4(blk, blocks); err != nil {
			return err
		}
	}
	if len(p.b.nodes) != total {
		return p.lx.errorf("$Nodes declares %d nodes but its blocks hold %d", total, len(p.b.nodes))
	}
	return nil
}

// nodeBlock4 reads one entity block of nodes: the tags, then the
// coordinates.
func (p *gmshParser) nodeBlock4(blk, blocks int) error {
	h, err := p.header4("$Nodes", "the header of node block", blk, blocks)
	if err != nil {
		return err
	}
	dim, parametric, n := h[0], h[2], h[3]
	if dim < 0 || dim > 3 || parametric < 0 || parametric > 1 || n < 0 {
		return p.lx.errorf("bad node block header: entity dimension %d, parametric %d, %d nodes", dim, parametric, n)
	}
	fields := 3 + parametric*dim
	p.blockTag = p.blockTag[:0]
	for i := 0; i < n; i++ {
		f, err := p.record("$Nodes", "node tag", i, n)
		if err != nil {
			return err
		}
		tag, ok := parseInt(f[0])
		if len(f) != 1 || !ok || tag <= 0 {
			return p.lx.errorf("expected one positive node tag (tag %d of %d in block %d), found %d fields starting %s",
				i+1, n, blk+1, len(f), quote(f[0]))
		}
		p.blockTag = append(p.blockTag, tag)
	}
	for i, tag := range p.blockTag {
		f, err := p.record("$Nodes", "node coordinate line", i, n)
		if err != nil {
			return err
		}
		if len(f) != fields {
			return p.lx.errorf("coordinates of node %d need %d fields, found %d", tag, fields, len(f))
		}
		if err := p.placeNode(tag, f[0], f[1], f[2]); err != nil {
			return err
		}
	}
	return nil
}

// elements2 reads "m" then m element lines: "tag type ntags tag… node…"
// in format 2.2, "tag type physical elementary nnodes node…" in 1.0.
func (p *gmshParser) elements2() error {
	read := p.element2
	if p.version == 1 {
		read = p.element1
	}
	return p.countedRecords(p.spelling("$ELM", "$Elements"), "element", p.b.reserveTets, read)
}

// element2 reads one element line of format 2.2.
func (p *gmshParser) element2(f [][]byte) error {
	if len(f) < 3 {
		return p.lx.errorf("element line needs at least 3 fields (tag type ntags), found %d", len(f))
	}
	typ, ok1 := parseInt(f[1])
	ntags, ok2 := parseInt(f[2])
	if !ok1 || !ok2 || ntags < 0 || ntags > len(f)-3 {
		return p.lx.errorf("bad element type %s or tag count %s for a line of %d fields", quote(f[1]), quote(f[2]), len(f))
	}
	return p.element(f[0], typ, f[3+ntags:])
}

// element1 reads one element line of format 1.0, which states the node
// count instead of a tag count.
func (p *gmshParser) element1(f [][]byte) error {
	if len(f) < 5 {
		return p.lx.errorf("element line needs at least 5 fields (tag type physical elementary nnodes), found %d", len(f))
	}
	typ, ok1 := parseInt(f[1])
	nn, ok2 := parseInt(f[4])
	if !ok1 || !ok2 || nn != len(f)-5 {
		return p.lx.errorf("bad element type %s or node count %s for a line of %d fields", quote(f[1]), quote(f[4]), len(f))
	}
	return p.element(f[0], typ, f[5:])
}

// elements4 reads the entity blocks of a 4.1 $Elements section.
func (p *gmshParser) elements4() error {
	blocks, total, err := p.sectionHeader4("$Elements", "numEntityBlocks numElements minElementTag maxElementTag", "elements")
	if err != nil {
		return err
	}
	p.b.reserveTets(total)
	seen := 0
	for blk := 0; blk < blocks; blk++ {
		h, err := p.header4("$Elements", "the header of element block", blk, blocks)
		if err != nil {
			return err
		}
		dim, typ, n := h[0], h[2], h[3]
		if dim < 0 || dim > 3 || n < 0 {
			return p.lx.errorf("bad element block header: entity dimension %d, %d elements", dim, n)
		}
		for i := 0; i < n; i++ {
			f, err := p.record("$Elements", "element", i, n)
			if err != nil {
				return err
			}
			if err := p.element(f[0], typ, f[1:]); err != nil {
				return err
			}
		}
		seen += n
	}
	if seen != total {
		return p.lx.errorf("$Elements declares %d elements but its blocks hold %d", total, seen)
	}
	return nil
}
