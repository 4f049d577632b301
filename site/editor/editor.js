// The code editor (CodeMirror 6), loaded on a learner's first edit.
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";

/** Replace nothing, add an editor to `parent`; returns a small handle the cell uses. */
export function mountEditor(parent, code, { label, nonce, onRun, onChange }) {
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
        EditorView.cspNonce.of(nonce || ""),
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
