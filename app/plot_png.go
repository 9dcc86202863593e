package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// checkPNG refuses a plot path that is not named .png: the plots are
// written as PNG only.
func checkPNG(path string) error {
	if ext := strings.ToLower(filepath.Ext(path)); ext != ".png" {
		return fmt.Errorf("%s: the plot is written as PNG, name it .png", path)
	}
	return nil
}

// savePlotGrid draws the panels of grid (rows of plots, aligned by
// tiles) on a width × height image and writes it to path as a PNG.
func savePlotGrid(path string, grid [][]*plot.Plot, width, height vg.Length, tiles draw.Tiles) error {
	img := vgimg.New(width, height)
	canvases := plot.Align(grid, tiles, draw.New(img))
	for i := range grid {
		for j := range grid[i] {
			grid[i][j].Draw(canvases[i][j])
		}
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
