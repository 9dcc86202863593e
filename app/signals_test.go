package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"softgrasp/physics/record"
)

// subprocessArgs names the environment variable with which TestMain runs
// the command itself instead of the tests: its arguments, separated by
// the unit separator.
const subprocessArgs = "SOFTGRASP_TEST_RUN"

// startCommand starts this test binary as the softgrasp command with the
// given arguments, in its own process group (no terminal's signals reach
// it), output to the returned buffers.
func startCommand(t *testing.T, args ...string) (*exec.Cmd, *syncBuffer, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), subprocessArgs+"="+strings.Join(args, "\x1f"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out, errOut syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out, &errOut
}

// syncBuffer is a child process's output that the test may read while
// the process still writes it (exec copies it on its own goroutine).
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls cond every 50 ms for up to limit.
func waitFor(limit time.Duration, cond func() bool) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// exitCode waits for cmd and returns its exit status (−1 when a signal
// killed it).
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the process did not end within 60 s of the signal")
	}
	return cmd.ProcessState.ExitCode()
}

// stopWith sends sig to cmd and checks that it exits with 128 + sig,
// says on stderr that the signal stopped it, and dumps no stack.
func stopWith(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, errOut *syncBuffer) {
	t.Helper()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd); code != 128+int(sig) {
		t.Fatalf("exit status %d, want %d; stderr: %s", code, 128+int(sig), errOut)
	}
	if strings.Contains(errOut.String(), "goroutine") || !strings.Contains(errOut.String(), "stopped by "+signalName(sig)) {
		t.Fatalf("stderr: %s", errOut)
	}
}

// TestSignalsEndHeadlessRuns sends SIGINT and SIGTERM to a long headless
// run that records: it must stop between two steps and end as a finished
// run does (the summary of the steps that ran, the recording's footer,
// which replays identically), with exit status 130 or 143, and no stack
// dump. SIGTERM also checks the repair of the signal actions that the
// sparse analysis's METIS ordering breaks (sparse/factor.c): without it
// the process died with "non-Go code set up signal handler without
// SA_ONSTACK flag".
func TestSignalsEndHeadlessRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in a child process")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(signalName(sig), func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "run.rec")
			cmd, out, errOut := startCommand(t, "headless", "-steps", "1000000", "-dofs", "600", "-record", rec, "-json")
			if !waitFor(30*time.Second, func() bool {
				b, _ := os.ReadFile(rec)
				return bytes.Contains(b, []byte(`"step":100,`))
			}) {
				_ = cmd.Process.Kill()
				t.Fatalf("the run did not reach step 100 in 30 s; stderr: %s", errOut)
			}
			stopWith(t, cmd, sig, errOut)
			if !strings.Contains(out.String(), `"interrupted": "`+signalName(sig)+`"`) || !strings.Contains(out.String(), `"final_checksum"`) {
				t.Fatalf("no summary of the steps that ran: %s", out)
			}
			r, err := record.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			if r.End == nil || r.End.Steps < 100 {
				t.Fatalf("recording footer %+v, want one after at least 100 steps", r.End)
			}
		})
	}
}

// TestSignalsEndTheViewer sends SIGINT and SIGTERM to the viewer: it must
// close as when its window is closed, print its summary line, and exit
// with 130 or 143.
func TestSignalsEndTheViewer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the viewer in a child process")
	}
	if missingDisplay() != "" {
		t.Skip("no display")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(signalName(sig), func(t *testing.T) {
			cmd, out, errOut := startCommand(t, "-dofs", "600")
			time.Sleep(4 * time.Second)
			stopWith(t, cmd, sig, errOut)
			if !strings.Contains(out.String(), "rendered frames/s") {
				t.Fatalf("no summary line: %s", out)
			}
		})
	}
}

// TestSignalsEndReplaysAndSoaks sends SIGINT and SIGTERM to a replay and
// to a soak: the replay stops between two steps with the summary of what it
// replayed, the soak with its report (its recording not replayed), each
// with the signal's exit status and no stack dump.
func TestSignalsEndReplaysAndSoaks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in child processes")
	}
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.rec")
	// A recording of 100 steps and a second more, so that its replay
	// takes seconds whatever this build's speed (the race detector's
	// included).
	cmd, _, errOut := startCommand(t, "headless", "-steps", "1000000", "-dofs", "600", "-record", rec)
	if !waitFor(30*time.Second, func() bool {
		b, _ := os.ReadFile(rec)
		return bytes.Contains(b, []byte(`"step":100,`)) // a checkpoint
	}) {
		_ = cmd.Process.Kill()
		t.Fatalf("the run did not reach step 100 in 30 s; stderr: %s", errOut)
	}
	time.Sleep(time.Second)
	stopWith(t, cmd, syscall.SIGINT, errOut)

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run("replay "+signalName(sig), func(t *testing.T) {
			csv := filepath.Join(t.TempDir(), "steps.csv")
			cmd, out, errOut := startCommand(t, "replay", rec, "-json", "-csv", csv)
			if !waitFor(30*time.Second, func() bool {
				b, _ := os.ReadFile(csv)
				return bytes.Count(b, []byte("\n")) > 5
			}) {
				_ = cmd.Process.Kill()
				t.Fatalf("the replay wrote no steps in 30 s; stderr: %s", errOut)
			}
			stopWith(t, cmd, sig, errOut)
			if !strings.Contains(out.String(), `"interrupted": "`+signalName(sig)+`"`) {
				t.Fatalf("no summary of the steps replayed: %s", out)
			}
		})
		t.Run("soak "+signalName(sig), func(t *testing.T) {
			soakRec := filepath.Join(t.TempDir(), "soak.rec")
			cmd, out, errOut := startCommand(t, "soak", "-minutes", "10", "-dofs", "300", "-json",
				"-meshes", "../physics/meshfile/testdata/*.stl", "-record", soakRec)
			// The progress bar redraws about once a second and may skip a
			// second on a loaded machine ("soak 1s", "soak 3s"): any count
			// from 2 s on will do.
			ranFor := regexp.MustCompile(`soak ([2-9]|[1-9][0-9]+)s`)
			if !waitFor(30*time.Second, func() bool { return ranFor.MatchString(errOut.String()) }) {
				_ = cmd.Process.Kill()
				t.Fatalf("the soak did not run 2 s in 30 s; stderr: %s", errOut)
			}
			stopWith(t, cmd, sig, errOut)
			if !strings.Contains(out.String(), `"stopped": true`) || !strings.Contains(out.String(), `"commands"`) {
				t.Fatalf("no report of the soak that ran: %s", out)
			}
			if b, err := os.ReadFile(soakRec); err != nil || len(b) == 0 {
				t.Fatalf("the soak's recording was not written (%d bytes, %v)", len(b), err)
			}
		})
	}
}
