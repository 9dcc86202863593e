// Soft bean: the shipped soft object, a capsule flattened into a bean.
//
// A cylinder of length L with hemispherical caps of radius R, 60 mm long
// and 28 mm wide, squashed to 80 % of its height (22.4 mm) so that it rests
// stably on the floor, then lifted so that its bottom touches z = 0.
// Units are metres.
//
// Regenerate the committed meshes (Gmsh 4.8) from this directory with
//
//   gmsh bean.geo -3 -format msh41 -o bean.msh
//   gmsh bean.msh -0 -format vtk -o bean.vtk
//
// Only the physical volume is saved, so the files hold the tetrahedra
// (about 1200 nodes and 4800 tetrahedra) and no surface elements.
SetFactory("OpenCASCADE");

L = 0.032;      // length of the cylindrical part
R = 0.014;      // radius of the caps and of the cylinder
squash = 0.8;   // height / width

Cylinder(1) = {-L/2, 0, 0, L, 0, 0, R};
Sphere(2) = {-L/2, 0, 0, R};
Sphere(3) = {L/2, 0, 0, R};
BooleanUnion(4) = { Volume{1}; Delete; }{ Volume{2, 3}; Delete; };
Dilate {{0, 0, 0}, {1, 1, squash}} { Volume{4}; }
Translate {0, 0, squash*R} { Volume{4}; }

Physical Volume("bean") = {4};

// Element size: about 3 mm, i.e. ten elements across the width.
Mesh.MeshSizeMax = 0.003;
Mesh.MeshSizeMin = 0.0025;
Mesh.Optimize = 1;
