import { Extension } from '@tiptap/react';
import { Plugin, PluginKey } from '@tiptap/pm/state';

/** Bidirectional control characters (marks, embeddings, overrides, isolates). */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function stripBidi(text: string): string {
  return text.replace(BIDI, '');
}

/** What Tab types: four spaces that survive in HTML (non-breaking, so they do not collapse). */
export const TAB_TEXT = '\u00a0'.repeat(4);

/**
 * The editor rules of docs/product.md, Screens beyond formatting: Tab inserts 4 spaces, pasting is plain text,
 * and bidirectional control characters never stay in the text, however they arrive.
 */
export const ArticleEditorRules = Extension.create({
  name: 'articleEditorRules',

  addKeyboardShortcuts() {
    return {
      Tab: () => this.editor.commands.insertContent({ type: 'text', text: TAB_TEXT }),
    };
  },

  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('articleEditorRules'),
        props: {
          // Only the text of the clipboard is taken; its lines become paragraphs.
          handlePaste(view, event) {
            const text = event.clipboardData?.getData('text/plain');
            if (!text) return false;
            event.preventDefault();
            return view.pasteText(stripBidi(text));
          },
          transformPastedText: (text) => stripBidi(text),
        },
        appendTransaction(transactions, _before, state) {
          if (!transactions.some((tr) => tr.docChanged)) return null;
          const ranges: { from: number; to: number }[] = [];
          state.doc.descendants((node, pos) => {
            if (!node.isText || !node.text) return;
            for (const match of node.text.matchAll(BIDI)) {
              ranges.push({ from: pos + match.index, to: pos + match.index + match[0].length });
            }
          });
          if (ranges.length === 0) return null;
          const tr = state.tr;
          for (const range of ranges.reverse()) tr.delete(range.from, range.to);
          return tr;
        },
      }),
    ];
  },
});
