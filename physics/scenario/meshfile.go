package scenario

import (
	"fmt"
	"math"
	"strings"

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
	notes  []string // the reader's notes
}

// loadObjectMesh opens cfg.MeshFile, tetrahedralising a surface at about
// dofs degrees of freedom, turns it upright (cfg.MeshUp) and scales and
// places it. An object with a mapped surface (object.emb) needs no more
// here: its rest surface follows the mesh's placement (object.surface).
func loadObjectMesh(cfg settings.Scenario, dofs int) (object, meshInfo, error) {
	m, info, err := loadMesh(cfg, dofs)
	return object{mesh: m}, info, err
}

// loadMesh opens, turns, scales and places the mesh of loadObjectMesh.
func loadMesh(cfg settings.Scenario, dofs int) (*mesh.TetMesh, meshInfo, error) {
	l, err := meshfile.Open(cfg.MeshFile, meshfile.Options{TargetDOFs: dofs})
	if err != nil {
		return nil, meshInfo{}, err
	}
	m := l.Mesh
	if cfg.MeshUp == settings.YUp {
		m.TurnYUp()
	}
	info := meshInfo{format: l.Format, notes: l.Notes, scale: cfg.MeshScale}
	if cfg.MeshScale > 0 {
		if err := checkScaledSize(m.LargestExtent(), cfg.MeshScale); err != nil {
			return nil, meshInfo{}, fmt.Errorf("%s: %w", cfg.MeshFile, err)
		}
		err = m.Place(cfg.MeshScale)
	} else {
		info.fitted = true
		info.scale, err = m.Fit(cfg.ObjectSize)
	}
	if err != nil {
		return nil, meshInfo{}, fmt.Errorf("%s: %w", cfg.MeshFile, err)
	}
	desc := describeScale(info.scale, info.fitted, cfg.ObjectSize)
	if cfg.MeshUp != settings.ZUp {
		desc += "; turned " + cfg.MeshUp.String() + " up"
	}
	info.name = fmt.Sprintf("%s (%s)", cfg.MeshFile, desc)
	return m, info, nil
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
