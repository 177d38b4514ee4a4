/**
 * Reads a request's query string into a plan: select tree, filters, logic trees, order and
 * paging, each attached to the root (path '') or to an embed path (`rel` or `rel.sub`).
 */
import { parseError, RestError } from './errors';
import { maskQuoted, tokenize, TokenStream } from './parse-field';
import { parseFilter, parseLogicParam, type FilterNode } from './parse-filters';
import { parseOrder, type OrderTerm } from './parse-order';
import { parseSelect, type SelectItem } from './parse-select';

export interface Paging {
  limit?: number;
  offset?: number;
}

export interface QueryPlan {
  select: SelectItem[];
  /** Whether `select` was given (writes only return columns when asked). */
  hasSelect: boolean;
  filters: Map<string, FilterNode[]>;
  order: Map<string, OrderTerm[]>;
  paging: Map<string, Paging>;
  columns?: string[];
  onConflict?: string[];
  /** Query parameters left for RPC arguments (GET calls). */
  rest: [string, string][];
}

const ROOT_ONLY = new Set(['select', 'columns', 'on_conflict', 'apikey']);

export function readPlan(search: URLSearchParams, options: { rpcArgs?: Set<string> } = {}): QueryPlan {
  const selectText = search.get('select');
  const plan: QueryPlan = {
    select: parseSelect(selectText ?? '*'),
    hasSelect: selectText !== null,
    filters: new Map(),
    order: new Map(),
    paging: new Map(),
    rest: [],
  };
  for (const [key, value] of search) {
    if (ROOT_ONLY.has(key)) continue;
    if (options.rpcArgs?.has(key)) {
      plan.rest.push([key, value]);
      continue;
    }
    const logic = /^(?:(.+?)\.)??(not\.)?(or|and)$/.exec(key);
    if (logic) {
      const name = `${logic[2] ?? ''}${logic[3]}` as 'or' | 'and' | 'not.or' | 'not.and';
      push(plan.filters, logic[1] ?? '', parseLogicParam(name, value));
      continue;
    }
    const modifier = /^(?:(.+)\.)?(order|limit|offset)$/.exec(key);
    if (modifier) {
      const path = modifier[1] ?? '';
      if (modifier[2] === 'order') plan.order.set(path, parseOrder(value));
      else {
        const paging = plan.paging.get(path) ?? {};
        paging[modifier[2] as 'limit' | 'offset'] = parseCount(modifier[2]!, value);
        plan.paging.set(path, paging);
      }
      continue;
    }
    const dot = embedSplit(key);
    push(plan.filters, dot.path, parseFilter(dot.field, value));
  }
  const columns = search.get('columns');
  if (columns !== null) plan.columns = parseColumnList('columns', columns);
  const onConflict = search.get('on_conflict');
  if (onConflict !== null) plan.onConflict = parseColumnList('on_conflict', onConflict);
  return plan;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** `rel.sub.col` → path `rel.sub`, field `col`; JSON arrows and quoted names stay with the field. */
function embedSplit(key: string): { path: string; field: string } {
  const masked = maskQuoted(key);
  const arrow = masked.indexOf('->');
  const head = arrow === -1 ? masked : masked.slice(0, arrow);
  const dot = head.lastIndexOf('.');
  if (dot === -1) return { path: '', field: key };
  return { path: key.slice(0, dot), field: key.slice(dot + 1) };
}

function parseCount(what: string, value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw parseError(what, value, 'expecting a non-negative integer');
  return Number(value);
}

/** `a,b` or `"a","b"` → names (the grammar's tokens; whitespace around a bare name dropped). */
export function parseColumnList(what: string, text: string): string[] {
  const tokens = tokenize(text, what, false)
    .map((token) => (token.quoted ? token : { ...token, text: token.text.trim() }))
    .filter((token) => token.quoted || token.text !== '');
  const stream = new TokenStream(tokens, what, text);
  const names = [stream.name('a column name').text];
  while (stream.isSymbol(',')) {
    stream.next();
    names.push(stream.name('a column name').text);
  }
  if (!stream.done) throw stream.fail('"," or end of input');
  return names;
}

/** The `Range: 0-9` request header as paging. */
export function rangeHeader(value: string | null): Paging | undefined {
  if (!value) return undefined;
  const match = /^(?:items=)?(\d{1,15})-(\d{0,15})$/.exec(value.trim());
  if (!match) return undefined;
  const from = Number(match[1]);
  if (!match[2]) return { offset: from };
  const to = Number(match[2]);
  // An empty range (`7-5`) is PostgREST's 416, not an empty page.
  if (to < from) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
    );
  }
  return { offset: from, limit: to - from + 1 };
}
