#version 410 core
// Procedural grid. For a coordinate g measured in cells, the distance to
// the nearest line is |fract(g − 0.5) − 0.5| cells; dividing by fwidth(g)
// turns it into pixels, so lines stay one pixel wide at every distance and
// fade smoothly instead of aliasing. Every tenth line is a major line.
in vec2 vGrid;

uniform float uSpacing;   // minor cell size, m
uniform vec3 uFloorColour;
uniform vec3 uLineColour;
uniform vec3 uFogColour;
// Distance from the patch centre, in its plane, at which the floor has
// faded into the background, m. Fading by distance from the centre rather
// than from the eye hides the patch's edge at every zoom and keeps the
// floor under the object visible however far the camera is.
uniform float uFogDistance;

out vec4 fragColour;

float lineCoverage(vec2 g) {
    vec2 d = abs(fract(g - 0.5) - 0.5) / max(fwidth(g), vec2(1e-6));
    return 1.0 - min(min(d.x, d.y), 1.0);
}

void main() {
    vec2 g = vGrid / uSpacing;
    float minor = lineCoverage(g) * 0.45;
    float major = lineCoverage(g / 10.0);
    vec3 c = mix(uFloorColour, uLineColour, max(minor, major));
    float fog = clamp(length(vGrid) / uFogDistance, 0.0, 1.0);
    fragColour = vec4(mix(c, uFogColour, fog * fog), 1.0);
}
