"""Opening a notebook does not mark it modified.

When a kernel starts, JupyterLab writes the kernel's name and ``language_info``
(with the exact Python version) into the notebook's metadata, and any
difference from the file marks the notebook unsaved. A released exercise was
made on another machine, so it always differed. This contents manager serves
every notebook of the ``python3`` kernel with the metadata that kernel will
report; the file on disk is unchanged until the student saves.
"""

import functools

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

__all__ = ["KernelMetadataContents", "python3_metadata"]

KERNEL = "python3"


@functools.cache
def python3_metadata() -> dict:
    """``kernelspec`` and ``language_info`` as the ``python3`` kernel reports them."""
    from ipykernel.ipkernel import IPythonKernel  # the kernel's own class attribute
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(KERNEL)
    return {"kernelspec": {"display_name": spec.display_name, "language": spec.language,
                           "name": KERNEL},
            "language_info": dict(IPythonKernel.language_info)}


def with_kernel_metadata(notebook) -> None:
    """Fill in ``notebook``'s kernel metadata, if it is a notebook of the python3 kernel."""
    metadata = notebook.get("metadata", {})
    if metadata.get("kernelspec", {}).get("name", KERNEL) == KERNEL:
        metadata.update(python3_metadata())


class KernelMetadataContents(AsyncLargeFileManager):
    """jupyter_server's default contents manager, notebooks served as their kernel sees them."""

    async def get(self, path, content=True, type=None, format=None, **kwargs):
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if content and model.get("type") == "notebook" and model.get("content"):
            with_kernel_metadata(model["content"])
        return model
