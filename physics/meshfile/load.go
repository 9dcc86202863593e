package meshfile

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"softgrasp/physics/mesh"
)

// Format is a mesh file format.
type Format int

const (
	// FormatGmsh is the Gmsh .msh format: 1.0, 2.2 and 4.1, ASCII and
	// binary.
	FormatGmsh Format = iota + 1
	// FormatVTK is the legacy VTK format, versions 2.0 to 5.1, ASCII and
	// BINARY, UNSTRUCTURED_GRID or POLYDATA.
	FormatVTK
	// FormatVTKXML is the VTK XML format: UnstructuredGrid (.vtu) or
	// PolyData (.vtp).
	FormatVTKXML
	// FormatSTL is the STL surface format, ASCII or binary.
	FormatSTL
	// FormatOBJ is the Wavefront OBJ surface format.
	FormatOBJ
)

// formatNames holds, by format, its usual file extension without the dot
// and its name for messages.
var formatNames = [...]struct{ ext, name string }{
	FormatGmsh:   {"msh", "Gmsh"},
	FormatVTK:    {"vtk", "legacy VTK"},
	FormatVTKXML: {"vtu", "VTK XML"},
	FormatSTL:    {"stl", "STL"},
	FormatOBJ:    {"obj", "Wavefront OBJ"},
}

func (f Format) known() bool { return f > 0 && int(f) < len(formatNames) }

// String returns the usual file extension of the format without the dot.
func (f Format) String() string {
	if !f.known() {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return formatNames[f].ext
}

// Name returns the format's name for messages.
func (f Format) Name() string {
	if !f.known() {
		return f.String()
	}
	return formatNames[f].name
}

// extensions maps file extensions to formats.
var extensions = map[string]Format{
	".msh": FormatGmsh, ".vtk": FormatVTK, ".vtu": FormatVTKXML, ".vtp": FormatVTKXML,
	".stl": FormatSTL, ".obj": FormatOBJ,
}

// FormatOf returns the format that the extension of path names (.msh,
// .vtk, .vtu, .vtp, .stl or .obj, in any case). The extension is only a
// hint: Read goes by the content (see Detect).
func FormatOf(path string) (Format, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if f, ok := extensions[ext]; ok {
		return f, nil
	}
	return 0, fmt.Errorf("mesh: %s: unknown extension %q, want .msh (Gmsh), .vtk (legacy VTK), .vtu or .vtp (VTK XML), .stl or .obj", path, ext)
}

// Parse reads a mesh in the given format, whatever the content looks
// like, with the default options: a volume mesh as it is, a closed
// surface tetrahedralised (see Read). Nodes that no tetrahedron uses are
// dropped (the others keep their order), negatively oriented tetrahedra
// are flipped, and the result passes Validate. Coordinates are taken as
// they are; see mesh.TetMesh.Fit and Place for units.
func Parse(r io.Reader, format Format) (*mesh.TetMesh, error) {
	b, err := parseAs(r, format)
	if err != nil {
		return nil, err
	}
	l, err := b.load(Options{})
	if err != nil {
		return nil, err
	}
	return l.Mesh, nil
}

// parseAs reads the content of r as the given format.
func parseAs(r io.Reader, format Format) (*builder, error) {
	switch format {
	case FormatGmsh:
		return parseGmsh(r)
	case FormatVTK:
		return parseVTK(r)
	case FormatVTKXML:
		return parseVTKXML(r)
	case FormatSTL:
		return parseSTL(r)
	case FormatOBJ:
		return parseOBJ(r)
	}
	return nil, fmt.Errorf("mesh: unknown format %v", format)
}
