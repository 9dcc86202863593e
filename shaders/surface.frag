#version 410 core
// Blinn–Phong shading of the soft surface with an optional colour map. The
// lights are fixed in view space, so the side of the object facing the
// user is always lit: a key light above and left of the eye and a weaker
// fill from the right, which keeps the faces turned away from the key
// readable instead of black.
in vec3 vPositionView;
in vec3 vNormalView;
in float vScalar;
in vec3 vRest;

uniform vec3 uBaseColour;
uniform int uUseColourMap;     // 0: uBaseColour, 1: colour map of vScalar
uniform vec2 uRange;           // scalar mapped to [0, 1]: (min, max)
uniform sampler1D uColourMap;  // perceptual map, sampled on [0, 1]
uniform float uAlpha;          // opacity: 1, or less for the A/B ghost
// Edge of the pattern's cubes in the rest shape, m; 0 draws no pattern.
// A three-dimensional checkerboard of the material: every face shows
// squares that move and turn with the body, so a spin of a symmetric
// object reads as one.
uniform float uPatternCell;
// The rest shape's centre: the middle of a cell, so that the pattern is
// symmetric about it; the cell (render's patternCells, 4.5 across the
// largest extent) puts the faces of a cube a quarter cell inside the
// outer cells, never on a boundary, where the pattern would flicker.
uniform vec3 uPatternOrigin;

out vec4 fragColour;

vec3 shade(vec3 albedo, vec3 n, vec3 v) {
    const vec3 keyDir = normalize(vec3(-0.35, 0.55, 1.0));
    const vec3 fillDir = normalize(vec3(0.9, 0.1, 0.4));
    vec3 h = normalize(keyDir + v);
    float diffuse = max(dot(n, keyDir), 0.0);
    float fill = 0.35 * max(dot(n, fillDir), 0.0);
    float specular = pow(max(dot(n, h), 0.0), 48.0) * 0.25;
    return albedo * (0.2 + 0.7 * diffuse + fill) + vec3(specular);
}

void main() {
    vec3 n = normalize(vNormalView);
    // A closed surface shows back faces only when it is cut by the near
    // plane or self-intersects: light them as seen from their side.
    if (!gl_FrontFacing) {
        n = -n;
    }
    vec3 v = normalize(-vPositionView);
    vec3 albedo = uBaseColour;
    if (uUseColourMap != 0) {
        float span = max(uRange.y - uRange.x, 1e-30);
        float t = clamp((vScalar - uRange.x) / span, 0.0, 1.0);
        albedo = texture(uColourMap, t).rgb;
    }
    if (uPatternCell > 0.0) {
        vec3 c = floor((vRest - uPatternOrigin) / uPatternCell + 0.5);
        albedo *= mod(c.x + c.y + c.z, 2.0) < 0.5 ? 1.0 : 0.72;
    }
    fragColour = vec4(shade(albedo, n, v), uAlpha);
}
