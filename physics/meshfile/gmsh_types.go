package meshfile

import "fmt"

// gmshType describes one Gmsh element type: its dimension, its node
// count (a binary element block has no other way to tell where an element
// ends) and the kind of shape it is. All Gmsh elements list their corner
// nodes first, so a higher-order tetrahedron reduces to its first four
// nodes and a higher-order triangle to its first three.
type gmshType struct {
	dim   int
	nodes int
	kind  string // "tetrahedron", "triangle", "quadrangle", … (see plural)
}

// gmshTypes is the Gmsh element table (the "elm-type" of the MSH formats
// 1 to 4.1): the linear and complete or serendipity higher-order
// elements Gmsh writes.
var gmshTypes = map[int]gmshType{
	15: {0, 1, "point"},
	1:  {1, 2, "line"}, 8: {1, 3, "line"}, 26: {1, 4, "line"}, 27: {1, 5, "line"}, 28: {1, 6, "line"},
	62: {1, 7, "line"}, 63: {1, 8, "line"}, 64: {1, 9, "line"}, 65: {1, 10, "line"}, 66: {1, 11, "line"},
	2: {2, 3, "triangle"}, 9: {2, 6, "triangle"}, 20: {2, 9, "triangle"}, 21: {2, 10, "triangle"},
	22: {2, 12, "triangle"}, 23: {2, 15, "triangle"}, 24: {2, 15, "triangle"}, 25: {2, 21, "triangle"},
	42: {2, 28, "triangle"}, 43: {2, 36, "triangle"}, 44: {2, 45, "triangle"}, 45: {2, 55, "triangle"},
	46: {2, 66, "triangle"},
	3:  {2, 4, "quadrangle"}, 10: {2, 9, "quadrangle"}, 16: {2, 8, "quadrangle"}, 36: {2, 16, "quadrangle"},
	37: {2, 25, "quadrangle"}, 38: {2, 36, "quadrangle"}, 47: {2, 49, "quadrangle"}, 48: {2, 64, "quadrangle"},
	49: {2, 81, "quadrangle"}, 50: {2, 100, "quadrangle"}, 51: {2, 121, "quadrangle"},
	4: {3, 4, "tetrahedron"}, 11: {3, 10, "tetrahedron"}, 29: {3, 20, "tetrahedron"}, 30: {3, 35, "tetrahedron"},
	31: {3, 56, "tetrahedron"}, 71: {3, 84, "tetrahedron"}, 72: {3, 120, "tetrahedron"},
	73: {3, 165, "tetrahedron"}, 74: {3, 220, "tetrahedron"}, 75: {3, 286, "tetrahedron"},
	5: {3, 8, "hexahedron"}, 12: {3, 27, "hexahedron"}, 17: {3, 20, "hexahedron"}, 92: {3, 64, "hexahedron"},
	93: {3, 125, "hexahedron"}, 94: {3, 216, "hexahedron"}, 95: {3, 343, "hexahedron"},
	96: {3, 512, "hexahedron"}, 97: {3, 729, "hexahedron"}, 98: {3, 1000, "hexahedron"},
	6: {3, 6, "prism"}, 13: {3, 18, "prism"}, 18: {3, 15, "prism"}, 90: {3, 40, "prism"}, 91: {3, 75, "prism"},
	106: {3, 126, "prism"}, 107: {3, 196, "prism"}, 108: {3, 288, "prism"}, 109: {3, 405, "prism"},
	110: {3, 550, "prism"},
	7:   {3, 5, "pyramid"}, 14: {3, 14, "pyramid"}, 19: {3, 13, "pyramid"},
}

// corners returns how many leading nodes of an element of this kind are
// its corners (0 for kinds that are neither tetrahedra nor surface
// elements).
func (t gmshType) corners() int {
	switch t.kind {
	case "tetrahedron":
		return 4
	case "triangle":
		return 3
	case "quadrangle":
		return 4
	}
	return 0
}

// gmshUnknown names an element type missing from the table.
func gmshUnknown(typ int) string { return fmt.Sprintf("element of unknown type %d", typ) }
