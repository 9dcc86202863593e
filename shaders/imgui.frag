#version 410 core
// ImGui fragments: vertex colour modulated by the texture (the font atlas
// stores white glyphs with coverage in alpha).
in vec2 vUV;
in vec4 vColour;

uniform sampler2D uTexture;

out vec4 fragColour;

void main() {
    fragColour = vColour * texture(uTexture, vUV);
}
