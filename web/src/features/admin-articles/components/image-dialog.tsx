import { ARTICLE_IMAGE_MAX_BYTES } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';

import { Field, TextField } from '@/components/ui/form-field';
import { FormDialog } from '@/components/ui/form-dialog';
import { errorMessage } from '@/lib/api-client';

import { uploadArticleImage } from '../api/upload-article-image';

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';
const IMAGE_TOO_LARGE = 'Файл слишком большой (не больше 5 МБ)';

function fileProblem(file: File | null): string | undefined {
  if (!file) return 'Выберите файл изображения';
  return file.size > ARTICLE_IMAGE_MAX_BYTES ? IMAGE_TOO_LARGE : undefined;
}

/**
 * Uploads an image for the article body (PNG, JPEG, WebP or GIF up to 5 MB; the server checks the
 * content) with its description, and hands back where it is served.
 */
export function ImageDialog({
  onHide,
  onInsert,
}: {
  onHide: () => void;
  onInsert: (image: { src: string; alt: string }) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [tried, setTried] = useState(false);
  const upload = useMutation({ mutationFn: uploadArticleImage });
  const fileError = tried ? fileProblem(file) : undefined;
  const altError = tried && !alt.trim() ? 'Опишите изображение: описание прочтут те, кто его не видит' : undefined;

  function insert() {
    setTried(true);
    if (fileProblem(file) || !alt.trim() || !file) return;
    upload.mutate(file, { onSuccess: (src) => onInsert({ src, alt: alt.trim() }) });
  }

  return (
    <FormDialog
      show
      stacked
      title="Вставить изображение"
      onHide={onHide}
      onSubmit={insert}
      submitLabel="Загрузить и вставить"
      saving={upload.isPending}
      error={upload.isError ? errorMessage(upload.error, 'Не удалось загрузить изображение.') : undefined}
      width="category"
    >
      <Field
        controlId="rte-image-file"
        label="Файл"
        className="mb-3"
        error={fileError}
        hint="PNG, JPEG, WebP или GIF, не больше 5 МБ"
      >
        {/* The browser's own picker speaks the browser's language: a Russian button stands in for it. */}
        <Form.Control
          type="file"
          className="rte-file-input"
          accept={IMAGE_TYPES}
          isInvalid={fileError !== undefined}
          onChange={(event) => {
            upload.reset();
            setFile((event.target as HTMLInputElement).files?.[0] ?? null);
          }}
        />
        <div className="rte-file-picker">
          <label htmlFor="rte-image-file" className="btn btn-outline-secondary">
            Выбрать файл
          </label>
          <span className="text-truncate text-body-secondary">{file?.name ?? 'Файл не выбран'}</span>
        </div>
      </Field>
      <TextField
        controlId="rte-image-alt"
        label="Описание изображения"
        className="mb-1"
        value={alt}
        onChange={(event) => setAlt(event.target.value)}
        error={altError}
      />
    </FormDialog>
  );
}
