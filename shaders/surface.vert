#version 410 core
// Soft surface: positions, area-weighted vertex normals and one scalar per
// vertex (displacement or von Mises stress) for the colour map. The surface
// lives in world coordinates, so there is no model matrix. The rest
// positions carry the surface pattern, which moves with the material.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in float aScalar;
layout(location = 3) in vec3 aRest;

uniform mat4 uView;
uniform mat4 uProjection;

out vec3 vPositionView;
out vec3 vNormalView;
out float vScalar;
out vec3 vRest;

void main() {
    vec4 p = uView * vec4(aPosition, 1.0);
    vPositionView = p.xyz;
    // The view matrix is a rigid motion: its rotation part maps normals.
    vNormalView = mat3(uView) * aNormal;
    vScalar = aScalar;
    vRest = aRest;
    gl_Position = uProjection * p;
}
