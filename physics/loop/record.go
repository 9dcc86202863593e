package loop

import "softgrasp/physics/frame"

// This file feeds Options.Record from the physics goroutine: each command
// as applied, each step (a checkpoint every record.CheckpointEvery steps,
// written without allocating), and the footer when the loop stops.

// recordCommand records c, applied with error err, at the current step.
func (r *Runner) recordCommand(c frame.Command, err error) {
	if r.opt.Record == nil {
		return
	}
	r.opt.Record.Command(r.steps, c, err)
	r.reportRecordError()
}

// recordStep counts a step attempted, with its error, and lets the
// recording write its checkpoint.
func (r *Runner) recordStep(err error) {
	r.steps++
	r.stepErr = err
	if r.opt.Record == nil {
		return
	}
	r.opt.Record.Step(r.steps, r.sc.StateChecksum)
	r.reportRecordError()
}

// endRecord writes the footer: the steps run and the final state.
func (r *Runner) endRecord() {
	if r.opt.Record == nil {
		return
	}
	r.opt.Record.End(r.steps, r.sc.StateChecksum(), r.stepErr)
}

// reportRecordError shows the recording's first write error in the next
// frame's message, once: the run goes on without recording.
func (r *Runner) reportRecordError() {
	if err := r.opt.Record.Err(); err != nil && !r.recErr {
		r.recErr = true
		r.message = err.Error()
	}
}
