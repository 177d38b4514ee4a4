/** Turns parsed filters and logic trees into a WHERE condition with bound values. */
import type { Condition, FilterNode } from './parse-filters';
import { fieldExpr, fieldType, type Relation } from './relation';
import { arrayLiteral, type Params } from './sql';

const COMPARISON: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxl: '&<',
  nxr: '&>',
  adj: '-|-',
  isdistinct: 'is distinct from',
};
const TS_QUERY: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};
const IS_SQL: Record<string, string> = {
  null: 'is null',
  not_null: 'is not null',
  true: 'is true',
  false: 'is false',
  unknown: 'is unknown',
};

export function conditionSql(relation: Relation, node: FilterNode, params: Params): string {
  if (node.type === 'logic') {
    const joined = node.children.map((child) => conditionSql(relation, child, params)).join(` ${node.operator} `);
    return node.negate ? `not (${joined})` : `(${joined})`;
  }
  const sql = comparisonSql(relation, node, params);
  return node.negate ? `not (${sql})` : sql;
}

export function whereSql(relation: Relation, nodes: FilterNode[], params: Params): string[] {
  return nodes.map((node) => conditionSql(relation, node, params));
}

function comparisonSql(relation: Relation, condition: Condition, params: Params): string {
  const left = fieldExpr(relation, condition.field, params);
  const { operator, value } = condition;
  if (operator === 'is') return `${left} ${IS_SQL[String(value).toLowerCase()]}`;
  if (operator === 'in') {
    const items = Array.isArray(value) ? value : [value];
    return `${left} = any(${params.add(arrayLiteral(items))})`;
  }
  const text = Array.isArray(value) ? value.join(',') : value;
  if (operator in TS_QUERY) {
    const query = condition.config
      ? `${TS_QUERY[operator]}(${params.add(condition.config, 'regconfig')}, ${params.add(text)})`
      : `${TS_QUERY[operator]}(${params.add(text)})`;
    const isVector = fieldType(relation, condition.field) === 'tsvector';
    const vector = isVector
      ? left
      : condition.config
        ? `to_tsvector(${params.add(condition.config, 'regconfig')}, ${left})`
        : `to_tsvector(${left})`;
    return `${vector} @@ ${query}`;
  }
  const bound = operator === 'like' || operator === 'ilike' ? text.replace(/\*/g, '%') : text;
  const sqlOperator = COMPARISON[operator]!;
  if (condition.quantifier) return `${left} ${sqlOperator} ${condition.quantifier}(${params.add(bound)})`;
  return `${left} ${sqlOperator} ${params.add(bound)}`;
}
