/** What the notes/ screens say (keys `notes.*`): the library's Notes tab and a note's page. */
export const NOTES_MESSAGES = {
  // The library's Notes tab.
  'notes.list.new': 'New note',
  'notes.list.loadFailed': 'Your notes could not be loaded: {reason}',
  'notes.list.noMatch': 'No note matches your search',
  'notes.list.empty': 'No notes yet',
  'notes.list.emptyText': "Create a note from a video's summary or a moment, or start a blank one.",
  'notes.list.edited': 'Edited {when}',
  'notes.untitled': 'Untitled note',

  // The editor's toolbar.
  'notes.tool.bold': 'Bold',
  'notes.tool.italic': 'Italic',
  'notes.tool.underline': 'Underline',
  'notes.tool.heading': 'Heading',
  'notes.tool.bulletList': 'Bulleted list',
  'notes.tool.orderedList': 'Numbered list',
  'notes.tool.blockquote': 'Quote',

  // /note/detail/{noteId}.
  'notes.detail.notFound': 'Note not found',
  'notes.detail.notYours': 'This note does not exist or is not yours.',
  'notes.detail.backToNotes': 'Back to your notes',
  'notes.detail.allNotes': '← All notes',
  'notes.detail.saved': 'Saved',
  'notes.detail.notSaved': 'Not saved: retrying on your next change',
  'notes.detail.saving': 'Saving…',
  'notes.detail.delete': 'Delete',
  'notes.detail.confirmDelete': 'Delete this note? This cannot be undone.',
  'notes.detail.title': 'Title',
  'notes.detail.text': 'Note text',
  // "From <link>the video's summary</link>. Time links open the video at that moment."
  'notes.detail.from': 'From',
  'notes.detail.fromSummary': "the video's summary",
  'notes.detail.timeLinks': '. Time links open the video at that moment.',
} as const;
