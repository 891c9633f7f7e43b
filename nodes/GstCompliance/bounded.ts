/**
 * The one rule for state a process keeps across requests (log runs, looks, markers, tokens): it
 * stays small because n8n gives a node no place to free it, so at most a fixed number of entries,
 * the oldest (first set) going first. A Map or Set keeps insertion order, so the first key is the
 * oldest; a caller that wants an entry set again to count as new deletes it before `makeRoom`.
 */
export function makeRoom<K>(entries: Map<K, unknown> | Set<K>, max: number): void {
	while (entries.size > 0 && entries.size >= max) entries.delete(entries.keys().next().value as K);
}
