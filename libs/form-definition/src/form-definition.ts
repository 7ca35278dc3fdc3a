import type { Attachment, Layout } from './media.schema';
import type { Condition } from './logic.schema';
import type { FieldType } from './enums';

// The normalised form definition: what is stored and what clients read back
// (with id, workspace, theme and _links added by the global service). Every
// default is filled, every field, choice and screen has its id and ref.

export interface Choice {
  id: string;
  ref: string;
  label: string;
  attachment?: Attachment;
}

export interface Field {
  id: string;
  title: string;
  ref: string;
  properties: Record<string, unknown> & { choices?: Choice[]; fields?: Field[] };
  validations?: Record<string, unknown>;
  type: FieldType;
  attachment?: Attachment;
  layout?: Layout;
  /** A calendly block's application (Typeform's): its scheduler's address and inputs. */
  application?: { iframe_url?: string } & Record<string, unknown>;
}

export interface WelcomeScreen {
  id: string;
  ref: string;
  title: string;
  properties: Record<string, unknown>;
  attachment?: Attachment;
  layout?: Layout;
}

export interface ThankYouScreen {
  id: string;
  ref: string;
  title: string;
  type: 'thankyou_screen' | 'url_redirect';
  properties: Record<string, unknown>;
  attachment?: Attachment;
  layout?: Layout;
}

export interface StoredLogicAction {
  action: string;
  details: Record<string, unknown>;
  condition: Condition;
}

export interface StoredLogicJump {
  type: 'field' | 'hidden';
  ref: string;
  actions: StoredLogicAction[];
}

export interface Milestone {
  field_ref: string;
}

export interface FormDefinition {
  title: string;
  /** Typeform's form type (quiz, classification, score, branching, ...); absent in forms stored before it was kept. */
  type?: string;
  language: string;
  fields: Field[];
  hidden: string[];
  variables: { score: number; price: number };
  welcome_screens: WelcomeScreen[];
  thankyou_screens: ThankYouScreen[];
  logic: StoredLogicJump[];
  theme?: { href: string };
  settings: Record<string, unknown> & { milestones?: Milestone[] };
  cui_settings: Record<string, unknown>;
  /** The page's own texts as the form overrides them (PUT /forms/{id}/messages); never part of the form resource. */
  messages?: Record<string, string>;
}

// Every field, the inner fields of groups and composite blocks included, in form order.
export function allFields(fields: readonly Field[]): Field[] {
  return fields.flatMap((field) => [field, ...(field.properties.fields ?? [])]);
}
