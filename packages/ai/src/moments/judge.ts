import { z } from 'zod';
import { parseJsonReply, type LlmClient } from '../llm/index';
import { momentFromSpan, settledScore, type SpanCandidate } from './candidates';
import type { ScoringContext } from './scoring';
import { HASHTAGS_MAX, normaliseHashtag } from './titles';
import type { Moment } from './types';

const judgementSchema = z.object({
  moments: z
    .array(
      z.object({
        id: z.number().int(),
        score: z.number().min(0).max(100),
        title: z.string().trim().min(1).max(120),
        description: z.string().trim().max(500).optional().default(''),
        hashtags: z.array(z.string()).max(10).optional().default([]),
        reason: z.string().trim().max(400).optional().default(''),
      }),
    )
    .min(1),
});

const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_CANDIDATE_CHARS = 1_500;
/** The LLM's verdict leads; the deterministic score keeps an unreasonable verdict from ruling alone. */
const LLM_SHARE = 0.6;

export type JudgeOutcome =
  { ok: true; moments: Moment[]; warnings: string[] } | { ok: false; error: string };

function prompt(
  context: ScoringContext,
  pool: SpanCandidate[],
  limit: number,
  actAs: string | undefined,
): string {
  const candidates = pool.map((candidate, id) => ({
    id,
    seconds: `${(candidate.startMs / 1000).toFixed(1)}-${(candidate.endMs / 1000).toFixed(1)}`,
    text: context.sentences
      .slice(candidate.first, candidate.last + 1)
      .map((sentence) => sentence.text)
      .join(' ')
      .slice(0, MAX_CANDIDATE_CHARS),
  }));
  return [
    `Here are ${pool.length} candidate clips from one video's transcript.`,
    actAs ? `Choose for this audience: ${actAs}.` : '',
    `Pick the best ${limit} as short social clips: a strong hook, a complete thought with a payoff, emotion, quotable lines.`,
    'Reply with one JSON object: {"moments":[{"id":number,"score":0-100,"title":string (max 70 chars),',
    '"description":string (1-2 sentences),"hashtags":[string],"reason":string}]} best first.',
    'Use only the given ids; never invent text that is not in the clip.',
    JSON.stringify(candidates),
  ]
    .filter(Boolean)
    .join('\n');
}

/** Asks the LLM to judge and title the candidate spans; it may only choose among them, never invent spans. */
export async function judgeWithLlm(
  llm: LlmClient,
  context: ScoringContext,
  pool: SpanCandidate[],
  options: { limit: number; actAs?: string; signal?: AbortSignal; timeoutMs?: number },
): Promise<JudgeOutcome> {
  let parsed: z.infer<typeof judgementSchema>;
  try {
    const reply = await llm.complete(
      [
        {
          role: 'system',
          content: 'You are a video editor who picks the most shareable moments of long videos.',
        },
        { role: 'user', content: prompt(context, pool, options.limit, options.actAs) },
      ],
      { json: true, signal: options.signal, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
    );
    parsed = judgementSchema.parse(parseJsonReply(reply));
  } catch (error) {
    const message =
      error instanceof z.ZodError
        ? `reply did not match the expected JSON: ${error.issues[0]?.message}`
        : (error as Error).message;
    return { ok: false, error: message };
  }
  const warnings: string[] = [];
  const seen = new Set<number>();
  const moments: Moment[] = [];
  for (const verdict of parsed.moments) {
    const candidate = pool[verdict.id];
    if (!candidate || seen.has(verdict.id)) {
      if (!candidate) warnings.push(`LLM named unknown candidate ${verdict.id}; ignored.`);
      continue;
    }
    seen.add(verdict.id);
    const base = momentFromSpan(context, candidate.first, candidate.last, candidate.scored);
    const hashtags = verdict.hashtags
      .map(normaliseHashtag)
      .filter((tag): tag is string => tag !== undefined);
    moments.push({
      ...base,
      // The verdict's share and the rules' share of each reason, adding up to the score shown.
      ...settledScore(LLM_SHARE * verdict.score + (1 - LLM_SHARE) * base.score, [
        {
          kind: 'judge',
          detail: verdict.reason || 'Chosen by the LLM judge',
          weight: LLM_SHARE * verdict.score,
        },
        ...base.reasons.map((reason) => ({
          ...reason,
          weight: (1 - LLM_SHARE) * reason.weight,
        })),
      ]),
      title: verdict.title,
      description: verdict.description || base.description,
      hashtags: hashtags.length ? hashtags.slice(0, HASHTAGS_MAX) : base.hashtags,
    });
  }
  if (moments.length === 0) return { ok: false, error: 'the LLM chose none of the candidates' };
  moments.sort((a, b) => b.score - a.score);
  return { ok: true, moments: moments.slice(0, options.limit), warnings };
}
