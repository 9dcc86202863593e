#version 410 core
// Rigid body: body-frame positions with flat face normals, placed by the
// body's model matrix (a rigid motion, so mat3(uModel) maps normals).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;

uniform mat4 uModel;
uniform mat4 uView;
uniform mat4 uProjection;

out vec3 vPositionView;
out vec3 vNormalView;

void main() {
    vec4 p = uView * (uModel * vec4(aPosition, 1.0));
    vPositionView = p.xyz;
    vNormalView = mat3(uView) * (mat3(uModel) * aNormal);
    gl_Position = uProjection * p;
}
