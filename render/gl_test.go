package render_test

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/inkyblackness/imgui-go/v4"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/render"
)

func testCamera() *render.Camera {
	return render.NewCamera(r3.Vec{X: 0, Y: 0, Z: objectHalf}, 0.25)
}

// drawShot draws one frame (and an ImGui panel when panel is true), reads
// the back buffer before the swap and returns it.
func drawShot(tb testing.TB, fx *glFixture, fr *frame.Frame, opt render.Options, panel bool) *image.RGBA {
	tb.Helper()
	p := fx.platform
	w, h := p.FramebufferSize()
	p.PollEvents()
	p.NewFrame()
	if panel {
		imgui.SetNextWindowPosV(imgui.Vec2{X: 20, Y: 300}, imgui.ConditionAlways, imgui.Vec2{})
		imgui.SetNextWindowSizeV(imgui.Vec2{X: 200, Y: 120}, imgui.ConditionAlways)
		imgui.Begin("Solver")
		imgui.Text("Newton iterations: 5")
		imgui.End()
	}
	imgui.Render()
	if err := fx.renderer.Draw(fr, testCamera(), opt, w, h); err != nil {
		tb.Errorf("Draw: %v", err)
	}
	dw, dh := p.DisplaySize()
	fx.imgui.Render([2]float32{float32(dw), float32(dh)}, [2]float32{float32(w), float32(h)}, imgui.RenderedDrawData())
	img, err := render.Screenshot(w, h)
	if err != nil {
		tb.Errorf("Screenshot: %v", err)
		img = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	p.SwapBuffers()
	return img
}

// setScene gives the fixture's renderer the scene, reporting errors.
func setScene(tb testing.TB, fx *glFixture, s *frame.Scene) {
	tb.Helper()
	if err := fx.renderer.SetScene(s); err != nil {
		tb.Errorf("SetScene: %v", err)
	}
}

// projected returns the pixel of a world point for the test camera in an
// image of the given size.
func projected(p [3]float32, size image.Point) (int, int) {
	c := testCamera()
	c.SetViewport(size.X, size.Y)
	x, y, _ := c.Project(r3.Vec{X: float64(p[0]), Y: float64(p[1]), Z: float64(p[2])})
	return int(x), int(y)
}

func rgb(img *image.RGBA, x, y int) [3]int {
	c := img.RGBAAt(x, y)
	return [3]int{int(c.R), int(c.G), int(c.B)}
}

func isBackground(c [3]int, bg [3]float32) bool {
	for k := 0; k < 3; k++ {
		if math.Abs(float64(c[k])-float64(bg[k])*255) > 3 {
			return false
		}
	}
	return true
}

// differing counts the pixels whose colours differ by more than 8 levels.
func differing(a, b *image.RGBA) int {
	n := 0
	for i := 0; i+3 < len(a.Pix); i += 4 {
		d := 0
		for k := 0; k < 3; k++ {
			d = max(d, int(math.Abs(float64(a.Pix[i+k])-float64(b.Pix[i+k]))))
		}
		if d > 8 {
			n++
		}
	}
	return n
}

func TestDrawSceneLandmarks(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(1, 8)
		setScene(t, fx, scene)
		opt := render.DefaultOptions()
		opt.Contacts, opt.Deviations = false, false
		img := drawShot(t, fx, testFrame(scene, 0), opt, false)
		size := img.Bounds().Size()
		bg := opt.Background

		cx, cy := projected(objectCentre, size)
		// The jaws' upper ends rise above the object, so nothing hides
		// them from a camera looking down.
		lx, ly := projected([3]float32{-jawGap, 0, 0.07}, size)
		rx, ry := projected([3]float32{jawGap, 0, 0.07}, size)
		fxp, fyp := projected([3]float32{0.05, -0.12, 0}, size)
		checks := []struct {
			name string
			x, y int
			want func(c [3]int) bool
		}{
			{"object centre is the warm surface colour", cx, cy, func(c [3]int) bool { return c[0] > 90 && c[0] > c[1]+20 && c[1] > c[2] }},
			{"top-left corner is background", 2, 2, func(c [3]int) bool { return isBackground(c, bg) }},
			{"top-right corner is background", size.X - 3, 2, func(c [3]int) bool { return isBackground(c, bg) }},
			{"left jaw is steel blue", lx, ly, func(c [3]int) bool { return c[2] > c[0] && !isBackground(c, bg) }},
			{"right jaw is steel blue", rx, ry, func(c [3]int) bool { return c[2] > c[0] && !isBackground(c, bg) }},
			{"floor in front of the object is drawn", fxp, fyp, func(c [3]int) bool {
				return !isBackground(c, bg) && math.Abs(float64(c[0]-c[2])) < 30
			}},
		}
		for _, c := range checks {
			if got := rgb(img, c.x, c.y); !c.want(got) {
				t.Errorf("%s: pixel (%d, %d) = %v", c.name, c.x, c.y, got)
			}
		}
	})
}

func TestImGuiPanelOverTheScene(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(1, 8)
		setScene(t, fx, scene)
		fr := testFrame(scene, 0)
		plain := drawShot(t, fx, fr, render.DefaultOptions(), false)
		withPanel := drawShot(t, fx, fr, render.DefaultOptions(), true)
		w, _ := fx.platform.FramebufferSize()
		dw, _ := fx.platform.DisplaySize()
		s := w / dw
		inside, outside := 0, 0
		for y := 300 * s; y < 420*s; y++ {
			for x := 20 * s; x < 220*s; x++ {
				if plain.RGBAAt(x, y) != withPanel.RGBAAt(x, y) {
					inside++
				}
			}
		}
		for y := 0; y < 280*s; y++ {
			for x := 0; x < w; x++ {
				if plain.RGBAAt(x, y) != withPanel.RGBAAt(x, y) {
					outside++
				}
			}
		}
		if inside < 100*120*s*s {
			t.Errorf("the panel changed only %d pixels of its 200×120 rectangle", inside)
		}
		if outside != 0 {
			t.Errorf("%d pixels changed above the panel", outside)
		}
		if c := rgb(withPanel, 60*s, 306*s); !(c[2] > c[0]+20) {
			t.Errorf("panel title bar pixel %v is not ImGui's blue", c)
		}
	})
}

func TestOptionsChangePixels(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(1, 8)
		setScene(t, fx, scene)
		fr := testFrame(scene, 0)
		base := render.DefaultOptions()
		base.Contacts, base.Deviations = false, false
		ref := drawShot(t, fx, fr, base, false)
		cx, cy := projected(objectCentre, ref.Bounds().Size())

		tests := []struct {
			name      string
			change    func(o *render.Options)
			minPixels int
			centre    func(c [3]int) bool // nil: no check
		}{
			{"wireframe", func(o *render.Options) { o.Wireframe = true }, 300, nil},
			{"displacement map", func(o *render.Options) { o.ColourMap = render.ColourDisplacement }, 2000,
				func(c [3]int) bool { return c[1] >= c[0] }}, // viridis has no orange
			{"von Mises map", func(o *render.Options) { o.ColourMap = render.ColourVonMises }, 2000, nil},
			{"force arrows", func(o *render.Options) { o.Forces = true; o.ForceScale = 0.01 }, 30, nil},
			{"no bodies", func(o *render.Options) { o.Bodies = false }, 500, nil},
			{"no shadows", func(o *render.Options) { o.Shadows = false }, 500, nil},
			{"no pattern", func(o *render.Options) { o.Pattern = false }, 500, nil},
		}
		for _, tc := range tests {
			opt := base
			tc.change(&opt)
			img := drawShot(t, fx, fr, opt, false)
			if n := differing(ref, img); n < tc.minPixels {
				t.Errorf("%s changed %d pixels, want ≥ %d", tc.name, n, tc.minPixels)
			}
			if tc.centre != nil {
				if c := rgb(img, cx, cy); !tc.centre(c) {
					t.Errorf("%s: object centre still %v", tc.name, c)
				}
			}
			if c := rgb(img, 2, 2); !isBackground(c, opt.Background) {
				t.Errorf("%s: background corner became %v", tc.name, c)
			}
		}
	})
}

// TestLegendRangeIsTheRobustRange checks the first frame's range against
// the 2nd and 98th percentiles of the data, computed here by sorting.
func TestLegendRangeIsTheRobustRange(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(7, 8) // a new version resets the smoothing
		setScene(t, fx, scene)
		fr := testFrame(scene, 0)
		fr.Displacement[0] = 1e3 // one spiking vertex must not set the range
		opt := render.DefaultOptions()
		opt.ColourMap = render.ColourDisplacement
		drawShot(t, fx, fr, opt, false)
		lo, hi, label := fx.renderer.LegendRange()

		sorted := append([]float32(nil), fr.Displacement...)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
		rank := func(q float64) float32 { return sorted[int(math.Round(q*float64(len(sorted)-1)))] }
		if lo != rank(0.02) || hi != rank(0.98) {
			t.Errorf("legend range [%v, %v], want the 2nd–98th percentiles [%v, %v]", lo, hi, rank(0.02), rank(0.98))
		}
		if !strings.Contains(label, "displacement") {
			t.Errorf("legend label %q", label)
		}
		// A doubled field widens the range quickly but not at once.
		for i := range fr.Displacement {
			fr.Displacement[i] *= 2
		}
		drawShot(t, fx, fr, opt, false)
		_, hi2, _ := fx.renderer.LegendRange()
		if !(hi2 > hi && hi2 < 2*hi) {
			t.Errorf("after doubling the field the top went %v → %v, want strictly between", hi, hi2)
		}
		opt.ColourMap = render.ColourNone
		drawShot(t, fx, fr, opt, false)
		if _, _, label := fx.renderer.LegendRange(); label != "" {
			t.Errorf("legend label %q without a colour map", label)
		}
	})
}

// TestDeviationColours checks that contacts whose direction turned by
// more than DeviationFull are drawn red, and aligned ones green.
func TestDeviationColours(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(1, 8)
		setScene(t, fx, scene)
		opt := render.DefaultOptions()
		opt.Contacts, opt.Deviations = false, true
		count := func(img *image.RGBA, match func(c [3]int) bool) int {
			n := 0
			b := img.Bounds()
			for y := 0; y < b.Dy(); y++ {
				for x := 0; x < b.Dx(); x++ {
					if match(rgb(img, x, y)) {
						n++
					}
				}
			}
			return n
		}
		red := func(c [3]int) bool { return c[0] > 180 && c[1] < 60 && c[2] < 60 }
		green := func(c [3]int) bool { return c[1] > 150 && c[0] < 80 && c[2] < 100 }
		tests := []struct {
			name              string
			deviation         float32
			wantRed, wantGrnn bool
		}{
			{"aligned", 0, false, true},
			{"turned 20°", 20 * math.Pi / 180, true, false},
		}
		for _, tc := range tests {
			img := drawShot(t, fx, testFrame(scene, tc.deviation), opt, false)
			if r := count(img, red); (r > 5) != tc.wantRed {
				t.Errorf("%s: %d red pixels, want red = %v", tc.name, r, tc.wantRed)
			}
			if g := count(img, green); (g > 5) != tc.wantGrnn {
				t.Errorf("%s: %d green pixels, want green = %v", tc.name, g, tc.wantGrnn)
			}
		}
	})
}

func TestBadInputIsAnError(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(3, 4)
		setScene(t, fx, scene)
		cam := testCamera()
		good := testFrame(scene, 0)
		mapOpt := render.DefaultOptions()
		mapOpt.ColourMap = render.ColourVonMises
		draws := []struct {
			name string
			fr   func() *frame.Frame
			opt  render.Options
			w, h int
			want string
		}{
			{"other scene version", func() *frame.Frame { f := *good; f.SceneVersion = 9; return &f }, render.DefaultOptions(), 640, 480, "version 9"},
			{"short surface", func() *frame.Frame { f := *good; f.Surface = f.Surface[:30]; return &f }, render.DefaultOptions(), 640, 480, "30 surface coordinates"},
			{"short von Mises", func() *frame.Frame { f := *good; f.VonMises = f.VonMises[:5]; return &f }, mapOpt, 640, 480, "5 VonMises values"},
			{"missing poses", func() *frame.Frame { f := *good; f.BodyPoses = f.BodyPoses[:1]; return &f }, render.DefaultOptions(), 640, 480, "1 body poses"},
			{"negative force scale", func() *frame.Frame { return good }, render.Options{ForceScale: -1}, 640, 480, "ForceScale"},
			{"unknown colour map", func() *frame.Frame { return good }, render.Options{ColourMap: 9}, 640, 480, "ColourMap = 9"},
			{"empty viewport", func() *frame.Frame { return good }, render.DefaultOptions(), 0, 480, "positive size"},
		}
		for _, d := range draws {
			err := fx.renderer.Draw(d.fr(), cam, d.opt, d.w, d.h)
			if err == nil || !strings.Contains(err.Error(), d.want) {
				t.Errorf("%s: Draw error %v, want one containing %q", d.name, err, d.want)
			}
		}
		if err := fx.renderer.Draw(&frame.Frame{SceneVersion: 9}, cam, render.DefaultOptions(), 64, 64); !errors.Is(err, render.ErrSceneMismatch) {
			t.Errorf("version mismatch error %v does not wrap ErrSceneMismatch", err)
		}

		bad := []struct {
			name  string
			scene func() *frame.Scene
			want  string
		}{
			{"triangle index out of range", func() *frame.Scene {
				s := testScene(4, 2)
				s.SurfaceTris = append(append([]uint32(nil), s.SurfaceTris...), 0, 1, 9999)
				return s
			}, "vertex 9999"},
			{"ragged rest positions", func() *frame.Scene { s := testScene(5, 2); s.SurfaceRest = s.SurfaceRest[:7]; return s }, "multiple of 3"},
			{"body index out of range", func() *frame.Scene {
				s := testScene(6, 2)
				s.Bodies[1].Indices = []uint32{0, 1, 500}
				return s
			}, `"jaw left"`},
		}
		for _, b := range bad {
			if err := fx.renderer.SetScene(b.scene()); err == nil || !strings.Contains(err.Error(), b.want) {
				t.Errorf("%s: SetScene error %v, want one containing %q", b.name, err, b.want)
			}
		}
		// The renderer recovers with a good scene.
		setScene(t, fx, scene)
		if err := fx.renderer.Draw(good, cam, render.DefaultOptions(), 64, 64); err != nil {
			t.Errorf("Draw after recovering: %v", err)
		}
	})
}

func TestScreenshotSavesADecodablePNG(t *testing.T) {
	dir := t.TempDir()
	withGL(t, func(fx *glFixture) {
		scene := testScene(1, 8)
		setScene(t, fx, scene)
		img := drawShot(t, fx, testFrame(scene, 0.1), render.DefaultOptions(), true)
		w, h := fx.platform.FramebufferSize()
		if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
			t.Errorf("screenshot %v, want %d×%d", b, w, h)
		}
		path := filepath.Join(dir, "viewer.png")
		if err := render.SavePNG(path, img); err != nil {
			t.Errorf("SavePNG: %v", err)
			return
		}
		f, err := os.Open(path)
		if err != nil {
			t.Errorf("open: %v", err)
			return
		}
		defer f.Close()
		decoded, err := png.Decode(f)
		if err != nil {
			t.Errorf("decode: %v", err)
			return
		}
		if decoded.Bounds() != img.Bounds() {
			t.Errorf("decoded size %v, want %v", decoded.Bounds(), img.Bounds())
		}
		// Row order: the top row of the PNG is the sky, the bottom the
		// floor in front of the camera.
		cx, cy := projected(objectCentre, img.Bounds().Size())
		if c := rgb(img, cx, cy); !(c[0] > c[2]+20) {
			t.Errorf("object centre %v in the saved image: rows flipped?", c)
		}
	})
	if err := render.SavePNG(filepath.Join(dir, "missing", "x.png"), image.NewRGBA(image.Rect(0, 0, 1, 1))); err == nil {
		t.Error("SavePNG into a missing directory returned no error")
	}
}

// TestDrawAllocatesNothing checks the per-frame budget with every layer
// on: surface streaming, normals, colour map range, wireframe, bodies,
// floor and the contact overlay.
func TestDrawAllocatesNothing(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(12, 12)
		setScene(t, fx, scene)
		fr := testFrame(scene, 0.2)
		opt := render.DefaultOptions()
		opt.Wireframe, opt.Forces, opt.ColourMap = true, true, render.ColourVonMises
		cam := testCamera()
		w, h := fx.platform.FramebufferSize()
		draw := func() {
			if err := fx.renderer.Draw(fr, cam, opt, w, h); err != nil {
				t.Errorf("Draw: %v", err)
			}
		}
		draw() // warm: the overlay buffers reach their size
		if allocs := testing.AllocsPerRun(20, draw); allocs != 0 {
			t.Errorf("Draw allocates %v times per frame, want 0", allocs)
		}
		fx.platform.SwapBuffers()
	})
}

// TestShadowsShowTheHeight draws the box resting on the floor and lifted
// by 30 mm with and without shadows: only floor pixels change, all of
// them darker, and the darkest of them much darker under the resting box
// than under the lifted one (its shadow fades with the height).
func TestShadowsShowTheHeight(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(1, 8)
		setScene(t, fx, scene)
		darkest := func(lift float32) float64 {
			fr := testFrame(scene, 0)
			fr.Contacts = nil
			for i := 2; i < len(fr.Surface); i += 3 {
				fr.Surface[i] += lift
			}
			for _, side := range []float32{-1, 1} {
				c := jawCentre(side)
				fr.BodyPoses[int(side+1)/2+1] = translation([3]float32{c[0], c[1], c[2] + lift})
			}
			opt := render.DefaultOptions()
			opt.Bodies = false // the box's shadow alone
			on := drawShot(t, fx, fr, opt, false)
			if dir := os.Getenv("SOFTGRASP_SHOTS"); dir != "" {
				saveShot(t, on, filepath.Join(dir, fmt.Sprintf("shadow-lift-%.0fmm.png", 1e3*lift)))
			}
			opt.Shadows = false
			off := drawShot(t, fx, fr, opt, false)
			ratio, changed := 1.0, 0
			b := on.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					a, c := rgb(on, x, y), rgb(off, x, y)
					if a == c {
						continue
					}
					changed++
					la, lc := float64(a[0]+a[1]+a[2]), float64(c[0]+c[1]+c[2])
					if la > lc+3 {
						t.Fatalf("lift %g m: pixel (%d, %d) is lighter with shadows: %v against %v", lift, x, y, a, c)
					}
					if lc > 60 { // floor pixels bright enough to measure
						ratio = min(ratio, la/lc)
					}
				}
			}
			if changed < 200 {
				t.Fatalf("lift %g m: shadows changed %d pixels", lift, changed)
			}
			return ratio
		}
		rest, lifted := darkest(0), darkest(0.03)
		t.Logf("darkest shadow: %.2f of the floor's light resting, %.2f lifted by 30 mm", rest, lifted)
		if rest > 0.6 || lifted < rest+0.1 {
			t.Errorf("darkest shadow %.2f resting, %.2f lifted: want ≤ 0.6 resting and at least 0.1 lighter lifted", rest, lifted)
		}
	})
}

// saveShot writes img as a PNG for a person to look at.
func saveShot(tb testing.TB, img *image.RGBA, path string) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		tb.Fatal(err)
	}
}
