// Read a number the way the lesson's language writes it: 1048576, 1.048.576, 1 048 576, 1,048,576, 0,5.
// The language's decimal mark comes from its strings (site/i18n/<language>.json, decimal_separator).

/** The number in `text`, or null when it cannot be read as one; `decimal` is the language's decimal mark. */
export function parseNumber(text, decimal) {
  let value = String(text).trim().replace(/[\s\u00a0\u202f\u2009']/g, "").replace(/^\u2212/, "-");
  if (!/^[+-]?[\d.,]+$/.test(value) || !/\d/.test(value)) return null;
  const sign = value[0] === "-" ? -1 : 1;
  value = value.replace(/^[+-]/, "");
  const separators = value.replace(/\d/g, "");
  let mark = null;
  if (separators.includes(".") && separators.includes(",")) {
    mark = value.lastIndexOf(".") > value.lastIndexOf(",") ? "." : ",";
  } else if (separators.length === 1) {
    const [, after] = value.split(separators);
    // One separator before exactly three digits is ambiguous: the language decides.
    mark = after.length === 3 ? (decimal === separators ? separators : null) : separators;
  }
  const [whole, fraction = ""] = mark ? splitOnce(value, mark) : [value, ""];
  if (fraction.includes(".") || fraction.includes(",")) return null;
  const grouping = whole.replace(/\d/g, "");
  if (grouping && (new Set(grouping).size > 1 || !/^\d{1,3}([.,]\d{3})+$/.test(whole))) return null;
  const number = Number(whole.replace(/[.,]/g, "") + (fraction ? "." + fraction : ""));
  return Number.isFinite(number) ? sign * number : null;
}

/**
 * For text such as "262,144" where `decimal` is "," (one decimal mark before exactly three digits, after one to
 * three digits that do not start with 0): the whole number it reads as when the mark groups thousands instead
 * ("262144"); otherwise null. The language reads such text as a decimal, but a learner may have meant this.
 */
export function thousandsReading(text, decimal) {
  const value = String(text).trim().replace(/^[+\-\u2212]/, "");
  const [whole, fraction, extra] = value.split(decimal);
  if (extra !== undefined || fraction === undefined || !/^[1-9]\d{0,2}$/.test(whole) || !/^\d{3}$/.test(fraction)) {
    return null;
  }
  return (String(text).trim().match(/^[-\u2212]/) ? "-" : "") + whole + fraction;
}

function splitOnce(text, separator) {
  const index = text.lastIndexOf(separator);
  return [text.slice(0, index), text.slice(index + 1)];
}
