#version 410 core
// Procedural grid. For a coordinate g measured in cells, the distance to
// the nearest line is |fract(g − 0.5) − 0.5| cells; dividing by fwidth(g)
// turns it into pixels, so lines stay one pixel wide at every distance and
// fade smoothly instead of aliasing. Every tenth line is a major line.
//
// Soft shadows of the bodies above the floor (blob shadows): each body's
// footprint is a rectangle in the floor's plane (its extent along the grid
// axes) with the height of its lowest point over the floor. A body resting
// on the floor casts a dark, tight shadow; lifted, its shadow widens,
// blurs and fades, so the gap between a body and its shadow shows the
// height from any view.
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

const int maxBlobs = 8;
uniform int uBlobs;                // shadows in use, 0 to maxBlobs
uniform vec4 uBlob[maxBlobs];      // footprint centre (u, v) and half extents (u, v), m
uniform vec2 uBlobLift[maxBlobs];  // lowest point's height over the floor and footprint size, m

out vec4 fragColour;

float lineCoverage(vec2 g) {
    vec2 d = abs(fract(g - 0.5) - 0.5) / max(fwidth(g), vec2(1e-6));
    return 1.0 - min(min(d.x, d.y), 1.0);
}

// shadow is the light left at the point p of the floor under the blobs.
float shadow(vec2 p) {
    float light = 1.0;
    for (int i = 0; i < uBlobs; ++i) {
        float h = max(uBlobLift[i].x, 0.0);
        float size = max(uBlobLift[i].y, 1e-4);
        // A resting body's shadow reaches a little past its footprint
        // (where the light under it is blocked, as ambient occlusion);
        // a lifted one's spreads with the height.
        vec2 ext = uBlob[i].zw + vec2(0.06 * size + 0.35 * h);
        vec2 q = abs(p - uBlob[i].xy) - ext;
        float d = length(max(q, 0.0)) + min(max(q.x, q.y), 0.0); // outside the rectangle > 0
        float blur = 0.1 * size + 0.5 * h;
        float cover = 1.0 - smoothstep(-blur, blur, d);
        float strength = 0.65 * size / (size + 2.5 * h);
        light *= 1.0 - strength * cover;
    }
    return light;
}

void main() {
    vec2 g = vGrid / uSpacing;
    float minor = lineCoverage(g) * 0.45;
    float major = lineCoverage(g / 10.0);
    vec3 c = mix(uFloorColour, uLineColour, max(minor, major)) * shadow(vGrid);
    float fog = clamp(length(vGrid) / uFogDistance, 0.0, 1.0);
    fragColour = vec4(mix(c, uFogColour, fog * fog), 1.0);
}
