/**
 * The one JSON parser of request bodies (the Data API, Auth, Storage's JSON bodies and upload
 * metadata). `JSON.parse` itself takes any depth, but what walks the value afterwards (the NUL
 * check, `JSON.stringify`, the database's jsonb) recurses: 100,000 nested `[` were a stack
 * overflow and a 500. A body nested deeper than MAX_JSON_DEPTH arrays and objects is refused
 * before it is parsed, with a message that says so; each service answers it with its own 400.
 */
export const MAX_JSON_DEPTH = 100;

export class JsonTooDeepError extends SyntaxError {
  override name = 'JsonTooDeepError';
  constructor(limit: number) {
    super(`JSON nested deeper than ${limit} levels of arrays and objects`);
  }
}

/**
 * `JSON.parse(text)` for text nested at most `maxDepth` deep. Throws JsonTooDeepError beyond
 * that, and JSON.parse's SyntaxError for text that is not JSON.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (nestingDepthExceeds(text, maxDepth)) throw new JsonTooDeepError(maxDepth);
  return JSON.parse(text) as unknown;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** One pass over the text: brackets outside strings, `\"` inside them skipped. */
function nestingDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return false;
}
