package meshfile

import (
	"bytes"
	"slices"
)

// sniff tells the format from the first bytes of a file, or returns 0.
// Each format has a recognisable start: Gmsh files begin with a section
// marker ($MeshFormat, or $NOD for format 1.0), legacy VTK with its
// "# vtk DataFile Version" line, XML with "<", ASCII STL with "solid".
// Binary STL has no signature (its 80-byte header is free text, sometimes
// "solid …" too), so the STL reader tells ASCII from binary by the file
// size. OBJ is recognised by its record keywords.
func sniff(head []byte) Format {
	h := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	h = bytes.TrimLeft(h, " \t\r\n")
	switch {
	case bytes.HasPrefix(h, []byte("$")):
		return FormatGmsh
	case bytes.HasPrefix(h, []byte("# vtk DataFile")):
		return FormatVTK
	case bytes.HasPrefix(h, []byte("<")):
		return FormatVTKXML
	case len(h) >= 5 && bytes.EqualFold(h[:5], []byte("solid")):
		return FormatSTL
	case looksLikeOBJ(h):
		return FormatOBJ
	case bytes.IndexByte(head, 0) >= 0 && len(head) >= 84:
		// Binary data that is none of the above: binary STL is the only
		// binary format without a text signature.
		return FormatSTL
	}
	return 0
}

// objKeywords start the records of a Wavefront OBJ file.
var objKeywords = []string{"v", "vn", "vt", "vp", "f", "l", "p", "o", "g", "s", "mtllib", "usemtl"}

// looksLikeOBJ reports whether the first record that is not a comment
// starts with an OBJ keyword.
func looksLikeOBJ(h []byte) bool {
	for len(h) > 0 {
		line := h
		if i := bytes.IndexByte(h, '\n'); i >= 0 {
			line, h = h[:i], h[i+1:]
		} else {
			h = nil
		}
		f := bytes.Fields(line)
		if len(f) == 0 || f[0][0] == '#' {
			continue
		}
		return slices.Contains(objKeywords, string(f[0]))
	}
	return false
}
