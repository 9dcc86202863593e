package render

// Swatch is one colour the 3D view draws and what it means, for the
// viewer's legend.
type Swatch struct {
	Colour  [3]float32
	Meaning string
}

// OverlaySwatches lists the colours of the contact overlay: the contact
// points by state, the normal and friction forces and the deviation scale
// of the n⁰ and n segments (DeviationColour at 0, half and full scale).
func OverlaySwatches() []Swatch {
	rgb := func(c [4]float32) [3]float32 { return [3]float32{c[0], c[1], c[2]} }
	return []Swatch{
		{rgb(colourStick), "contact point, sticking"},
		{rgb(colourSlip), "contact point, sliding"},
		{rgb(colourSeparated), "contact pair apart, within the alarm distance"},
		{rgb(colourHeld), "node held by a body (attachment)"},
		{rgb(colourNormalForce), "normal force arrow"},
		{rgb(colourFrictionForce), "friction force arrow"},
		{DeviationColour(0), "normals n0 (dim) and n (bright) agree"},
		{DeviationColour(DeviationFull / 2), "n turned 5 degrees from n0"},
		{DeviationColour(DeviationFull), "n turned 10 degrees or more from n0"},
	}
}
