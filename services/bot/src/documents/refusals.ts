/** A document the bot will not read; the message is for the user. */
export class DocumentRefusal extends Error {
  override name = 'DocumentRefusal';
}

/** The file is of a type the bot does not read. */
export class UnsupportedDocumentError extends DocumentRefusal {
  override name = 'UnsupportedDocumentError';
  constructor() {
    super('Этот тип файла не поддерживается. Пришлите .txt, .md, .pdf или .docx.');
  }
}

/** Why a file of a supported type still gave no text. */
export type UnreadableReason = 'corrupt' | 'binary' | 'empty';

const unreadableMessages: Record<UnreadableReason, string> = {
  corrupt: 'Не удалось прочитать файл: он повреждён или защищён паролем.',
  binary: 'Файл не похож на текстовый. Пришлите текст в кодировке UTF-8.',
  empty: 'В файле не нашлось текста. Если это скан, пришлите его как фото.',
};

/** The file claims a supported type but no text could be read from it. */
export class UnreadableDocumentError extends DocumentRefusal {
  override name = 'UnreadableDocumentError';
  constructor(
    readonly reason: UnreadableReason,
    options?: ErrorOptions,
  ) {
    super(unreadableMessages[reason], options);
  }
}

/** The file passes a bound the bot keeps (unpacked size, parts, one at a time); the message names it. */
export class DocumentLimitError extends DocumentRefusal {
  override name = 'DocumentLimitError';
}
