import type { Field } from '@formline/form-definition';
import type { PageTexts } from '@formline/form-logic';
import { fileUploadUrl, UploadRefused, uploadFile } from './file-upload.control';

// The recording half of a `multi_format` ("Video and Audio") question: the
// respondent records a video or audio in the browser (MediaRecorder over the
// camera and microphone the browser asks them for), and the recording goes
// up through the question's files endpoint as a file_upload's file does; the
// answer is `{format, file_url}`. Nothing is played back (the page loads no
// blob: media) and nothing leaves for another site. Two plain buttons, a stop
// button while recording, and a polite live region telling what happens, in
// the page's words.

export type RecordingFormat = 'video' | 'audio';

export interface Recording {
  format: RecordingFormat;
  fileUrl: string;
}

export interface RecorderControl {
  node: HTMLElement;
  /** The uploaded recording, once there is one. */
  recording(): Recording | undefined;
  /** Forgets the recording (the respondent typed an answer instead). */
  clear(): void;
}

const named = (text: string, name: string) => text.replace('{name}', () => name);

export function mediaRecorderControl(
  field: Field,
  options: {
    submitUrl: string;
    saved?: { format: string; file_url?: string };
    texts: Pick<
      PageTexts,
      | 'recordVideo'
      | 'recordAudio'
      | 'stopRecording'
      | 'recording'
      | 'uploading'
      | 'uploaded'
      | 'uploadFailed'
      | 'fileTooLarge'
    >;
    /** Called when a recording has been uploaded (the typed answer gives way to it). */
    onRecorded: () => void;
  },
): RecorderControl {
  const t = options.texts;
  const uploadUrl = fileUploadUrl(options.submitUrl, field);
  const button = (text: string, className: string) => {
    const node = document.createElement('button');
    node.type = 'button';
    node.className = className;
    node.textContent = text;
    return node;
  };
  const video = button(t.recordVideo, 'secondary record');
  const audio = button(t.recordAudio, 'secondary record');
  const stop = button(t.stopRecording, 'secondary record');
  stop.hidden = true;
  const status = document.createElement('p');
  status.className = 'file-status';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');

  const saved = options.saved;
  let current: Recording | undefined =
    saved && (saved.format === 'video' || saved.format === 'audio') && saved.file_url
      ? { format: saved.format, fileUrl: saved.file_url }
      : undefined;
  if (current) status.textContent = named(t.uploaded, fileNameOf(current.fileUrl));
  let recorder: MediaRecorder | undefined;
  let attempt = 0;

  const showRecording = (recording: boolean) => {
    video.hidden = recording;
    audio.hidden = recording;
    stop.hidden = !recording;
  };

  const record = async (format: RecordingFormat) => {
    const mine = ++attempt;
    current = undefined;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia(
        format === 'video' ? { video: true, audio: true } : { audio: true },
      );
    } catch {
      // No camera or microphone, or the respondent said no: the typed answer stays.
      video.hidden = true;
      audio.hidden = true;
      status.textContent = '';
      return;
    }
    const chunks: Blob[] = [];
    // Bitrates that keep a minute of video, or ten of audio, under the default
    // 10 MB upload limit (FILE_MAX_BYTES); the browser's own are several times higher.
    const running = new MediaRecorder(stream, { videoBitsPerSecond: 1_000_000, audioBitsPerSecond: 64_000 });
    recorder = running;
    // Confirming the question while recording stops the recording instead:
    // the clip goes up, and the next press of OK answers with it.
    const stopOnSubmit = (event: Event) => {
      if (running.state !== 'recording' || !(event.target instanceof Node) || !event.target.contains(node))
        return;
      event.preventDefault();
      event.stopImmediatePropagation();
      running.stop();
    };
    document.addEventListener('submit', stopOnSubmit, true);
    running.addEventListener('dataavailable', (event) => {
      if (event.data.size > 0) chunks.push(event.data);
      // The question left the screen (Back, a reload of the step): camera and microphone go off.
      if (!node.isConnected && running.state === 'recording') running.stop();
    });
    running.addEventListener('stop', () => {
      document.removeEventListener('submit', stopOnSubmit, true);
      for (const track of stream.getTracks()) track.stop();
      showRecording(false);
      if (!node.isConnected) return; // nobody is there to answer with it
      const type = running.mimeType || (format === 'video' ? 'video/webm' : 'audio/webm');
      const name = `${format}-recording.${type.includes('mp4') ? 'mp4' : type.includes('ogg') ? 'ogg' : 'webm'}`;
      status.textContent = named(t.uploading, name);
      void uploadFile(uploadUrl, new Blob(chunks, { type }), name).then(
        (fileUrl) => {
          if (mine !== attempt) return; // a newer recording replaced this one
          current = { format, fileUrl };
          status.textContent = named(t.uploaded, name);
          options.onRecorded();
        },
        (error: unknown) => {
          if (mine !== attempt) return;
          status.textContent =
            error instanceof UploadRefused && error.status === 413 ? t.fileTooLarge : t.uploadFailed;
        },
      );
      // Where the keyboard was: back on the buttons.
      (format === 'video' ? video : audio).focus();
    });
    // A chunk a second, so that a recording left behind is noticed and stopped within one.
    running.start(1000);
    showRecording(true);
    status.textContent = t.recording;
    stop.focus();
  };

  video.addEventListener('click', () => void record('video'));
  audio.addEventListener('click', () => void record('audio'));
  stop.addEventListener('click', () => {
    if (recorder?.state === 'recording') recorder.stop();
  });

  const node = document.createElement('div');
  node.className = 'actions recorder';
  node.append(video, audio, stop, status);
  // A browser that cannot record offers only the typed answer.
  node.hidden = typeof MediaRecorder === 'undefined' || !navigator.mediaDevices?.getUserMedia;
  return {
    node,
    recording: () => current,
    clear: () => {
      attempt++;
      current = undefined;
      status.textContent = '';
    },
  };
}

function fileNameOf(fileUrl: string): string {
  return fileUrl.slice(fileUrl.lastIndexOf('/') + 1);
}
