"""What runs in the student's Jupyter server (``make lab``, the hub's single-user server).

``KernelMetadataContents`` serves a notebook with the kernel metadata its kernel
will report, so that opening a notebook does not mark it modified.
"""

from ._kernel_metadata import KernelMetadataContents

__all__ = ["KernelMetadataContents"]
