import type { Choice, Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';

// A question's control: its elements and how to read the answer in them.

export interface Reader {
  // The answer as entered now (undefined: not answered).
  read(): StoredAnswer | undefined;
  // A composite block's answers, one per inner field (undefined: not answered).
  inner?(): Array<[Field, StoredAnswer | undefined]>;
  // Keys A, B, C... (or digits on scales) pick an option.
  key?(key: string): boolean;
}

export interface AnswerControl {
  node: HTMLElement;
  reader: Reader;
}

/** The ARIA attributes a control's input takes from its question. */
export type Aria = Record<string, string | undefined>;

/** The field an answer is to, as a stored answer names it. */
export function answerBase(field: Field) {
  return { field: { id: field.id, ref: field.ref, type: field.type } };
}

/** A choice as an answer names it. */
export const pick = (choice: Choice) => ({ id: choice.id, ref: choice.ref, label: choice.label });

/** The answer to a question that takes several choices, in the order given. */
export function choicesAnswer(field: Field, picked: readonly Choice[], other?: string): StoredAnswer {
  return {
    ...answerBase(field),
    type: 'choices',
    choices: {
      ids: picked.map((c) => c.id),
      refs: picked.map((c) => c.ref),
      labels: picked.map((c) => c.label),
      ...(other !== undefined ? { other } : {}),
    },
  };
}
