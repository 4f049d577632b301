// Plural forms of the UI strings. A catalogue key is its general form; `key_one` (and, for counts, the other forms
// Intl.PluralRules names in the page's language: `key_few` in Ukrainian, `key_many`) stand beside it where the
// language needs them.

/** The form of `key` for a list of `count` named things ("Cell 3" / "Cells 3, 4"): `key_one` for one, else `key`. */
export function listForm(strings, key, count) {
  return count === 1 && strings[key + "_one"] !== undefined ? strings[key + "_one"] : strings[key];
}

/** The form of `key` for the number `n` in `language` ("1 saved item", "2 збережені елементи"). */
export function countForm(strings, key, n, language) {
  let form = "other";
  try {
    form = new Intl.PluralRules(language).select(n);
  } catch (error) {
    // a language this browser does not know: the general form
  }
  return strings[key + "_" + form] !== undefined ? strings[key + "_" + form] : strings[key];
}
