#version 410 core
// One triangle over the whole viewport at the near plane (depth 0), from
// the vertex index alone (no vertex buffer): (−1, −1), (3, −1), (−1, 3).
// Drawn under a scissor box, it marks the box as covered.
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1));
    gl_Position = vec4(p, -1.0, 1.0);
}
