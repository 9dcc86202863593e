package scenario

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/embed"
	"softgrasp/physics/mesh"
	"softgrasp/physics/meshfile"
	"softgrasp/physics/settings"
)

// A soft object from a mesh file: opened in any format the meshfile package
// reads (a closed surface is filled with tetrahedra at the resolution of
// the DOFs knob), then brought to metres. Mesh files carry no unit, so
// either the configuration gives the scale (MeshScale, metres per file
// unit) or the mesh is fitted to ObjectSize; in both cases the factor is
// reported in the mesh name and the summary.

// Loaded meshes at a given scale must land between these sizes (largest
// extent, m): smaller ones are below the contact distances, larger ones
// beyond the floor and the gripper.
const (
	minScaledSize = 0.001
	maxScaledSize = 1.0
)

// meshInfo describes the soft object's mesh for MeshName and the summary.
type meshInfo struct {
	name   string
	format string   // what the file held (mesh files only)
	scale  float64  // metres per file unit that was applied (mesh files only)
	fitted bool     // the scale was chosen to fit ObjectSize
	notes  []string // the reader's and the mesher's notes
	// surfaceTris counts the triangles of a surface mapped onto the mesh
	// (0: the surface is the mesh's boundary).
	surfaceTris int
}

// loadObjectMesh opens cfg.MeshFile and makes the soft object of it at
// about dofs mechanical degrees of freedom (cfg.Mesher): with the grid
// mesher, the file's surface (or the boundary of a volume mesh above the
// budget) is turned upright (cfg.MeshUp), scaled and placed, then mapped
// onto a grid mesh built around it (physics/embed); otherwise the mesh
// (a volume mesh, or a surface that TetGen fills) is turned, scaled and
// placed as it is. An object with a mapped surface needs no more here:
// its rest surface follows the mesh (object.surface).
func loadObjectMesh(cfg settings.Scenario, dofs int) (object, meshInfo, error) {
	grid := cfg.Mesher == settings.GridMesher
	l, err := meshfile.Open(cfg.MeshFile, meshfile.Options{TargetDOFs: dofs, KeepSurface: grid})
	if err != nil {
		return object{}, meshInfo{}, err
	}
	info := meshInfo{format: l.Format, notes: l.Notes, scale: cfg.MeshScale}
	surf := l.Surface
	if grid && surf == nil && cfg.VolumeMesh == settings.VolumeToBudget && float64(l.Mesh.DOFs()) > volumeBudgetSlack*float64(dofs) {
		b, err := mesh.ExtractSurface(l.Mesh)
		if err != nil {
			return object{}, meshInfo{}, fmt.Errorf("%s: %w", cfg.MeshFile, err)
		}
		surf = b.Boundary(l.Mesh)
		info.notes = append(info.notes, fmt.Sprintf("the volume mesh has %d DOFs, above the budget of %d: its boundary is mapped onto a grid mesh at the budget (-volume-mesh as-is simulates it as it is)",
			l.Mesh.DOFs(), dofs))
	}
	if surf == nil {
		// The mesh is simulated as it is; its boundary is given as an
		// identity mapping, so that the contact budget bounds its pairs
		// as it does a mapped surface's.
		if err := placeObject(cfg, l.Mesh, l.Mesh.Centroid(), &info); err != nil {
			return object{}, meshInfo{}, err
		}
		emb, err := mesh.BoundaryEmbedding(l.Mesh)
		if err != nil {
			return object{}, meshInfo{}, fmt.Errorf("%s: %w", cfg.MeshFile, err)
		}
		return object{mesh: l.Mesh, emb: emb}, info, nil
	}
	// The surface is placed before the grid is built around it, so that
	// the object's size, bottom and aim are the surface's.
	if err := placeObject(cfg, &mesh.TetMesh{Nodes: surf.Nodes}, surf.Centroid(), &info); err != nil {
		return object{}, meshInfo{}, err
	}
	m, emb, notes, err := embed.Build(surf, dofs, embed.Options{})
	if err != nil {
		return object{}, meshInfo{}, fmt.Errorf("%s: %w", cfg.MeshFile, err)
	}
	info.notes = append(info.notes, notes...)
	info.surfaceTris = len(emb.Surface.Tris)
	return object{mesh: m, emb: emb}, info, nil
}

// volumeBudgetSlack is how far above the DOF budget a volume mesh may be
// and still be simulated as it is by the grid mesher.
const volumeBudgetSlack = 1.25

// placeObject turns m upright (cfg.MeshUp; for AutoUp, restingTurn of
// its nodes about its centre of mass com), scales it (cfg.MeshScale, or
// fitted to cfg.ObjectSize) and places it on the floor, and names it in
// info.
func placeObject(cfg settings.Scenario, m *mesh.TetMesh, com r3.Vec, info *meshInfo) error {
	turned := ""
	switch cfg.MeshUp {
	case settings.YUp:
		m.TurnYUp()
		turned = "turned y up"
	case settings.AutoUp:
		rot, desc := restingTurn(m.Nodes, com)
		if rot != (r3.Rotation{Real: 1}) {
			rotateAbout(m.Nodes, rot)
			turned = "auto up: " + desc
		}
	}
	var err error
	if cfg.MeshScale > 0 {
		if err := checkScaledSize(m.LargestExtent(), cfg.MeshScale); err != nil {
			return fmt.Errorf("%s: %w", cfg.MeshFile, err)
		}
		err = m.Place(cfg.MeshScale)
	} else {
		info.fitted = true
		info.scale, err = m.Fit(cfg.ObjectSize)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.MeshFile, err)
	}
	desc := describeScale(info.scale, info.fitted, cfg.ObjectSize)
	if turned != "" {
		desc += "; " + turned
	}
	info.name = fmt.Sprintf("%s (%s)", cfg.MeshFile, desc)
	return nil
}

// describeScale says how the coordinates were brought to metres.
func describeScale(scale float64, fitted bool, size float64) string {
	if fitted {
		return fmt.Sprintf("fitted to %.0f mm: coordinates ×%.4g", size*1e3, scale)
	}
	if u := mesh.UnitName(scale); u != "" {
		return fmt.Sprintf("in %s: coordinates ×%g", u, scale)
	}
	return fmt.Sprintf("coordinates ×%g", scale)
}

// checkScaledSize refuses a scale that makes the mesh (largest extent
// extent, in file units) too small or too large for the scene, and
// suggests the unit that would fit.
func checkScaledSize(extent, scale float64) error {
	size := extent * scale
	if size >= minScaledSize && size <= maxScaledSize {
		return nil
	}
	var hint []string
	for _, u := range []string{"m", "cm", "mm"} {
		s, _ := mesh.UnitScale(u)
		if l := extent * s; l >= 0.005 && l <= 0.5 {
			hint = append(hint, fmt.Sprintf("in %s it would be %.3g m", u, l))
		}
	}
	msg := fmt.Sprintf("at ×%g the mesh is %.3g m across (largest extent), outside the %g m to %g m the scene holds",
		scale, size, minScaledSize, maxScaledSize)
	if len(hint) > 0 {
		return fmt.Errorf("%s; %s", msg, strings.Join(hint, ", "))
	}
	if math.IsInf(size, 0) || math.IsNaN(size) {
		return fmt.Errorf("%s", msg)
	}
	return fmt.Errorf("%s; leave the scale out to fit it into the object size", msg)
}
