export * from './enums';
export * from './form-definition';
export * from './form-input.schema';
export * from './form-references';
export * from './image-references';
export * from './milestones';
export * from './normalize-form';
export * from './parse-form';
export type { Condition, ConditionVar } from './logic.schema';
