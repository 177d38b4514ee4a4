/** `order=col.desc.nullslast,data->>k.asc` (§3.5). */
import { parseError } from './errors';
import { parseField, type Field } from './parse-field';

export interface OrderTerm {
  field: Field;
  direction: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export function parseOrder(text: string): OrderTerm[] {
  return text.split(',').map((term) => {
    const parts = term.split('.');
    let nulls: OrderTerm['nulls'];
    let direction: OrderTerm['direction'] = 'asc';
    const last = parts.at(-1);
    if (last === 'nullsfirst' || last === 'nullslast') {
      nulls = last === 'nullsfirst' ? 'first' : 'last';
      parts.pop();
    }
    const maybeDirection = parts.at(-1);
    if (parts.length > 1 && (maybeDirection === 'asc' || maybeDirection === 'desc')) {
      direction = maybeDirection;
      parts.pop();
    }
    const column = parts.join('.');
    if (column === '' || /\(/.test(column)) {
      throw parseError(
        'order',
        text,
        `unexpected "${term}" expecting a column, .asc, .desc, .nullsfirst or .nullslast`,
      );
    }
    return { field: parseField(column, 'order'), direction, nulls };
  });
}
