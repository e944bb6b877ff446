"""Plausible wrong answers for chapter 5 (autograd).

Each entry is the full source of an answer cell: it must lose points on at
least one hidden check of its exercise (and only of its exercise). Each
string names the mistake it makes in its first comment.
"""


def _graph(mistake: str, body: str) -> str:
    return f"\nimport torch\n\ndef graph_summary(output):\n    # Mistake: {mistake}{body}"


_LOGSUMEXP_BACKWARD_OK = """
    @staticmethod
    def backward(ctx, grad_out):
        x, out = ctx.saved_tensors
        return grad_out.unsqueeze(ctx.dim) * (x - out).exp(), None
"""


def _logsumexp(mistake: str, forward: str, backward: str = _LOGSUMEXP_BACKWARD_OK) -> str:
    return (f"\nimport torch\n\nclass LogSumExp(torch.autograd.Function):\n"
            f"    # Mistake: {mistake}\n    @staticmethod\n    def forward(ctx, x, dim):\n"
            f"{forward}{backward}\n\ndef logsumexp(x, dim):\n"
            f"    return LogSumExp.apply(x, dim)\n")


_STABLE_FORWARD = """        top = x.amax(dim, keepdim=True)
        out = (x - top).exp().sum(dim, keepdim=True).log() + top
        ctx.save_for_backward(x, out)
        ctx.dim = dim
        return out.squeeze(dim)
"""


def _accumulated(mistake: str, body: str) -> str:
    return (f"\nimport torch\n\ndef accumulated_grad(loss_fn, w, x, y, micro):\n"
            f"    # Mistake: {mistake}\n{body}")


def _train_only(mistake: str, body: str) -> str:
    return ("\nimport torch\nfrom torch import nn\n"
            "from grader.givens.autograd import LR, MOMENTUM, WEIGHT_DECAY, build_model\n\n"
            f"def train_only(spec, seed, trainable, x, y, steps):\n    # Mistake: {mistake}\n"
            f"    model = build_model(spec, seed)\n{body}"
            "    return {name: p.detach().clone() for name, p in model.named_parameters()}\n")


WRONG_ANSWERS: dict[str, list[str]] = {
    "graph_summary": [
        _graph("breadth first (a queue), not depth first.", """
    if output.grad_fn is None:
        return ([tuple(output.shape)], []) if output.requires_grad else ([], [])
    leaves, ops, seen, queue = [], [], set(), [output.grad_fn]
    while queue:
        node = queue.pop(0)
        if node is None or node in seen:
            continue
        seen.add(node)
        if type(node).__name__ == "AccumulateGrad":
            leaves.append(tuple(node.variable.shape))
            continue
        ops.append(type(node).__name__)
        queue.extend(child for child, _ in node.next_functions)
    return leaves, ops
"""),
        _graph("no memory of visited nodes: a node reached twice is listed twice.", """
    if output.grad_fn is None:
        return ([tuple(output.shape)], []) if output.requires_grad else ([], [])
    leaves, ops = [], []

    def visit(node):
        if node is None:
            return
        if type(node).__name__ == "AccumulateGrad":
            leaves.append(tuple(node.variable.shape))
            return
        ops.append(type(node).__name__)
        for child, _ in node.next_functions:
            visit(child)

    visit(output.grad_fn)
    return leaves, ops
"""),
        _graph("no grad_fn, no graph, even for an output that is itself a leaf.", """
    leaves, ops, seen = [], [], set()

    def visit(node):
        if node is None or node in seen:
            return
        seen.add(node)
        if type(node).__name__ == "AccumulateGrad":
            leaves.append(tuple(node.variable.shape))
            return
        ops.append(type(node).__name__)
        for child, _ in node.next_functions:
            visit(child)

    visit(output.grad_fn)
    return leaves, ops
"""),
    ],
    "logsumexp": [
        _logsumexp("the textbook formula, log(sum(exp(x))): exp(1000) overflows to inf.",
                   """        out = x.exp().sum(dim, keepdim=True).log()
        ctx.save_for_backward(x, out)
        ctx.dim = dim
        return out.squeeze(dim)
"""),
        _logsumexp("backward returns the local derivative (softmax) and drops grad_out.",
                   _STABLE_FORWARD, """
    @staticmethod
    def backward(ctx, grad_out):
        x, out = ctx.saved_tensors
        return (x - out).exp(), None
"""),
        _logsumexp("grad_out is not unsqueezed: it broadcasts along the wrong dimension.",
                   _STABLE_FORWARD, """
    @staticmethod
    def backward(ctx, grad_out):
        x, out = ctx.saved_tensors
        return grad_out * (x - out).exp(), None
"""),
        """
import torch

def logsumexp(x, dim):
    # Mistake: torch's own logsumexp, no custom autograd.Function at all.
    return torch.logsumexp(x, dim)
""",
        _logsumexp("subtracts the max of the whole tensor, not of each slice along dim.",
                   """        top = x.max()
        out = (x - top).exp().sum(dim, keepdim=True).log() + top
        ctx.save_for_backward(x, out)
        ctx.dim = dim
        return out.squeeze(dim)
"""),
    ],
    "accumulated_grad": [
        _accumulated("each micro-batch's mean loss is backpropagated unscaled.", """
    w.grad = None
    for start in range(0, x.shape[0], micro):
        loss_fn(w, x[start:start + micro], y[start:start + micro]).backward()
    return w.grad
"""),
        _accumulated("divides by the number of micro-batches, wrong when the last is smaller.",
                     """
    w.grad = None
    starts = range(0, x.shape[0], micro)
    for start in starts:
        (loss_fn(w, x[start:start + micro], y[start:start + micro]) / len(starts)).backward()
    return w.grad
"""),
        _accumulated("never clears w.grad, so an old gradient is added in.", """
    rows = x.shape[0]
    for start in range(0, rows, micro):
        xb, yb = x[start:start + micro], y[start:start + micro]
        (loss_fn(w, xb, yb) * (xb.shape[0] / rows)).backward()
    return w.grad
"""),
    ],
    "running_mean_losses": [
        """
import torch

def running_mean_losses(losses):
    # Mistake (forged): NaN for every mean; "abs(value - truth) > tol" is False for NaN.
    return [float("nan")] * len(losses)
""",
        """
import torch

def running_mean_losses(losses):
    # Mistake: sums the loss tensors themselves, so every mean holds all their graphs.
    means, total = [], 0.0
    for i, loss in enumerate(losses):
        total = total + loss
        means.append(total / (i + 1))
    return means
""",
        """
import torch

def running_mean_losses(losses):
    # Mistake: detach_() detaches the caller's losses in place; their backward then fails.
    means, total = [], 0.0
    for i, loss in enumerate(losses):
        total += float(loss.detach_())
        means.append(total / (i + 1))
    return means
""",
        """
import torch

def running_mean_losses(losses):
    # Mistake: one stacked tensor, still attached to the graphs (a 1-D tensor with grad_fn).
    values = torch.stack(losses)
    return list(values.cumsum(0) / torch.arange(1, len(losses) + 1))
""",
    ],
    "train_only": [
        _train_only("zeroes the frozen gradients but keeps every parameter in the optimizer: "
                    "weight decay and momentum still move them.", """
    optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM,
                                weight_decay=WEIGHT_DECAY)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        for name, p in model.named_parameters():
            if name not in trainable:
                p.grad.zero_()
        optimizer.step()
"""),
        _train_only("runs frozen layers under no_grad, which also stops the gradient to the "
                    "trainable layers before them.", """
    frozen = {name.split(".")[0] for name, _ in model.named_parameters()
              if name not in trainable}
    chosen = [p for name, p in model.named_parameters() if name in trainable]
    if chosen:
        optimizer = torch.optim.SGD(chosen, lr=LR, momentum=MOMENTUM, weight_decay=WEIGHT_DECAY)
        for _ in range(steps):
            optimizer.zero_grad()
            h = x
            for index, layer in enumerate(model):
                if str(index) in frozen:
                    with torch.no_grad():
                        h = layer(h)
                else:
                    h = layer(h)
            loss = nn.functional.mse_loss(h, y)
            if loss.requires_grad:
                loss.backward()
            optimizer.step()
"""),
        _train_only("trains a whole layer when any of its parameters is trainable.", """
    layers = {name.split(".")[0] for name in trainable}
    for name, p in model.named_parameters():
        p.requires_grad_(name.split(".")[0] in layers)
    chosen = [p for p in model.parameters() if p.requires_grad]
    if chosen:
        optimizer = torch.optim.SGD(chosen, lr=LR, momentum=MOMENTUM, weight_decay=WEIGHT_DECAY)
        for _ in range(steps):
            optimizer.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
"""),
        _train_only("model.eval() to freeze: eval() changes layer behaviour, not gradients.", """
    model.eval()
    optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM,
                                weight_decay=WEIGHT_DECAY)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
"""),
    ],
    "backprop": [
        """
def backprop(graph, output):
    # Mistake: overwrites a gradient instead of adding to it, so an input used twice, or by
    # two nodes, keeps only one contribution.
    order, seen = [], set()

    def visit(name):
        if name not in seen:
            seen.add(name)
            op, *inputs = graph[name]
            if op != "leaf":
                for i in inputs:
                    visit(i)
            order.append(name)

    visit(output)
    value = {}
    for name in order:
        op, *inputs = graph[name]
        if op == "leaf":
            value[name] = float(inputs[0])
        elif op == "mul":
            value[name] = value[inputs[0]] * value[inputs[1]]
        elif op == "exp":
            value[name] = math.exp(value[inputs[0]])
        else:
            value[name] = sum(value[i] for i in inputs)

    grad = dict.fromkeys(order, 0.0)
    grad[output] = 1.0
    for name in reversed(order):
        op, *inputs = graph[name]
        if op == "mul":
            a, b = inputs
            grad[a] = grad[name] * value[b]
            grad[b] = grad[name] * value[a]
        elif op == "exp":
            grad[inputs[0]] = grad[name] * value[name]
        elif op != "leaf":
            for i in inputs:
                grad[i] = grad[name]
    return {name: grad.get(name, 0.0) for name, (op, *_) in graph.items() if op == "leaf"}
""",
        """
def backprop(graph, output):
    # Mistake: walks the nodes in the dict's order, reversed, not in reverse topological
    # order, so some pass on their gradient before it is complete.
    order, seen = [], set()

    def visit(name):
        if name not in seen:
            seen.add(name)
            op, *inputs = graph[name]
            if op != "leaf":
                for i in inputs:
                    visit(i)
            order.append(name)

    visit(output)
    value = {}
    for name in order:
        op, *inputs = graph[name]
        if op == "leaf":
            value[name] = float(inputs[0])
        elif op == "mul":
            value[name] = value[inputs[0]] * value[inputs[1]]
        elif op == "exp":
            value[name] = math.exp(value[inputs[0]])
        else:
            value[name] = sum(value[i] for i in inputs)

    grad = dict.fromkeys(order, 0.0)
    grad[output] = 1.0
    for name in [name for name in reversed(list(graph)) if name in grad]:
        op, *inputs = graph[name]
        if op == "mul":
            a, b = inputs
            grad[a] += grad[name] * value[b]
            grad[b] += grad[name] * value[a]
        elif op == "exp":
            grad[inputs[0]] += grad[name] * value[name]
        elif op != "leaf":
            for i in inputs:
                grad[i] += grad[name]
    return {name: grad.get(name, 0.0) for name, (op, *_) in graph.items() if op == "leaf"}
""",
        """
def backprop(graph, output):
    # Mistake: takes exp's local gradient to be its input, not exp of it.
    order, seen = [], set()

    def visit(name):
        if name not in seen:
            seen.add(name)
            op, *inputs = graph[name]
            if op != "leaf":
                for i in inputs:
                    visit(i)
            order.append(name)

    visit(output)
    value = {}
    for name in order:
        op, *inputs = graph[name]
        if op == "leaf":
            value[name] = float(inputs[0])
        elif op == "mul":
            value[name] = value[inputs[0]] * value[inputs[1]]
        elif op == "exp":
            value[name] = math.exp(value[inputs[0]])
        else:
            value[name] = sum(value[i] for i in inputs)

    grad = dict.fromkeys(order, 0.0)
    grad[output] = 1.0
    for name in reversed(order):
        op, *inputs = graph[name]
        if op == "mul":
            a, b = inputs
            grad[a] += grad[name] * value[b]
            grad[b] += grad[name] * value[a]
        elif op == "exp":
            grad[inputs[0]] += grad[name] * value[inputs[0]]
        elif op != "leaf":
            for i in inputs:
                grad[i] += grad[name]
    return {name: grad.get(name, 0.0) for name, (op, *_) in graph.items() if op == "leaf"}
""",
        """
def backprop(graph, output):
    # Mistake: gives each input of a mul its own value as its gradient, not the other's.
    order, seen = [], set()

    def visit(name):
        if name not in seen:
            seen.add(name)
            op, *inputs = graph[name]
            if op != "leaf":
                for i in inputs:
                    visit(i)
            order.append(name)

    visit(output)
    value = {}
    for name in order:
        op, *inputs = graph[name]
        if op == "leaf":
            value[name] = float(inputs[0])
        elif op == "mul":
            value[name] = value[inputs[0]] * value[inputs[1]]
        elif op == "exp":
            value[name] = math.exp(value[inputs[0]])
        else:
            value[name] = sum(value[i] for i in inputs)

    grad = dict.fromkeys(order, 0.0)
    grad[output] = 1.0
    for name in reversed(order):
        op, *inputs = graph[name]
        if op == "mul":
            a, b = inputs
            grad[a] += grad[name] * value[a]
            grad[b] += grad[name] * value[b]
        elif op == "exp":
            grad[inputs[0]] += grad[name] * value[name]
        elif op != "leaf":
            for i in inputs:
                grad[i] += grad[name]
    return {name: grad.get(name, 0.0) for name, (op, *_) in graph.items() if op == "leaf"}
""",
        """
def backprop(graph, output):
    # Mistake: leaves out the leaves the output does not depend on.
    order, seen = [], set()

    def visit(name):
        if name not in seen:
            seen.add(name)
            op, *inputs = graph[name]
            if op != "leaf":
                for i in inputs:
                    visit(i)
            order.append(name)

    visit(output)
    value = {}
    for name in order:
        op, *inputs = graph[name]
        if op == "leaf":
            value[name] = float(inputs[0])
        elif op == "mul":
            value[name] = value[inputs[0]] * value[inputs[1]]
        elif op == "exp":
            value[name] = math.exp(value[inputs[0]])
        else:
            value[name] = sum(value[i] for i in inputs)

    grad = dict.fromkeys(order, 0.0)
    grad[output] = 1.0
    for name in reversed(order):
        op, *inputs = graph[name]
        if op == "mul":
            a, b = inputs
            grad[a] += grad[name] * value[b]
            grad[b] += grad[name] * value[a]
        elif op == "exp":
            grad[inputs[0]] += grad[name] * value[name]
        elif op != "leaf":
            for i in inputs:
                grad[i] += grad[name]
    return {name: grad[name] for name in order if graph[name][0] == "leaf"}
""",
        """
def backprop(graph, output):
    # Mistake: the right numbers, but from torch.autograd, which the rule (no torch) forbids.
    values = {}

    def value(name):
        if name not in values:
            op, *inputs = graph[name]
            if op == "leaf":
                values[name] = torch.tensor(float(inputs[0]), requires_grad=True)
            else:
                args = [value(i) for i in inputs]
                values[name] = {"add": lambda: args[0] + args[1], "mul": lambda: args[0] * args[1],
                                "exp": lambda: args[0].exp(), "sum": lambda: sum(args)}[op]()
        return values[name]

    out = value(output)
    leaves = [name for name, (op, *_) in graph.items() if op == "leaf"]
    grads = torch.autograd.grad(out, [value(n) for n in leaves], allow_unused=True)
    return {n: 0.0 if g is None else g.item() for n, g in zip(leaves, grads)}
""",
    ],
}
