import type { Field, FormDefinition, StoredLogicAction, ThankYouScreen } from '@formline/form-definition';
import { isComposite, respondentBlocks } from './blocks';
import { type LogicState, holds } from './conditions';

export interface RespondentPath {
  /** Refs of the blocks the respondent saw, in order. */
  visited: string[];
  variables: { score: number; price: number };
  ending: ThankYouScreen;
}

export interface PartialPath {
  /** Refs of the blocks left so far, in order (their logic has run). */
  visited: string[];
  variables: { score: number; price: number };
  /** The block the walk stopped at, when it stopped before an ending. */
  at?: Field;
  /** The ending reached, when the walk got that far. */
  ending?: ThankYouScreen;
}

// Replays the respondent's way through the form with their answers: blocks
// in order (a group, then its questions), logic of hidden fields first, then
// of each block as it is left. Calculations whose condition holds apply in
// order; the first jump whose condition holds is taken. Without a jump to an
// ending, the respondent reaches the first thank-you screen.
export function walkForm(form: FormDefinition, state: AnswerState): RespondentPath {
  const path = stepThroughForm(form, state, () => false);
  return {
    visited: path.visited,
    variables: path.variables,
    ending: path.ending ?? form.thankyou_screens[0],
  };
}

export type AnswerState = Omit<LogicState, 'variable'>;

// The same walk, stopping before the first block for which `stopAt` holds
// (the respondent's page: the block not answered yet, whose logic cannot run).
export function stepThroughForm(
  form: FormDefinition,
  state: AnswerState,
  stopAt: (block: Field) => boolean,
): PartialPath {
  const blocks = respondentBlocks(form.fields);
  const variables = { score: form.variables.score, price: form.variables.price };
  const logicState: LogicState = {
    ...state,
    variable: (name) => variables[name as keyof typeof variables] ?? 0,
  };
  const visited: string[] = [];
  let ending: ThankYouScreen | undefined;
  let position = 0;

  const follow = (actions: readonly StoredLogicAction[]): boolean => {
    for (const action of actions) {
      if (!holds(action.condition, logicState)) continue;
      if (action.action !== 'jump') {
        calculate(action, variables);
        continue;
      }
      const to = action.details.to as { type: string; value: string };
      if (to.type === 'field') position = blocks.findIndex((block) => block.ref === to.value);
      else ending = form.thankyou_screens.find((screen) => screen.ref === to.value);
      return true;
    }
    return false;
  };

  for (const jump of form.logic.filter((jump) => jump.type === 'hidden')) {
    if (follow(jump.actions)) break;
  }
  while (!ending && position >= 0 && position < blocks.length) {
    const block = blocks[position];
    // A jump back to a block already seen would never end: the path ends there.
    if (visited.includes(block.ref)) break;
    if (stopAt(block)) return { visited, variables, at: block };
    // A composite block's inner fields are answered on its screen: left with it.
    const left = [
      block.ref,
      ...(isComposite(block) ? (block.properties.fields ?? []).map((f) => f.ref) : []),
    ];
    visited.push(...left);
    const jumped = form.logic
      .filter((jump) => jump.type === 'field' && left.includes(jump.ref))
      .some((jump) => follow(jump.actions));
    if (!jumped) position += 1;
  }
  return { visited, variables, ending };
}

function calculate(action: StoredLogicAction, variables: { score: number; price: number }): void {
  const target = (action.details.target as { value: 'score' | 'price' }).value;
  const operand = action.details.value as { type: string; value: unknown };
  const value =
    operand.type === 'variable' ? variables[operand.value as 'score' | 'price'] : Number(operand.value);
  // An operand that is not a number (an evaluation we cannot compute) changes nothing.
  if (!Number.isFinite(value)) return;
  const current = variables[target];
  switch (action.action) {
    case 'add':
      variables[target] = current + value;
      return;
    case 'subtract':
      variables[target] = current - value;
      return;
    case 'multiply':
      variables[target] = current * value;
      return;
    case 'divide':
      if (value !== 0) variables[target] = current / value;
      return;
    case 'set':
      variables[target] = value;
      return;
  }
}
