// An answer as it is stored and listed (Typeform's answer shape), tied to its field.
export interface StoredAnswer {
  field: { id: string; ref: string; type: string };
  type: string;
  text?: string;
  email?: string;
  number?: number;
  boolean?: boolean;
  choice?: { id?: string; ref?: string; label?: string; other?: string };
  choices?: { ids: string[]; refs: string[]; labels: string[]; other?: string };
  date?: string;
  url?: string;
  phone_number?: string;
  file_url?: string;
  payment?: { amount: string; last4?: string; name?: string; success?: boolean };
  multi_format?: { format: 'video' | 'audio' | 'text'; file_url?: string; text?: string };
}

// What logic conditions compare: the answer's value, choices as their refs and labels.
export type AnswerValue = string | number | boolean | ChoiceValue | ChoiceValue[];
export interface ChoiceValue {
  ref?: string;
  label: string;
}

export function valueOf(answer: StoredAnswer): AnswerValue | undefined {
  switch (answer.type) {
    case 'choice':
      return { ref: answer.choice?.ref, label: answer.choice?.label ?? answer.choice?.other ?? '' };
    case 'choices': {
      const { refs = [], labels = [], other } = answer.choices ?? {};
      const picked = labels.map((label, i) => ({ ref: refs[i], label }));
      return other ? [...picked, { label: other }] : picked;
    }
    case 'payment':
      return answer.payment && Number(answer.payment.amount);
    case 'multi_format':
      // Logic compares what was said: the text, or the recording's address.
      return answer.multi_format?.text ?? answer.multi_format?.file_url;
    default:
      return answer[
        answer.type as 'file_url' | 'text' | 'email' | 'number' | 'boolean' | 'date' | 'url' | 'phone_number'
      ];
  }
}
