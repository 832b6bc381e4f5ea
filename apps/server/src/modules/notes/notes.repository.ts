import { and, desc, eq, ilike, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOwned, insertOne } from '../../db/owned.js';
import { notes } from '../../db/schema.js';

export type NoteRow = typeof notes.$inferSelect;
export type NewNote = typeof notes.$inferInsert;

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Thin data access for notes; every read is scoped to the owner. */
export class NotesRepository {
  constructor(private readonly db: Db) {}

  /** The user's note, or 404 when it is not theirs (another user's id reads as missing). */
  findOwned(userId: string, id: unknown): Promise<NoteRow> {
    return findOwned(this.db, notes, userId, id, 'Note');
  }

  insert(row: NewNote): Promise<NoteRow> {
    return insertOne(this.db, notes, row);
  }

  list(userId: string, query: string | undefined, limit = 200) {
    const mine = eq(notes.userId, userId);
    const where = query
      ? and(
          mine,
          or(ilike(notes.title, likePattern(query)), ilike(notes.plainText, likePattern(query))),
        )
      : mine;
    return this.db.select().from(notes).where(where).orderBy(desc(notes.updatedAt)).limit(limit);
  }

  async update(id: string, patch: Partial<NewNote>): Promise<NoteRow | undefined> {
    const [row] = await this.db.update(notes).set(patch).where(eq(notes.id, id)).returning();
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(notes).where(eq(notes.id, id));
  }

  async byShareId(shareId: string): Promise<NoteRow | undefined> {
    const rows = await this.db.select().from(notes).where(eq(notes.shareId, shareId)).limit(1);
    return rows[0];
  }
}
