package main

import (
	"os"
	"path/filepath"

	"softgrasp/physics/frame"
)

// The viewer's mesh files: a file dropped onto the window loads like a
// path typed into the Simulation panel, the panel keeps the recent files
// in the user's configuration directory, and the window title names the
// running mesh with the factor that brought it to metres.

// installMeshUI wires the drop callback and the recent-files list.
func (v *viewer) installMeshUI() {
	v.platform.OnDrop(func(paths []string) { _ = v.state.DropMesh(paths, v.runner) })
	if dir, err := os.UserConfigDir(); err == nil {
		v.state.KeepRecentMeshes(filepath.Join(dir, "softgrasp", "recent-meshes"))
	}
}

// showMesh names a new scene's mesh in the window title and the panel.
func (v *viewer) showMesh(sc *frame.Scene) {
	v.platform.SetTitle("softgrasp — " + sc.MeshName)
	v.state.SetMeshName(sc.MeshName)
	v.state.SetSceneSize(sc.DOFs, len(sc.SurfaceTris)/3)
}
