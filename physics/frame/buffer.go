package frame

import "sync/atomic"

// TripleBuffer hands frames from one writer (the physics goroutine) to
// one reader (the renderer) without locks and without either side ever
// waiting for the other.
//
// Three preallocated frames rotate between three roles: the writer owns
// the back frame and fills it; the middle frame is the newest published
// one; the reader owns the front frame and draws it. Publish swaps back
// and middle in one atomic operation and marks the middle fresh; Acquire
// swaps front and middle when the middle is fresh. Each frame is thus
// touched by one side at a time, and the atomic swaps order the writes of
// the filling side before the reads of the other.
type TripleBuffer struct {
	frames [3]Frame
	// state holds the middle frame's index in bits 0–1 and the fresh flag
	// in bit 2.
	state atomic.Uint32
	back  int // owned by the writer
	front int // owned by the reader
}

const freshBit = 4

// NewTripleBuffer returns a buffer whose frames are empty.
func NewTripleBuffer() *TripleBuffer {
	t := &TripleBuffer{back: 0, front: 2}
	t.state.Store(1)
	return t
}

// Back returns the frame the writer may fill. It stays the writer's until
// the next Publish.
func (t *TripleBuffer) Back() *Frame { return &t.frames[t.back] }

// Publish makes the back frame the newest one and gives the writer the
// previous middle frame to fill next.
func (t *TripleBuffer) Publish() {
	old := t.state.Swap(uint32(t.back) | freshBit)
	t.back = int(old & 3)
}

// Acquire returns the newest published frame and whether it is new since
// the last Acquire. The frame stays the reader's until the next Acquire.
// Before the first Publish it returns an empty frame (Seq 0).
func (t *TripleBuffer) Acquire() (*Frame, bool) {
	if t.state.Load()&freshBit == 0 {
		return &t.frames[t.front], false
	}
	old := t.state.Swap(uint32(t.front))
	t.front = int(old & 3)
	return &t.frames[t.front], true
}
