"""No function in the sources is over 80 lines (the style rule), measured by parsers, not by counting braces.

Python (build.py, py/, every lesson's package and exercise files) is measured with `ast`. The front end's
scripts (site/**/*.js, *.mjs) are measured with acorn, a real JavaScript parser, which package.json installs
with the other development tools (acorn and acorn-walk in node_modules). A function's length runs from its first line
(`def`, `function`, a method's name or an arrow's parameters) to its last, both included; decorators do not count.
"""

import ast
import json
import shutil
import subprocess

import pytest

from support import ROOT

LIMIT = 80

# Reads {"files": [...], "root": ...} on stdin and prints one JSON list of every function: file, line, name, lines.
# A file is parsed as a module first (site/page/*.js are ES modules), then as a classic script (the workers' shared
# handler, the service worker); a file neither parse accepts is reported with the parser's line.
MEASURE_JS = r"""
const fs = require("fs");
const path = require("path");
function parser(root) {
  const parse = path.join(root, "node_modules", "acorn");
  try {
    return { acorn: require(parse), walk: require(path.join(root, "node_modules", "acorn-walk")), from: parse };
  } catch (error) {
    throw new Error("no acorn in node_modules: run `make setup` (npm ci installs it from package-lock.json)");
  }
}
function parse(acorn, source) {
  const options = { ecmaVersion: "latest", locations: true, allowAwaitOutsideFunction: true };
  try {
    return acorn.parse(source, { ...options, sourceType: "module" });
  } catch (error) {
    return acorn.parse(source, { ...options, sourceType: "script" });
  }
}
function nameOf(node, parent) {
  if (node.id) return node.id.name;
  if (parent && parent.key) return parent.key.name || parent.key.value || "(computed)";
  if (parent && parent.type === "VariableDeclarator") return parent.id.name;
  if (parent && parent.type === "AssignmentExpression") return source(parent.left);
  return "(anonymous)";
}
function source(node) {
  if (node.type === "Identifier") return node.name;
  if (node.type === "MemberExpression") return source(node.object) + "." + (node.property.name || "[]");
  return "(expression)";
}
const { files, root } = JSON.parse(fs.readFileSync(0, "utf8"));
const { acorn, walk, from } = parser(root);
const found = [];
const errors = [];
for (const file of files) {
  let tree;
  try {
    tree = parse(acorn, fs.readFileSync(path.resolve(root, file), "utf8"));
  } catch (error) {
    errors.push(file + (error.loc ? ":" + error.loc.line : "") + ": " + error.message);
    continue;
  }
  walk.fullAncestor(tree, (node, state, ancestors) => {
    if (!/Function/.test(node.type)) return;
    const parent = ancestors[ancestors.length - 2];
    const start = parent && parent.type === "MethodDefinition" || parent && parent.type === "Property" ? parent : node;
    found.push({ file, line: start.loc.start.line, name: nameOf(node, parent),
                 lines: node.loc.end.line - start.loc.start.line + 1 });
  });
}
process.stdout.write(JSON.stringify({ parser: from, functions: found, errors }));
"""


def python_sources():
    """build.py, the library and build code (py/), and each lesson's own Python (its package, its exercises), not
    the lessons' tests."""
    files = [ROOT / "build.py", *sorted((ROOT / "py").rglob("*.py"))]
    for path in sorted((ROOT / "lessons").rglob("*.py")):
        if "tests" not in path.relative_to(ROOT / "lessons").parts[1:]:
            files.append(path)
    return files


def js_sources():
    return sorted(path for path in (ROOT / "site").rglob("*") if path.suffix in (".js", ".mjs"))


def python_functions(source, name):
    """Every function and method in a Python source: (line, qualified name, lines)."""
    found = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((child.lineno, prefix + child.name, child.end_lineno - child.lineno + 1))
                visit(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source, filename=name), "")
    return found


def js_functions(files):
    """Every function in these files (paths relative to ROOT), measured by acorn: ({file, line, name, lines}, ...)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to parse the front end's scripts (as for tests/js/); install Node >= 20")
    request = json.dumps({"files": [str(path) for path in files], "root": str(ROOT)})
    done = subprocess.run([node, "-e", MEASURE_JS], input=request, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout)
    assert not answer["errors"], "acorn could not parse:\n" + "\n".join(answer["errors"])
    return answer["functions"]


def over_limit(functions):
    return ["{}:{} {} is {} lines".format(*entry) for entry in functions if entry[3] > LIMIT]


def test_no_python_function_is_over_80_lines():
    functions = []
    for path in python_sources():
        name = str(path.relative_to(ROOT))
        functions += [(name, *found) for found in python_functions(path.read_text(encoding="utf-8"), name)]
    assert len(functions) > 500, "too few functions found: the file list is wrong"
    assert any(entry[0] == "py/course/worker.py" for entry in functions)
    assert any(entry[0].startswith("lessons/") for entry in functions)
    assert not over_limit(functions), "over {} lines:\n".format(LIMIT) + "\n".join(over_limit(functions))


def test_no_js_function_is_over_80_lines():
    files = [path.relative_to(ROOT) for path in js_sources()]
    functions = js_functions(files)
    names = {(entry["file"], entry["name"]) for entry in functions}
    # The worker's parts and the client's Stop methods are among what was measured (the walk reached them).
    for expected in [("site/worker/worker-handler.js", "startCourseWorker"), ("site/worker/worker-handler.js", "handleRequest"),
                     ("site/worker/worker-handler.js", "handleStop"), ("site/page/runtime-client.js", "requestStop"),
                     ("site/page/runtime-client.js", "terminate")]:
        assert expected in names, expected
    long = over_limit([(entry["file"], entry["line"], entry["name"], entry["lines"]) for entry in functions])
    assert not long, "over {} lines:\n".format(LIMIT) + "\n".join(long)


def body(lines):
    return "".join("    x = {}\n".format(index) for index in range(lines - 2)) + "    return x\n"


def test_the_python_measure_counts_a_function_from_def_to_its_last_line():
    source = "class C:\n    @staticmethod\n    def long():\n" + "".join("        x = 1\n" for _ in range(80))
    source += "def short():\n" + body(LIMIT)
    assert python_functions(source, "example.py") == [(3, "C.long", 81), (84, "short", 80)]
    assert over_limit([("example.py", *found) for found in python_functions(source, "example.py")]) == [
        "example.py:3 C.long is 81 lines"]


def test_the_js_measure_counts_functions_methods_and_arrows(tmp_path):
    statements = "".join("  x += {};\n".format(index) for index in range(LIMIT - 2))  # 78 lines inside braces: 80 in all
    source = ("function fits() {\n" + statements + "}\n"
              + "class Long {\n  method() {\n" + statements + "  x += 1;\n  }\n}\n"
              + "const arrow = () => {\n" + statements + "  x += 1;\n};\n"
              + "self.assigned = function () {\n" + statements + "};\n")
    example = tmp_path / "example.js"
    example.write_text(source, encoding="utf-8")
    measured = {entry["name"]: entry["lines"] for entry in js_functions([example])}
    assert measured == {"fits": 80, "method": 81, "arrow": 81, "self.assigned": 80}
