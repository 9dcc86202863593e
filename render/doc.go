// Package render draws published simulation frames with OpenGL 4.1 core:
// the soft body's surface (smooth-shaded, optionally wireframed and
// colour-mapped by displacement or von Mises stress), the rigid bodies and
// the floor grid, and the contacts with their forces and — what this
// viewer is for — the deviation of each contact direction between the
// start-of-step linearisation n⁰ and the converged Newton direction n.
//
// The package only reads frame.Scene and frame.Frame values; it never
// reaches into the simulation. A Renderer and everything it owns must be
// used on the thread that owns the GL context (the main OS thread).
//
// Every GL call of the viewer is in this package, the panels' too: the
// ImGui draw data that package ui builds is drawn by ImGuiRenderer, whose
// program comes from the same loader as the 3D programs.
//
// Files: camera.go (orbit camera and picking, pure math), program.go (the
// GLSL program loader), colourmap.go and robust.go (colour maps and their
// data range), surface.go, bodies.go and contacts.go (one kind of drawable
// each), renderer.go (the renderer, its options and scene), draw.go (one
// frame), imgui.go (ImGui's draw lists), screenshot.go (read-back and
// PNG).
package render
