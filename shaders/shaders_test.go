package shaders

import (
	"path"
	"strings"
	"testing"
)

// TestEveryFileStartsWithVersion checks that each source opens with the
// version line: GLSL rejects a #version directive anywhere else, and a
// missing one silently selects GLSL 1.10, which core profiles refuse.
func TestEveryFileStartsWithVersion(t *testing.T) {
	names := Names()
	if len(names) == 0 {
		t.Fatal("no shader files embedded")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, err := Source(name)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(src, "\n")
			if strings.TrimRight(first, "\r") != Version {
				t.Errorf("first line %q, want %q", first, Version)
			}
			if !strings.Contains(src, "void main()") {
				t.Errorf("no main function")
			}
		})
	}
}

// TestProgramsHaveTheirStages checks that every program has a vertex and a
// fragment stage of the right kinds, that the stages' roles match their
// file extensions, and that no embedded file is left outside a program.
func TestProgramsHaveTheirStages(t *testing.T) {
	used := map[string]bool{}
	for _, name := range Programs() {
		t.Run(name, func(t *testing.T) {
			f, err := ProgramFiles(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range []struct{ file, ext string }{{f.Vertex, ".vert"}, {f.Geometry, ".geom"}, {f.Fragment, ".frag"}} {
				if st.file != "" && path.Ext(st.file) != st.ext {
					t.Errorf("stage file %q should end in %s", st.file, st.ext)
				}
			}
			s, err := Program(name)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(s.Vertex, "gl_Position") {
				t.Errorf("vertex stage %s never writes gl_Position", f.Vertex)
			}
			if !strings.Contains(s.Fragment, "out vec4") {
				t.Errorf("fragment stage %s declares no colour output", f.Fragment)
			}
			if (f.Geometry == "") != (s.Geometry == "") {
				t.Errorf("geometry file %q but source of %d bytes", f.Geometry, len(s.Geometry))
			}
			if s.Geometry != "" && !strings.Contains(s.Geometry, "EmitVertex") {
				t.Errorf("geometry stage %s emits nothing", f.Geometry)
			}
			used[f.Vertex], used[f.Geometry], used[f.Fragment] = true, true, true
		})
	}
	for _, name := range Names() {
		if !used[name] {
			t.Errorf("%s is embedded but belongs to no program", name)
		}
	}
}

func TestUnknownNamesAreErrors(t *testing.T) {
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"empty file", func() error { _, err := Source(""); return err }, "not embedded"},
		{"missing file", func() error { _, err := Source("missing.vert"); return err }, "not embedded"},
		{"outside the tree", func() error { _, err := Source("../shaders.go"); return err }, "not embedded"},
		{"unknown program", func() error { _, err := Program("nothing"); return err }, `"nothing": unknown`},
		{"unknown program files", func() error { _, err := ProgramFiles("surf"); return err }, "have body"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
