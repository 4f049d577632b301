// Read a number the way the lesson's language writes it: 1048576, 1.048.576, 1 048 576, 1,048,576, 0,5.

const DECIMAL = { en: ".", es: ",", uk: "," };

/** The number in `text`, or null when it cannot be read as one. */
export function parseNumber(text, language) {
  let value = String(text).trim().replace(/[\s\u00a0\u202f\u2009']/g, "").replace(/^\u2212/, "-");
  if (!/^[+-]?[\d.,]+$/.test(value) || !/\d/.test(value)) return null;
  const sign = value[0] === "-" ? -1 : 1;
  value = value.replace(/^[+-]/, "");
  const separators = value.replace(/\d/g, "");
  let decimal = null;
  if (separators.includes(".") && separators.includes(",")) {
    decimal = value.lastIndexOf(".") > value.lastIndexOf(",") ? "." : ",";
  } else if (separators.length === 1) {
    const [, after] = value.split(separators);
    // One separator before exactly three digits is ambiguous: the language decides.
    decimal = after.length === 3 ? (DECIMAL[language] === separators ? separators : null) : separators;
  }
  const [whole, fraction = ""] = decimal ? splitOnce(value, decimal) : [value, ""];
  if (fraction.includes(".") || fraction.includes(",")) return null;
  const grouping = whole.replace(/\d/g, "");
  if (grouping && (new Set(grouping).size > 1 || !/^\d{1,3}([.,]\d{3})+$/.test(whole))) return null;
  const number = Number(whole.replace(/[.,]/g, "") + (fraction ? "." + fraction : ""));
  return Number.isFinite(number) ? sign * number : null;
}

function splitOnce(text, separator) {
  const index = text.lastIndexOf(separator);
  return [text.slice(0, index), text.slice(index + 1)];
}
