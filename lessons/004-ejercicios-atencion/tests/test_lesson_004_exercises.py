"""Lesson 004's written exercises: each reference passes, a different correct rewrite passes, every known
mistake fails with its own Spanish sentence, and the checkers judge what the prompts say."""

import re

import numpy as np
import pytest

from course.exercise import grade
from course.nn.layers import TransformerBlock
from course.numbers import set_language
from support import ROOT

EXERCISES = ROOT / "lessons" / "004-ejercicios-atencion" / "exercises"
NAMES = ("softmax_temperatura", "parametros_bloque", "memoria_atencion", "parches", "objetivo_ordenado", "peso_en_escrito")

REWRITES = {  # a correct solution written another way than the reference
    "softmax_temperatura": (
        "import numpy as np\n"
        "def softmax_temperatura(s, T):\n"
        "    z = np.asarray(s, dtype=float) / T\n"
        "    z = z - np.max(z)\n"
        "    return np.exp(z) / np.sum(np.exp(z))\n"),
    "parametros_bloque": (
        "def parametros_bloque(d_modelo, cabezas, d_mlp):\n"
        "    lineal = lambda entra, sale: entra * sale + sale\n"
        "    return 4 * lineal(d_modelo, d_modelo) + lineal(d_modelo, d_mlp) + lineal(d_mlp, d_modelo) + 4 * d_modelo\n"),
    "memoria_atencion": (
        "def memoria_atencion(tokens, bloques, cabezas, bytes_por_peso):\n"
        "    total = 0\n"
        "    for _ in range(bloques * cabezas):\n"
        "        total += tokens * tokens * bytes_por_peso\n"
        "    return total\n"),
    "parches": (
        "import numpy as np\n"
        "def parches(imagen, lado):\n"
        "    C, H, W = imagen.shape\n"
        "    filas = []\n"
        "    for y in range(0, H, lado):\n"
        "        for x in range(0, W, lado):\n"
        "            filas.append(imagen[:, y:y + lado, x:x + lado].reshape(-1))\n"
        "    return np.stack(filas)\n"),
    "objetivo_ordenado": (
        "import numpy as np\n"
        "def objetivo_ordenado(X):\n"
        "    return np.array([sorted(fila) for fila in X])\n"),
    "peso_en_escrito": (
        "import numpy as np\n"
        "def peso_en_escrito(mapas, entrada, escritos):\n"
        "    N, T, _ = mapas.shape\n"
        "    peso = np.zeros((N, T))\n"
        "    for n in range(N):\n"
        "        for fila in range(T):\n"
        "            peso[n, fila] = mapas[n, fila][entrada[n] == escritos[n, fila]].sum()\n"
        "    return peso\n"),
}


@pytest.fixture(autouse=True)
def spanish():
    """The checkers write their numbers in the lesson's language, as the runner sets it."""
    set_language("es")
    yield
    set_language("en")


def checker(name):
    """The module path of an exercise's checker."""
    return "ejercicios_atencion.checkers." + name


def wrong_files(name):
    """The known-wrong solutions of one exercise."""
    return sorted((EXERCISES / name / "wrong").glob("*.py"))


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_and_a_different_correct_rewrite_pass_every_case(name):
    for code in ((EXERCISES / name / "solution.py").read_text(), REWRITES[name]):
        result = grade(code, checker(name))
        assert result["passed"], result["results"]
        assert len(result["results"]) == 6


@pytest.mark.parametrize("name", NAMES)
def test_the_starter_fails(name):
    assert not grade((EXERCISES / name / "starter.py").read_text(), checker(name))["passed"]


@pytest.mark.parametrize("name", NAMES)
def test_each_known_mistake_fails_with_its_own_spanish_sentence(name):
    messages = {}
    for path in wrong_files(name):
        result = grade(path.read_text(), checker(name))
        assert not result["passed"], path.name
        message = result["results"][-1]["message"]
        assert message.startswith("Con ") and message.endswith(".") and "Traceback" not in message, message
        messages[path.name] = message
    assert len(messages) >= 6
    assert len(set(messages.values())) == len(messages), messages


def test_the_block_count_agrees_with_the_toolkit_for_sizes_the_checker_does_not_try():
    namespace = {}
    exec((EXERCISES / "parametros_bloque" / "solution.py").read_text(), namespace)
    rng = np.random.default_rng(7)
    for heads, per_head, hidden in ((1, 3, 5), (2, 7, 3), (6, 2, 11), (3, 5, 1)):
        width = heads * per_head
        assert namespace["parametros_bloque"](width, heads, hidden) == TransformerBlock(width, heads, hidden, rng).count()


def test_the_patch_checker_uses_images_that_are_not_square():
    from ejercicios_atencion.checkers.parches import CASES
    assert sum(H != W for _, H, W, _ in CASES) >= 4


def test_the_patch_checker_names_a_wrong_transpose_that_has_the_right_shape():
    code = (EXERCISES / "parches" / "wrong" / "channel_last.py").read_text()
    message = grade(code, checker("parches"))["results"][-1]["message"]
    assert "la forma es la buena, pero los números no" in message and "canal" in message


def test_the_checkers_write_numbers_the_spanish_way():
    code = (EXERCISES / "parametros_bloque" / "starter.py").read_text()
    assert "198.272" in grade(code, checker("parametros_bloque"))["results"][-1]["message"]


def test_counting_only_the_first_column_that_holds_the_digit_is_named():
    code = (EXERCISES / "peso_en_escrito" / "wrong" / "first_match_only.py").read_text()
    message = grade(code, checker("peso_en_escrito"))["results"][-1]["message"]
    assert "sólo la primera columna que tiene el dígito" in message and "todas sus columnas" in message, message


@pytest.mark.parametrize("slip", ["float(tokens ** 2 * bloques * cabezas * bytes_por_peso)",
                                  "tokens ** 2 * bloques * cabezas * bytes_por_peso * 1.0"])
def test_a_memory_returned_as_a_float_without_a_division_is_not_blamed_on_a_division(slip):
    code = "def memoria_atencion(tokens, bloques, cabezas, bytes_por_peso):\n    return {}\n".format(slip)
    message = grade(code, checker("memoria_atencion"))["results"][-1]["message"]
    assert "como float" in message and "número escrito con punto" in message and "int(...)" in message, message


@pytest.mark.parametrize("language, folder", [("es", "exercises"), ("en", "exercises.en"), ("uk", "exercises.uk")])
@pytest.mark.parametrize("name", NAMES)
def test_a_case_of_one_is_written_in_the_singular(language, folder, name):
    # Issue 53: "Right for 1 sequences of 6 digits". The nouns a checker counts are those it writes after a number
    # above 1 ("5 sequences"); none of them may follow a lone 1.
    from support import in_language
    code = (EXERCISES.parent / folder / name / "solution.py").read_text()
    messages = " ".join(item["message"] for item in in_language(language, grade, code, checker(name))["results"])
    counted = {noun for number, noun in re.findall(r"(?<![\d.,])\b(\d+) (\w+)", messages) if int(number) > 1}
    ones = set(re.findall(r"(?<![\d.,])\b1 (\w+)", messages))
    assert not ones & counted, messages
