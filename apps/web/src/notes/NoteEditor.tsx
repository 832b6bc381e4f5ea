import { ActionIcon, Group, Paper, Tooltip } from '@mantine/core';
import {
  IconBold,
  IconH2,
  IconItalic,
  IconList,
  IconListNumbers,
  IconQuote,
  IconUnderline,
} from '@tabler/icons-react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useMemo, useState } from 'react';
import { t } from '../messages/catalogue';

const EXTENSIONS = [StarterKit.configure({ link: { openOnClick: false, autolink: true } })];

const TOOLS = [
  {
    label: t('notes.tool.bold'),
    icon: IconBold,
    active: 'bold',
    run: (e: Editor) => e.chain().focus().toggleBold().run(),
  },
  {
    label: t('notes.tool.italic'),
    icon: IconItalic,
    active: 'italic',
    run: (e: Editor) => e.chain().focus().toggleItalic().run(),
  },
  {
    label: t('notes.tool.underline'),
    icon: IconUnderline,
    active: 'underline',
    run: (e: Editor) => e.chain().focus().toggleUnderline().run(),
  },
  {
    label: t('notes.tool.heading'),
    icon: IconH2,
    active: 'heading',
    run: (e: Editor) => e.chain().focus().toggleHeading({ level: 2 }).run(),
  },
  {
    label: t('notes.tool.bulletList'),
    icon: IconList,
    active: 'bulletList',
    run: (e: Editor) => e.chain().focus().toggleBulletList().run(),
  },
  {
    label: t('notes.tool.orderedList'),
    icon: IconListNumbers,
    active: 'orderedList',
    run: (e: Editor) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    label: t('notes.tool.blockquote'),
    icon: IconQuote,
    active: 'blockquote',
    run: (e: Editor) => e.chain().focus().toggleBlockquote().run(),
  },
] as const;

/**
 * Rich text of a note (tiptap): formatting and links, including timestamp links into the video
 * (`/video/{taskId}/summary?t=ms`) that the editor keeps as they are.
 */
export function NoteEditor({
  initialHtml,
  onChange,
  label,
}: {
  initialHtml: string;
  onChange(html: string): void;
  label: string;
}) {
  // Options that stay the same object across renders: tiptap compares them on every
  // render and otherwise re-applies them to the live view, which while keys are being typed into a
  // just-opened note could write the same text twice. The content is only the starting point.
  const [content] = useState(initialHtml);
  const editorProps = useMemo(
    () => ({
      attributes: {
        'aria-label': label,
        'aria-multiline': 'true',
        role: 'textbox',
        class: 'note-editor',
      },
    }),
    [label],
  );
  const editor = useEditor({
    extensions: EXTENSIONS,
    content,
    editorProps,
    onUpdate: ({ editor: current }) => onChange(current.getHTML()),
  });
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) =>
      Object.fromEntries(
        TOOLS.map((tool) => [tool.active, current?.isActive(tool.active) ?? false]),
      ),
  });
  return (
    <Paper withBorder radius="md">
      <Group
        gap={4}
        p={6}
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        role="toolbar"
        aria-label={t('a11y.formatting')}
      >
        {TOOLS.map((tool) => (
          <Tooltip key={tool.label} label={tool.label} withArrow>
            <ActionIcon
              variant={active?.[tool.active] ? 'light' : 'subtle'}
              color={active?.[tool.active] ? 'violet' : 'gray'}
              aria-label={tool.label}
              aria-pressed={active?.[tool.active] ?? false}
              onClick={() => editor && tool.run(editor)}
            >
              <tool.icon size={18} />
            </ActionIcon>
          </Tooltip>
        ))}
      </Group>
      <EditorContent editor={editor} style={{ padding: '4px 14px', minHeight: 240 }} />
    </Paper>
  );
}
