import Image from '@tiptap/extension-image';
import { BackgroundColor, Color, TextStyle } from '@tiptap/extension-text-style';
import TextAlign from '@tiptap/extension-text-align';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useState, type ReactNode } from 'react';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Form from 'react-bootstrap/Form';

import { ArticleEditorRules } from '../editor-extensions';
import { isAllowedHref } from '../link-href';

import { ImageDialog } from './image-dialog';
import { LinkDialog, type LinkTarget } from './link-dialog';

import './rich-text-editor.css';

const HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;
type HeadingLevel = (typeof HEADING_LEVELS)[number];
const ALIGNMENTS = [
  { value: 'left', label: 'По левому краю' },
  { value: 'center', label: 'По центру' },
  { value: 'right', label: 'По правому краю' },
  { value: 'justify', label: 'По ширине' },
] as const;

/** Toolbar glyphs: 24×24 line drawings, as the site's own icons. */
const glyphs = {
  alignLeft: <path d="M3 6h18M3 12h12M3 18h16" />,
  alignCenter: <path d="M3 6h18M6 12h12M4 18h16" />,
  alignRight: <path d="M3 6h18M9 12h12M5 18h16" />,
  alignJustify: <path d="M3 6h18M3 12h18M3 18h18" />,
  bulletList: <path d="M9 6h12M9 12h12M9 18h12M4 6h.01M4 12h.01M4 18h.01" />,
  orderedList: <path d="M10 6h11M10 12h11M10 18h11M4 4v4M3 8h2M3 14.5a1.5 1.5 0 0 1 3 0c0 1-3 2-3 3.5h3" />,
  link: (
    <path d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7" />
  ),
  unlink: (
    <path d="M18.8 13.2l1.7-1.7a5 5 0 0 0-7-7l-1.7 1.7M5.2 10.8l-1.7 1.7a5 5 0 0 0 7 7l1.7-1.7M8 2v3M2 8h3M16 22v-3M22 16h-3" />
  ),
  image: (
    <path d="M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zM3 16l5-5 4 4 3-3 6 6M15.5 9.5h.01" />
  ),
  undo: <path d="M9 14L4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3" />,
  redo: <path d="M15 14l5-5-5-5M20 9H9a5 5 0 0 0 0 10h3" />,
} as const;

function Glyph({ name }: { name: keyof typeof glyphs }) {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      {glyphs[name]}
    </svg>
  );
}

function ToolButton({
  label,
  active = false,
  disabled = false,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`btn btn-sm btn-light rte-button ${active ? 'active' : ''}`}
      title={label}
      aria-label={label}
      aria-pressed={active}
      disabled={disabled}
      // Keep the selection in the editor while clicking the toolbar.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** The link under the caret (its whole extent) or the selection, with its address and text. */
function linkTargetOf(editor: Editor): LinkTarget {
  const editing = editor.isActive('link');
  if (editing) editor.commands.extendMarkRange('link');
  const { from, to } = editor.state.selection;
  const href = (editor.getAttributes('link').href as string | undefined) ?? '';
  return { from, to, href, text: editor.state.doc.textBetween(from, to, ' '), editing };
}

/** Links the target's text as it was, or puts the new text there as the link. */
function applyLink(editor: Editor, target: LinkTarget, link: { href: string; text: string }) {
  const chain = editor.chain().focus();
  if (target.from !== target.to && link.text === target.text) {
    chain.setTextSelection({ from: target.from, to: target.to }).setLink({ href: link.href }).run();
    return;
  }
  chain
    .insertContentAt(
      { from: target.from, to: target.to },
      { type: 'text', text: link.text, marks: [{ type: 'link', attrs: { href: link.href } }] },
    )
    .run();
}

function Toolbar({ editor, onLink, onImage }: { editor: Editor; onLink: () => void; onImage: () => void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      link: e.isActive('link'),
      align: ALIGNMENTS.find((a) => e.isActive({ textAlign: a.value }))?.value ?? 'left',
      heading: HEADING_LEVELS.find((level) => e.isActive('heading', { level })) ?? 0,
      color: (e.getAttributes('textStyle').color as string | undefined) ?? '#212529',
      background: (e.getAttributes('textStyle').backgroundColor as string | undefined) ?? '#ffff00',
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();

  return (
    <div className="rte-toolbar" role="toolbar" aria-label="Форматирование">
      <Form.Select
        size="sm"
        className="rte-block-select"
        aria-label="Формат блока"
        value={state.heading}
        onChange={(event) => {
          const level = Number(event.target.value);
          if (level === 0) chain().setParagraph().run();
          else
            chain()
              .setHeading({ level: level as HeadingLevel })
              .run();
        }}
      >
        <option value={0}>Параграф</option>
        {HEADING_LEVELS.map((level) => (
          <option key={level} value={level}>
            Заголовок {level}
          </option>
        ))}
      </Form.Select>
      <ButtonGroup>
        <ToolButton label="Жирный" active={state.bold} onClick={() => chain().toggleBold().run()}>
          <strong>Ж</strong>
        </ToolButton>
        <ToolButton label="Курсив" active={state.italic} onClick={() => chain().toggleItalic().run()}>
          <em>К</em>
        </ToolButton>
        <ToolButton label="Подчёркнутый" active={state.underline} onClick={() => chain().toggleUnderline().run()}>
          <u>Ч</u>
        </ToolButton>
        <ToolButton label="Зачёркнутый" active={state.strike} onClick={() => chain().toggleStrike().run()}>
          <s>З</s>
        </ToolButton>
      </ButtonGroup>
      <ButtonGroup>
        {ALIGNMENTS.map((alignment) => (
          <ToolButton
            key={alignment.value}
            label={alignment.label}
            active={state.align === alignment.value}
            onClick={() => chain().setTextAlign(alignment.value).run()}
          >
            <Glyph
              name={
                alignment.value === 'left'
                  ? 'alignLeft'
                  : alignment.value === 'center'
                    ? 'alignCenter'
                    : alignment.value === 'right'
                      ? 'alignRight'
                      : 'alignJustify'
              }
            />
          </ToolButton>
        ))}
      </ButtonGroup>
      <ButtonGroup>
        <ToolButton
          label="Маркированный список"
          active={state.bulletList}
          onClick={() => chain().toggleBulletList().run()}
        >
          <Glyph name="bulletList" />
        </ToolButton>
        <ToolButton
          label="Нумерованный список"
          active={state.orderedList}
          onClick={() => chain().toggleOrderedList().run()}
        >
          <Glyph name="orderedList" />
        </ToolButton>
      </ButtonGroup>
      <ButtonGroup>
        <ToolButton label="Вставить ссылку" active={state.link} onClick={onLink}>
          <Glyph name="link" />
        </ToolButton>
        <ToolButton
          label="Убрать ссылку"
          disabled={!state.link}
          onClick={() => chain().extendMarkRange('link').unsetLink().run()}
        >
          <Glyph name="unlink" />
        </ToolButton>
        <ToolButton label="Вставить изображение" onClick={onImage}>
          <Glyph name="image" />
        </ToolButton>
      </ButtonGroup>
      <ButtonGroup>
        <label className="btn btn-sm btn-light rte-button rte-color" title="Цвет текста">
          <span className="rte-color-letter" style={{ borderBottomColor: state.color }}>
            А
          </span>
          <input
            type="color"
            aria-label="Цвет текста"
            value={toHex(state.color)}
            onChange={(event) => chain().setColor(event.target.value).run()}
          />
        </label>
        <label className="btn btn-sm btn-light rte-button rte-color" title="Цвет фона">
          <span className="rte-color-marker" style={{ backgroundColor: state.background }}>
            А
          </span>
          <input
            type="color"
            aria-label="Цвет фона"
            value={toHex(state.background)}
            onChange={(event) => chain().setBackgroundColor(event.target.value).run()}
          />
        </label>
        <ToolButton
          label="Сбросить цвета"
          onClick={() => chain().unsetColor().unsetBackgroundColor().removeEmptyTextStyle().run()}
        >
          <span className="rte-color-reset">А</span>
        </ToolButton>
      </ButtonGroup>
      <ButtonGroup>
        <ToolButton label="Отменить" disabled={!state.canUndo} onClick={() => chain().undo().run()}>
          <Glyph name="undo" />
        </ToolButton>
        <ToolButton label="Повторить" disabled={!state.canRedo} onClick={() => chain().redo().run()}>
          <Glyph name="redo" />
        </ToolButton>
      </ButtonGroup>
    </div>
  );
}

/** `rgb(224, 49, 49)` (as the browser reports loaded colours) → `#e03131`, which the colour input needs. */
function toHex(color: string): string {
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/i.exec(color);
  if (!rgb) return /^#[0-9a-f]{6}$/i.test(color) ? color : '#000000';
  return `#${rgb
    .slice(1, 4)
    .map((part) => Number(part).toString(16).padStart(2, '0'))
    .join('')}`;
}

/**
 * The article body editor (docs/product.md, Screens): TipTap with the toolbar of the spec, left-to-right only,
 * plain-text paste, Tab = 4 spaces, no bidirectional control characters. Calls `onChange` with
 * the HTML; an empty document is ''.
 */
export function RichTextEditor({
  initialHtml,
  onChange,
  invalid = false,
  label,
}: {
  /** The starting content; later changes of the prop are not applied (mount with a key instead). */
  initialHtml: string;
  onChange: (html: string) => void;
  invalid?: boolean;
  label: string;
}) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [...HEADING_LEVELS] },
        code: false,
        codeBlock: false,
        blockquote: false,
        horizontalRule: false,
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: 'https',
          protocols: ['mailto'],
          isAllowedUri: (url, ctx) => isAllowedHref(url) && ctx.defaultValidate(url),
        },
      }),
      TextStyle,
      Color,
      BackgroundColor,
      TextAlign.configure({ types: ['heading', 'paragraph'] }),
      Image,
      ArticleEditorRules,
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        dir: 'ltr',
        class: 'rte-content article-body',
        'aria-label': label,
        'aria-multiline': 'true',
        role: 'textbox',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  const [link, setLink] = useState<LinkTarget | null>(null);
  const [imageOpen, setImageOpen] = useState(false);

  return (
    <div className={`rte ${invalid ? 'is-invalid' : ''}`}>
      <Toolbar editor={editor} onLink={() => setLink(linkTargetOf(editor))} onImage={() => setImageOpen(true)} />
      <EditorContent editor={editor} />
      {link && (
        <LinkDialog
          target={link}
          onHide={() => setLink(null)}
          onSave={(value) => {
            applyLink(editor, link, value);
            setLink(null);
          }}
          onRemove={() => {
            editor.chain().focus().setTextSelection({ from: link.from, to: link.to }).unsetLink().run();
            setLink(null);
          }}
        />
      )}
      {imageOpen && (
        <ImageDialog
          onHide={() => setImageOpen(false)}
          onInsert={(image) => {
            editor.chain().focus().setImage(image).run();
            setImageOpen(false);
          }}
        />
      )}
    </div>
  );
}
