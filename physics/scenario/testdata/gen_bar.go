//go:build ignore

// gen_bar writes bar_yup.obj: a closed elongated box modelled with +y up,
// 24 × 40 × 16 units (x, y, z) on a 4-unit grid (496 triangles), turned
// by 30° about its long axis y, the way an upright figure comes in a Y-up
// file. Loaded with +z up it lies on its long side; with +y up it stands,
// and its narrow side (16 units) faces the heading −60° (or 120°).
//
//	go run gen_bar.go > bar_yup.obj
package main

import (
	"fmt"
	"math"
)

func main() {
	const step = 4.0
	size := [3]float64{24, 40, 16}
	n := [3]int{int(size[0] / step), int(size[1] / step), int(size[2] / step)}
	turn := 30 * math.Pi / 180
	c, s := math.Cos(turn), math.Sin(turn)

	index := map[[3]int]int{}
	var verts [][3]float64
	vertex := func(g [3]int) int {
		if i, ok := index[g]; ok {
			return i
		}
		x := float64(g[0])*step - size[0]/2
		y := float64(g[1]) * step
		z := float64(g[2])*step - size[2]/2
		verts = append(verts, [3]float64{c*x + s*z, y, -s*x + c*z})
		index[g] = len(verts)
		return len(verts)
	}
	var faces [][3]int
	// Each face of the box: the axis it is normal to, its side, and the
	// two in-plane axes (u, v) ordered so that u × v points outwards.
	for axis := 0; axis < 3; axis++ {
		u, v := (axis+1)%3, (axis+2)%3
		for _, side := range []int{0, 1} {
			for i := 0; i < n[u]; i++ {
				for j := 0; j < n[v]; j++ {
					corner := func(di, dj int) int {
						var g [3]int
						g[axis] = side * n[axis]
						g[u], g[v] = i+di, j+dj
						return vertex(g)
					}
					a, b, cc, d := corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)
					if side == 1 {
						faces = append(faces, [3]int{a, b, cc}, [3]int{a, cc, d})
					} else {
						faces = append(faces, [3]int{a, cc, b}, [3]int{a, d, cc})
					}
				}
			}
		}
	}
	fmt.Printf("# elongated box, +y up: 24 x 40 x 16 units turned 30 deg about y; %d vertices, %d triangles (gen_bar.go)\n", len(verts), len(faces))
	for _, p := range verts {
		fmt.Printf("v %.6f %.6f %.6f\n", p[0], p[1], p[2])
	}
	for _, f := range faces {
		fmt.Printf("f %d %d %d\n", f[0], f[1], f[2])
	}
}
