import { useState } from 'react';
import Button from 'react-bootstrap/Button';

import { TextField } from '@/components/ui/form-field';
import { FormDialog } from '@/components/ui/form-dialog';

import { isAllowedHref, LINK_RULE } from '../link-href';

/** The link being inserted or edited: its place in the document, its address and text. */
export interface LinkTarget {
  from: number;
  to: number;
  href: string;
  text: string;
  /** The place already is a link: the dialog edits it and can remove it. */
  editing: boolean;
}

/**
 * Inserts or edits a link of the article body: its address (http(s), mailto or a page of this site)
 * and its text (the address when left empty). An existing link comes pre-filled and can be removed.
 */
export function LinkDialog({
  target,
  onHide,
  onSave,
  onRemove,
}: {
  target: LinkTarget;
  onHide: () => void;
  onSave: (link: { href: string; text: string }) => void;
  onRemove: () => void;
}) {
  const [href, setHref] = useState(target.href || 'https://');
  const [text, setText] = useState(target.text);
  const [tried, setTried] = useState(false);
  const address = href.trim();
  const problem =
    address === '' || address === 'https://' ? 'Укажите адрес ссылки' : isAllowedHref(address) ? null : LINK_RULE;

  function save() {
    setTried(true);
    if (problem) return;
    onSave({ href: address, text: text.trim() || address });
  }

  return (
    <FormDialog
      show
      stacked
      title={target.editing ? 'Изменить ссылку' : 'Вставить ссылку'}
      onHide={onHide}
      onSubmit={save}
      submitLabel={target.editing ? 'Сохранить' : 'Вставить'}
      width="category"
      onEntered={() => document.getElementById('rte-link-href')?.focus()}
    >
      <TextField
        controlId="rte-link-href"
        label="Адрес"
        className="mb-3"
        inputMode="url"
        autoComplete="off"
        value={href}
        onChange={(event) => setHref(event.target.value)}
        error={tried ? (problem ?? undefined) : undefined}
        hint="http://, https://, mailto: или адрес страницы сайта, начиная с /"
      />
      <TextField
        controlId="rte-link-text"
        label="Текст ссылки"
        className="mb-3"
        value={text}
        onChange={(event) => setText(event.target.value)}
        hint="Пустой — будет показан адрес"
      />
      {target.editing && (
        <Button variant="outline-danger" size="sm" onClick={onRemove}>
          Убрать ссылку
        </Button>
      )}
    </FormDialog>
  );
}
