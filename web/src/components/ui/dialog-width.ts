/**
 * Admin dialog widths (docs/product.md, Limits), as classes on the modal dialog (styles in app/styles.css):
 * `article` 90vw up to 1200px, `category` / `tag` 600px, `list` (category and tag management lists) 800px,
 * `model` 50vw. Below 576px every dialog takes the full width.
 */
export type DialogWidth = 'article' | 'category' | 'tag' | 'list' | 'model';

const classes: Record<DialogWidth, string> = {
  article: 'dialog-article',
  category: 'dialog-600',
  tag: 'dialog-600',
  list: 'dialog-800',
  model: 'dialog-model',
};

/** The `dialogClassName` of a react-bootstrap Modal for a spec width, joined with any extra class. */
export function dialogWidthClass(width: DialogWidth | undefined, extra?: string): string | undefined {
  const names = [width ? classes[width] : undefined, extra].filter(Boolean);
  return names.length > 0 ? names.join(' ') : undefined;
}
