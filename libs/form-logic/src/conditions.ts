import type { Condition, ConditionVar } from '@formline/form-definition';
import { type AnswerValue, type ChoiceValue } from './answer';

// What a condition can see while the respondent moves through the form.
export interface LogicState {
  answer(ref: string): AnswerValue | undefined;
  hidden(name: string): string | undefined;
  variable(name: string): number;
}

type Operand = AnswerValue | undefined;

// Evaluates one logic condition, `and`/`or` included. Strings compare
// case-insensitively, numbers numerically, dates by calendar day; a choice
// matches by ref, or by label against a constant. A question not answered
// satisfies only the negative operators.
export function holds(condition: Condition, state: LogicState): boolean {
  if (condition.op === 'always') return true;
  if ((condition.op as string) === 'and') return condition.vars.every((v) => 'op' in v && holds(v, state));
  if ((condition.op as string) === 'or') return condition.vars.some((v) => 'op' in v && holds(v, state));
  const [left, right] = condition.vars.map((v) => ('op' in v ? undefined : operand(v, state)));
  const negative = ['is_not', 'not_equal', 'not_contains', 'not_on'].includes(condition.op);
  if (left === undefined || right === undefined) return negative;
  switch (condition.op) {
    case 'is':
    case 'equal':
      return same(left, right);
    case 'is_not':
    case 'not_equal':
      return !same(left, right);
    case 'contains':
      return contains(left, right);
    case 'not_contains':
      return !contains(left, right);
    case 'begins_with':
      return text(left).startsWith(text(right));
    case 'ends_with':
      return text(left).endsWith(text(right));
    case 'lower_than':
      return compareNumbers(left, right, (a, b) => a < b);
    case 'lower_equal_than':
      return compareNumbers(left, right, (a, b) => a <= b);
    case 'greater_than':
      return compareNumbers(left, right, (a, b) => a > b);
    case 'greater_equal_than':
      return compareNumbers(left, right, (a, b) => a >= b);
    case 'on':
      return day(left) !== undefined && day(left) === day(right);
    case 'not_on':
      return day(left) !== day(right);
    case 'earlier_than':
      return compareDays(left, right, (a, b) => a < b);
    case 'earlier_than_or_on':
      return compareDays(left, right, (a, b) => a <= b);
    case 'later_than':
      return compareDays(left, right, (a, b) => a > b);
    case 'later_than_or_on':
      return compareDays(left, right, (a, b) => a >= b);
  }
}

function operand(variable: ConditionVar, state: LogicState): Operand {
  const value = variable.value;
  switch (variable.type) {
    case 'field':
      return state.answer(String(value));
    case 'hidden':
      return state.hidden(String(value));
    case 'variable':
      return state.variable(String(value));
    case 'constant':
      return value as string | number | boolean;
    case 'choice':
      return { ref: String(value), label: '' };
  }
}

const isChoice = (value: Operand): value is ChoiceValue =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'label' in value;

function same(left: AnswerValue, right: AnswerValue): boolean {
  if (Array.isArray(left)) return left.some((item) => same(item, right));
  if (isChoice(left) || isChoice(right)) return choiceMatches(left, right);
  if (typeof left === 'number' || typeof right === 'number')
    return Number(scalar(left)) === Number(scalar(right));
  return text(left) === text(right);
}

function choiceMatches(left: AnswerValue, right: AnswerValue): boolean {
  const [choice, other] = isChoice(left) ? [left, right] : [right as ChoiceValue, left];
  if (isChoice(other)) return choice.ref !== undefined && choice.ref === other.ref;
  return text(choice.label) === text(other);
}

function contains(left: AnswerValue, right: AnswerValue): boolean {
  if (Array.isArray(left)) return left.some((item) => same(item, right));
  return text(left).includes(text(right));
}

function text(value: AnswerValue): string {
  return String(scalar(value)).toLowerCase();
}

// Choices read as their labels.
function scalar(value: AnswerValue): string | number | boolean {
  if (Array.isArray(value)) return value.map((choice) => choice.label).join(', ');
  if (isChoice(value)) return value.label;
  return value;
}

function compareNumbers(
  left: AnswerValue,
  right: AnswerValue,
  test: (a: number, b: number) => boolean,
): boolean {
  const [a, b] = [Number(scalar(left)), Number(scalar(right))];
  return !Number.isNaN(a) && !Number.isNaN(b) && test(a, b);
}

function day(value: AnswerValue): string | undefined {
  const match = /^\d{4}-\d{2}-\d{2}/.exec(String(scalar(value)));
  return match?.[0];
}

function compareDays(
  left: AnswerValue,
  right: AnswerValue,
  test: (a: string, b: string) => boolean,
): boolean {
  const [a, b] = [day(left), day(right)];
  return a !== undefined && b !== undefined && test(a, b);
}
