package frame

import (
	"sync"
	"testing"
)

// fillPattern writes a frame whose every value derives from seq, so a
// reader can tell a whole frame from a mix of two.
func fillPattern(f *Frame, seq uint64, n int) {
	f.Seq = seq
	f.Surface = make([]float32, 3*n)
	f.Displacement = make([]float32, n)
	for i := range f.Surface {
		f.Surface[i] = float32(seq) + float32(i)
	}
	for i := range f.Displacement {
		f.Displacement[i] = float32(seq)
	}
	f.Stats.Contacts = int(seq % 1000)
	f.Checksum = f.ComputeChecksum()
}

func TestTripleBufferHandsOverWholeFrames(t *testing.T) {
	const frames = 20000
	const n = 300
	buf := NewTripleBuffer()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for s := uint64(1); s <= frames; s++ {
			fillPattern(buf.Back(), s, n)
			buf.Publish()
		}
	}()
	var last uint64
	seen := 0
	for last < frames {
		f, fresh := buf.Acquire()
		if !fresh {
			continue
		}
		seen++
		if f.Seq <= last {
			t.Fatalf("frame %d after frame %d: frames must come newest-first, never older", f.Seq, last)
		}
		last = f.Seq
		if got := f.ComputeChecksum(); got != f.Checksum {
			t.Fatalf("frame %d: checksum %x, stored %x: torn frame", f.Seq, got, f.Checksum)
		}
		for i, v := range f.Displacement {
			if v != float32(f.Seq) {
				t.Fatalf("frame %d: displacement[%d] = %g from another frame", f.Seq, i, v)
			}
		}
	}
	wg.Wait()
	if seen == 0 {
		t.Fatal("reader saw no frame")
	}
}

func TestTripleBufferAcquireWithoutPublish(t *testing.T) {
	buf := NewTripleBuffer()
	f, fresh := buf.Acquire()
	if fresh || f.Seq != 0 {
		t.Fatalf("before any publish: fresh=%v seq=%d, want false and 0", fresh, f.Seq)
	}
	fillPattern(buf.Back(), 7, 4)
	buf.Publish()
	f, fresh = buf.Acquire()
	if !fresh || f.Seq != 7 {
		t.Fatalf("after publish: fresh=%v seq=%d, want true and 7", fresh, f.Seq)
	}
	if _, fresh = buf.Acquire(); fresh {
		t.Fatal("a second acquire without a publish reported a fresh frame")
	}
}

func TestTripleBufferRolesNeverCollide(t *testing.T) {
	buf := NewTripleBuffer()
	for i := 0; i < 100; i++ {
		buf.Publish()
		if i%3 == 0 {
			buf.Acquire()
		}
		mid := int(buf.state.Load() & 3)
		if buf.back == buf.front || buf.back == mid || buf.front == mid {
			t.Fatalf("after %d publishes: back %d, middle %d, front %d share a frame", i+1, buf.back, mid, buf.front)
		}
	}
}
