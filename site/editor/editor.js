// The code editor (CodeMirror 6), loaded on a learner's first edit.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorSelection, EditorState, RangeSetBuilder } from "@codemirror/state";
import {
  Decoration, drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, ViewPlugin,
} from "@codemirror/view";
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

// Wrapped lines keep their indentation: a line indented by n columns hangs its continuation rows n columns in
// (a class per depth, since the page's policy refuses inline styles; deeper lines hang at the deepest).
const HANG_MAX = 40;
const TAB_COLUMNS = 4;
const hangTheme = {};
for (let n = 1; n <= HANG_MAX; n += 1) {
  hangTheme[".cm-line.cm-hang-" + n] = { paddingLeft: `calc(${n}ch + 6px)`, textIndent: `-${n}ch` };
}

/** How many columns of whitespace open `text`. */
function indentColumns(text) {
  let columns = 0;
  for (const char of text) {
    if (char === " ") columns += 1;
    else if (char === "\t") columns += TAB_COLUMNS - (columns % TAB_COLUMNS);
    else break;
  }
  return columns;
}

/** The hanging-indent class of every visible indented line. */
function hangingLines(view) {
  const builder = new RangeSetBuilder();
  for (const { from, to } of view.visibleRanges) {
    for (let position = from; position <= to;) {
      const line = view.state.doc.lineAt(position);
      const columns = Math.min(indentColumns(line.text), HANG_MAX);
      if (columns && columns < line.length) builder.add(line.from, line.from, Decoration.line({ class: "cm-hang-" + columns }));
      position = line.to + 1;
    }
  }
  return builder.finish();
}

const hangingIndent = ViewPlugin.fromClass(class {
  constructor(view) {
    this.decorations = hangingLines(view);
  }

  update(update) {
    if (update.docChanged || update.viewportChanged) this.decorations = hangingLines(update.view);
  }
}, { decorations: (plugin) => plugin.decorations });

// Home, End and the vertical arrows act on the code's own lines, not on the rows a long line wraps into: a
// learner who selects a line with Shift+Home (or Shift+Up) and types over it replaces the whole line, as in any
// code editor without wrapping, never the part of it that happens to sit on one row.

/** Home: to the line's first non-blank character, and from there to its start. */
function lineHome(state, range) {
  const line = state.doc.lineAt(range.head);
  const indent = line.from + /^\s*/.exec(line.text)[0].length;
  return { head: range.head === indent ? line.from : indent };
}

/** End: to the line's end. */
function lineEnd(state, range) {
  return { head: state.doc.lineAt(range.head).to };
}

/** Up or Down: the same column of the line above or below (the column aimed at is kept across shorter lines). */
function lineVertically(forward) {
  return (state, range) => {
    const line = state.doc.lineAt(range.head);
    const goal = range.goalColumn === undefined ? range.head - line.from : range.goalColumn;
    const number = line.number + (forward ? 1 : -1);
    if (number < 1) return { head: 0, goal };
    if (number > state.doc.lines) return { head: state.doc.length, goal };
    const target = state.doc.line(number);
    return { head: target.from + Math.min(goal, target.length), goal };
  };
}

/** A command that moves every cursor by `by` (or, with `extend`, moves the head of every selection). */
function moveBy(by, extend) {
  return (view) => {
    const { state } = view;
    const ranges = state.selection.ranges.map((range) => {
      const { head, goal } = by(state, range);
      return extend ? EditorSelection.range(range.anchor, head, goal) : EditorSelection.cursor(head, 0, undefined, goal);
    });
    view.dispatch({ selection: EditorSelection.create(ranges, state.selection.mainIndex), scrollIntoView: true,
      userEvent: "select" });
    return true;
  };
}

/** The keys that move by the code's lines, before CodeMirror's own (which move by wrapped rows). */
const LOGICAL_LINE_KEYS = [
  [{ key: "Home", mac: "Cmd-ArrowLeft" }, lineHome],
  [{ key: "End", mac: "Cmd-ArrowRight" }, lineEnd],
  [{ key: "ArrowUp" }, lineVertically(false)],
  [{ key: "ArrowDown" }, lineVertically(true)],
].map(([keys, by]) => ({ ...keys, run: moveBy(by, false), shift: moveBy(by, true), preventDefault: true }));

/**
 * Replace nothing, add an editor to `parent`; returns a small handle the cell uses. `margins()` says how much of
 * the window's edges the page covers ({top, bottom} in pixels: a fixed bar, the buttons below the editor), so
 * that the cursor is kept clear of them. `at`: where the cursor starts (an offset in `code`: where the learner
 * tapped), else at the start.
 */
export function mountEditor(parent, code, { label, onRun, onChange, margins = () => ({}), at = 0 }) {
  const runKey = { key: "Shift-Enter", run: () => { onRun(); return true; } };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: code,
      selection: EditorSelection.cursor(Math.max(0, Math.min(at, code.length))),
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
        // Tab indents and Shift+Tab dedents; CodeMirror's own way out is Esc, then Tab (the page says so once).
        keymap.of([runKey, indentWithTab, ...LOGICAL_LINE_KEYS, ...defaultKeymap, ...historyKeymap]),
        EditorView.lineWrapping, // no sideways scrolling: fits narrow screens, and leaves no unfocusable scroller
        hangingIndent,
        EditorView.baseTheme(hangTheme),
        EditorView.scrollMargins.of(() => margins()),
        EditorView.contentAttributes.of({ "aria-label": label || "code" }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(); }),
      ],
    }),
  });
  return {
    getCode: () => view.state.doc.toString(),
    setCode: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    insert: (text) => view.dispatch(view.state.replaceSelection(text)),
    focus: () => {
      view.focus();
      view.dispatch({ effects: EditorView.scrollIntoView(view.state.selection.main.head, { y: "nearest" }) });
    },
  };
}
