#version 410 core
// ImGui vertices: 2D position in display pixels, texture coordinates into
// the font atlas (or a user texture) and a packed RGBA colour.
layout(location = 0) in vec2 aPosition;
layout(location = 1) in vec2 aUV;
layout(location = 2) in vec4 aColour;

uniform mat4 uProjection;

out vec2 vUV;
out vec4 vColour;

void main() {
    vUV = aUV;
    vColour = aColour;
    gl_Position = uProjection * vec4(aPosition, 0.0, 1.0);
}
