// Package shaders holds the viewer's GLSL programs as source files embedded
// in the binary. Every file targets "#version 410 core" (OpenGL 4.1 core,
// the newest version macOS offers). A program is a vertex and a fragment
// stage, and optionally a geometry stage, named by Programs: "surface" is
// surface.vert + surface.frag, "wideline" reuses the line stages around
// wideline.geom.
//
// The package is GL-free on purpose: it only hands out text, so that both
// the 3D renderer and the ImGui renderer can compile the sources without
// depending on each other.
package shaders

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.vert *.frag *.geom
var files embed.FS

// Version is the first line every shader source starts with.
const Version = "#version 410 core"

// Files names the stage files of one program; Geometry is "" for programs
// without a geometry stage.
type Files struct {
	Vertex, Geometry, Fragment string
}

// programs maps each program to its stage files.
var programs = map[string]Files{
	"surface":  {Vertex: "surface.vert", Fragment: "surface.frag"},
	"body":     {Vertex: "body.vert", Fragment: "body.frag"},
	"grid":     {Vertex: "grid.vert", Fragment: "grid.frag"},
	"line":     {Vertex: "line.vert", Fragment: "line.frag"},
	"wideline": {Vertex: "line.vert", Geometry: "wideline.geom", Fragment: "line.frag"},
	"imgui":    {Vertex: "imgui.vert", Fragment: "imgui.frag"},
	"cover":    {Vertex: "cover.vert", Fragment: "cover.frag"},
}

// Stages holds the source texts of one program; Geometry is "" when the
// program has no geometry stage.
type Stages struct {
	Vertex, Geometry, Fragment string
}

// Programs returns the program names in lexical order.
func Programs() []string {
	names := make([]string, 0, len(programs))
	for n := range programs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ProgramFiles returns the stage files of the named program.
func ProgramFiles(name string) (Files, error) {
	f, ok := programs[name]
	if !ok {
		return Files{}, fmt.Errorf("shader program %q: unknown (have %s)", name, strings.Join(Programs(), ", "))
	}
	return f, nil
}

// Program returns the sources of the named program.
func Program(name string) (Stages, error) {
	f, err := ProgramFiles(name)
	if err != nil {
		return Stages{}, err
	}
	var s Stages
	for _, st := range []struct {
		dst  *string
		file string
	}{{&s.Vertex, f.Vertex}, {&s.Geometry, f.Geometry}, {&s.Fragment, f.Fragment}} {
		if st.file == "" {
			continue
		}
		if *st.dst, err = Source(st.file); err != nil {
			return Stages{}, fmt.Errorf("shader program %q: %w", name, err)
		}
	}
	return s, nil
}

// Source returns the GLSL text of the embedded file name, e.g.
// "surface.vert".
func Source(name string) (string, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("shader %q: not embedded (have %s)", name, strings.Join(Names(), ", "))
	}
	return string(b), nil
}

// Names returns the embedded file names in lexical order.
func Names() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		// The embedded tree always has a root directory.
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}
