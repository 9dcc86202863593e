package loop

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"softgrasp/physics"
	"softgrasp/physics/frame"
)

// timedBackend stands in for the GPU backend: the CPU's kernels, and a
// device clock that advances 1 ms of kernels and 0.5 ms of copies per
// reading (one reading per step).
type timedBackend struct {
	*physics.CPUBackend
	readings int
}

func (b *timedBackend) Name() string { return "fake-gpu" }

func (b *timedBackend) DeviceTimes() (kernel, transfer time.Duration) {
	b.readings++
	return time.Duration(b.readings) * time.Millisecond, time.Duration(b.readings) * 500 * time.Microsecond
}

// fakeBackends is an Options.SetBackend that opens timedBackend for the
// GPU (or fails like a machine without a device) and records the names it
// was asked for.
type fakeBackends struct {
	mu    sync.Mutex
	asked []string
	fail  bool
}

func (h *fakeBackends) set(sim *physics.Simulation, name string) (string, error) {
	h.mu.Lock()
	h.asked = append(h.asked, name)
	h.mu.Unlock()
	if name == frame.BackendCPU {
		sim.SetBackend(physics.NewCPUBackend())
		return frame.BackendCPU, nil
	}
	if h.fail {
		return frame.BackendCPU, errors.New("GPU backend unavailable (no device); staying on the CPU")
	}
	sim.SetBackend(&timedBackend{CPUBackend: physics.NewCPUBackend()})
	return frame.BackendGPU, nil
}

func (h *fakeBackends) heard() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.asked, " ")
}

// TestSetBackendGoesThroughTheHook: a frame.SetBackend reaches the
// application's hook on the physics goroutine, the frames name the
// backend in use and, on a backend that measures its device, the step's
// kernel and transfer times apart; a rebuilt scene stays on it; a backend
// that cannot be opened leaves the CPU in place with the reason in the
// message; without a hook only the CPU is available.
func TestSetBackendGoesThroughTheHook(t *testing.T) {
	type step struct {
		send    frame.Command
		backend string // the frames' backend afterwards
		timed   bool   // device times shown after a step
		message string // part of the frame's message, "" for none
	}
	tests := []struct {
		name    string
		hook    *fakeBackends
		initial string // Options.Backend
		steps   []step
		asked   string // the names the hook heard, in order
	}{
		{"toggle", &fakeBackends{}, "", []step{
			{frame.SetBackend{Backend: frame.BackendGPU}, frame.BackendGPU, true, ""},
			{frame.SetBackend{Backend: frame.BackendGPU}, frame.BackendGPU, true, ""}, // no change, no call
			{frame.Reset{}, frame.BackendGPU, true, ""},                               // the rebuilt scene goes back on it
			{frame.SetBackend{Backend: frame.BackendCPU}, frame.BackendCPU, false, ""},
		}, "gpu gpu cpu"},
		{"start on the gpu", &fakeBackends{}, frame.BackendGPU, []step{
			{frame.SingleStep{}, frame.BackendGPU, true, ""},
		}, "gpu"},
		{"no device", &fakeBackends{fail: true}, "", []step{
			{frame.SetBackend{Backend: frame.BackendGPU}, frame.BackendCPU, false, "GPU backend unavailable"},
		}, "gpu"},
		{"unknown name", &fakeBackends{}, "", []step{
			{frame.SetBackend{Backend: "tpu"}, frame.BackendCPU, false, "command rejected"},
		}, ""},
		{"no hook", nil, "", []step{
			{frame.SetBackend{Backend: frame.BackendGPU}, frame.BackendCPU, false, "not available"},
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{Pace: 0, Paused: true, Backend: tc.initial}
			if tc.hook != nil {
				opt.SetBackend = tc.hook.set
			}
			r, err := Start(smallConfig(), opt)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Stop()
			var lastVer, lastSeq uint64
			for i, s := range tc.steps {
				r.Send(s.send)
				r.Send(frame.SingleStep{})
				want := r.Config().Version // unchanged by a backend switch
				// A reset runs the scene: wait for the first step on the
				// expected backend, then check the frame whole.
				f := waitFrame(t, r, "a step on "+s.backend, func(f *frame.Frame) bool {
					return f.Seq >= 1 && (f.SceneVersion > lastVer || f.Seq > lastSeq) && f.Stats.Backend == s.backend
				})
				lastVer, lastSeq = f.SceneVersion, f.Seq
				st := &f.Stats
				if st.Backend != s.backend || st.DeviceTimed != s.timed {
					t.Fatalf("after %d (%T): backend %q timed %v, want %q and %v", i, s.send, st.Backend, st.DeviceTimed, s.backend, s.timed)
				}
				if s.timed && (st.DeviceKernel != 1 || st.DeviceTransfer != 0.5) {
					t.Fatalf("after %d: kernel %g ms, transfer %g ms per step, want 1 and 0.5", i, st.DeviceKernel, st.DeviceTransfer)
				}
				if !s.timed && (st.DeviceKernel != 0 || st.DeviceTransfer != 0) {
					t.Fatalf("after %d: device times %g, %g ms on the CPU", i, st.DeviceKernel, st.DeviceTransfer)
				}
				if s.message != "" && !strings.Contains(f.Message, s.message) {
					t.Fatalf("after %d: message %q, want it to mention %q", i, f.Message, s.message)
				}
				if s.message == "" && f.Message != "" {
					t.Fatalf("after %d: unexpected message %q", i, f.Message)
				}
				if _, isReset := s.send.(frame.Reset); !isReset && r.Config().Version != want {
					t.Fatalf("after %d: a backend switch published a new configuration", i)
				}
			}
			r.Stop()
			if tc.hook != nil && tc.hook.heard() != tc.asked {
				t.Fatalf("hook asked for %q, want %q", tc.hook.heard(), tc.asked)
			}
		})
	}
}
