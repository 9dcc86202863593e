package settings

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

func TestParseAttach(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    string // String() of the spec, "" for an error
		wantErr string
		in1     r3.Vec // a point it selects (box and plane)
		out1    r3.Vec // one it does not
	}{
		{in: "below:z=0.004", want: "plane:0,0,1,0.004", in1: r3.Vec{Z: 0.004}, out1: r3.Vec{Z: 0.0041}},
		{in: "above:x=-0.01@left jaw", want: "plane:-1,0,0,0.01@left jaw", in1: r3.Vec{X: -0.01}, out1: r3.Vec{X: -0.011}},
		{in: "box:0,0,0,1,1,1", want: "box:0,0,0,1,1,1", in1: r3.Vec{X: 1, Y: 0.5}, out1: r3.Vec{X: 1.1}},
		{in: "plane:1,1,0,0", want: "plane:1,1,0,0", in1: r3.Vec{X: -1, Y: 1}, out1: r3.Vec{X: 1, Y: 1}},
		{in: "nodes:3, 1,2", want: "nodes:3,1,2"},
		{in: "below:q=1", wantErr: `axis "q"`},
		{in: "below:z", wantErr: "below:AXIS=VALUE"},
		{in: "box:1,0,0,0,1,1", wantErr: "below its second"},
		{in: "box:0,0,0,1,1", wantErr: "takes 6 numbers"},
		{in: "box:0,0,0,1,1,NaN", wantErr: "finite"},
		{in: "plane:0,0,0,1", wantErr: "non-zero"},
		{in: "nodes:1,-2", wantErr: "≥ 0"},
		{in: "nodes:a", wantErr: "not a node index"},
		{in: "sphere:1", wantErr: `"sphere"`},
		{in: "below:z=0@", wantErr: "no body after @"},
		{in: "z<0", wantErr: "want below:"},
	} {
		a, err := ParseAttach(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: err %v, want one saying %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || a.String() != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, a, err, tc.want)
			continue
		}
		if back, err := ParseAttach(a.String()); err != nil || back.String() != a.String() {
			t.Errorf("%q does not read back: %q, %v", a, back, err)
		}
		if a.Nodes == nil && (!a.Selects(tc.in1) || a.Selects(tc.out1)) {
			t.Errorf("%q: selects %v: %v, %v: %v", tc.in, tc.in1, a.Selects(tc.in1), tc.out1, a.Selects(tc.out1))
		}
	}
}

func TestScenarioEqualSeesAttachments(t *testing.T) {
	a, b := DefaultScenario(GraspRotate), DefaultScenario(GraspRotate)
	if !a.Equal(b) {
		t.Fatal("equal defaults differ")
	}
	spec, _ := ParseAttach("below:z=0.004")
	b.Attach = []AttachSpec{spec}
	if a.Equal(b) || b.Equal(a) {
		t.Fatal("an attachment is not seen")
	}
	a.Attach = []AttachSpec{spec}
	if !a.Equal(b) {
		t.Fatal("the same attachment differs")
	}
	a.Attach, b.Attach = []AttachSpec{}, nil
	if !a.Equal(b) {
		t.Fatal("no attachment and an empty list differ")
	}
	c := DefaultScenario(GraspRotate)
	c.Attach = []AttachSpec{{}}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "Attach[0]") {
		t.Fatalf("an empty attachment validates: %v", err)
	}
}

// TestAttachList reads attachments separated by ";" (a body name with a
// space included) and writes them back the same; an empty list is none;
// a bad part is refused, naming it.
func TestAttachList(t *testing.T) {
	const text = "below:z=0.004; nodes:1,2@left jaw"
	specs, err := ParseAttachList(" " + text + ";;")
	if err != nil || len(specs) != 2 || specs[1].Body != "left jaw" {
		t.Fatalf("%v, %v", specs, err)
	}
	if got := FormatAttachList(specs); got != "plane:0,0,1,0.004; nodes:1,2@left jaw" {
		t.Fatalf("written back as %q", got)
	}
	if specs, err := ParseAttachList(" ; "); err != nil || specs != nil {
		t.Fatalf("an empty list: %v, %v", specs, err)
	}
	if _, err := ParseAttachList("below:z=0; box:1"); err == nil || !strings.Contains(err.Error(), `"box:1"`) {
		t.Fatalf("a bad part: %v", err)
	}
}
