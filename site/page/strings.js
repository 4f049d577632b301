// UI strings of the page's language, written into the page by the build.

export function format(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (match, key) => (key in values ? String(values[key]) : match));
}

export function formatBytes(bytes, language) {
  const megabytes = bytes / 1e6; // decimal megabytes, as the docs and the download sizes count them
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(megabytes)
    + " MB";
}
