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

const TOOLS = [
  {
    label: 'Bold',
    icon: IconBold,
    active: 'bold',
    run: (e: Editor) => e.chain().focus().toggleBold().run(),
  },
  {
    label: 'Italic',
    icon: IconItalic,
    active: 'italic',
    run: (e: Editor) => e.chain().focus().toggleItalic().run(),
  },
  {
    label: 'Underline',
    icon: IconUnderline,
    active: 'underline',
    run: (e: Editor) => e.chain().focus().toggleUnderline().run(),
  },
  {
    label: 'Heading',
    icon: IconH2,
    active: 'heading',
    run: (e: Editor) => e.chain().focus().toggleHeading({ level: 2 }).run(),
  },
  {
    label: 'Bulleted list',
    icon: IconList,
    active: 'bulletList',
    run: (e: Editor) => e.chain().focus().toggleBulletList().run(),
  },
  {
    label: 'Numbered list',
    icon: IconListNumbers,
    active: 'orderedList',
    run: (e: Editor) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    label: 'Quote',
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
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false, autolink: true } })],
    content: initialHtml,
    editorProps: {
      attributes: {
        'aria-label': label,
        'aria-multiline': 'true',
        role: 'textbox',
        class: 'note-editor',
      },
    },
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
        aria-label="Formatting"
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
