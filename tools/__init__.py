"""Development tools of this repository (never shipped in the layer)."""
