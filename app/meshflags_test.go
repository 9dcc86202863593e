package main

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

func TestMeshFlags(t *testing.T) {
	tests := []struct {
		args  []string
		scale float64
		err   string
	}{
		{nil, 0, ""},
		{[]string{"-mesh-units", "mm"}, 0.001, ""},
		{[]string{"-mesh-units", "CM"}, 0.01, ""},
		{[]string{"-mesh-scale", "0.0254"}, 0.0254, ""},
		{[]string{"-mesh-units", "in"}, 0, `-mesh-units: unknown length unit "in": want m, cm or mm`},
		{[]string{"-mesh-scale", "-1"}, 0, "-mesh-scale = -1: must be a positive factor, or 0 to fit the mesh"},
		{[]string{"-mesh-units", "m", "-mesh-scale", "2"}, 0, "-mesh-units m and -mesh-scale 2: give one of them"},
	}
	for _, tt := range tests {
		var f headlessFlags
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		f.register(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		cfg, err := f.config()
		if (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) {
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.err)
			continue
		}
		if err == nil && cfg.MeshScale != tt.scale {
			t.Errorf("%v: MeshScale %g, want %g", tt.args, cfg.MeshScale, tt.scale)
		}
	}
}

// TestHeadlessMeshReport runs a mesh file with its unit and checks that
// the text report says how it was scaled and what the reader noted.
func TestHeadlessMeshReport(t *testing.T) {
	var out, errs bytes.Buffer
	code := run([]string{"headless", "-scenario", "drop", "-steps", "2", "-mesh", "../physics/meshfile/testdata/good_v22_mixed.msh",
		"-mesh-units", "cm"}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"good_v22_mixed.msh (in cm: coordinates ×0.01)",
		"mesh: kept 6 tetrahedra, skipped 2 triangles, 1 quadrangle, 1 hexahedron, 1 prism and 1 pyramid"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report does not say %q:\n%s", want, out.String())
		}
	}
}
