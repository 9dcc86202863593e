// Package meshfile reads and writes the files of tetrahedral meshes:
// readers of Gmsh, legacy VTK, VTK XML, STL and OBJ files (Open and Read
// tell the format from the content, Detect), writers of Gmsh 4.1 and
// legacy VTK, and the TetGen driver that fills a closed surface read from
// a file with tetrahedra (Tetrahedralize). TetGen is driven through its
// own file formats (.smesh in, .node and .ele out), read with the same
// lexer and checked by the same builder as every other file, so it lives
// here; the meshes themselves are the mesh package's.
package meshfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// DefaultSurfaceDOFs is the resolution a surface is tetrahedralised at
// when the options name none.
const DefaultSurfaceDOFs = 3000

// Options say how Open and Read turn a file into a tetrahedral mesh.
type Options struct {
	// TargetDOFs is the resolution (3 per node) that a closed surface is
	// tetrahedralised at; 0 uses DefaultSurfaceDOFs. Volume meshes are
	// taken as they are.
	TargetDOFs int
	// TetGen is the TetGen program; "" looks up "tetgen" on PATH.
	TetGen string
	// Timeout bounds each TetGen run; 0 uses DefaultTetGenTimeout.
	Timeout time.Duration
	// KeepSurface gives a file without tetrahedra as its cleaned surface
	// (Loaded.Surface) instead of filling it with TetGen: for a mesher
	// that maps the surface onto a mesh of its own (physics/embed), which
	// needs neither a closed nor a clean surface. Small holes are still
	// filled where they can be.
	KeepSurface bool
}

// Loaded is a mesh read from a file, with what the reader has to say
// about it.
type Loaded struct {
	// Mesh is the tetrahedral mesh; nil when Surface is set.
	Mesh *mesh.TetMesh
	// Surface is the file's surface when it holds no tetrahedra and
	// Options.KeepSurface asked for it.
	Surface *mesh.TriSurface
	// Format is what the content turned out to be: "Gmsh 2.2 binary",
	// "VTK XML UnstructuredGrid (appended raw, zlib)", "STL binary", …
	Format string
	// Notes are one line each: elements left out, a surface
	// tetrahedralised, pieces that are not connected, a file extension
	// that does not match the content.
	Notes []string
}

// Open reads a mesh file (see Read). Errors start with the path.
func Open(path string, opt Options) (*Loaded, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mesh: %w", err)
	}
	defer f.Close()
	l, err := Read(f, path, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// Read reads a mesh in any of the supported formats, telling the format
// from the content (Detect); name is the file name, whose extension
// decides only when the content does not. A file with tetrahedra gives
// them (the other elements are counted in a note); a file without
// tetrahedra but with a closed surface gives that surface filled with
// tetrahedra by TetGen at the resolution of the options. Anything else is
// an error that names the line or the XML element at fault.
func Read(r io.Reader, name string, opt Options) (*Loaded, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	format, note, err := Detect(head, name)
	if err != nil {
		return nil, err
	}
	b, err := parseAs(br, format)
	if err != nil {
		return nil, err
	}
	l, err := b.load(opt)
	if err != nil {
		return nil, err
	}
	if note != "" {
		l.Notes = append([]string{note}, l.Notes...)
	}
	return l, nil
}

// load turns what a reader found into a mesh: the tetrahedra, or else the
// closed surface tetrahedralised.
func (b *builder) load(opt Options) (*Loaded, error) {
	l := &Loaded{Format: b.format}
	if len(b.tets) > 0 {
		note := b.skippedNote()
		m, err := b.finish()
		if err != nil {
			return nil, err
		}
		l.Mesh = m
		if note != "" {
			l.Notes = append(l.Notes, note)
		}
	} else if opt.KeepSurface {
		return l, b.keepSurface(l)
	} else {
		if err := b.tetrahedralize(opt, l); err != nil {
			return nil, err
		}
	}
	if note := piecesNote(l.Mesh); note != "" {
		l.Notes = append(l.Notes, note)
	}
	return l, nil
}

// keepSurface gives the builder's cleaned surface, its small holes filled
// where they can be; a surface with holes too large to fill is kept open,
// with a note.
func (b *builder) keepSurface(l *Loaded) error {
	s, err := b.surfaceNoted(l)
	if err != nil {
		return err
	}
	filled := &mesh.TriSurface{Nodes: append([]r3.Vec(nil), s.Nodes...), Tris: append([][3]int(nil), s.Tris...)}
	if notes, err := fillHoles(filled); err == nil {
		s = filled
		l.Notes = append(l.Notes, notes...)
	} else {
		l.Notes = append(l.Notes, "left the surface's holes open (the largest is too large to patch)")
	}
	l.Surface = s
	return nil
}

// surfaceNoted returns the builder's cleaned surface (builder.surface) and
// adds to l's notes what was skipped and cleaned.
func (b *builder) surfaceNoted(l *Loaded) (*mesh.TriSurface, error) {
	if b.skipped.total() > 0 {
		l.Notes = append(l.Notes, fmt.Sprintf("no volume elements; skipped %s", b.skipped.String()))
	}
	s, notes, err := b.surface()
	if err != nil {
		return nil, err
	}
	l.Notes = append(l.Notes, notes...)
	return s, nil
}

// tetrahedralize fills the builder's closed surface with tetrahedra.
func (b *builder) tetrahedralize(opt Options, l *Loaded) error {
	s, err := b.surfaceNoted(l)
	if err != nil {
		return err
	}
	notes, err := fillHoles(s)
	if err != nil {
		return fmt.Errorf("%s: the file holds no tetrahedra, and its surface (%s) cannot be filled with them: %w", b.name, b.faces.String(), err)
	}
	l.Notes = append(l.Notes, notes...)
	dofs := opt.TargetDOFs
	if dofs <= 0 {
		dofs = DefaultSurfaceDOFs
	}
	m, tnotes, err := Tetrahedralize(s, TetGenOptions{Program: opt.TetGen, TargetNodes: dofs / 3, Timeout: opt.Timeout})
	if err != nil {
		return fmt.Errorf("%s: the file holds no tetrahedra, and its surface (%s) cannot be filled with them: %w", b.name, b.faces.String(), err)
	}
	l.Mesh = m
	l.Notes = append(l.Notes, tnotes...)
	return nil
}

// Detect tells the format of a mesh file from the first bytes of its
// content (head, 512 bytes suffice), falling back on the extension of
// name when the content is not conclusive. note is non-empty when the
// extension names another format than the content.
func Detect(head []byte, name string) (format Format, note string, err error) {
	byExt, extErr := FormatOf(name)
	format = sniff(head)
	switch {
	case format != 0 && extErr == nil && byExt != format:
		note = fmt.Sprintf("the content is %s although the name ends in %s", format.Name(), filepath.Ext(name))
	case format == 0 && extErr == nil:
		format = byExt
	case format == 0:
		return 0, "", fmt.Errorf("mesh: cannot tell the format from the content (it starts with %s) or from the name: want Gmsh, legacy VTK, VTK XML, STL or OBJ",
			quote(head[:min(len(head), 24)]))
	}
	return format, note, nil
}

// piecesNote says in one line when a mesh falls apart into pieces that do
// not share a node: each moves on its own in the simulation.
func piecesNote(m *mesh.TetMesh) string {
	sizes := m.Pieces()
	if len(sizes) < 2 {
		return ""
	}
	list := ""
	for i, n := range sizes {
		if i == 4 {
			list += ", …"
			break
		}
		if i > 0 {
			list += ", "
		}
		list += fmt.Sprint(n)
	}
	return fmt.Sprintf("the mesh has %d disconnected pieces (%s tetrahedra); each moves on its own", len(sizes), list)
}
