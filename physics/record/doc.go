// Package record writes and reads recordings of a run: the scene's
// configuration, every command with the step it took effect at, periodic
// checkpoints of the state and a footer, so that a run can be replayed
// step for step (loop.Player) and its final state compared bit for bit.
//
// # Format, version 2
//
// A recording is UTF-8 text, one record per line. The first line is the
// header
//
//	softgrasp-record 2
//
// naming the format and its version. Every following line is one JSON
// object of one of these forms:
//
//	{"file": {"path": "...", "sha256": "hex", "gzip": "base64"}}
//	    a file the run loaded (a mesh), embedded before the configuration
//	    or the scene command that loads it, once per path and content:
//	    its path as the run named it, the SHA-256 of its content and the
//	    content gzip-compressed. A replay loads these copies
//	    (Recording.Materialise), so that a recording replays on a machine
//	    without the files; a file the run could not read is not embedded.
//	{"config": {...}}
//	    the scenario the run started from (settings.Scenario with its
//	    Physics settings, mesh file and scale; every choice by its name),
//	    once, after the files it loads.
//	{"step": N, "command": "move-gripper", "args": {...}}
//	    a command applied after N steps of the run (before step N+1),
//	    named by CommandName, its fields in args; "rejected": "why" when
//	    applying it failed (the run went on unchanged). Commands that only
//	    pace the run (pause, single step, real-time factor) and commands
//	    that failed their own validation are not recorded: they change no
//	    state.
//	{"step": N, "checksum": "hex"}
//	    a checkpoint: the state checksum after N steps, every
//	    CheckpointEvery steps.
//	{"end": {"steps": N, "checksum": "hex", "error": "..."}}
//	    the footer: the steps run and the checksum of the final state;
//	    error when the last step failed (a divergence).
//
// # Version 1
//
// Version 1 had no file lines and wrote each choice as the number of its
// value in that version's order; settings added after a recording was
// made were absent from it and ran as their zero value. The reader
// migrates each of its lines to version 2 (migrate.go): numbers become the
// names they stood for, an absent choice the name of version 1's value 0,
// an absent alarm margin 1.5, and the test switch FreezeMapping, no
// longer a setting, is dropped. A version 1 recording of a mesh file
// needs the file where it was.
//
// Steps count every step the run attempted since it started, across scene
// rebuilds. The checksum is FNV-1a 64 over the float64 bits of the soft
// body's positions then velocities, written as 16 hex digits.
//
// Each line is written with one write as it happens, so that a run that
// dies leaves a recording without footer but with everything before it; a
// reader accepts such a truncated recording with a note and replays it to
// its last checkpoint or command. A line that does not parse, a header of
// another version, or lines out of order are refused with the line number.
//
// # The asynchronous solver
//
// The asynchronous solver swaps each background factorisation in as soon
// as it is ready, which depends on the machine's load. A recording fixes
// the schedule instead: Deterministic sets settings.Settings.AsyncLag to
// AsyncLag (when it is 0) in the configuration and in every settings
// command, so each factor is swapped in exactly that many steps after it
// started, in the recorded run as in its replay, and the lag is stored
// with the settings.
package record
