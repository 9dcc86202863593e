// Package loop runs a simulation on its own goroutine: it owns the one
// simulation value, drains a command channel between steps (each command
// validated again, frame.Command.Validate, before it is applied), paces
// the fixed time step to wall time, and publishes each step's frame.Frame
// to viewers through a lock-free buffer swap, the static frame.Scene once
// per scene and the running frame.Config once per change. Commands in,
// frames out.
package loop
