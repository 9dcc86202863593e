package ui

import (
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// capture is a Sender that records commands; with refuse set it refuses
// them like a full queue.
type capture struct {
	cmds   []frame.Command
	refuse bool
}

func (c *capture) Send(cmd frame.Command) bool {
	if c.refuse {
		return false
	}
	c.cmds = append(c.cmds, cmd)
	return true
}

// only returns the single captured command, failing otherwise.
func (c *capture) only(t *testing.T) frame.Command {
	t.Helper()
	if len(c.cmds) != 1 {
		t.Fatalf("sent %d commands %v, want exactly one", len(c.cmds), c.cmds)
	}
	return c.cmds[0]
}

// harness drives the panels through a real ImGui context and the real
// input path, without a window or GL: ImGui lays out and hit-tests
// widgets without drawing them.
type harness struct {
	t      *testing.T
	ctx    *imgui.Context
	io     imgui.IO
	in     *Input
	state  *State
	out    *capture
	frame  frame.Frame
	config frame.Config
}

// newHarness creates the ImGui context (1280×800) and a state for the
// default grasp scene with a published-looking frame.
func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{t: t, ctx: imgui.CreateContext(nil), in: NewInput(), out: &capture{}}
	t.Cleanup(h.ctx.Destroy)
	h.io = imgui.CurrentIO()
	h.io.SetIniFilename("")
	h.io.SetDisplaySize(imgui.Vec2{X: 1280, Y: 800})
	h.io.Fonts().TextureDataRGBA32() // builds the atlas, which NewFrame needs
	ConfigureKeyMap(h.io)
	ApplyStyle()
	cfg := settings.DefaultScenario(settings.GraspRotate)
	h.state = NewState(cfg, 1)
	h.config = frame.Config{Version: 1, Scenario: cfg}
	h.frame = frame.Frame{Seq: 1, SceneVersion: 1, ConfigVersion: 1}
	h.frame.Stats.Scheme = "fast"
	h.frame.Stats.Phase = "manual"
	h.frame.Gripper = frame.GripperView{Present: true, Opening: 0.05, TargetOpening: 0.05}
	h.state.Observe(&h.frame, &h.config, true)
	h.step(3) // let ImGui place and size the windows
	return h
}

// step renders n frames: route the queued input, build the panels.
func (h *harness) step(n int) {
	for i := 0; i < n; i++ {
		h.io.SetDeltaTime(1.0 / 60)
		h.in.Route(h.io)
		imgui.NewFrame()
		DrawPanels(h.state, &h.frame, h.out)
		imgui.Render()
	}
}

// push queues an event, failing the test on a malformed one.
func (h *harness) push(e Event) {
	h.t.Helper()
	if err := h.in.Push(e); err != nil {
		h.t.Fatal(err)
	}
}

// click presses and releases the left button at the centre of the
// tracked widget id.
func (h *harness) click(id string) {
	h.t.Helper()
	r, ok := h.state.Layout.Items[id]
	if !ok || r.Empty() {
		h.t.Fatalf("widget %q was not drawn (items: %v)", id, h.state.Layout.Items)
	}
	c := r.Centre()
	h.push(CursorEvent(float64(c.X), float64(c.Y)))
	h.step(1)
	h.push(ButtonEvent(MouseLeft, Press, 0))
	h.step(1)
	h.push(ButtonEvent(MouseLeft, Release, 0))
	h.step(2)
}

// typeInto clicks a numeric field, types text over its selected content
// and presses Enter.
func (h *harness) typeInto(id FieldID, text string) {
	h.t.Helper()
	h.click(FieldItem(id))
	for _, r := range text {
		h.push(CharEvent(r))
	}
	h.step(1)
	h.push(KeyEvent(Key(glfw.KeyEnter), Press, 0))
	h.step(1)
	h.push(KeyEvent(Key(glfw.KeyEnter), Release, 0))
	h.step(2)
}
