#version 410 core
// Wide lines. Core profiles only guarantee one-pixel lines (glLineWidth
// above 1 is an error in a forward-compatible context), too thin for the
// force arrows and direction segments. Each segment becomes a screen-space
// quad uWidth pixels wide.
//
// With NDC position s = clip.xy / clip.w, one pixel is 2 / uViewport in
// NDC, so a half-width of uWidth/2 pixels is uWidth / uViewport in NDC;
// multiplying the offset by clip.w puts it back in clip space, which
// keeps the perspective division and depth of the endpoints intact.
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;

uniform vec2 uViewport; // framebuffer size, pixels
uniform float uWidth;   // line width, pixels

in LineVertex {
    vec4 colour;
} gIn[];

out LineVertex {
    vec4 colour;
} gOut;

void main() {
    vec4 p0 = gl_in[0].gl_Position;
    vec4 p1 = gl_in[1].gl_Position;
    // A segment crossing the eye plane has no screen direction; overlays
    // sit in front of the camera, so dropping it loses nothing visible.
    if (p0.w <= 0.0 || p1.w <= 0.0) {
        return;
    }
    // Direction in pixels (NDC scaled by the viewport keeps the aspect).
    vec2 d = (p1.xy / p1.w - p0.xy / p0.w) * uViewport;
    float len = length(d);
    vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    vec2 offset = vec2(-dir.y, dir.x) * uWidth / uViewport;

    gOut.colour = gIn[0].colour;
    gl_Position = p0 + vec4(offset * p0.w, 0.0, 0.0);
    EmitVertex();
    gl_Position = p0 - vec4(offset * p0.w, 0.0, 0.0);
    EmitVertex();
    gOut.colour = gIn[1].colour;
    gl_Position = p1 + vec4(offset * p1.w, 0.0, 0.0);
    EmitVertex();
    gl_Position = p1 - vec4(offset * p1.w, 0.0, 0.0);
    EmitVertex();
    EndPrimitive();
}
