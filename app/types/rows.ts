/**
 * Row types derived from the generated `Database` (app/types/database.ts), for the few places
 * that need more than a query's inferred type.
 */

/**
 * A view's row with the columns its base tables declare NOT NULL made non-null again: Postgres
 * records no NOT NULL for a view's columns, so the generated types (like the Supabase CLI's)
 * make every view column nullable. List only columns that pass a NOT NULL column through.
 */
export type WithNonNull<Row, Columns extends keyof Row> = Omit<Row, Columns> & {
  [Column in Columns]: NonNullable<Row[Column]>;
};
