// Markup from the course's display helper is inserted only after this whitelist has rebuilt it.
// The whitelist is site/whitelist.json, bundled here; the build applies the same file (py/coursebuild/sanitize.py).
import whitelist from "../whitelist.json";

const ELEMENTS = new Set(whitelist.elements);
const ATTRIBUTES = new Set(whitelist.attributes);

/** A fragment holding only whitelisted elements and attributes of `html`, rebuilt node by node. */
export function sanitize(html) {
  const parsed = new DOMParser().parseFromString("<body>" + html + "</body>", "text/html");
  const fragment = document.createDocumentFragment();
  for (const node of parsed.body.childNodes) {
    const clean = copy(node);
    if (clean) fragment.append(clean);
  }
  return fragment;
}

function copy(node) {
  if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.textContent);
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const name = node.localName.toLowerCase();
  if (!ELEMENTS.has(name)) return null;
  const element = node.namespaceURI === "http://www.w3.org/2000/svg"
    ? document.createElementNS(node.namespaceURI, node.localName) : document.createElement(name);
  for (const attribute of node.attributes) {
    if (ATTRIBUTES.has(attribute.name.toLowerCase()) && !/^\s*javascript:/i.test(attribute.value)) {
      element.setAttribute(attribute.name, attribute.value);
    }
  }
  for (const child of node.childNodes) {
    const clean = copy(child);
    if (clean) element.append(clean);
  }
  return element;
}
