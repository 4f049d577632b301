// UI strings of the page's language, written into the page by the build.

export function format(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (match, key) => (key in values ? String(values[key]) : match));
}

export function formatBytes(bytes, language) {
  const megabytes = bytes / (1024 * 1024);
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(megabytes)
    + " MB";
}
