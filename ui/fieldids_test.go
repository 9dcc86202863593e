package ui

// The fields the tests edit, by the key of their setting.
var (
	FieldTimeStep  = FieldOf("dt")
	FieldNewton    = FieldOf("newton")
	FieldNewtonTol = FieldOf("newton-tol")
	FieldPGS       = FieldOf("pgs")
	FieldPGSTol    = FieldOf("pgs-tol")
	FieldFriction  = FieldOf("mu")
	FieldYoung     = FieldOf("young")
	FieldPoisson   = FieldOf("poisson")
	FieldDOFs      = FieldOf("dofs")
	FieldOmega     = FieldOf("omega")
)
