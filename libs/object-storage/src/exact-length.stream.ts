import { Transform, type TransformCallback } from 'node:stream';

// Passes a body on while counting it: past `length` bytes, or ending short of
// them, it fails instead of letting a store keep a body other than the one
// declared (a client that stopped half-way, a caller that sent more).
export class ExactLengthStream extends Transform {
  private seen = 0;

  constructor(private readonly length: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.length) done(new Error(`the body runs past its ${this.length} bytes`));
    else done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.seen !== this.length)
      done(new Error(`the body ended after ${this.seen} of its ${this.length} bytes`));
    else done();
  }
}
