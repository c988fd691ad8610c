/**
 * @module
 * Media type names as schemas spell them, read the same way by loaders and emitters.
 */

/**
 * A media type without its parameters, lower-cased (media types are case-insensitive).
 *
 * @example
 * bareMediaType('Multipart/Form-Data; boundary=x'); // 'multipart/form-data'
 */
export function bareMediaType(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

/**
 * True for the media types whose bodies arrive as fields: url-encoded and multipart forms.
 *
 * @example
 * isFormMediaType('application/x-www-form-urlencoded; charset=utf-8'); // true
 */
export function isFormMediaType(mediaType: string): boolean {
  const mime = bareMediaType(mediaType);
  return mime === 'application/x-www-form-urlencoded' || mime === 'multipart/form-data';
}

/** Whether a media type carries JSON: `application/json` or a `+json` type (`application/problem+json`). */
export function isJsonMediaType(mediaType: string): boolean {
  const bare = bareMediaType(mediaType);
  return bare === 'application/json' || bare.endsWith('+json');
}
