package ui

import (
	"fmt"

	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
)

// The Display panel: what the 3D view draws, the colour map and its
// range, and the camera reset.

func drawDisplay(s *State, _ *frame.Frame, _ Sender) {
	d := &s.Display
	checkboxPair(toggle{"wireframe", &d.Wireframe, "the soft surface's triangle edges"},
		toggle{"floor", &d.Floor, "the floor's grid (1-2-5 cells)"})
	checkboxPair(toggle{"contacts", &d.Contacts, "contact points by state (Help panel, Colours)"},
		toggle{"jaws", &d.Bodies, "the jaws and the other rigid bodies"})
	checkboxPair(toggle{"forces", &d.Forces, "each contact's normal force (blue) and friction force (magenta)"},
		toggle{"deviations", &d.Deviations, "per contact: start-of-step normal n0 (dim) and converged Newton normal n (bright), green to red by their angle, 0 to 10 degrees"})
	checkboxPair(toggle{"pattern", &d.Pattern, "a checkerboard of the material, which turns with the object"},
		toggle{"shadows", &d.Shadows, "shadows on the floor: dark and tight under a body resting on it, wider and fainter the higher it is"})
	drawColourMap(s, d)
	drawLegend(s.Legend)
	if d.Forces {
		cm := d.ForceScale * 100 // m/N shown as cm/N
		imgui.SetNextItemWidth(150)
		if imgui.SliderFloatV("force scale (cm/N)", &cm, 0.1, 20, "%.2f", imgui.SliderFlagsLogarithmic|imgui.SliderFlagsAlwaysClamp) {
			d.ForceScale = cm / 100
		}
	}
	if imgui.Button("Reset camera") {
		d.RequestCameraReset()
	}
	tooltip("left drag orbits, middle drag pans, wheel zooms")
}

// toggle is one checkbox of the Display panel: its label, its value and
// its tooltip.
type toggle struct {
	label string
	value *bool
	hint  string
}

// checkboxPair draws two checkboxes on one row, the second aligned at
// the middle of the panel.
func checkboxPair(a, b toggle) {
	imgui.Checkbox(a.label, a.value)
	tooltip(a.hint)
	imgui.SameLineV(LeftColumnWidth/2, -1)
	imgui.Checkbox(b.label, b.value)
	tooltip(b.hint)
}

// drawColourMap draws the colour-map choice and the range of the map.
func drawColourMap(s *State, d *Display) {
	imgui.SetNextItemWidth(150)
	if imgui.BeginCombo("colour map", d.ColourMap.String()) {
		for i := range colourMapNames {
			m := ColourMap(i)
			if imgui.SelectableV(m.String(), m == d.ColourMap, 0, imgui.Vec2{}) {
				d.ColourMap = m
			}
		}
		imgui.EndCombo()
	} else {
		s.fitsCombo(d.ColourMap.String())
	}
}

// drawLegend shows the colour map under the Display panel: the caption
// with the two ends' values, then a colour bar from Lo (left) to Hi
// (right).
func drawLegend(l Legend) {
	if l.Label == "" {
		return
	}
	wrappedText(colourDim, fmt.Sprintf("%s: %.3g to %.3g", l.Label, l.Lo, l.Hi))
	origin := imgui.CursorScreenPos()
	width := imgui.ContentRegionAvail().X
	const height = 12
	draw := imgui.WindowDrawList()
	step := width / LegendSteps
	for i, c := range l.Ramp {
		x := origin.X + float32(i)*step
		draw.AddRectFilled(imgui.Vec2{X: x, Y: origin.Y}, imgui.Vec2{X: x + step + 0.5, Y: origin.Y + height},
			imgui.PackedColorFromVec4(imgui.Vec4{X: c[0], Y: c[1], Z: c[2], W: 1}))
	}
	imgui.Dummy(imgui.Vec2{X: width, Y: height})
}
