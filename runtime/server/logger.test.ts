import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('createLogger', () => {
  it('writes one JSON object per line when nobody is watching', () => {
    const out = sink();
    const logger = createLogger({ level: 'info', format: 'auto', isTTY: false, destination: out.stream });
    logger.info({ port: 3000 }, 'listening');
    logger.debug('hidden below the level');
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, port: 3000, msg: 'listening', pid: process.pid });
  });

  it('writes readable lines for a terminal', () => {
    const out = sink();
    const logger = createLogger({ level: 'info', format: 'auto', isTTY: true, destination: out.stream });
    logger.info({ port: 3000 }, 'listening');
    // pino-pretty colours its output; compare the text without the escape codes.
    const text = out.text().replace(/\x1b\[[0-9;]*m/g, '');
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: listening\n/);
    expect(text).toContain('port: 3000');
    expect(() => JSON.parse(text)).toThrow();
  });

  it('honours an explicit format over the terminal check', () => {
    const out = sink();
    createLogger({ level: 'info', format: 'json', isTTY: true, destination: out.stream }).info('hello');
    expect(JSON.parse(out.text())).toMatchObject({ msg: 'hello' });
  });
});
