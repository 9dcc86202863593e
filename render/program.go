package render

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"

	"softgrasp/shaders"
)

// Program is a linked GLSL program with a cache of uniform locations.
type Program struct {
	id       uint32
	name     string
	uniforms map[string]int32
}

// LoadProgram compiles and links the embedded program name ("surface"
// compiles surface.vert and surface.frag from package shaders).
func LoadProgram(name string) (*Program, error) {
	src, err := shaders.Program(name)
	if err != nil {
		return nil, err
	}
	return NewProgram(name, src)
}

// NewProgram compiles the stages (the geometry stage only when its source
// is not empty) and links them. A failure returns the driver's info log in
// the error, prefixed with the stage and the program's name.
func NewProgram(name string, src shaders.Stages) (*Program, error) {
	stages := []struct {
		kind   uint32
		suffix string
		source string
	}{
		{gl.VERTEX_SHADER, ".vert", src.Vertex},
		{gl.GEOMETRY_SHADER, ".geom", src.Geometry},
		{gl.FRAGMENT_SHADER, ".frag", src.Fragment},
	}
	var ids []uint32
	defer func() {
		for _, id := range ids {
			gl.DeleteShader(id)
		}
	}()
	for _, st := range stages {
		if st.kind == gl.GEOMETRY_SHADER && st.source == "" {
			continue
		}
		id, err := compileShader(name+st.suffix, st.kind, st.source)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}

	id := gl.CreateProgram()
	for _, s := range ids {
		gl.AttachShader(id, s)
	}
	gl.LinkProgram(id)
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		log := programLog(id)
		gl.DeleteProgram(id)
		return nil, fmt.Errorf("link program %q: %s", name, log)
	}
	// Shaders stay attached until the program is deleted; detaching lets
	// the deferred DeleteShader free them now.
	for _, s := range ids {
		gl.DetachShader(id, s)
	}
	return &Program{id: id, name: name, uniforms: map[string]int32{}}, nil
}

// compileShader compiles one stage; the error carries the info log.
func compileShader(name string, stage uint32, source string) (uint32, error) {
	if strings.TrimSpace(source) == "" {
		return 0, fmt.Errorf("compile %s: empty source", name)
	}
	id := gl.CreateShader(stage)
	csrc, free := gl.Strs(source + "\x00")
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
		return 0, fmt.Errorf("compile %s: %s", name, strings.TrimSpace(string(log[:max(n-1, 0)])))
	}
	return id, nil
}

func programLog(id uint32) string {
	var n int32
	gl.GetProgramiv(id, gl.INFO_LOG_LENGTH, &n)
	if n <= 1 {
		return "no info log"
	}
	log := make([]byte, n)
	gl.GetProgramInfoLog(id, n, nil, &log[0])
	return strings.TrimSpace(string(log[:n-1]))
}

// ID returns the GL program name.
func (p *Program) ID() uint32 { return p.id }

// Name returns the program's base name.
func (p *Program) Name() string { return p.name }

// Use makes the program current.
func (p *Program) Use() { gl.UseProgram(p.id) }

// Uniform returns the location of a uniform, −1 when the program has no
// active uniform of that name (GL ignores writes to −1, so an uniform the
// compiler optimised away is harmless). Locations are cached: look them up
// once at set-up, never in a per-frame loop, since a miss allocates.
func (p *Program) Uniform(name string) int32 {
	if loc, ok := p.uniforms[name]; ok {
		return loc
	}
	loc := gl.GetUniformLocation(p.id, gl.Str(name+"\x00"))
	p.uniforms[name] = loc
	return loc
}

// RequireUniforms returns an error naming the first uniform the linked
// program does not expose; it catches a renamed uniform at start-up
// instead of a silently black draw.
func (p *Program) RequireUniforms(names ...string) error {
	for _, n := range names {
		if p.Uniform(n) < 0 {
			return fmt.Errorf("program %q has no active uniform %q", p.name, n)
		}
	}
	return nil
}

// Delete frees the GL program; the Program must not be used afterwards.
func (p *Program) Delete() {
	if p != nil && p.id != 0 {
		gl.DeleteProgram(p.id)
		p.id = 0
	}
}

// glError drains the GL error flags and reports them with the operation
// that preceded the check.
func glError(op string) error {
	var codes []uint32
	for code := gl.GetError(); code != gl.NO_ERROR; code = gl.GetError() {
		codes = append(codes, code)
		if len(codes) > 8 { // a lost context can report errors forever
			break
		}
	}
	if len(codes) == 0 {
		return nil
	}
	return fmt.Errorf("%s: GL error %s", op, glErrorNames(codes))
}

func glErrorNames(codes []uint32) string {
	names := make([]string, len(codes))
	for i, c := range codes {
		switch c {
		case gl.INVALID_ENUM:
			names[i] = "INVALID_ENUM"
		case gl.INVALID_VALUE:
			names[i] = "INVALID_VALUE"
		case gl.INVALID_OPERATION:
			names[i] = "INVALID_OPERATION"
		case gl.INVALID_FRAMEBUFFER_OPERATION:
			names[i] = "INVALID_FRAMEBUFFER_OPERATION"
		case gl.OUT_OF_MEMORY:
			names[i] = "OUT_OF_MEMORY"
		default:
			names[i] = fmt.Sprintf("0x%04x", c)
		}
	}
	return strings.Join(names, ", ")
}
