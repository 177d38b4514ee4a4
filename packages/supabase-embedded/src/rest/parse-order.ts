/** `order=col.desc.nullslast,data->>k.asc`, read from the grammar's tokens (parse-field.ts). */
import { readField, tokenize, TokenStream, type Field } from './parse-field';

export interface OrderTerm {
  field: Field;
  direction: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export function parseOrder(text: string): OrderTerm[] {
  const stream = new TokenStream(tokenize(text, 'order', false), 'order', text);
  const terms: OrderTerm[] = [];
  for (;;) {
    const field = readField(stream);
    let direction: OrderTerm['direction'] = 'asc';
    let nulls: OrderTerm['nulls'];
    if (stream.isSymbol('.') && (stream.isWord('asc', 1) || stream.isWord('desc', 1))) {
      stream.next();
      direction = stream.next()!.text as OrderTerm['direction'];
    }
    if (stream.isSymbol('.') && (stream.isWord('nullsfirst', 1) || stream.isWord('nullslast', 1))) {
      stream.next();
      nulls = stream.next()!.text === 'nullsfirst' ? 'first' : 'last';
    }
    terms.push({ field, direction, nulls });
    if (stream.done) return terms;
    if (!stream.isSymbol(',')) throw stream.fail('.asc, .desc, .nullsfirst, .nullslast, "," or end of input');
    stream.next();
  }
}
