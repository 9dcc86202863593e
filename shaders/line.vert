#version 410 core
// Coloured lines and points in world coordinates (contacts, force arrows,
// direction segments, wireframe overlay). The colour travels in the
// LineVertex block so that the wide-line geometry stage can pass it on
// unchanged (blocks match by name between stages).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColour;

uniform mat4 uView;
uniform mat4 uProjection;
uniform float uPointSize;

out LineVertex {
    vec4 colour;
} vOut;

void main() {
    vOut.colour = aColour;
    gl_PointSize = uPointSize;
    gl_Position = uProjection * (uView * vec4(aPosition, 1.0));
}
