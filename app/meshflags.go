package main

import (
	"flag"
	"fmt"
	"io"
	"math"

	"softgrasp/physics/mesh"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// meshFlags say in what unit the coordinates of a -mesh file are. Mesh
// files carry no unit; without these flags the mesh is fitted into the
// object size and the factor is reported (summary, JSON, window title).
type meshFlags struct {
	scale float64
	units string
}

// register declares -mesh-scale and -mesh-units.
func (f *meshFlags) register(fs *flag.FlagSet) {
	fs.Float64Var(&f.scale, "mesh-scale", 0, "metres per unit of the -mesh file's coordinates, e.g. 0.001 for millimetres (0 = fit the mesh into the object size and report the factor)")
	fs.StringVar(&f.units, "mesh-units", "", "unit of the -mesh file's coordinates: m, cm or mm (same as the matching -mesh-scale)")
}

// apply sets the configuration's mesh scale from the flags.
func (f *meshFlags) apply(cfg *settings.Scenario) error {
	if f.units != "" && f.scale != 0 {
		return fmt.Errorf("-mesh-units %s and -mesh-scale %g: give one of them", f.units, f.scale)
	}
	if f.units != "" {
		s, err := mesh.UnitScale(f.units)
		if err != nil {
			return fmt.Errorf("-mesh-units: %w", err)
		}
		cfg.MeshScale = s
		return nil
	}
	if math.IsNaN(f.scale) || math.IsInf(f.scale, 0) || f.scale < 0 {
		return fmt.Errorf("-mesh-scale = %g: must be a positive factor, or 0 to fit the mesh", f.scale)
	}
	cfg.MeshScale = f.scale
	return nil
}

// benchMesh is the benchmark's optional mesh file: the squeeze scene then
// holds that mesh instead of the soft box (a closed surface is
// tetrahedralised at each size).
type benchMesh struct {
	file  string
	units meshFlags
}

func (b *benchMesh) register(fs *flag.FlagSet) {
	fs.StringVar(&b.file, "mesh", "", "measure this mesh file instead of the soft box (Gmsh, VTK, VTK XML, STL or OBJ; a closed surface is tetrahedralised at each size)")
	b.units.register(fs)
}

// sceneConfig is the benchmark's scene at about dofs DOFs.
func (o benchOptions) sceneConfig(dofs int) settings.Scenario {
	kind := o.kind
	if kind == "" {
		kind = settings.Squeeze
	}
	cfg := scenario.BenchConfigOf(kind, dofs)
	cfg.MeshFile, cfg.MeshScale = o.mesh.file, o.mesh.scale
	cfg.Physics.CompliancePrecision = o.precision
	cfg.Physics.ComplianceThreads = o.threads
	return cfg
}

// benchMeshOption is the validated mesh file and scale of the benchmark.
type benchMeshOption struct {
	file  string
	scale float64
}

// option validates the flags.
func (b *benchMesh) option() (benchMeshOption, error) {
	var cfg settings.Scenario
	if err := b.units.apply(&cfg); err != nil {
		return benchMeshOption{}, err
	}
	return benchMeshOption{file: b.file, scale: cfg.MeshScale}, nil
}

// printMeshNotes writes what the mesh reader had to say, one line each.
func printMeshNotes(w io.Writer, s scenario.Summary) {
	for _, n := range s.MeshNotes {
		fmt.Fprintf(w, "mesh: %s\n", n)
	}
}
