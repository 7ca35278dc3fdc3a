import type { Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase } from './answer.control';
import { mediaRecorderControl } from './media-recorder.control';
import type { ControlContext } from './page.context';
import { textInputControl } from './text-input.control';

// Typeform's video and audio question: a recording (video or audio) or a
// typed answer, whichever came last.
export function multiFormatControl(field: Field, aria: Aria, context: ControlContext): AnswerControl {
  const saved = context.session.answer(field.ref);
  const text = textInputControl(field, { type: 'textarea', key: 'text', aria, texts: context.t, saved });
  const area = text.node.firstChild as HTMLTextAreaElement;
  if (saved?.multi_format?.text) area.value = saved.multi_format.text;
  const recorder = mediaRecorderControl(field, {
    submitUrl: context.submitUrl,
    saved: saved?.multi_format,
    texts: context.t,
    onRecorded: () => {
      area.value = '';
    },
  });
  area.addEventListener('input', () => recorder.clear());
  text.node.append(recorder.node);
  return {
    node: text.node,
    reader: {
      read: (): StoredAnswer | undefined => {
        const recording = recorder.recording();
        if (recording)
          return {
            ...answerBase(field),
            type: 'multi_format',
            multi_format: { format: recording.format, file_url: recording.fileUrl },
          };
        const value = area.value.trim();
        return value === ''
          ? undefined
          : { ...answerBase(field), type: 'multi_format', multi_format: { format: 'text', text: value } };
      },
    },
  };
}
