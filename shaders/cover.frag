#version 410 core
// Depth only (drawn with the colour writes masked): the covered pixels
// keep their colour, and every later fragment there fails the depth test.
out vec4 fragColour;

void main() {
    fragColour = vec4(0.0);
}
