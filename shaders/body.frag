#version 410 core
// Rigid bodies: the same view-space key and fill lights as the soft
// surface, with a sharper, brighter highlight so that the jaws read as
// metal.
in vec3 vPositionView;
in vec3 vNormalView;

uniform vec3 uColour;

out vec4 fragColour;

void main() {
    const vec3 keyDir = normalize(vec3(-0.35, 0.55, 1.0));
    const vec3 fillDir = normalize(vec3(0.9, 0.1, 0.4));
    vec3 n = normalize(vNormalView);
    if (!gl_FrontFacing) {
        n = -n;
    }
    vec3 v = normalize(-vPositionView);
    vec3 h = normalize(keyDir + v);
    float diffuse = max(dot(n, keyDir), 0.0);
    float fill = 0.35 * max(dot(n, fillDir), 0.0);
    float specular = pow(max(dot(n, h), 0.0), 96.0) * 0.45;
    fragColour = vec4(uColour * (0.2 + 0.7 * diffuse + fill) + vec3(specular), 1.0);
}
