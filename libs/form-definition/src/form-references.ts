import type { ErrorDetail } from '@formline/errors';
import { variableNames } from './enums';
import { allFields, type FormDefinition } from './form-definition';
import type { Condition, ConditionVar } from './logic.schema';

// Checks what no schema can: that refs are unique and that every logic jump,
// jump target and condition points at something the form has (a field, a
// hidden field, a choice, a screen or a variable). Returns one detail per problem.
export function checkFormReferences(form: FormDefinition): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const problem = (field: string, description: string, code = 'INVALID_REFERENCE') =>
    problems.push({ code, description, field, in: 'body' });

  const fields = allFields(form.fields);
  const fieldRefs = new Set(fields.map((field) => field.ref));
  const choiceRefs = new Set(
    fields.flatMap((field) => (field.properties.choices ?? []).map((choice) => choice.ref)),
  );
  const hidden = new Set(form.hidden);
  const endings = new Set(form.thankyou_screens.map((screen) => screen.ref));
  const variables = new Set<string>(variableNames);

  reportDuplicates(
    fieldPaths(form).map(({ path, ref }) => ({ path: `${path}.ref`, key: ref })),
    (path, ref) => problem(path, `the ref ${ref} is used by another field`, 'DUPLICATE_REF'),
  );
  form.fields.forEach((field, i) =>
    reportDuplicates(
      (field.properties.choices ?? []).map((choice, j) => ({
        path: `fields[${i}].properties.choices[${j}].ref`,
        key: choice.ref,
      })),
      (path, ref) => problem(path, `the ref ${ref} is used by another choice`, 'DUPLICATE_REF'),
    ),
  );
  reportDuplicates(
    [
      ...form.welcome_screens.map((screen, i) => ({ path: `welcome_screens[${i}].ref`, key: screen.ref })),
      ...form.thankyou_screens.map((screen, i) => ({ path: `thankyou_screens[${i}].ref`, key: screen.ref })),
    ],
    (path, ref) => problem(path, `the ref ${ref} is used by another screen`, 'DUPLICATE_REF'),
  );
  reportDuplicates(
    form.hidden.map((name, i) => ({ path: `hidden[${i}]`, key: name })),
    (path, name) => problem(path, `the hidden field ${name} is listed twice`, 'DUPLICATE_REF'),
  );

  const checkVar = (variable: ConditionVar, path: string) => {
    const value = String(variable.value);
    if (variable.type === 'field' && !fieldRefs.has(value)) problem(path, `no field has the ref ${value}`);
    if (variable.type === 'hidden' && !hidden.has(value)) problem(path, `no hidden field is named ${value}`);
    if (variable.type === 'variable' && !variables.has(value)) problem(path, `no variable is named ${value}`);
    if (variable.type === 'choice' && !choiceRefs.has(value)) problem(path, `no choice has the ref ${value}`);
  };
  const checkCondition = (condition: Condition, path: string) =>
    condition.vars.forEach((item, k) =>
      'op' in item ? checkCondition(item, `${path}.vars[${k}]`) : checkVar(item, `${path}.vars[${k}].value`),
    );

  form.logic.forEach((jump, i) => {
    const at = `logic[${i}]`;
    if (jump.type === 'field' && !fieldRefs.has(jump.ref))
      problem(`${at}.ref`, `no field has the ref ${jump.ref}`);
    if (jump.type === 'hidden' && !hidden.has(jump.ref))
      problem(`${at}.ref`, `no hidden field is named ${jump.ref}`);
    jump.actions.forEach((action, j) => {
      const actionAt = `${at}.actions[${j}]`;
      const to = action.details.to as { type: string; value: string } | undefined;
      if (to?.type === 'field' && !fieldRefs.has(to.value)) {
        problem(`${actionAt}.details.to.value`, `no field has the ref ${to.value}`);
      }
      if ((to?.type === 'thankyou' || to?.type === 'outcome') && !endings.has(to.value)) {
        problem(`${actionAt}.details.to.value`, `no thank-you screen has the ref ${to.value}`);
      }
      const value = action.details.value as { type: string; value: unknown } | undefined;
      if (value?.type === 'variable' && !variables.has(String(value.value))) {
        problem(`${actionAt}.details.value.value`, `no variable is named ${String(value.value)}`);
      }
      checkCondition(action.condition, `${actionAt}.condition`);
    });
  });
  return problems;
}

function fieldPaths(form: FormDefinition): Array<{ path: string; ref: string }> {
  return form.fields.flatMap((field, i) => [
    { path: `fields[${i}]`, ref: field.ref },
    ...(field.properties.fields ?? []).map((inner, j) => ({
      path: `fields[${i}].properties.fields[${j}]`,
      ref: inner.ref,
    })),
  ]);
}

function reportDuplicates(
  items: Array<{ path: string; key: string }>,
  report: (path: string, key: string) => void,
) {
  const seen = new Set<string>();
  for (const { path, key } of items) {
    if (seen.has(key)) report(path, key);
    seen.add(key);
  }
}
