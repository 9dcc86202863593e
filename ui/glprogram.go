package ui

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"

	"softgrasp/shaders"
)

// linkProgram compiles and links the embedded vertex/fragment program
// base (the ImGui program has no geometry stage). It is the
// ImGui renderer's own small copy of render.Program's compile and link:
// the two packages stay independent of each other.
func linkProgram(base string) (uint32, error) {
	src, err := shaders.Program(base)
	if err != nil {
		return 0, err
	}
	vs, err := compileStage(base+".vert", gl.VERTEX_SHADER, src.Vertex)
	if err != nil {
		return 0, err
	}
	defer gl.DeleteShader(vs)
	fs, err := compileStage(base+".frag", gl.FRAGMENT_SHADER, src.Fragment)
	if err != nil {
		return 0, err
	}
	defer gl.DeleteShader(fs)
	prog := gl.CreateProgram()
	gl.AttachShader(prog, vs)
	gl.AttachShader(prog, fs)
	gl.LinkProgram(prog)
	var ok int32
	gl.GetProgramiv(prog, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		var n int32
		gl.GetProgramiv(prog, gl.INFO_LOG_LENGTH, &n)
		log := make([]byte, n+1)
		gl.GetProgramInfoLog(prog, n, nil, &log[0])
		gl.DeleteProgram(prog)
		return 0, fmt.Errorf("link program %q: %s", base, strings.TrimRight(string(log), "\x00\n "))
	}
	gl.DetachShader(prog, vs)
	gl.DetachShader(prog, fs)
	return prog, nil
}

func compileStage(name string, stage uint32, src string) (uint32, error) {
	id := gl.CreateShader(stage)
	csrc, free := gl.Strs(src + "\x00")
	gl.ShaderSource(id, 1, csrc, nil)
	free()
	gl.CompileShader(id)
	var ok int32
	gl.GetShaderiv(id, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		var n int32
		gl.GetShaderiv(id, gl.INFO_LOG_LENGTH, &n)
		log := make([]byte, n+1)
		gl.GetShaderInfoLog(id, n, nil, &log[0])
		gl.DeleteShader(id)
		return 0, fmt.Errorf("compile %s: %s", name, strings.TrimRight(string(log), "\x00\n "))
	}
	return id, nil
}

// uniformLocation returns the location of a uniform the program must
// have, or an error naming it.
func uniformLocation(prog uint32, program, name string) (int32, error) {
	loc := gl.GetUniformLocation(prog, gl.Str(name+"\x00"))
	if loc < 0 {
		return 0, fmt.Errorf("program %q has no active uniform %q", program, name)
	}
	return loc, nil
}
