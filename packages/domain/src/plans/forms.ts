import { COMPANY_SIZES } from '@moments/contract';

/*
 * Validation of the two billing forms, shared by the plan page and the server so both say
 * the same thing.
 */

/**
 * The cancel survey reasons, numbered as the survey counts them. The labels are the English the
 * server reads back in the survey details ('reason: text'); the web shows each reason's id
 * through its catalogue.
 */
export const CANCEL_REASONS = [
  { id: 1, label: 'It is too expensive', detail: 'required' },
  { id: 2, label: 'A feature I need is missing', detail: 'required' },
  { id: 3, label: 'The clips are not good enough', detail: 'required' },
  { id: 4, label: 'I ran into technical problems', detail: 'required' },
  { id: 5, label: 'I am switching to another product', detail: 'required' },
  { id: 6, label: 'I only needed it for one project', detail: 'none' },
  { id: 7, label: 'Other', detail: 'optional' },
] as const;
export type CancelReasonId = (typeof CANCEL_REASONS)[number]['id'];

export const FEEDBACK_REQUIRED = 'Please enter feedback';
export const CONTENT_REQUIRED = 'Please enter content';
/** The survey's errors as codes, and the English the server answers with. */
export type SurveyError = 'feedbackRequired' | 'contentRequired';
export const SURVEY_ERRORS_EN: Record<SurveyError, string> = {
  feedbackRequired: FEEDBACK_REQUIRED,
  contentRequired: CONTENT_REQUIRED,
};
export const PLAN_PROTOCOL_TIPS = 'plan protocol tips';

export interface SurveyAnswer {
  id: number;
  text?: string;
}

export interface SurveyResult {
  /** Form-level error (no reason picked). */
  error: SurveyError | null;
  /** Per-reason errors, by reason id. */
  reasonErrors: Record<number, SurveyError>;
  /** The survey details: one 'reason: text' per answer ('reason' alone when there is no text). */
  details: string[];
}

export function validateCancelSurvey(answers: readonly SurveyAnswer[]): SurveyResult {
  const reasonErrors: Record<number, SurveyError> = {};
  const details: string[] = [];
  const known = answers.filter((answer) => CANCEL_REASONS.some((r) => r.id === answer.id));
  if (known.length === 0) return { error: 'feedbackRequired', reasonErrors, details };
  for (const answer of known) {
    const reason = CANCEL_REASONS.find((r) => r.id === answer.id)!;
    const text = reason.detail === 'none' ? '' : (answer.text ?? '').trim();
    if (reason.detail === 'required' && !text) reasonErrors[reason.id] = 'contentRequired';
    details.push(text ? `${reason.label}: ${text}` : reason.label);
  }
  return { error: null, reasonErrors, details };
}

/** Server side: survey details arrive as 'reason: text' strings; checks the same rules. */
export function validateCancelDetails(details: readonly string[]): string | null {
  const answers: SurveyAnswer[] = [];
  for (const detail of details) {
    const reason = CANCEL_REASONS.find(
      (r) => detail === r.label || detail.startsWith(`${r.label}:`),
    );
    if (!reason) return `Unknown reason: ${detail.slice(0, 80)}`;
    answers.push({ id: reason.id, text: detail.slice(reason.label.length + 1) });
  }
  const result = validateCancelSurvey(answers);
  const error = result.error ?? Object.values(result.reasonErrors)[0];
  return error ? SURVEY_ERRORS_EN[error] : null;
}

export interface EnterpriseForm {
  first_name: string;
  last_name: string;
  business_email: string;
  company_name: string;
  company_size: string;
  company_social_channel: string;
  message: string;
}

export const ENTERPRISE_FIELDS: ReadonlyArray<keyof EnterpriseForm> = [
  'first_name',
  'last_name',
  'business_email',
  'company_name',
  'company_size',
  'company_social_channel',
  'message',
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export type EnterpriseError = 'required' | 'email' | 'companySize';
/** The enterprise form's errors in English, as the server answers them. */
export const ENTERPRISE_ERRORS_EN: Record<EnterpriseError, string> = {
  required: 'This field is required',
  email: 'Enter a valid business email',
  companySize: 'Choose a company size',
};

/** All fields required, business_email valid, company_size one of the six values. */
export function enterpriseFormErrors(
  form: Partial<Record<keyof EnterpriseForm, unknown>>,
): Partial<Record<keyof EnterpriseForm, EnterpriseError>> {
  const errors: Partial<Record<keyof EnterpriseForm, EnterpriseError>> = {};
  for (const field of ENTERPRISE_FIELDS) {
    const value = form[field];
    if (typeof value !== 'string' || !value.trim()) errors[field] = 'required';
  }
  if (!errors.business_email && !EMAIL.test(String(form.business_email).trim())) {
    errors.business_email = 'email';
  }
  if (
    !errors.company_size &&
    !(COMPANY_SIZES as readonly string[]).includes(String(form.company_size))
  ) {
    errors.company_size = 'companySize';
  }
  return errors;
}

/** `enterpriseFormErrors` in English, for the server's answer. */
export function validateEnterpriseForm(
  form: Partial<Record<keyof EnterpriseForm, unknown>>,
): Partial<Record<keyof EnterpriseForm, string>> {
  return Object.fromEntries(
    Object.entries(enterpriseFormErrors(form)).map(([field, code]) => [
      field,
      ENTERPRISE_ERRORS_EN[code],
    ]),
  );
}
