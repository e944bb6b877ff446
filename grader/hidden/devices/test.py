"""Hidden checks for chapter 4, devices.

Each test grades one exercise (its ``exercise`` mark); an exercise's score is
the fraction of its tests that pass. Docstrings are shown to students as
feedback. The comparisons live in ``grader.checks.devices`` (shared with the
public ``check``); here we only choose the inputs.

Grading is the same with or without a GPU: structure is checked on the
``meta`` device, values on the CPU, and timing against a fake clock. The
``test_cuda_*`` checks need CUDA in the judge and in the student's process;
where either lacks it they are skipped, and a skipped check does not count.

In ``@given`` tests the ``student`` fixture is keyword-only: hypothesis takes a
test's first positional parameter for ``self`` and looks up attributes on it
(a mock marker, ``execute_example``...), which must never reach the student.

The truth of pack and unpack is the exercise's own algorithm, never shipped:
here it comes from ``grader.hidden.devices.oracles`` (``truth=``), on every
input drawn.
"""

import contextlib

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks import devices as ch
from grader.checks._registry import registered
from grader.checks.devices._examples import (
    causal_mask_examples,
    pack_examples,
    to_device_examples,
    unpack_examples,
)
from grader.hidden._examples import exercises_checked_by_examples
from grader.hidden.devices import oracles as oracle
from grader.hidden.devices import strategies as ds
from grader.hidden.oracles import truth_for

# Each call of a student's function may be a round trip to another process:
# examples per test keep the whole file near 800 calls for a right answer.
FEW, SOME = 25, 40
CPU, META = torch.device("cpu"), torch.device("meta")

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")


@contextlib.contextmanager
def _cuda_or_skip():
    """A GPU check whose student process cannot use CUDA is skipped, so it does not count."""
    try:
        yield
    except ch.CudaUnavailable as why:
        pytest.skip(str(why))



@pytest.mark.parametrize("name", exercises_checked_by_examples(__file__))
def test_examples_from_check(name, student):
    """agrees with torch on every example that check() tries"""
    entry = registered()[name]
    fn = getattr(student, name)
    for example in entry.examples():
        entry.compare(fn, *example, **truth_for(name, example))


def _on_cpu(value) -> bool:
    """No meta tensor inside ``value`` (those cannot be copied to another device)."""
    if isinstance(value, torch.Tensor):
        return value.device.type == "cpu"
    items = value.values() if isinstance(value, dict) else \
        value if isinstance(value, (list, tuple)) else []
    return all(_on_cpu(item) for item in items)


# --- 1. to_device ---------------------------------------------------------------------


@pytest.mark.exercise("to_device")
@settings(max_examples=SOME)
@given(batch=ds.flat_batches())
def test_to_device_flat_to_meta(batch, *, student):
    """moves every tensor of a dict, list, tuple or namedtuple to the meta device"""
    ch.compare_to_device(student.to_device, batch, META)


@pytest.mark.exercise("to_device")
@settings(max_examples=SOME)
@given(batch=ds.batches())
def test_to_device_nested_to_cpu(batch, *, student):
    """keeps nested containers and their values; tensors already there are not copied"""
    ch.compare_to_device(student.to_device, batch, CPU)


@pytest.mark.exercise("to_device")
@settings(max_examples=SOME)
@given(batch=ds.batches(devices=("cpu", "meta")))
def test_to_device_nested_to_meta(batch, *, student):
    """moves tensors at any depth to the meta device, keeping every container as it was"""
    ch.compare_to_device(student.to_device, batch, META)


@pytest.mark.exercise("to_device")
@settings(max_examples=FEW)
@given(value=ds.leaves(), device=st.sampled_from([CPU, META]))
def test_to_device_bare_values(value, device, *, student):
    """handles a batch that is a single tensor, string, number, bool or None"""
    ch.compare_to_device(student.to_device, value, device)


@needs_cuda
@pytest.mark.exercise("to_device")
def test_cuda_to_device(student):
    """moves nested batches to a real CUDA device"""
    with _cuda_or_skip():
        for batch, _ in to_device_examples():
            if _on_cpu(batch):
                ch.to_device_on_cuda(student.to_device, batch)


# --- 2. causal_mask -------------------------------------------------------------------


@pytest.mark.exercise("causal_mask")
@settings(max_examples=SOME)
@given(scores=ds.scores(dtypes=(torch.float32,)))
def test_causal_mask_cpu(scores, *, student):
    """gives 0 on and below the diagonal and -inf above it, for any numbers of queries and keys"""
    ch.compare_causal_mask(student.causal_mask, scores)


@pytest.mark.exercise("causal_mask")
@settings(max_examples=FEW)
@given(scores=ds.scores(dtypes=ds.FLOATS[:2] + ds.FLOATS[3:]))
def test_causal_mask_dtypes(scores, *, student):
    """makes the mask in the scores' dtype: float16, bfloat16 and float64 too"""
    ch.compare_causal_mask(student.causal_mask, scores)


@pytest.mark.exercise("causal_mask")
@settings(max_examples=SOME)
@given(scores=ds.scores(devices=("meta",), max_dims=5))
def test_causal_mask_meta(scores, *, student):
    """makes the mask on the scores' device (checked on the meta device), in their dtype"""
    ch.compare_causal_mask(student.causal_mask, scores)


@pytest.mark.exercise("causal_mask")
@settings(max_examples=FEW)
@given(scores=ds.scores(dtypes=(torch.float32, torch.float64)))
def test_causal_mask_constant(scores, *, student):
    """gives a constant that does not require grad, even when the scores do"""
    ch.compare_causal_mask(student.causal_mask, scores.detach().requires_grad_(True))


@needs_cuda
@pytest.mark.exercise("causal_mask")
def test_cuda_causal_mask(student):
    """makes the mask on a real CUDA device"""
    with _cuda_or_skip():
        for (scores,) in causal_mask_examples():
            if scores.device.type == "cpu":
                ch.causal_mask_on_cuda(student.causal_mask, scores.detach())


# --- 3. time_device_work --------------------------------------------------------------


@pytest.mark.exercise("time_device_work")
@settings(max_examples=FEW)
@given(case=ds.timings(["cpu"], st.sampled_from([[], ["cuda"], ["mps"]])))
def test_time_device_work_cpu(case, *, student):
    """times CPU work without synchronising, even on a machine that has a GPU"""
    ch.compare_time_device_work(student.time_device_work, *case)


@pytest.mark.exercise("time_device_work")
@settings(max_examples=FEW)
@given(case=ds.timings(["cuda", "cuda:0"]))
def test_time_device_work_cuda(case, *, student):
    """warms up, then synchronises before starting and before stopping the clock on CUDA"""
    ch.compare_time_device_work(student.time_device_work, *case)


@pytest.mark.exercise("time_device_work")
@settings(max_examples=FEW)
@given(case=ds.timings(["mps"], st.just(["mps"])))
def test_time_device_work_mps(case, *, student):
    """synchronises Apple's MPS device the way it needs"""
    ch.compare_time_device_work(student.time_device_work, *case)


@pytest.mark.exercise("time_device_work")
@settings(max_examples=FEW)
@given(case=ds.timings(["cuda:1", "cuda:2", "cuda:3"]))
def test_time_device_work_other_gpu(case, *, student):
    """waits for the GPU the work runs on, which need not be the current one"""
    ch.compare_time_device_work(student.time_device_work, *case)


@needs_cuda
@pytest.mark.exercise("time_device_work")
def test_cuda_time_device_work(student):
    """measures a real asynchronous CUDA kernel's full duration"""
    with _cuda_or_skip():
        ch.time_device_work_on_cuda(student.time_device_work, repeats=4, cycles=10_000_000)


# --- 4. pack --------------------------------------------------------------------------


@pytest.mark.exercise("pack")
@settings(max_examples=SOME)
@given(tensors=ds.tensor_lists(dtypes=(torch.float32,)))
def test_pack_one_dtype(tensors, *, student):
    """packs float32 tensors of any layout (transposed, stepped, broadcast) in row order"""
    ch.compare_pack(student.pack, tensors, truth=oracle.torch_pack(tensors))


@pytest.mark.exercise("pack")
@settings(max_examples=SOME)
@given(tensors=ds.tensor_lists())
def test_pack_mixed_dtypes(tensors, *, student):
    """packs tensors of mixed dtypes, each slot padded to a multiple of 16 bytes"""
    ch.compare_pack(student.pack, tensors, truth=oracle.torch_pack(tensors))


@pytest.mark.exercise("pack")
@settings(max_examples=FEW)
@given(tensors=ds.tensor_lists(devices=("meta",)))
def test_pack_meta(tensors, *, student):
    """makes the buffer on the tensors' device (checked on the meta device)"""
    ch.compare_pack(student.pack, tensors, truth=oracle.torch_pack(tensors))


@needs_cuda
@pytest.mark.exercise("pack")
def test_cuda_pack(student):
    """packs tensors that live on a real CUDA device"""
    with _cuda_or_skip():
        for (tensors,) in pack_examples():
            if _on_cpu(tensors):
                ch.pack_on_cuda(student.pack, tensors, truth=oracle.torch_pack(tensors))


# --- 5. unpack ------------------------------------------------------------------------


@pytest.mark.exercise("unpack")
@settings(max_examples=SOME)
@given(tensors=ds.tensor_lists())
def test_unpack_views(tensors, *, student):
    """gives every tensor back, with its dtype and shape, as a view of the buffer"""
    ch.compare_unpack(student.unpack, tensors, 0, truth=oracle.torch_pack(tensors))


@pytest.mark.exercise("unpack")
@settings(max_examples=FEW)
@given(tensors=ds.tensor_lists(), lead=ds.leads())
def test_unpack_offset_buffer(tensors, lead, *, student):
    """reads a buffer that starts partway into its storage (a slice of a larger one)"""
    ch.compare_unpack(student.unpack, tensors, lead,
                      truth=oracle.torch_pack(tensors))


@pytest.mark.exercise("unpack")
@settings(max_examples=FEW)
@given(tensors=ds.tensor_lists(devices=("meta",)), lead=ds.leads())
def test_unpack_meta(tensors, lead, *, student):
    """gives tensors on the buffer's device (checked on the meta device)"""
    ch.compare_unpack(student.unpack, tensors, lead,
                      truth=oracle.torch_pack(tensors))


@needs_cuda
@pytest.mark.exercise("unpack")
def test_cuda_unpack(student):
    """gives views of a buffer that lives on a real CUDA device"""
    with _cuda_or_skip():
        for tensors, _ in unpack_examples():
            if _on_cpu(tensors):
                ch.unpack_on_cuda(student.unpack, tensors, truth=oracle.torch_pack(tensors))
