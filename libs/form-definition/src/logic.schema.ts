import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import {
  calculationValueTypes,
  conditionOperators,
  conditionVarTypes,
  jumpTargetTypes,
  logicActions,
  logicJumpTypes,
  variableNames,
} from './enums';

// Logic jumps (the form's `logic` items): for a field or hidden field,
// actions that run when their condition holds. The shapes are checked here; whether the refs point
// at something that exists is checked against the whole form (form-references.ts).

export interface ConditionVar {
  type: (typeof conditionVarTypes)[number];
  value: unknown;
}

export interface Condition {
  op: (typeof conditionOperators)[number];
  vars: Array<ConditionVar | Condition>;
}

const conditionVarSchema = z.strictObject({
  type: z.enum(conditionVarTypes),
  value: z.unknown().refine((value) => value !== undefined, { error: 'value is required' }),
});

// Typeform nests conditions for and/or: a var may itself be a condition (it
// has an `op`). Choosing the schema by that, rather than a union, keeps each
// error at the exact property instead of "matches neither".
const conditionItemSchema: z.ZodType<ConditionVar | Condition> = z.unknown().superRefine((item, ctx) => {
  const isCondition = typeof item === 'object' && item !== null && 'op' in item;
  const result = (isCondition ? conditionSchema : conditionVarSchema).safeParse(item);
  if (!result.success)
    for (const issue of result.error.issues)
      ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
}) as z.ZodType<ConditionVar | Condition>;

export const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.strictObject({
    op: z.enum([...conditionOperators, 'and', 'or']) as z.ZodType<Condition['op']>,
    vars: z.array(conditionItemSchema).max(inputLimits.conditionVars),
  }),
);

const targetSchema = z.strictObject({
  type: z.literal('variable'),
  value: z.enum(variableNames, { error: `must be one of ${variableNames.join(', ')}` }),
});

export const actionSchema = z
  .strictObject({
    action: z.enum(logicActions),
    details: z.strictObject({
      to: z
        .strictObject({ type: z.enum(jumpTargetTypes), value: boundedText(inputLimits.id).min(1) })
        .optional(),
      target: targetSchema.optional(),
      value: z
        .strictObject({
          type: z.enum(calculationValueTypes),
          value: z.unknown().refine((value) => value !== undefined, { error: 'value is required' }),
        })
        .optional(),
    }),
    condition: conditionSchema,
  })
  .superRefine((action, ctx) => {
    // A jump says where to; a calculation says on what and by how much.
    if (action.action === 'jump') {
      if (!action.details.to)
        ctx.addIssue({ code: 'custom', path: ['details', 'to'], message: 'a jump needs details.to' });
      return;
    }
    if (!action.details.target) {
      ctx.addIssue({
        code: 'custom',
        path: ['details', 'target'],
        message: `${action.action} needs details.target`,
      });
    }
    if (!action.details.value) {
      ctx.addIssue({
        code: 'custom',
        path: ['details', 'value'],
        message: `${action.action} needs details.value`,
      });
    }
  });
export type LogicAction = z.infer<typeof actionSchema>;

export const logicJumpSchema = z.strictObject({
  type: z.enum(logicJumpTypes),
  ref: boundedText(inputLimits.id).min(1),
  actions: z.array(actionSchema).max(inputLimits.actions),
});
export type LogicJump = z.infer<typeof logicJumpSchema>;
