import type { ResponseResource } from '@formline/contracts';
import { allFields, type FormDefinition } from '@formline/form-definition';

// Question types answered through their inner fields, or not at all: no column of their own.
const unanswered = new Set(['statement', 'group', 'matrix', 'contact_info', 'address']);
const metadataKeys = ['user_agent', 'platform', 'referer', 'network_id', 'browser'] as const;

interface Column {
  header: string;
  value: (response: ResponseResource, answers: Map<string, Answer>) => string;
}

interface Answer {
  field?: { id?: string };
  type?: string;
  [key: string]: unknown;
}

// Writes responses as CSV (RFC 4180: CRLF line ends, a cell quoted when it
// holds a comma, a quote or a line break, quotes doubled) with one column
// per question of the form's current definition, in the form's order, then
// its hidden fields, its variables, the ending and the metadata. The first
// column is the response token: a cut export resumes with `after` set to the
// last one received. The file starts with a UTF-8 byte order mark, without
// which spreadsheets read it in a legacy encoding.
export class ResponseCsvWriter {
  private readonly columns: Column[];

  constructor(definition: FormDefinition, fields?: readonly string[]) {
    const questions = allFields(definition.fields).filter(
      (field) =>
        !unanswered.has(field.type) && (!fields || fields.includes(field.id) || fields.includes(field.ref)),
    );
    this.columns = [
      { header: 'token', value: (r) => text(r.token) },
      { header: 'response_type', value: (r) => text(r.response_type) },
      { header: 'landed_at', value: (r) => text(r.landed_at) },
      { header: 'submitted_at', value: (r) => text(r.submitted_at) },
      ...questions.map((question): Column => ({
        header: question.title || question.ref,
        value: (_r, answers) => answerText(answers.get(question.id)),
      })),
      ...(definition.hidden ?? []).map((name): Column => ({
        header: `hidden.${name}`,
        value: (r) => text(record(r.hidden)[name]),
      })),
      ...Object.keys(definition.variables ?? {}).map((key): Column => ({
        header: `variables.${key}`,
        value: (r) => variable(r.variables, key),
      })),
      { header: 'ending', value: (r) => text(record(r.ending).ref) },
      ...metadataKeys.map((key): Column => ({
        header: `metadata.${key}`,
        value: (r) => text(record(r.metadata)[key]),
      })),
    ];
  }

  header(): string {
    return `\uFEFF${this.columns.map((column) => csvCell(column.header)).join(',')}\r\n`;
  }

  rows(responses: readonly ResponseResource[]): string {
    let out = '';
    for (const response of responses) {
      const answers = new Map<string, Answer>();
      for (const answer of Array.isArray(response.answers) ? (response.answers as Answer[]) : []) {
        if (answer.field?.id) answers.set(answer.field.id, answer);
      }
      out += `${this.columns.map((column) => csvCell(column.value(response, answers))).join(',')}\r\n`;
    }
    return out;
  }
}

// A number as a spreadsheet reads it: only digits, a sign, a point, an exponent.
const plainNumber = /^[+-]?\d{1,30}(?:\.\d{1,30})?(?:[eE][+-]?\d{1,4})?$/;
const formulaStart = new Set(['=', '+', '-', '@', '\t', '\r']);

// One cell, RFC 4180 quoted when it must be. A text a spreadsheet would run
// as a formula (starting with = + - @, a tab or a carriage return) is
// prefixed with an apostrophe, which spreadsheets show as text; a plain
// number such as -5 or +33 is left as it is, as it runs nothing.
export function csvCell(value: string): string {
  const safe =
    value.length > 0 && formulaStart.has(value[0]) && !plainNumber.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

// A readable cell for an answer of any type: choices by their labels
// (joined by ", "), an other choice by its text, a payment by its amount, a
// file by its address; anything else as its value, or its JSON.
export function answerText(answer: Answer | undefined): string {
  if (!answer?.type) return '';
  const value = answer[answer.type];
  const fields = record(value);
  switch (answer.type) {
    case 'choice':
      return text(fields.label ?? fields.other);
    case 'choices': {
      const labels = Array.isArray(fields.labels) ? fields.labels.map(text) : [];
      return (fields.other ? [...labels, text(fields.other)] : labels).join(', ');
    }
    case 'payment':
      return text(fields.amount);
    case 'multi_format':
      return text(fields.file_url ?? fields.text ?? fields.transcript);
    default:
      return text(value);
  }
}

function variable(variables: unknown, key: string): string {
  const found = Array.isArray(variables)
    ? (variables as Array<Record<string, unknown>>).find((item) => item.key === key)
    : undefined;
  return found ? text(found[text(found.type)]) : '';
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
