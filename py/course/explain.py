"""One or two sentences under a traceback that say, in the page's language and with the learner's own values,
what a beginner's usual error means: a matrix product or a broadcast whose shapes disagree, an axis or an index
out of range, a name not defined, a None where a value was expected, a line Python cannot read.

explain(error) returns the sentences, or None for an error it has nothing to add to. It reads only the error,
its message and, for a matrix product, the arrays named on the failing line of the learner's innermost frame
(names, attributes and plain subscripts are looked up; nothing on the line is called). course.runner imports
this module only when a cell raises, so a page whose cells run cleanly never loads it.

Runs on Python 3.8 and later.
"""

import ast
import difflib
import linecache
import re

from course.numbers import current_language

SENTENCES = {
    "en": {
        "matmul": "In `{left} @ {right}`, `{left}` has shape {a} and `{right}` has shape {b}: a matrix product needs "
                  "the left one's last axis ({n0}) to equal the right one's {axis} ({n1}).",
        "matmul_bare": "A matrix product needs the left array's last axis to equal the right one's first (for 2-D "
                       "arrays): here they are {n0} and {n1}. Print each operand's .shape to see which one to "
                       "transpose.",
        "transpose": "`{name}.T`, of shape {shape}, would fit.",
        "broadcast": "Shapes {shapes} are lined up from the right, and {axis} disagrees: {sizes}; two sizes broadcast "
                     "only when they are equal or one of them is 1.",
        "keepdims": "A mean or sum over the last axis taken with keepdims=True keeps that axis as 1, and then it "
                    "broadcasts.",
        "axis": "This array has {n} {axes}, numbered 0 to {last} (or -{n} to -1 from the end), so axis {asked} does "
                "not exist; axis=-1 is always the last.",
        "index": "Axis {axis} has {size} entries, numbered 0 to {last} (or -{size} to -1): index {asked} is past the "
                 "end.",
        "index_list": "The index is past the end: a sequence of n items has indices 0 to n - 1 (and -n to -1).",
        "name": "Nothing run so far in this page's Python defines `{name}`. Did you mean `{close}`?",
        "name_bare": "Nothing run so far in this page's Python defines `{name}`: check its spelling, and run the cell "
                     "that defines it first.",
        "none": "A value here is None. A function that ends without `return` gives None: check that the function "
                "whose result you use returns it.",
        "syntax": "Python could not read line {line}: look at that line and the ones next to it (a bracket or "
                  "quote left open, a missing colon).",
        "indent": "The indentation of line {line} does not match the lines around it: a block's lines start at the "
                  "same column, and the line after a colon starts further right.",
    },
    "es": {
        "matmul": "En `{left} @ {right}`, `{left}` tiene forma {a} y `{right}` tiene forma {b}: un producto de "
                  "matrices necesita que el último eje de la izquierda ({n0}) sea igual al {axis} de la derecha "
                  "({n1}).",
        "matmul_bare": "Un producto de matrices necesita que el último eje del array de la izquierda sea igual al "
                       "primero del de la derecha (en arrays 2-D): aquí son {n0} y {n1}. Imprime el .shape de cada "
                       "uno para ver cuál trasponer.",
        "transpose": "`{name}.T`, de forma {shape}, encajaría.",
        "broadcast": "Las formas {shapes} se alinean por la derecha y {axis} no coincide: {sizes}; dos tamaños se "
                     "difunden (broadcasting) sólo si son iguales o uno de ellos es 1.",
        "keepdims": "Una media o una suma sobre el último eje hecha con keepdims=True deja ese eje con tamaño 1, y "
                    "entonces sí se difunde.",
        "axis": "Este array tiene {n} {axes}, numerados de 0 a {last} (o de -{n} a -1 desde el final), así que el eje "
                "{asked} no existe; axis=-1 es siempre el último.",
        "index": "El eje {axis} tiene {size} elementos, numerados de 0 a {last} (o de -{size} a -1): el índice {asked} "
                 "se sale del final.",
        "index_list": "El índice se sale del final: una secuencia de n elementos tiene índices de 0 a n - 1 (y de -n "
                      "a -1).",
        "name": "Nada de lo ejecutado hasta ahora en el Python de esta página define `{name}`. ¿Querías decir "
                "`{close}`?",
        "name_bare": "Nada de lo ejecutado hasta ahora en el Python de esta página define `{name}`: revisa cómo está "
                     "escrito y ejecuta antes la celda que lo define.",
        "none": "Aquí un valor es None. Una función que termina sin `return` devuelve None: comprueba que la función "
                "cuyo resultado usas lo devuelve.",
        "syntax": "Python no pudo leer la línea {line}: mira esa línea y las de al lado (un paréntesis o unas "
                  "comillas sin cerrar, unos dos puntos que faltan).",
        "indent": "La sangría de la línea {line} no cuadra con las de alrededor: las líneas de un bloque empiezan en "
                  "la misma columna, y la que sigue a unos dos puntos empieza más a la derecha.",
    },
    "uk": {
        "matmul": "У `{left} @ {right}` `{left}` має форму {a}, а `{right}` — форму {b}: матричний добуток потребує, "
                  "щоб остання вісь лівого ({n0}) дорівнювала {axis} правого ({n1}).",
        "matmul_bare": "Матричний добуток потребує, щоб остання вісь лівого масиву дорівнювала першій осі правого "
                       "(для двовимірних масивів): тут це {n0} і {n1}. Виведіть .shape обох, щоб побачити, котрий "
                       "транспонувати.",
        "transpose": "`{name}.T` форми {shape} підійшов би.",
        "broadcast": "Форми {shapes} вирівнюються справа, і {axis} не збігається: {sizes}; два розміри поширюються "
                     "(broadcasting), лише коли вони рівні або один із них дорівнює 1.",
        "keepdims": "Середнє чи сума вздовж останньої осі з keepdims=True лишає цю вісь розміру 1, і тоді вона "
                    "поширюється.",
        "axis": "Цей масив має осей: {n}, з номерами від 0 до {last} (або від -{n} до -1 з кінця), тож осі {asked} "
                "немає; axis=-1 — завжди остання.",
        "index": "Вісь {axis} має елементів: {size}, з номерами від 0 до {last} (або від -{size} до -1): індекс "
                 "{asked} виходить за кінець.",
        "index_list": "Індекс виходить за кінець: послідовність із n елементів має індекси від 0 до n - 1 (і від -n "
                      "до -1).",
        "name": "Ніщо з виконаного досі в Python цієї сторінки не визначає `{name}`. Можливо, ви мали на увазі "
                "`{close}`?",
        "name_bare": "Ніщо з виконаного досі в Python цієї сторінки не визначає `{name}`: перевірте написання й "
                     "спершу виконайте клітинку, що це ім’я визначає.",
        "none": "Тут значення — None. Функція, що закінчується без `return`, повертає None: перевірте, чи функція, "
                "чий результат ви берете, його повертає.",
        "syntax": "Python не зміг прочитати рядок {line}: подивіться на нього й на сусідні (незакрита дужка чи лапка, "
                  "пропущена двокрапка).",
        "indent": "Відступ рядка {line} не збігається з рядками довкола: рядки одного блоку починаються в тому самому "
                  "стовпці, а рядок після двокрапки — правіше.",
    },
}
WORDS = {  # the words the sentences need for a number or an axis, per language
    "en": {"axes": ("axis", "axes"), "first": "first axis", "second_last": "second-to-last axis",
           "last": "the last axis", "nth": "axis -{} (counted from the end)", "and": " and "},
    "es": {"axes": ("eje", "ejes"), "first": "primer eje", "second_last": "penúltimo eje",
           "last": "el último eje", "nth": "el eje -{} (contado desde el final)", "and": " y "},
    "uk": {"axes": ("вісь", "осі"), "first": "першій осі", "second_last": "передостанній осі",
           "last": "остання вісь", "nth": "вісь -{} (рахуючи з кінця)", "and": " і "},
}
MATMUL_SIZES = re.compile(r"mismatch in its core dimension \d+.*?\(size (\d+) is different from (\d+)\)", re.S)
DOT_SHAPES = re.compile(r"shapes (\([\d, ]*\)) and (\([\d, ]*\)) not aligned: (\d+) \(dim \d+\) != (\d+)")
BROADCAST = re.compile(r"could not be broadcast together with (?:remapped )?shapes ((?:\([\d, ]*\) ?)+)")
AXIS = re.compile(r"axis (-?\d+) is out of bounds for array of dimension (\d+)")
INDEX = re.compile(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)")
NAME = re.compile(r"name '(\w+)' is not defined")


def explain(error, namespace=None):
    """The sentences that explain `error` to a beginner, in the page's language, or None."""
    language = current_language()
    say = SENTENCES.get(language, SENTENCES["en"])
    words = WORDS.get(language, WORDS["en"])
    try:
        text = str(error)
    except Exception:  # a learner's exception whose __str__ raises: nothing to read
        return None
    for reader in (_matmul, _broadcast, _axis, _index, _name, _none, _syntax):
        found = reader(error, text, say, words, namespace or {})
        if found:
            return found
    return None


def _matmul(error, text, say, words, namespace):
    """A matrix product whose inner sizes disagree: the two operands named, with their shapes, when the line shows
    them, and the transpose that would fit."""
    if not isinstance(error, ValueError):
        return None
    sizes = MATMUL_SIZES.search(text)
    dot = DOT_SHAPES.search(text)
    if not sizes and not dot:
        return None
    n1, n0 = (int(sizes.group(1)), int(sizes.group(2))) if sizes else (int(dot.group(4)), int(dot.group(3)))
    for left, right, a, b in _products(error):
        if a.ndim and b.ndim and a.shape[-1] == n0 and b.shape[-2 if b.ndim > 1 else 0] == n1:
            axis = words["second_last"] if b.ndim > 2 else words["first"]
            sentence = say["matmul"].format(left=left, right=right, a=_shape(a.shape), b=_shape(b.shape),
                                            n0=n0, n1=n1, axis=axis)
            if b.ndim == 2 and b.shape[1] == n0:
                sentence += " " + say["transpose"].format(name=right, shape=_shape(b.shape[::-1]))
            elif a.ndim == 2 and a.shape[0] == n1:
                sentence += " " + say["transpose"].format(name=left, shape=_shape(a.shape[::-1]))
            return sentence
    return say["matmul_bare"].format(n0=n0, n1=n1)


def _products(error):
    """(left text, right text, left array, right array) for each `a @ b` on the failing line of the innermost
    frame whose operands are plain names, attributes or subscripts of them (looked up there, never called)."""
    tb = error.__traceback__
    frame, line = None, None
    while tb is not None:
        frame, line = tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next
    if frame is None:
        return []
    source = linecache.getline(frame.f_code.co_filename, line).strip()
    try:
        tree = ast.parse(source.rstrip(":") if source.startswith(("if ", "while ", "for ")) else source)
    except SyntaxError:
        return []
    scope = dict(frame.f_globals, **frame.f_locals)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            a, b = _look_up(node.left, scope), _look_up(node.right, scope)
            if hasattr(a, "shape") and hasattr(b, "shape") and hasattr(a, "ndim") and hasattr(b, "ndim"):
                found.append((_text(node.left, source), _text(node.right, source), a, b))
    return found


def _look_up(node, scope):
    """The value of a plain name, attribute or subscript (with constant or plain-name indices) in scope, or None."""
    if isinstance(node, ast.Name):
        return scope.get(node.id)
    if isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
        value = _look_up(node.value, scope)
        return getattr(value, node.attr, None) if hasattr(value, "shape") else None
    if isinstance(node, ast.Subscript):
        value = _look_up(node.value, scope)
        index = _index_value(node.slice, scope)
        if hasattr(value, "shape") and index is not None:
            try:
                return value[index]
            except Exception:  # an index that does not apply: no operand to show
                return None
    return None


def _index_value(node, scope):
    """A subscript's index built from constants, plain names, slices and tuples of them, or None."""
    if getattr(ast, "Index", None) and isinstance(node, ast.Index):  # Python 3.8 wraps an index in ast.Index
        return _index_value(node.value, scope)
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name) and isinstance(scope.get(node.id), (int, slice)):
        return scope[node.id]
    if isinstance(node, ast.Slice):
        parts = [None if part is None else _index_value(part, scope) for part in (node.lower, node.upper, node.step)]
        return slice(*parts) if all(p is None or isinstance(p, int) for p in parts) else None
    if isinstance(node, ast.Tuple):
        parts = [_index_value(element, scope) for element in node.elts]
        return tuple(parts) if all(part is not None for part in parts) else None
    return None


def _text(node, source):
    """The source text of `node` on its line."""
    segment = ast.get_source_segment(source, node) if hasattr(ast, "get_source_segment") else None
    return segment or ast.dump(node)


def _shape(shape):
    return "(" + ", ".join(str(size) for size in shape) + ("," if len(shape) == 1 else "") + ")"


def _broadcast(error, text, say, words, namespace):
    """Shapes that do not broadcast: the first axis from the right where they disagree, and keepdims when one
    shape is the other without its last axis."""
    found = BROADCAST.search(text) if isinstance(error, ValueError) else None
    if not found:
        return None
    shapes = [tuple(int(size) for size in re.findall(r"\d+", part))
              for part in re.findall(r"\([\d, ]*\)", found.group(1))]
    if len(shapes) < 2:
        return None
    for back in range(1, max(len(shape) for shape in shapes) + 1):
        sizes = {shape[-back] for shape in shapes if len(shape) >= back} - {1}
        if len(sizes) > 1:
            break
    else:
        return None
    axis = words["last"] if back == 1 else words["nth"].format(back)
    sizes = [size for size in dict.fromkeys(shape[-back] for shape in shapes if len(shape) >= back) if size != 1]
    sentence = say["broadcast"].format(shapes=words["and"].join(_shape(shape) for shape in shapes), axis=axis,
                                       sizes=words["and"].join(str(size) for size in sizes))
    a, b = shapes[0], shapes[1]
    if a[:-1] == b or b[:-1] == a:
        sentence += " " + say["keepdims"]
    return sentence


def _axis(error, text, say, words, namespace):
    found = AXIS.search(text) if type(error).__name__ == "AxisError" else None
    if not found:
        return None
    n = int(found.group(2))
    return say["axis"].format(n=n, axes=words["axes"][n != 1], last=n - 1, asked=found.group(1))


def _index(error, text, say, words, namespace):
    if not isinstance(error, IndexError):
        return None
    found = INDEX.search(text)
    if found:
        size = int(found.group(3))
        return say["index"].format(axis=found.group(2), size=size, last=size - 1, asked=found.group(1))
    return say["index_list"] if "index out of range" in text else None


def _name(error, text, say, words, namespace):
    found = NAME.search(text) if isinstance(error, NameError) else None
    if not found:
        return None
    known = [name for name in namespace if not name.startswith("_")]
    close = difflib.get_close_matches(found.group(1), known, n=1, cutoff=0.75)
    if close:
        return say["name"].format(name=found.group(1), close=close[0])
    return say["name_bare"].format(name=found.group(1))


def _none(error, text, say, words, namespace):
    if isinstance(error, (TypeError, AttributeError)) and "NoneType" in text:
        return say["none"]
    return None


def _syntax(error, text, say, words, namespace):
    if not isinstance(error, SyntaxError) or not error.lineno:
        return None
    return say["indent" if isinstance(error, IndentationError) else "syntax"].format(line=error.lineno)
