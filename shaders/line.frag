#version 410 core
// Lines take their vertex colour; points (uRoundPoints = 1) are cut to a
// disc so that contact markers read as dots, not squares.
in LineVertex {
    vec4 colour;
} fIn;

uniform int uRoundPoints;

out vec4 fragColour;

void main() {
    if (uRoundPoints != 0) {
        vec2 d = gl_PointCoord - vec2(0.5);
        if (dot(d, d) > 0.25) {
            discard;
        }
    }
    fragColour = fIn.colour;
}
