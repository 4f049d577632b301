"""Checker for lesson 004's exercise 7: memoria_atencion(tokens, bloques, cabezas, bytes_por_peso) -> int.

The bytes of every attention table of every head of every block at once: each table has
tokens × tokens weights. The first case is small and chosen so that each usual mistake
(no square, a factor forgotten, gigabytes instead of bytes, only the causal triangle)
gives a different number, and the mistake can be named.
"""

from course.checkers.common import run_cases
from course.numbers import number

from ..corrector import call, integer_problem, phrasebook, rebuilt

FUNCTION = "memoria_atencion"
CASES = ((5, 3, 4, 2), (4096, 32, 32, 2), (8192, 32, 32, 2), (7, 1, 3, 4), (1, 2, 2, 8), (300, 12, 12, 4))
SAY = phrasebook("tokens, bloques, cabezas, bytes_por_peso", "tokens ** 2 * ...")
MESSAGES = SAY.messages()


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def reference(tokens, bloques, cabezas, bytes_por_peso):
    """All the tables at once: bloques · cabezas tables of tokens² weights of bytes_por_peso bytes each."""
    return tokens * tokens * bloques * cabezas * bytes_por_peso


def _check_case(function, tokens, bloques, cabezas, bytes_por_peso):
    """Compare the learner's bytes with the reference for one model; a passed or failed result."""
    case = "tokens={}, bloques={}, cabezas={}, bytes_por_peso={}".format(tokens, bloques, cabezas, bytes_por_peso)
    value, problem = call(function, (tokens, bloques, cabezas, bytes_por_peso), case)
    expected = reference(tokens, bloques, cabezas, bytes_por_peso)
    if problem is None and isinstance(value, float) and abs(value - expected / 1e9) <= 1e-9 * expected:
        problem = ("Con {} se esperaban {} bytes, pero tu función devolvió {}, que son gigabytes; devuelve los "
                   "bytes y divide entre 1e9 sólo al escribirlos.".format(case, number(expected), number(value)))
    problem = problem or integer_problem(value, case, SAY)
    if problem is None and value != expected:
        problem = "Con {} se esperaban {} bytes, pero tu función devolvió {}; {}".format(
            case, number(expected), number(value), _mistake(value, tokens, bloques, cabezas, bytes_por_peso))
    if problem:
        return {"ok": False, "message": problem}
    return {"ok": True, "message": MESSAGES["passed"].format(case=case)}


def _mistake(value, tokens, bloques, cabezas, bytes_por_peso):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to rebuild the product."""
    tables = bloques * cabezas
    variants = (
        (tokens * tables * bytes_por_peso, "cada tabla tiene tokens × tokens pesos (cada token mira a todos): "
                                           "falta elevar tokens al cuadrado."),
        (tokens * 2 * tables * bytes_por_peso, "escribiste tokens * 2, que es el doble; el cuadrado es "
                                               "tokens ** 2."),
        (tokens * tokens * tables, "falta multiplicar por bytes_por_peso: la cuenta da pesos, no bytes."),
        (tokens * tokens * bloques * bytes_por_peso, "falta multiplicar por cabezas: cada cabeza de cada bloque "
                                                     "tiene su propia tabla."),
        (tokens * tokens * cabezas * bytes_por_peso, "falta multiplicar por bloques: cada bloque tiene sus propias "
                                                     "cabezas y sus tablas."),
        (tokens * (tokens + 1) // 2 * tables * bytes_por_peso, "contaste sólo el triángulo que deja la máscara "
                                                               "causal; la tabla se guarda entera, tokens × "
                                                               "tokens."),
        ((tokens + 1) ** 2 * tables * bytes_por_peso, "sumaste un token más (¿un [CLS]?); el modelo de este "
                                                      "ejercicio procesa exactamente tokens tokens."),
    )
    return rebuilt(value, variants) or "es el producto de tokens², bloques, cabezas y bytes_por_peso."
