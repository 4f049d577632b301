"""What lesson 004's editions' tests share: the exercises' checkers, the function names the English and Ukrainian
pages ask for, a two-epoch training history for the table, and what every edition's sentence for a known mistake
must be."""

CHECKERS = {  # exercise id -> checker module
    "softmax_temperatura": "softmax_temperatura", "parametros_bloque": "parametros_bloque",
    "atencion_causal": "causal_mask_fix", "memoria_atencion": "memoria_atencion", "parches": "parches",
    "objetivo_ordenado": "objetivo_ordenado", "peso_en_escrito": "peso_en_escrito",
}
# The English identifiers, in the English edition and in the Ukrainian one: lesson 003's Ukrainian causal_attention
# also returns the output first, so the name keeps one return order across the Ukrainian course.
ENGLISH_NAMES = {
    "softmax_temperatura": "softmax_temperature", "parametros_bloque": "block_parameters",
    "atencion_causal": "causal_attention", "memoria_atencion": "attention_memory", "parches": "patches",
    "objetivo_ordenado": "sorted_target", "peso_en_escrito": "weight_on_written",
}
# Two epochs, the second one stopped: what the training table (ejercicios_atencion.digitos.tabla) is given.
HISTORY = [{"epoch": 1, "loss": 0.7071, "digits": 0.995, "sequences": 0.962},
           {"epoch": 2, "loss": 0.015, "digits": 1.0, "sequences": 0.995, "stopped": True}]


def checker(exercise):
    """The module path of an exercise's checker."""
    return "ejercicios_atencion.checkers." + CHECKERS[exercise]


def the_one_failure(result, opening):
    """The one sentence of a failed result, which must open with `opening` ('For ', 'Для ') and end with a full
    stop, with no traceback in it; every other check of that result passed."""
    failures = [item["message"] for item in result["results"] if not item["ok"]]
    assert not result["passed"] and len(failures) == 1, result["results"]
    message = failures[0]
    assert message.startswith(opening) and message.endswith(".") and "Traceback" not in message, message
    return message
