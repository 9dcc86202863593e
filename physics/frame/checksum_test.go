package frame

import (
	"reflect"
	"testing"
)

// TestChecksumCoversEveryField changes every leaf field of a frame's
// header, message, stats and gripper, one at a time, and checks that the
// checksum changes: a field the checksum missed could be torn unseen.
func TestChecksumCoversEveryField(t *testing.T) {
	var f Frame
	f.Message = "m"
	f.GhostSurface = []float32{1}
	for _, root := range []struct {
		name string
		v    reflect.Value
	}{
		{"Seq", reflect.ValueOf(&f.Seq).Elem()},
		{"SceneVersion", reflect.ValueOf(&f.SceneVersion).Elem()},
		{"ConfigVersion", reflect.ValueOf(&f.ConfigVersion).Elem()},
		{"Time", reflect.ValueOf(&f.Time).Elem()},
		{"Stats", reflect.ValueOf(&f.Stats).Elem()},
		{"Message", reflect.ValueOf(&f.Message).Elem()},
		{"Gripper", reflect.ValueOf(&f.Gripper).Elem()},
		{"GhostSurface[0]", reflect.ValueOf(&f.GhostSurface[0]).Elem()},
	} {
		forEachLeaf(root.name, root.v, func(name string, leaf reflect.Value) {
			before := f.ComputeChecksum()
			old := reflect.New(leaf.Type()).Elem()
			old.Set(leaf)
			perturb(t, name, leaf)
			if f.ComputeChecksum() == before {
				t.Errorf("changing %s leaves the checksum unchanged", name)
			}
			leaf.Set(old)
		})
	}
}

// forEachLeaf calls fn for every settable non-struct field below v
// (array elements included), with a dotted name.
func forEachLeaf(name string, v reflect.Value, fn func(string, reflect.Value)) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			forEachLeaf(name+"."+v.Type().Field(i).Name, v.Field(i), fn)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			forEachLeaf(name+"["+string(rune('0'+i%10))+"]", v.Index(i), fn)
		}
	default:
		fn(name, v)
	}
}

// perturb changes a leaf to another value of its kind.
func perturb(t *testing.T, name string, v reflect.Value) {
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		v.SetFloat(v.Float() + 1.5)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(v.Int() + 1)
	case reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.String:
		v.SetString(v.String() + "x")
	default:
		t.Fatalf("%s: no perturbation for kind %v", name, v.Kind())
	}
}
