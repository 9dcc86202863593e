package render

import (
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/gl/v4.1-core/gl"

	"softgrasp/physics/frame"
)

// Options are the viewer's display settings; DefaultOptions gives the
// documented defaults. Draw reads them every frame, so the UI may change
// any field live.
type Options struct {
	Wireframe bool      // triangle edges over the soft surface
	ColourMap ColourMap // scalar field painted on the surface
	Contacts  bool      // contact points, coloured by state (stick, slip, separated)
	Forces    bool      // normal- and friction-force arrows
	// Deviations draws, per contact, the start-of-step normal n⁰ (dim)
	// and the converged Newton normal n (bright), coloured by their angle.
	Deviations bool
	Bodies     bool // the rigid bodies other than the floor
	Floor      bool // the floor grid
	// Shadows darkens the floor under each body, more and tighter the
	// nearer the body is to it (render/shadows.go).
	Shadows bool
	// Pattern draws a checkerboard of the material on the soft surface,
	// which moves and turns with it.
	Pattern bool

	// ForceScale is the arrow length per newton (m/N).
	ForceScale float32
	// DirectionLength is the length of the n⁰ and n segments (m); 0 picks
	// 15% of the soft body's rest size.
	DirectionLength float32
	// PointSize is the diameter of the contact points (pixels).
	PointSize float32
	// LineWidth is the width of force arrows and direction segments
	// (pixels); the wireframe stays one pixel wide.
	LineWidth float32

	SurfaceColour   [3]float32 // linear RGB of the surface without a map
	WireColour      [4]float32
	Background      [3]float32
	FloorColour     [3]float32
	FloorLineColour [3]float32

	// ABGhost draws the A/B mode's scene B (Frame.GhostSurface) as a
	// translucent surface of ABColour (linear RGB and opacity).
	ABGhost  bool
	ABColour [4]float32

	// Ghosts are bodies drawn as outlines at given poses (the grasp
	// preview); nil draws none.
	Ghosts []Ghost

	// Covered are framebuffer rectangles (x, y, width, height; GL's
	// bottom-left origin) that opaque panels will cover (PanelLayer.Rects):
	// Draw leaves their pixels at the background colour and spends no
	// fragment work on them.
	Covered [][4]int32
}

// DefaultOptions returns the viewer's start-up display: shaded surface
// without map, bodies, floor, contacts with their deviations, no force
// arrows, 1 cm per newton.
func DefaultOptions() Options {
	return Options{
		Contacts:        true,
		Deviations:      true,
		Bodies:          true,
		Floor:           true,
		Shadows:         true,
		Pattern:         true,
		ForceScale:      0.01,
		PointSize:       7,
		LineWidth:       2.5,
		SurfaceColour:   [3]float32{0.88, 0.52, 0.30},
		WireColour:      [4]float32{0.08, 0.08, 0.10, 1},
		Background:      [3]float32{0.13, 0.14, 0.16},
		FloorColour:     [3]float32{0.21, 0.22, 0.24},
		FloorLineColour: [3]float32{0.42, 0.44, 0.48},
		ABGhost:         true,
		ABColour:        [4]float32{0.30, 0.65, 0.95, 0.45},
	}
}

// Validate names the first option out of range.
func (o *Options) Validate() error {
	if !o.ColourMap.valid() {
		return fmt.Errorf("options: ColourMap = %d is not none, displacement or von Mises", int(o.ColourMap))
	}
	if !(o.ForceScale >= 0) || math.IsInf(float64(o.ForceScale), 0) {
		return fmt.Errorf("options: ForceScale = %v m/N must be finite and ≥ 0", o.ForceScale)
	}
	if !(o.DirectionLength >= 0) || math.IsInf(float64(o.DirectionLength), 0) {
		return fmt.Errorf("options: DirectionLength = %v m must be finite and ≥ 0", o.DirectionLength)
	}
	if !(o.PointSize >= 0) || o.PointSize > 64 {
		return fmt.Errorf("options: PointSize = %v px must be in [0, 64]", o.PointSize)
	}
	if !(o.LineWidth >= 0) || o.LineWidth > 32 {
		return fmt.Errorf("options: LineWidth = %v px must be in [0, 32]", o.LineWidth)
	}
	if a := o.ABColour[3]; !(a >= 0 && a <= 1) {
		return fmt.Errorf("options: ABColour opacity = %v must be in [0, 1]", a)
	}
	return nil
}

// ErrSceneMismatch is returned (wrapped) by Draw when the frame belongs to
// another Scene version than the one given to SetScene: the caller must
// pass the new Scene first.
var ErrSceneMismatch = errors.New("frame and scene versions differ")

// Renderer draws frames of one Scene. Create it with New once a GL 4.1
// context is current; use it only on that context's thread.
type Renderer struct {
	surfaceProg, bodyProg, gridProg *Program
	lineProg, wideLineProg          *Program
	coverProg                       *Program
	coverVAO                        uint32 // no attributes: cover.vert uses gl_VertexID
	u                               uniforms
	colourTex                       uint32

	scene   *frame.Scene
	surface *surfaceMesh
	abGhost *surfaceMesh // the A/B mode's scene B (ab.go)
	bodies  []*bodyMesh
	overlay *contactOverlay
	size    float32 // soft body's rest bounding-box size, m
	ranges  [ColourVonMises + 1]rangeTracker
	scratch []float32
	legend  ColourMap
	shadows shadowSet // the frame's shadows on the floor (castShadows)
	// restCentre is the middle of the soft body's rest bounding box, the
	// surface pattern's origin.
	restCentre [3]float32
	view       [16]float32
	proj       [16]float32
	identity   [16]float32
}

// New compiles the programs and creates the colour-map texture. It needs
// a current OpenGL ≥ 4.1 core context on the calling thread.
func New() (*Renderer, error) {
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("load OpenGL functions (is a 4.1 context current?): %w", err)
	}
	r := &Renderer{identity: [16]float32{0: 1, 5: 1, 10: 1, 15: 1}}
	progs := []struct {
		dst  **Program
		name string
	}{{&r.surfaceProg, "surface"}, {&r.bodyProg, "body"}, {&r.gridProg, "grid"}, {&r.lineProg, "line"},
		{&r.wideLineProg, "wideline"}, {&r.coverProg, "cover"}}
	for _, p := range progs {
		prog, err := LoadProgram(p.name)
		if err != nil {
			r.Delete()
			return nil, err
		}
		*p.dst = prog
	}
	if err := r.u.lookup(r); err != nil {
		r.Delete()
		return nil, err
	}
	r.colourTex = newColourMapTexture()
	r.overlay = newContactOverlay()
	gl.GenVertexArrays(1, &r.coverVAO)
	if err := glError("create renderer"); err != nil {
		r.Delete()
		return nil, err
	}
	return r, nil
}

// newColourMapTexture uploads the viridis map as a 256-texel 1D texture;
// linear filtering interpolates between texels.
func newColourMapTexture() uint32 {
	const n = 256
	texels := colourMapTexels(n)
	var tex uint32
	gl.GenTextures(1, &tex)
	gl.BindTexture(gl.TEXTURE_1D, tex)
	gl.TexParameteri(gl.TEXTURE_1D, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_1D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_1D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	gl.TexImage1D(gl.TEXTURE_1D, 0, gl.RGB8, n, 0, gl.RGB, gl.UNSIGNED_BYTE, gl.Ptr(texels))
	gl.BindTexture(gl.TEXTURE_1D, 0)
	return tex
}

// Delete frees every GL object of the renderer.
func (r *Renderer) Delete() {
	r.dropScene()
	if r.overlay != nil {
		r.overlay.delete()
		r.overlay = nil
	}
	if r.colourTex != 0 {
		gl.DeleteTextures(1, &r.colourTex)
		r.colourTex = 0
	}
	if r.coverVAO != 0 {
		gl.DeleteVertexArrays(1, &r.coverVAO)
		r.coverVAO = 0
	}
	for _, p := range []*Program{r.surfaceProg, r.bodyProg, r.gridProg, r.lineProg, r.wideLineProg, r.coverProg} {
		p.Delete()
	}
}

func (r *Renderer) dropScene() {
	if r.surface != nil {
		r.surface.delete()
		r.surface = nil
	}
	if r.abGhost != nil {
		r.abGhost.delete()
		r.abGhost = nil
	}
	for _, b := range r.bodies {
		b.delete()
	}
	r.bodies = nil
	r.scene = nil
}

// SetScene makes scene the one drawn. Buffers are rebuilt only when the
// Version differs from the current Scene's; a nil scene clears the view.
// A malformed scene (indices out of range, coordinates not in threes) is
// rejected with an error and the previous scene is dropped.
func (r *Renderer) SetScene(scene *frame.Scene) error {
	if scene == nil {
		r.dropScene()
		return nil
	}
	if r.scene != nil && r.scene.Version == scene.Version {
		return nil
	}
	r.dropScene()
	surface, err := newSurfaceMesh(scene.SurfaceRest, scene.SurfaceTris)
	if err != nil {
		return fmt.Errorf("scene version %d: %w", scene.Version, err)
	}
	r.surface = surface
	if r.abGhost, err = newSurfaceMesh(scene.SurfaceRest, scene.SurfaceTris); err != nil {
		r.dropScene()
		return fmt.Errorf("scene version %d: %w", scene.Version, err)
	}
	solid := 0 // palette slot of the next non-floor body
	for i, b := range scene.Bodies {
		m, err := newBodyMesh(b, i, solid)
		if !b.Floor {
			solid++
		}
		if err != nil {
			r.dropScene()
			return fmt.Errorf("scene version %d: %w", scene.Version, err)
		}
		r.bodies = append(r.bodies, m)
	}
	r.scene = scene
	r.size = float32(patchSize(scene.SurfaceRest))
	r.restCentre = boxCentre(scene.SurfaceRest)
	r.scratch = make([]float32, len(scene.SurfaceRest)/3)
	for i := range r.ranges {
		r.ranges[i].reset()
	}
	return nil
}

// LegendRange returns the colour map's current range and caption as the
// last Draw used them; label is empty when no map was drawn.
func (r *Renderer) LegendRange() (lo, hi float32, label string) {
	if r.legend == ColourNone {
		return 0, 0, ""
	}
	lo, hi = r.ranges[r.legend].bounds()
	return lo, hi, r.legend.Label()
}
