package mesh

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

func TestValidate(t *testing.T) {
	unit := func() []r3.Vec { return []r3.Vec{{}, {X: 1}, {Y: 1}, {Z: 1}} }
	tests := []struct {
		name string
		m    *TetMesh
		want string // "" for a valid mesh
	}{
		{"valid", &TetMesh{Nodes: unit(), Tets: [][4]int{{0, 1, 2, 3}}}, ""},
		{"nil", nil, "no tetrahedra"},
		{"no tetrahedra", &TetMesh{Nodes: unit()}, "no tetrahedra"},
		{"NaN", &TetMesh{Nodes: []r3.Vec{{}, {X: math.NaN()}, {Y: 1}, {Z: 1}}, Tets: [][4]int{{0, 1, 2, 3}}}, "node 1 has a non-finite coordinate"},
		{"Inf", &TetMesh{Nodes: []r3.Vec{{}, {X: 1}, {Y: 1}, {Z: math.Inf(-1)}}, Tets: [][4]int{{0, 1, 2, 3}}}, "node 3 has a non-finite coordinate"},
		{"huge", &TetMesh{Nodes: []r3.Vec{{}, {X: 1e300}, {Y: 1}, {Z: 1}}, Tets: [][4]int{{0, 1, 2, 3}}}, "too large to compute volumes"},
		{"out of range", &TetMesh{Nodes: unit(), Tets: [][4]int{{0, 1, 2, 4}}}, "references node 4 outside [0, 4)"},
		{"repeated", &TetMesh{Nodes: unit(), Tets: [][4]int{{0, 1, 2, 0}}}, "lists node 0 twice"},
		{"isolated", &TetMesh{Nodes: append(unit(), r3.Vec{X: 5}), Tets: [][4]int{{0, 1, 2, 3}}}, "node 4"},
		{"negative", &TetMesh{Nodes: unit(), Tets: [][4]int{{0, 2, 1, 3}}}, "negatively oriented"},
		{"degenerate", &TetMesh{Nodes: []r3.Vec{{}, {X: 1}, {Y: 1}, {X: 1, Y: 1, Z: 1e-14}, {Z: 1}}, Tets: [][4]int{{0, 1, 2, 4}, {0, 1, 2, 3}}}, "the first is tetrahedron 1 [0 1 2 3]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.m.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// TestValidateIsScaleFree checks that the degeneracy test does not depend
// on the unit: the same mesh in metres and in micrometres gets the same
// verdict.
func TestValidateIsScaleFree(t *testing.T) {
	for _, s := range []float64{1e-6, 1, 1e6} {
		m, err := Box(r3.Vec{X: s, Y: s, Z: s}, 4, 4, 4)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("scale %g: %v", s, err)
		}
	}
}

// TestTurnYUp: a Y-up box (tall along y) stands on end once turned, its
// +y along +z and its z along −y, with its volume and its tetrahedra's
// orientation kept.
func TestTurnYUp(t *testing.T) {
	m, err := Box(r3.Vec{X: 1, Y: 3, Z: 2}, 3, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	m.Translate(r3.Vec{X: 0.5, Y: 1.5, Z: 0})
	v0 := m.Volume()
	m.TurnYUp()
	b := m.Bounds()
	want := r3.Box{Min: r3.Vec{X: 0, Y: -2, Z: 0}, Max: r3.Vec{X: 1, Y: 0, Z: 3}}
	if r3.Norm(r3.Sub(b.Min, want.Min)) > 1e-12 || r3.Norm(r3.Sub(b.Max, want.Max)) > 1e-12 {
		t.Errorf("bounds after TurnYUp %v, want %v", b, want)
	}
	if v := m.Volume(); !sameFloat(v, v0, 1e-12) {
		t.Errorf("volume %g, want %g", v, v0)
	}
	if err := m.Validate(); err != nil {
		t.Errorf("Validate after TurnYUp: %v", err)
	}
}

func TestFitInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5; i++ {
		size := r3.Vec{X: 1 + 9*rng.Float64(), Y: 1 + 9*rng.Float64(), Z: 1 + 9*rng.Float64()}
		offset := r3.Vec{X: 100 * rng.NormFloat64(), Y: 100 * rng.NormFloat64(), Z: 100 * rng.NormFloat64()}
		m, err := Box(size, 3, 4, 5)
		if err != nil {
			t.Fatal(err)
		}
		m.Translate(offset)
		v0 := m.Volume()
		const fit = 0.04
		if err := m.FitInto(fit); err != nil {
			t.Fatal(err)
		}
		largest := math.Max(size.X, math.Max(size.Y, size.Z))
		s := fit / largest
		want := r3.Box{
			Min: r3.Vec{X: -s * size.X / 2, Y: -s * size.Y / 2},
			Max: r3.Vec{X: s * size.X / 2, Y: s * size.Y / 2, Z: s * size.Z},
		}
		b := m.Bounds()
		if r3.Norm(r3.Sub(b.Min, want.Min)) > 1e-12 || r3.Norm(r3.Sub(b.Max, want.Max)) > 1e-12 {
			t.Errorf("bounds after FitInto %v, want %v", b, want)
		}
		if v := m.Volume(); !sameFloat(v, v0*s*s*s, 1e-9) {
			t.Errorf("volume %g, want %g", v, v0*s*s*s)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("Validate after FitInto: %v", err)
		}
	}
}

func TestGeometryErrors(t *testing.T) {
	box, err := Box(r3.Vec{X: 1, Y: 1, Z: 1}, 2, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	flat := &TetMesh{Nodes: []r3.Vec{{X: 1}, {X: 1}}}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"fit NaN", box.Clone().FitInto(math.NaN()), "fit size"},
		{"fit negative", box.Clone().FitInto(-1), "fit size"},
		{"fit empty", (&TetMesh{}).FitInto(1), "without nodes"},
		{"fit a point", flat.FitInto(1), "largest extent is 0"},
		{"scale zero", box.Clone().Scale(0), "scale factor"},
		{"scale Inf", box.Clone().Scale(math.Inf(1)), "scale factor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) {
				t.Errorf("error = %v, want one mentioning %q", tt.err, tt.want)
			}
		})
	}
}

func TestScaleAndClone(t *testing.T) {
	m, err := Box(r3.Vec{X: 1, Y: 2, Z: 3}, 2, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Clone()
	if err := c.Scale(2); err != nil {
		t.Fatal(err)
	}
	if !sameFloat(c.Volume(), 8*m.Volume(), 1e-12) {
		t.Errorf("scaled volume %g, want %g", c.Volume(), 8*m.Volume())
	}
	if !sameFloat(m.Volume(), 6, 1e-12) {
		t.Errorf("Scale on the clone changed the original: volume %g", m.Volume())
	}
}

func TestSignedVolume(t *testing.T) {
	a, b, c, d := r3.Vec{}, r3.Vec{X: 2}, r3.Vec{Y: 3}, r3.Vec{Z: 4}
	if v := SignedVolume(a, b, c, d); !sameFloat(v, 4, 1e-15) {
		t.Errorf("volume %g, want 2·3·4/6 = 4", v)
	}
	if v := SignedVolume(a, c, b, d); !sameFloat(v, -4, 1e-15) {
		t.Errorf("swapped volume %g, want −4", v)
	}
}
