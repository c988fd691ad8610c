/**
 * @module
 * Reading a multipart form whose files go to the router's upload folder (rest.vertx's upload
 * folder): the body streams through the multipart parser, each file part is written to disk as it
 * arrives and checked against the folder's limits, text fields are kept in memory up to theirs.
 * The files are recorded on the exchange, so that the route releases them once it has answered.
 */
import { BadRequestError, HttpError } from '../errors.js';
import type { PartSink } from '../io/multipart.js';
import { multipartBoundary, parseMultipart } from '../io/multipart.js';
import { bareMime } from '../io/negotiate.js';
import type { UploadFolder } from '../node-support.js';
import type { UploadedFile } from '../types.js';
import { checkConsumes } from './body.js';
import type { Exchange, FormValue } from './exchange.js';

type Form = Record<string, FormValue | FormValue[]>;

/**
 * Compiles the reader of an upload route: `x.form` gets the text fields as strings and the files
 * as `UploadedFile`s (a repeated field as a list).
 *
 * @example
 * ```ts
 * const read = compileUploadReader(['multipart/form-data'], node.uploads);
 * x.form = await read(x);
 * ```
 */
export function compileUploadReader(consumes: readonly string[], folder: UploadFolder): (x: Exchange) => Promise<Exchange['form']> {
  const { maxFileBytes, maxFiles, maxFieldsBytes } = folder.limits;
  return async (x) => {
    const type = checkConsumes(x, consumes);
    if (bareMime(type) !== 'multipart/form-data') throw new HttpError(415, 'Unsupported Media Type: file uploads need multipart/form-data');
    const boundary = multipartBoundary(type);
    if (boundary === undefined)
      throw new BadRequestError([{ location: 'body', name: 'body', message: 'cannot be read as a form: no multipart boundary' }]);
    const form = Object.create(null) as Form;
    const body = x.c.req.raw.body;
    if (body === null) return form as Exchange['form'];
    const files: UploadedFile[] = (x.uploads = []);
    let fieldsBytes = 0;
    const add = (name: string, value: FormValue): void => {
      const seen = form[name];
      form[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    };
    await parseMultipart(body, boundary, async (part): Promise<PartSink> => {
      // A file input left empty is sent as a nameless part: nothing to write.
      if (part.filename === '') return { write: () => undefined, end: () => undefined };
      if (part.filename === undefined) {
        const chunks: Uint8Array[] = [];
        return {
          write: (chunk) => {
            fieldsBytes += chunk.byteLength;
            if (fieldsBytes > maxFieldsBytes) throw tooLarge(`its text fields are larger than ${maxFieldsBytes} bytes`);
            chunks.push(chunk);
          },
          end: () => add(part.name, new TextDecoder().decode(join(chunks))),
        };
      }
      if (files.length >= maxFiles) throw tooLarge(`it carries more than ${maxFiles} files`);
      const sink = await folder.open({ field: part.name, filename: part.filename, type: part.type });
      let size = 0;
      return {
        write: async (chunk) => {
          size += chunk.byteLength;
          if (size > maxFileBytes) throw tooLarge(`file ${part.filename} is larger than ${maxFileBytes} bytes`);
          await sink.write(chunk);
        },
        end: async () => {
          const file = await sink.finish();
          files.push(file);
          add(part.name, file);
        },
        abort: () => sink.abort(),
      };
    });
    return form as Exchange['form'];
  };
}

function tooLarge(why: string): HttpError {
  return new HttpError(413, `Payload Too Large: ${why}`);
}

function join(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
