"""Hidden checks for chapter 5, autograd.

Each test grades one exercise (its ``exercise`` mark); an exercise's score is
the fraction of its tests that pass. Docstrings are shown to students as
feedback. The comparisons live in ``grader.checks.autograd`` (shared with the
public ``check``); here we only choose the inputs.

Graphs, ``.grad`` after ``backward`` and callables cannot cross to the
judge, so most checks run a harness (``grader.checks.autograd._harnesses``)
beside the student's function: it builds the graph or the losses there from
plain data and reports facts, which the comparisons verify against torch.

In ``@given`` tests the ``student`` fixture is keyword-only: hypothesis takes a
test's first positional parameter for ``self`` and looks up attributes on it
(a mock marker, ``execute_example``...), which must never reach the student.

The truth of graph_summary, running_mean_losses and train_only is the exercise's
own algorithm, never shipped: here it comes from
``grader.hidden.autograd.oracles`` (``truth=``), on every input drawn.
"""

import pytest
from hypothesis import given, settings

from grader.checks import autograd as ch
from grader.checks._registry import registered
from grader.hidden._examples import exercises_checked_by_examples
from grader.hidden.autograd import oracles as oracle
from grader.hidden.autograd import strategies as cs
from grader.hidden.oracles import truth_for

# Each call of a student's function is a round trip to another process:
# examples per test keep the whole file near 800 calls for a right answer.
FEW, SOME = 25, 35

@pytest.mark.parametrize("name", exercises_checked_by_examples(__file__))
def test_examples_from_check(name, student):
    """agrees with torch on every example that check() tries"""
    entry = registered()[name]
    fn = getattr(student, name)
    for example in entry.examples():
        entry.compare(fn, *example, **truth_for(name, example))


# --- 1. graph_summary ---------------------------------------------------------------


@pytest.mark.exercise("graph_summary")
@settings(max_examples=SOME)
@given(recipe=cs.graph_recipes())
def test_graph_summary_trees(recipe, *, student):
    """lists the leaves and ops of expression trees in depth-first order"""
    ch.compare_graph_summary(student.graph_summary, recipe,
                             truth=oracle.torch_graph_summary(recipe))


@pytest.mark.exercise("graph_summary")
@settings(max_examples=SOME)
@given(recipe=cs.graph_recipes(shared=True))
def test_graph_summary_shared_nodes(recipe, *, student):
    """lists each node and each leaf once, even when several paths reach it"""
    ch.compare_graph_summary(student.graph_summary, recipe,
                             truth=oracle.torch_graph_summary(recipe))


@pytest.mark.exercise("graph_summary")
@settings(max_examples=SOME)
@given(recipe=cs.graph_recipes(shared=True, cutting=True))
def test_graph_summary_cut_graphs(recipe, *, student):
    """leaves out what is not in the graph: detached branches, tensors that need no grad"""
    ch.compare_graph_summary(student.graph_summary, recipe,
                             truth=oracle.torch_graph_summary(recipe))


@pytest.mark.exercise("graph_summary")
@settings(max_examples=FEW)
@given(recipe=cs.trivial_recipes())
def test_graph_summary_no_graph(recipe, *, student):
    """handles outputs without a grad_fn: a leaf itself, or a tensor that needs no grad"""
    ch.compare_graph_summary(student.graph_summary, recipe,
                             truth=oracle.torch_graph_summary(recipe))


# --- 2. logsumexp -------------------------------------------------------------------


@pytest.mark.exercise("logsumexp")
@settings(max_examples=FEW)
@given(case=cs.logsumexp_cases())
def test_logsumexp_values_and_gradient(case, *, student):
    """matches torch.logsumexp and its gradient, any dim, any upstream gradient"""
    ch.compare_logsumexp(student.logsumexp, *case)


@pytest.mark.exercise("logsumexp")
@settings(max_examples=FEW)
@given(case=cs.logsumexp_cases(any_layout=True))
def test_logsumexp_layouts(case, *, student):
    """works on transposed, stepped, offset, broadcast (stride 0) and empty inputs"""
    ch.compare_logsumexp(student.logsumexp, *case)


@pytest.mark.exercise("logsumexp")
@settings(max_examples=FEW)
@given(case=cs.logsumexp_cases(large=True))
def test_logsumexp_large_values(case, *, student):
    """stays finite and exact for values in the thousands, positive or negative"""
    ch.compare_logsumexp(student.logsumexp, *case)


@pytest.mark.exercise("logsumexp")
@settings(max_examples=FEW)
@given(case=cs.logsumexp_cases(masked=True))
def test_logsumexp_masked(case, *, student):
    """handles -inf entries (masked logits), in the output and in the gradient"""
    ch.compare_logsumexp(student.logsumexp, *case)


# --- 3. accumulated_grad ------------------------------------------------------------


@pytest.mark.exercise("accumulated_grad")
@settings(max_examples=FEW)
@given(case=cs.accumulation_cases(divides=True))
def test_accumulated_grad_equal_micro_batches(case, *, student):
    """equals the full-batch gradient when the micro-batches are all the same size"""
    ch.compare_accumulated_grad(student.accumulated_grad, *case)


@pytest.mark.exercise("accumulated_grad")
@settings(max_examples=FEW)
@given(case=cs.accumulation_cases(divides=False))
def test_accumulated_grad_smaller_last_batch(case, *, student):
    """equals the full-batch gradient when the last micro-batch is smaller"""
    ch.compare_accumulated_grad(student.accumulated_grad, *case)


@pytest.mark.exercise("accumulated_grad")
@settings(max_examples=FEW)
@given(case=cs.accumulation_cases(stale=True))
def test_accumulated_grad_stale_grad(case, *, student):
    """gives this batch's gradient only, whatever w.grad held before"""
    ch.compare_accumulated_grad(student.accumulated_grad, *case)


# --- 4. running_mean_losses ---------------------------------------------------------


@pytest.mark.exercise("running_mean_losses")
@settings(max_examples=FEW)
@given(case=cs.plain_losses())
def test_running_mean_losses_values(case, *, student):
    """gives the running means as plain numbers, holding no tensor that requires grad"""
    ch.compare_running_mean_losses_plain(student.running_mean_losses, *case,
                                         truth=oracle.torch_plain_running_means(*case))


@pytest.mark.exercise("running_mean_losses")
@settings(max_examples=FEW)
@given(recipe=cs.loss_recipes())
def test_running_mean_losses_real_graphs(recipe, *, student):
    """keeps no graph alive and leaves the losses ready for the caller's backward"""
    ch.compare_running_mean_losses(student.running_mean_losses, recipe,
                                   truth=oracle.torch_running_mean_truth(recipe))


@pytest.mark.exercise("running_mean_losses")
@settings(max_examples=10)
@given(recipe=cs.loss_recipes(min_steps=21, max_steps=60))
def test_running_mean_losses_long_runs(recipe, *, student):
    """stays right over long runs of steps"""
    ch.compare_running_mean_losses(student.running_mean_losses, recipe,
                                   truth=oracle.torch_running_mean_truth(recipe))


# --- 5. train_only ------------------------------------------------------------------


@pytest.mark.exercise("train_only")
@settings(max_examples=FEW)
@given(case=cs.train_only_cases())
def test_train_only_any_choice(case, *, student):
    """trains exactly the chosen parameters, like torch, and leaves the others as built"""
    ch.compare_train_only(student.train_only, *case, truth=oracle.torch_train_only(*case))


@pytest.mark.exercise("train_only")
@settings(max_examples=FEW)
@given(case=cs.train_only_cases("sandwich"))
def test_train_only_frozen_layer_in_between(case, *, student):
    """lets the gradient flow through a frozen layer to the trainable layers before it"""
    ch.compare_train_only(student.train_only, *case, truth=oracle.torch_train_only(*case))


@pytest.mark.exercise("train_only")
@settings(max_examples=FEW)
@given(case=cs.train_only_cases("partial"))
def test_train_only_part_of_a_layer(case, *, student):
    """trains one parameter of a layer while its other parameter stays frozen"""
    ch.compare_train_only(student.train_only, *case, truth=oracle.torch_train_only(*case))


@pytest.mark.exercise("train_only")
@settings(max_examples=10)
@given(case=cs.train_only_cases("all_or_none"))
def test_train_only_all_or_nothing(case, *, student):
    """handles every parameter trainable, and none"""
    ch.compare_train_only(student.train_only, *case, truth=oracle.torch_train_only(*case))


# --- 6. backprop --------------------------------------------------------------------


@pytest.mark.exercise("backprop")
@settings(max_examples=FEW)
@given(case=cs.backprop_graphs(tree=True))
def test_backprop_trees(case, *, student):
    """agrees with torch.autograd.grad on chains and trees (each node used once)"""
    ch.compare_backprop(student.backprop, *case)


@pytest.mark.exercise("backprop")
@settings(max_examples=FEW)
@given(case=cs.backprop_graphs().filter(cs.reuses))
def test_backprop_reused(case, *, student):
    """adds up the gradients of a node used twice (mul(x, x), or by two nodes)"""
    ch.compare_backprop(student.backprop, *case)


@pytest.mark.exercise("backprop")
@settings(max_examples=FEW)
@given(case=cs.backprop_graphs(max_ops=8).filter(cs.has_diamond))
def test_backprop_diamonds(case, *, student):
    """agrees with torch.autograd.grad on diamonds: a node's gradient is complete before
    it is passed on (reverse topological order)"""
    ch.compare_backprop(student.backprop, *case)


@pytest.mark.exercise("backprop")
@settings(max_examples=FEW)
@given(case=cs.backprop_graphs(any_output=True).filter(cs.has_unused_leaf))
def test_backprop_unused_leaves(case, *, student):
    """gives 0.0 to the leaves the output does not depend on, whichever node it is"""
    ch.compare_backprop(student.backprop, *case)
