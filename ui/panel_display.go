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
	checkboxPair("wireframe", &d.Wireframe, "floor", &d.Floor)
	checkboxPair("contacts", &d.Contacts, "jaws", &d.Bodies)
	checkboxPair("forces", &d.Forces, "deviations", &d.Deviations)
	tooltip("per contact: start-of-step normal n0 (dim) and converged Newton normal n (bright)")
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

// checkboxPair draws two checkboxes on one row, the second aligned at
// the middle of the panel.
func checkboxPair(a string, va *bool, b string, vb *bool) {
	imgui.Checkbox(a, va)
	imgui.SameLineV(LeftColumnWidth/2, -1)
	imgui.Checkbox(b, vb)
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
