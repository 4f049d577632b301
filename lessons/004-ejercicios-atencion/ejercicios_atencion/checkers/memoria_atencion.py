"""Checker for lesson 004's exercise 7: memoria_atencion(tokens, bloques, cabezas, bytes_por_peso) -> int
(English and Ukrainian editions: attention_memory(tokens, blocks, heads, bytes_per_weight)).

The bytes of every attention table of every head of every block at once: each table has
tokens × tokens weights. The first case is small and chosen so that each usual mistake
(no square, a factor forgotten, gigabytes instead of bytes, only the causal triangle)
gives a different number, and the mistake can be named.
"""

from course.checkers.common import run_cases
from course.numbers import number

from ..corrector import Sentences, call, integer_problem, phrasebooks, rebuilt

FUNCTION = {"es": "memoria_atencion", "en": "attention_memory", "uk": "attention_memory"}
CASES = ((5, 3, 4, 2), (4096, 32, 32, 2), (8192, 32, 32, 2), (7, 1, 3, 4), (1, 2, 2, 8), (300, 12, 12, 4))
SAY = phrasebooks({"es": "tokens, bloques, cabezas, bytes_por_peso", "en": "tokens, blocks, heads, bytes_per_weight",
                   "uk": "tokens, blocks, heads, bytes_per_weight"},
                  {"es": "tokens ** 2 * ...", "en": "tokens ** 2 * ...", "uk": "tokens ** 2 * ..."})
MESSAGES = SAY.messages()
SENTENCES = Sentences({
    "es": {
        "case": "tokens={}, bloques={}, cabezas={}, bytes_por_peso={}",
        "gigabytes": "Con {} se esperaban {} bytes, pero tu función devolvió {}, que son gigabytes; devuelve los bytes "
                     "y divide entre 1e9 sólo al escribirlos.",
        "wrong": "Con {} se esperaban {} bytes, pero tu función devolvió {}; {}",
        "no_square": "cada tabla tiene tokens × tokens pesos (cada token mira a todos): falta elevar tokens al "
                     "cuadrado.",
        "times_two": "escribiste tokens * 2, que es el doble; el cuadrado es tokens ** 2.",
        "no_bytes": "falta multiplicar por bytes_por_peso: la cuenta da pesos, no bytes.",
        "no_heads": "falta multiplicar por cabezas: cada cabeza de cada bloque tiene su propia tabla.",
        "no_blocks": "falta multiplicar por bloques: cada bloque tiene sus propias cabezas y sus tablas.",
        "causal_triangle": "contaste sólo el triángulo que deja la máscara causal; la tabla se guarda entera, tokens "
                           "× tokens.",
        "one_more_token": "sumaste un token más (¿un [CLS]?); el modelo de este ejercicio procesa exactamente tokens "
                          "tokens.",
        "other": "es el producto de tokens², bloques, cabezas y bytes_por_peso.",
    },
    "en": {
        "case": "tokens={}, blocks={}, heads={}, bytes_per_weight={}",
        "gigabytes": "For {}, {} bytes were expected, but your function returned {}, which is gigabytes; return the "
                     "bytes and divide by 1e9 only when you write them out.",
        "wrong": "For {}, {} bytes were expected, but your function returned {}; {}",
        "no_square": "each table has tokens × tokens weights (every token looks at all of them): tokens still has to "
                     "be squared.",
        "times_two": "you wrote tokens * 2, which doubles it; the square is tokens ** 2.",
        "no_bytes": "multiply by bytes_per_weight as well: without it the count is weights, not bytes.",
        "no_heads": "multiply by heads as well: every head of every block has a table of its own.",
        "no_blocks": "multiply by blocks as well: every block has its own heads and their tables.",
        "causal_triangle": "you counted only the triangle the causal mask leaves; the whole table is stored, tokens "
                           "× tokens.",
        "one_more_token": "you added one token (a [CLS] token?); the model in this exercise processes exactly tokens "
                          "tokens.",
        "other": "it is the product of tokens squared, blocks, heads and bytes_per_weight.",
    },
    "uk": {
        "case": "tokens={}, blocks={}, heads={}, bytes_per_weight={}",
        "gigabytes": "Для {} очікувалася кількість байтів {}, але ваша функція повернула {}, тобто гігабайти; "
                     "поверніть байти, а на 1e9 діліть лише тоді, коли виписуєте результат.",
        "wrong": "Для {} очікувалася кількість байтів {}, але ваша функція повернула {}; {}",
        "no_square": "кожна таблиця має tokens × tokens ваг (кожен токен дивиться на всі): tokens ще треба піднести "
                     "до квадрата.",
        "times_two": "ви написали tokens * 2, тобто подвоїли; квадрат — це tokens ** 2.",
        "no_bytes": "помножте ще на bytes_per_weight: без цього ви рахуєте ваги, а не байти.",
        "no_heads": "помножте ще на heads: кожна голова кожного блоку має власну таблицю.",
        "no_blocks": "помножте ще на blocks: кожен блок має свої голови і їхні таблиці.",
        "causal_triangle": "ви порахували лише трикутник, який лишає причинна маска; зберігається вся таблиця, "
                           "tokens × tokens.",
        "one_more_token": "ви додали ще один токен (токен [CLS]?); модель у цій вправі обробляє рівно tokens "
                          "токенів.",
        "other": "це добуток tokens², blocks, heads і bytes_per_weight.",
    },
})


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def reference(tokens, bloques, cabezas, bytes_por_peso):
    """All the tables at once: bloques · cabezas tables of tokens² weights of bytes_por_peso bytes each."""
    return tokens * tokens * bloques * cabezas * bytes_por_peso


def _check_case(function, tokens, bloques, cabezas, bytes_por_peso):
    """Compare the learner's bytes with the reference for one model; a passed or failed result."""
    case = SENTENCES.say("case", tokens, bloques, cabezas, bytes_por_peso)
    value, problem = call(function, (tokens, bloques, cabezas, bytes_por_peso), case)
    expected = reference(tokens, bloques, cabezas, bytes_por_peso)
    if problem is None and isinstance(value, float) and abs(value - expected / 1e9) <= 1e-9 * expected:
        problem = SENTENCES.say("gigabytes", case, number(expected), number(value))
    problem = problem or integer_problem(value, case, SAY.now)
    if problem is None and value != expected:
        problem = SENTENCES.say("wrong", case, number(expected), number(value),
                                _mistake(value, tokens, bloques, cabezas, bytes_por_peso))
    return SAY.verdict(problem, case)


def _mistake(value, tokens, bloques, cabezas, bytes_por_peso):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to rebuild the product."""
    tables = bloques * cabezas
    variants = (
        (tokens * tables * bytes_por_peso, "no_square"),
        (tokens * 2 * tables * bytes_por_peso, "times_two"),
        (tokens * tokens * tables, "no_bytes"),
        (tokens * tokens * bloques * bytes_por_peso, "no_heads"),
        (tokens * tokens * cabezas * bytes_por_peso, "no_blocks"),
        (tokens * (tokens + 1) // 2 * tables * bytes_por_peso, "causal_triangle"),
        ((tokens + 1) ** 2 * tables * bytes_por_peso, "one_more_token"),
    )
    return SENTENCES.say(rebuilt(value, variants) or "other")
