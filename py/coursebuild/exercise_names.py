"""What cells may do with the names of a page's exercises.

An exercise asks the learner for a function (its checker's FUNCTION, in the page's language); a Check defines the
learner's function under that name in the page's Python, where every cell runs. So:

- a hidden cell (`remove-cell`, `remove-input`: the learner can neither see nor fix it) never reads that name: it
  would read the learner's function, or whatever it replaced, and fail where nobody can act (issue 53);
- no visible cell before the exercise defines that function, or holds its reference solution's body: the learner
  would transcribe what the exercise asks them to write (issue 54).

Both are read from the cells' code with `ast`, without running anything.
"""

import ast
import copy
import difflib

from .errors import LessonError

# A visible cell "holds the body" of the reference solution when, with every variable renamed alike, runs of at
# least MIN_RUN tokens of the cell cover COVERED of the body's tokens; only bodies of MIN_BODY tokens or more are
# compared so (a short body, such as one 'Wq = np.array(...)', matches a cell's data by chance; it is still caught
# when the cell writes its statements out exactly).
COVERED = 0.6
MIN_RUN = 4
MIN_BODY = 60


def hidden_cell_errors(lesson):
    """Errors for each hidden cell of the page that reads the name of a function one of its exercises asks for."""
    functions = {exercise.function: exercise for exercise in lesson.exercises if exercise.function}
    errors = []
    for cell in lesson.cells:
        if cell.shows_input():
            continue
        tree = _parse(cell.code)
        if tree is None:
            continue
        bound = _bound_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in functions \
                    and node.id not in bound:
                exercise = functions.pop(node.id)  # once per name and page: the first read says it
                errors.append(LessonError(lesson.path, cell.code_line + node.lineno - 1, (
                    "hidden cell {cell} reads '{name}', the function that exercise '{id}' (line {line}) asks the "
                    "learner to write: a Check defines the learner's '{name}' in the page's Python, so this cell "
                    "would read it and fail where the learner cannot see it; read the value under another name a "
                    "visible cell binds, or compute it here from names no exercise defines").format(
                        cell=cell.name, name=node.id, id=exercise.id, line=exercise.line)))
    return errors


def visible_solution_warnings(lesson):
    """(line, message) for each visible cell before an exercise that defines the exercise's function, or whose code
    holds the reference solution's body: the learner would copy it instead of writing it."""
    found = []
    for exercise in lesson.exercises:
        if not exercise.function:
            continue
        body = _solution_body(exercise.solution, exercise.function)
        # What the starter already hands the learner (a find-the-bug exercise starts from most of the solution):
        # a cell that shows no more of the solution than that gives nothing away.
        given = _starter_share(exercise.starter, body)
        for cell in lesson.cells:
            if cell.line > exercise.line or not cell.shows_input():
                continue
            tree = _parse(cell.code)
            if tree is None:
                continue
            line, how = _gives_away(tree, exercise.function, body, given)
            if line is not None:
                found.append((cell.code_line + line - 1, "visible cell {} {}, which exercise '{}' (line {}) asks the "
                              "learner to write; move it into the lesson's package and import it, fold it after the "
                              "exercise, or ask for what this cell does not do".format(
                                  cell.name, how.format(name=exercise.function), exercise.id, exercise.line)))
    return found


def _starter_share(starter, body):
    """The share of the reference solution's body that the starter's code already holds (see _covered), 0 to 1."""
    solution = _tokens(body) if body else []
    tree = _parse(starter or "")
    if len(solution) < MIN_BODY or tree is None:
        return 0.0
    return _covered(solution, _tokens(tree.body))


def _gives_away(tree, function, body, given=0.0):
    """(line in the cell, what it does) when the cell defines `function` or writes out `body`, or holds more of the
    body than the starter's share `given`; (None, None) if not."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function:
            return node.lineno, "defines '{name}'"
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) and any(
                isinstance(target, ast.Name) and target.id == function for target in node.targets):
            return node.lineno, "defines '{name}'"
    if not body:
        return None, None
    wanted = [ast.dump(statement) for statement in body]
    for node in ast.walk(tree):
        statements = getattr(node, "body", None)
        if not isinstance(statements, list) or not statements or not isinstance(statements[0], ast.stmt):
            continue
        dumped = [ast.dump(statement) for statement in statements]
        for start in range(len(dumped) - len(wanted) + 1):
            if dumped[start:start + len(wanted)] == wanted:
                return statements[start].lineno, "writes out the body of the reference solution's '{name}'"
    solution = _tokens(body)
    if len(solution) < MIN_BODY:
        return None, None
    # a function of the cell first, so the message points at its 'def'; then the cell's code as a whole
    units = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))] + [tree]
    for unit in units:
        share = _covered(solution, _tokens(_body(unit) if unit is not tree else unit.body))
        if share >= COVERED and share > given:
            return (unit.lineno if unit is not tree else 1), (
                "holds most of the reference solution's '{{name}}' ({:.0%} of its code, names aside)".format(
                    _covered(solution, _tokens(_body(unit) if unit is not tree else unit.body))))
    return None, None


def _covered(solution, tokens):
    """The share of the solution's tokens that runs of MIN_RUN or more tokens of `tokens` repeat, in order."""
    matcher = difflib.SequenceMatcher(None, solution, tokens, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks() if block.size >= MIN_RUN) / len(solution)


class _Anonymous(ast.NodeTransformer):
    """Every variable and parameter named 'v': a solution renamed is the same solution."""

    def visit_Name(self, node):
        return ast.copy_location(ast.Name(id="v", ctx=node.ctx), node)

    def visit_arg(self, node):
        node.arg = "v"
        return node


def _tokens(statements):
    """The statements' code as tokens (words and single characters), with every variable named alike."""
    text = "\n".join(ast.unparse(_Anonymous().visit(copy.deepcopy(statement))) for statement in statements)
    word, parts = "", []
    for char in text:
        if char.isalnum() or char == "_":
            word += char
            continue
        parts += [word] if word else []
        parts += [char] if not char.isspace() else []
        word = ""
    return parts + ([word] if word else [])


def _solution_body(code, function):
    """The statements of the reference solution's `function`, without its docstring; [] when it has none."""
    tree = _parse(code)
    for node in tree.body if tree is not None else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function:
            return _body(node)
    return []


def _body(node):
    body = list(node.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return body


def _bound_names(tree):
    """Every name the cell itself binds (assigned, defined, imported, a parameter): reading those is its business."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return bound


def _parse(code):
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):  # a cell that does not parse fails the build on its own
        return None
