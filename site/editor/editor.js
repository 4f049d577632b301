// The code editor (CodeMirror 6), loaded on a learner's first edit.
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";
import { StyleModule } from "style-mod";

// CodeMirror's styles come from style-mod, which on a document (though not in a shadow root) writes them into
// a <style> element: the page's policy (style-src 'self', no nonce, no 'unsafe-inline') refuses it. A
// constructed style sheet in document.adoptedStyleSheets is not inline style, so the same rules go there:
// style-mod is handed a stand-in root without a head, which makes it take its shadow-root path.
const mountStyles = StyleModule.mount;
const sheetRoots = new WeakMap();
StyleModule.mount = (root, modules, options) =>
  mountStyles.call(StyleModule, root.head && root.adoptedStyleSheets ? sheetRoot(root) : root, modules, options);

/** The stand-in for a document: style-mod reads its document and adopts its sheet through it. */
function sheetRoot(document) {
  if (!sheetRoots.has(document)) {
    sheetRoots.set(document, {
      ownerDocument: document,
      get adoptedStyleSheets() { return document.adoptedStyleSheets; },
      set adoptedStyleSheets(sheets) { document.adoptedStyleSheets = sheets; },
    });
  }
  return sheetRoots.get(document);
}

/** Replace nothing, add an editor to `parent`; returns a small handle the cell uses. */
export function mountEditor(parent, code, { label, onRun, onChange }) {
  const runKey = { key: "Shift-Enter", run: () => { onRun(); return true; } };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: code,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        indentUnit.of("    "),
        python(),
        syntaxHighlighting(classHighlighter),
        keymap.of([runKey, ...defaultKeymap, ...historyKeymap]),
        EditorView.lineWrapping, // no sideways scrolling: fits narrow screens, and leaves no unfocusable scroller
        EditorView.contentAttributes.of({ "aria-label": label || "code" }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(); }),
      ],
    }),
  });
  return {
    getCode: () => view.state.doc.toString(),
    setCode: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    insert: (text) => view.dispatch(view.state.replaceSelection(text)),
    focus: () => view.focus(),
  };
}
