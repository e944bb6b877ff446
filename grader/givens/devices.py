"""Chapter 4, devices: what its exercises hand the student."""

__all__ = ["ALIGN"]

ALIGN = 16  # bytes: every slot of a packed buffer starts at a multiple of this
