/**
 * vitest 5's reporter calls Map.groupBy, which Node 20 lacks (Node 21+ has it): without this,
 * a failing test crashes the reporter instead of being reported. Loaded with `node --import`.
 */
if (typeof Map.groupBy !== 'function') {
  Map.groupBy = function groupBy(items, keyOf) {
    const groups = new Map();
    let index = 0;
    for (const item of items) {
      const key = keyOf(item, index++);
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
    return groups;
  };
}
if (typeof Object.groupBy !== 'function') {
  Object.groupBy = function groupBy(items, keyOf) {
    return Object.fromEntries(Map.groupBy(items, keyOf));
  };
}
