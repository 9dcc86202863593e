#version 410 core
// Floor: the body's finite patch, with grid coordinates taken in the plane
// spanned by the body-frame axes uAxisU and uAxisV.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;

uniform mat4 uModel;
uniform mat4 uView;
uniform mat4 uProjection;
uniform vec3 uAxisU;
uniform vec3 uAxisV;

out vec2 vGrid;

void main() {
    vGrid = vec2(dot(aPosition, uAxisU), dot(aPosition, uAxisV));
    gl_Position = uProjection * uView * uModel * vec4(aPosition, 1.0);
}
