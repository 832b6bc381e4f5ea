import { z } from 'zod';
import { CreditHistory } from './billing.js';
import { CLIP_LENGTHS } from './constants.js';
import { ExportOptions } from './exports.js';
import {
  IdempotencyKey,
  Job,
  Language,
  Moment,
  SearchVideosBody,
  Task,
  TaskStartParams,
} from './schemas.js';
import { SearchVideosReply } from './search.js';

/**
 * The tools of the MCP server (`/mcp`, and `npx moments-mcp` over stdio): each one's input and
 * output, made of the same schemas the HTTP API validates with, so an agent is held to the same
 * bounds as any other client. A tool's output must be a JSON object, so lists come wrapped.
 */

const Id = z.string().min(1).max(100);

/**
 * Sent as the call's Idempotency-Key: an agent that retries a paid tool with the same key gets
 * the first answer again and is charged once.
 */
const IdempotencyKeyInput = IdempotencyKey.optional().describe(
  'Any unique string (a UUID); a retry with the same key is answered once and charged once',
);

/** What an agent asks for: viral moments, the answers to a question, or a captioned video. */
export const MCP_TASK_KINDS = ['viral', 'question', 'caption'] as const;
export type McpTaskKind = (typeof MCP_TASK_KINDS)[number];

export const StartTaskInput = z
  .object({
    upload_id: Id.optional().describe('The `id` of an upload (POST /api/upload answers it)'),
    url: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('A video link: YouTube, Vimeo, TikTok… or a direct media address'),
    kind: z.enum(MCP_TASK_KINDS).default('viral'),
    query: TaskStartParams.shape.query.describe('The question (kind `question` needs one)'),
    source_lang: Language.default('auto').describe('The spoken language (ISO 639), or auto'),
    clip_length: z.enum(CLIP_LENGTHS).default('auto'),
    idempotency_key: IdempotencyKeyInput,
  })
  .refine((input) => (input.upload_id === undefined) !== (input.url === undefined), {
    message: 'Give either upload_id or url',
    path: ['upload_id'],
  })
  .refine((input) => (input.kind === 'question') === !!input.query, {
    message: 'A question task needs its query, and only a question task takes one',
    path: ['query'],
  });
export type StartTaskInput = z.infer<typeof StartTaskInput>;

export const TaskIdInput = z.object({ task_id: Id });

export const ListTasksInput = z.object({
  page_num: z.number().int().min(1).default(1),
  page_size: z.number().int().min(1).max(100).default(20),
});
export const TaskList = z.object({ tasks: z.array(Task) });

export const ListMomentsInput = z.object({
  task_id: Id.optional().describe("A task's moments, best first; without it, all of yours"),
});
export const MomentList = z.object({ moments: z.array(Moment) });

export const SearchMomentsInput = SearchVideosBody.extend({
  search_id: z.string().max(1000).optional().describe("The previous page's search_id"),
});

export const ExportClipInput = ExportOptions.pick({
  aspect: true,
  quality: true,
  layout: true,
  caption_position: true,
  caption_size: true,
  remove_fillers: true,
  start_ms: true,
  end_ms: true,
  cuts: true,
  remove_silences: true,
}).extend({
  moment_id: Id,
  template: ExportOptions.shape.template.describe(
    'The caption style: a template id of GET /api/captions/templates',
  ),
  idempotency_key: IdempotencyKeyInput,
});
export type ExportClipInput = z.infer<typeof ExportClipInput>;

export const ExportIdInput = z.object({ export_id: Id });
/** An export with an absolute address to download its MP4 (signed, expires) once DONE. */
export const ExportResult = Job.extend({ download_url: z.string().nullable() });
export type ExportResult = z.infer<typeof ExportResult>;

export const CreditsInput = z.object({
  movements: z.number().int().min(1).max(100).default(10).describe('How many recent movements'),
});

/** Name, description, input and output of every tool. */
export const MCP_TOOLS = {
  start_task: {
    description:
      'Start a task on an upload or a link: its viral moments, the moments that answer a question, or animated captions. Charges credits as the web app does; poll get_task until status is DONE or ERROR.',
    input: StartTaskInput,
    output: Task,
  },
  get_task: {
    description: 'One task: status, stage, progress, error_reason, cost.',
    input: TaskIdInput,
    output: Task,
  },
  list_tasks: { description: 'Your tasks, newest first.', input: ListTasksInput, output: TaskList },
  list_moments: {
    description: "A task's moments, best first, with titles, scores, transcript and hashtags.",
    input: ListMomentsInput,
    output: MomentList,
  },
  search_moments: {
    description:
      'Search your videos and moments (and shared moments) by words and meaning; 24 hits a page by default.',
    input: SearchMomentsInput,
    output: SearchVideosReply,
  },
  export_clip: {
    description:
      "Export a moment as an MP4 with animated captions and the given aspect. Uses one of the plan's exports; poll get_export until DONE.",
    input: ExportClipInput,
    output: ExportResult,
  },
  get_export: {
    description: 'One export: status, progress, and once DONE a download_url of its MP4.',
    input: ExportIdInput,
    output: ExportResult,
  },
  credits: {
    description: 'Your credit balances by bucket, and the latest credit movements.',
    input: CreditsInput,
    output: CreditHistory,
  },
} as const;
export type McpToolName = keyof typeof MCP_TOOLS;
