import { jetstreamManager } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';

export interface StreamDefinition {
  name: string;
  subjects: readonly string[];
  duplicateWindowMs: number;
}

// Creates the stream when it is missing, or brings its subjects and
// de-duplication window up to date; file storage, kept until its limits.
// Only features of NATS 2.9 are used (DESIGN.md).
export async function ensureStream(connection: NatsConnection, stream: StreamDefinition): Promise<void> {
  const manager = await jetstreamManager(connection);
  const config = {
    name: stream.name,
    subjects: [...stream.subjects],
    duplicate_window: nanos(stream.duplicateWindowMs),
  };
  try {
    await manager.streams.info(stream.name);
    await manager.streams.update(stream.name, config);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    await manager.streams.add(config);
  }
}

function isStreamNotFound(error: unknown): boolean {
  return error instanceof Error && /stream not found/i.test(error.message);
}
