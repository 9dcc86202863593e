// Package ui is the viewer's platform layer and immediate-mode UI
// plumbing: the GLFW window with its OpenGL 4.1 core context (Platform),
// an input path that both GLFW callbacks and tests feed (Input, a queue of
// Events routed to ImGui and to the application's 3D handlers), an ImGui
// renderer for OpenGL 4.1 core (ImGuiRenderer), and small plot widgets
// for the statistics panel.
//
// The package never imports the 3D renderer; the application wires the
// two. GLFW, OpenGL and ImGui are not thread-safe: every call into this
// package must come from the main OS thread (runtime.LockOSThread in the
// program's init or in TestMain).
package ui
