// Package ui is the viewer's platform layer and immediate-mode UI
// plumbing: the GLFW window with its OpenGL 4.1 core context (Platform),
// an input path that both GLFW callbacks and tests feed (Input, a queue of
// Events routed to ImGui and to the application's 3D handlers), small plot
// widgets, and the viewer's panels. It makes no GL call of its own: ImGui's
// draw data is drawn by render.ImGuiRenderer.
//
// The panels (Simulation, Gripper, Stats, Display, Help, one file each)
// are plain functions over a State: a working copy of the scene
// configuration, the display toggles, the plot histories and where the
// panels were drawn. DrawPanels builds them from the newest frame.Frame;
// every edit is validated first (an invalid value is shown in red and
// sends nothing) and then becomes a frame.Command sent through a Sender,
// never a call into the simulation. The actions behind the buttons are
// State methods (actions.go) that the keyboard shortcuts share.
//
// The package never imports the 3D renderer (Display is its own view of
// the renderer's options); the application wires the two. GLFW, OpenGL
// and ImGui are not thread-safe: every call into this package must come
// from the main OS thread (runtime.LockOSThread in the program's init or
// in TestMain).
package ui
